"""What a strategy is called on screen: "hybrid 4/8" in English, "混合 4/8" in Chinese.

Used by the tables and plots of notebooks 02-06 (comparison.py, evaluation.py,
plots.py). A strategy's name is an id the code keys on ("hybrid 4/8"); its title is
what a person reads, in the notebook's language, with the Chinese notebooks' own
terms: 无记忆, 全量记忆, 窗口, token 窗口, 摘要, 混合, 结构化; a size ("keep_recent")
gets a Chinese name on the playground's sliders. A name it does not know (the
learner's own, "yours") is shown as it is. Left out: other languages.
"""

from __future__ import annotations

import re

from ..lang import get_lang

# The first word of a name -> its Chinese title; the sizes after it stay as written.
TITLES_ZH = {"none": "无记忆", "in-memory": "全量记忆", "window": "窗口",
             "tokens": "token 窗口", "summary": "摘要", "hybrid": "混合",
             "structured": "结构化", "useless": "无用摘要", "compact": "水位压缩"}
# A size's Chinese name, for the playground's sliders and status line; the code
# keeps the parameter's own name (`keep_recent`), as the Chinese notebooks write it.
SIZES_ZH = {"max_messages": "最多消息数", "max_tokens": "最多 token 数",
            "threshold": "压缩阈值", "keep_recent": "原样保留消息数",
            "recent_size": "原样保留消息数", "summary_threshold": "合并阈值",
            "high_tokens": "高水位 token", "low_tokens": "低水位 token",
            "keep_recent_turns": "原样保留轮数", "batch_turns": "每批压缩轮数"}
NAME = re.compile(r"^(\S+)(.*)$")


def strategy_title(name: str, lang: str | None = None) -> str:
    """The title of strategy `name` in `lang` (default: the notebook's language).

    >>> strategy_title("hybrid 4/8", "zh"), strategy_title("hybrid 4/8", "en")
    ('混合 4/8', 'hybrid 4/8')
    """
    if get_lang(lang) != "zh":
        return name
    match = NAME.match(name)
    if match is None or match.group(1) not in TITLES_ZH:
        return name
    return TITLES_ZH[match.group(1)] + match.group(2)


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


__all__ = ["SIZES_ZH", "TITLES_ZH", "setting_title", "size_title", "strategy_title"]
