"""What a strategy is called on screen: "hybrid 4/8" in English, "混合 4/8" in Chinese.

Used by every table, plot and command of the course (comparison.py, evaluation.py,
plots.py, the `tinyagent` command, longrun.py, ratios.py), so a strategy has one
name in each language everywhere. `STRATEGY_NAMES` is that one table: the name a
learner types on the command line (`--memory inmemory`), the English title, the
Chinese title (the Chinese notebooks' own terms: 无记忆, 全量记忆, 窗口, token 窗口,
摘要, 混合, 水位压缩, 结构化). A strategy's name in code is its English title with its
sizes ("hybrid 4/8"); `strategy_title` turns it into the title in a language, sizes
kept. A size ("keep_recent") gets a Chinese name on the playground's sliders. A name
it does not know (the learner's own, "yours") is shown as it is. Left out: other
languages.
"""

from __future__ import annotations

import re

from ..lang import Pair, get_lang

# command-line name -> (English title, Chinese title), in the tables' order
STRATEGY_NAMES: dict[str, tuple[str, str]] = {
    "none": ("none", "无记忆"),
    "inmemory": ("in-memory", "全量记忆"),
    "window": ("window", "窗口"),
    "tokens": ("tokens", "token 窗口"),
    "summary": ("summary", "摘要"),
    "hybrid": ("hybrid", "混合"),
    "compact": ("compact", "水位压缩"),
    "structured": ("structured", "结构化"),
}
# Titles that are no command-line name: notebook 06's useless summary, the long
# run's production memory (the structured one, with its own sizes).
OTHER_TITLES = {"useless": "无用摘要", "production": "结构化"}
# A language's name, said in each language: LANG_NAMES["zh"].say("en") == "Chinese"
LANG_NAMES = {"en": Pair("English", "英文"), "zh": Pair("Chinese", "中文")}
# English title (the first word of a name) -> Chinese title
TITLES_ZH = {**{en: zh for en, zh in STRATEGY_NAMES.values()}, **OTHER_TITLES}
# A size's Chinese name, for the playground's sliders and status line; the code
# keeps the parameter's own name (`keep_recent`), as the Chinese notebooks write it.
SIZES_ZH = {"max_messages": "最多消息数", "max_tokens": "最多 token 数",
            "threshold": "压缩阈值", "keep_recent": "原样保留消息数",
            "recent_size": "原样保留消息数", "summary_threshold": "合并阈值",
            "high_tokens": "高水位 token", "low_tokens": "低水位 token",
            "keep_recent_turns": "原样保留轮数", "batch_turns": "每批压缩轮数"}
NAME = re.compile(r"^(\S+)(.*)$")
HAN = r"[\u3400-\u4dbf\u4e00-\u9fff]"
UNITS_ZH = [(re.compile(r"(\d+) turns?\b"), r"\1 轮"),
            (re.compile(r"(\d+) messages?\b"), r"\1 条消息")]


def title_of(cli_name: str, lang: str | None = None) -> str:
    """The title of the strategy a learner types as `cli_name`, in `lang`.

    >>> title_of("inmemory", "en"), title_of("inmemory", "zh")
    ('in-memory', '全量记忆')
    """
    english, chinese = STRATEGY_NAMES[cli_name]
    return chinese if get_lang(lang) == "zh" else english


def strategy_title(name: str, lang: str | None = None) -> str:
    """The title of strategy `name` in `lang` (default: the package's language).

    >>> strategy_title("hybrid 4/8", "zh"), strategy_title("hybrid 4/8", "en")
    ('混合 4/8', 'hybrid 4/8')
    """
    if get_lang(lang) != "zh":
        return name
    match = NAME.match(name)
    if match is None or match.group(1) not in TITLES_ZH:
        return name
    rest = match.group(2)
    for pattern, chinese in UNITS_ZH:
        rest = pattern.sub(chinese, rest)
    return TITLES_ZH[match.group(1)] + rest


def typed_with_title(cli_names: list[str] | tuple[str, ...],
                     lang: str | None = None) -> str:
    """The names a learner may type, each with its title in Chinese:
    "none, inmemory" or "none（无记忆）、inmemory（全量记忆）"."""
    if get_lang(lang) != "zh":
        return ", ".join(cli_names)
    return "、".join(f"{name}（{title_of(name, 'zh')}）" for name in cli_names)


def size_title(parameter: str, lang: str | None = None) -> str:
    """A size's name on screen: the parameter in English, its meaning in Chinese.

    >>> size_title("keep_recent_turns", "zh")
    '原样保留轮数'
    """
    return SIZES_ZH.get(parameter, parameter) if get_lang(lang) == "zh" else parameter


def setting_title(name: str, sizes: dict[str, int], lang: str | None = None) -> str:
    """A strategy with its sizes, as a status line shows it:
    "structured(keep_recent_turns=2, batch_turns=6)", or in Chinese
    "结构化（原样保留轮数 2，每批压缩轮数 6）"."""
    if get_lang(lang) != "zh":
        return f"{name}({', '.join(f'{k}={v}' for k, v in sizes.items())})"
    shown = "，".join(f"{size_title(k, lang)} {v}" for k, v in sizes.items())
    return f"{strategy_title(name, lang)}（{shown}）" if shown else \
        strategy_title(name, lang)


def sizes_in_words(text: str, lang: str | None = None) -> str:
    """`text` (an error that names sizes) with each size called as its slider is, in
    Chinese: "keep_recent 必须小于 threshold（当前 keep_recent=8, threshold=8）" ->
    "原样保留消息数必须小于压缩阈值（当前：原样保留消息数 8，压缩阈值 8）"."""
    if get_lang(lang) != "zh":
        return text
    names = "|".join(sorted(SIZES_ZH, key=len, reverse=True))
    text = re.sub(rf"\b({names})=(\d+)(, (?=\w+=))?",
                  lambda m: f"{SIZES_ZH[m[1]]} {m[2]}" + "，" * bool(m[3]), text)
    text = re.sub(rf"\b({names})\b", lambda m: SIZES_ZH[m[1]], text)
    text = re.sub(f"(?<={HAN}) (?={HAN})", "", text)  # no space inside Chinese
    return text.replace("（当前", "（当前：")


__all__ = ["OTHER_TITLES", "SIZES_ZH", "STRATEGY_NAMES", "TITLES_ZH", "setting_title",
           "size_title", "sizes_in_words", "strategy_title", "title_of",
           "typed_with_title"]
