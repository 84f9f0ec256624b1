"""The `tinyagent` command's options and help, in English or Chinese.

Used by cli.py, the terminal twin of the notebooks. Every command takes `--lang zh|en`
(default: the package setting, `TINYAGENT_LANG`); the language is read from the
command line before the parser is built, so the help that parser prints is already
in that language. In Chinese, argparse's own words are Chinese too: the usage prefix,
the section headings (with a full-width colon), `-h`'s help and the errors a learner
meets most (an unknown option, a bad choice, a missing value). What stays as typed:
option names, the values of a choice (`hybrid`, `show`) and metavars (`NAME`,
`SECONDS`), since those are what the learner types. Left out: argparse's rarer
errors, which stay English, and other languages.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from ..lang import LANGS, get_lang, say, text_width


def chosen_lang(argv: Sequence[str]) -> str:
    """The language `argv` asks for with --lang (the last one wins), else the
    package setting. A bad value is left for the parser to refuse."""
    lang = get_lang()
    for index, word in enumerate(argv):
        value = (word.split("=", 1)[1] if word.startswith("--lang=") else
                 argv[index + 1] if word == "--lang" and index + 1 < len(argv) else
                 None)
        if value in LANGS:
            lang = value
    return lang


# A piece of Chinese help that a line may not split: a Latin word or a Chinese
# character, with the opening marks before it and the closing marks after it (a
# line never starts with "、" or "）"), or a run of spaces.
PIECE = re.compile(r"[（“《]*(?:[!-~]+|\S)[，。、；：？！）”》]*|\s+")


def wrap_chinese(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` terminal columns: Chinese breaks between
    any two characters, a Latin word stays whole (argparse breaks at spaces only,
    so a long Chinese run is cut anywhere, even inside a word)."""
    lines, line = [], ""
    for piece in PIECE.findall(" ".join(text.split())):
        if line.strip() and text_width(line + piece.rstrip()) > width:
            lines.append(line.rstrip())
            piece = piece.lstrip()
            line = ""
        line += piece
    return [*lines, line.rstrip()] if line.strip() else lines


class ChineseFormatter(argparse.HelpFormatter):
    """argparse's help layout, with a Chinese usage prefix and lines wrapped as
    Chinese wraps (wrap_chinese)."""

    def add_usage(self, usage: str | None, actions: Any, groups: Any,
                  prefix: str | None = None) -> None:
        chinese = "用法：" if prefix is None else prefix
        super().add_usage(usage, actions, groups, chinese)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap_chinese(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap_chinese(text, width))


# argparse's most common errors, and their Chinese: (pattern, replacement)
ERRORS = [
    (r"^argument ([^:]+): ", r"参数 \1："),
    (r"^unrecognized arguments: ", "无法识别的参数："),
    (r"^the following arguments are required: ", "缺少必需的参数："),
    (r"invalid choice: (.+) \(choose from (.+)\)$", r"无效的选项 \1（可选：\2）"),
    (r"expected one argument$", "需要一个值"),
    (r"expected at least one argument$", "至少需要一个值"),
    (r"invalid (\w+) value: (.+)$", r"无效的 \1 值 \2"),
    (r"^one of the arguments (.+) is required$", r"参数 \1 必须给出其中一个"),
]


def chinese_error(message: str) -> str:
    """An argparse error in Chinese, as far as `ERRORS` knows its words."""
    for pattern, replacement in ERRORS:
        message = re.sub(pattern, replacement, message)
    return message


class Parser(argparse.ArgumentParser):
    """An ArgumentParser in `lang` (default: the setting): its headings, -h and
    errors. cli.py's build_parser makes the subcommands' parsers with this class too."""

    def __init__(self, *args: Any, lang: str | None = None, **kwargs: Any) -> None:
        self.lang = get_lang(lang)
        zh = self.lang == "zh"
        if zh:
            kwargs.setdefault("formatter_class", ChineseFormatter)
        add_help = kwargs.pop("add_help", True)
        parents = kwargs.pop("parents", [])
        super().__init__(*args, add_help=False, **kwargs)
        if zh:  # before the parents' options join: they go to groups of these titles
            self._positionals.title = "位置参数"
            self._optionals.title = "选项"
        if add_help:  # argparse's own -h, with its help in the parser's language
            self.add_argument("-h", "--help", action="help",
                              default=argparse.SUPPRESS,
                              help=say("show this help message and exit",
                                       "显示本帮助并退出", self.lang))
        for parent in parents:  # as argparse itself adds them
            self._add_container_actions(parent)
            self._defaults.update(parent._defaults)

    def format_help(self) -> str:
        """argparse's help; in Chinese, a section's title ends with a full-width
        colon ("选项："), as a Chinese heading does, not argparse's ":"."""
        text = super().format_help()
        return re.sub(r"(?m)^(\S.*):$", r"\1：", text) if self.lang == "zh" else text

    def error(self, message: str) -> NoReturn:
        """Usage, then one line naming what is wrong; exit status 2 (as argparse)."""
        self.print_usage(sys.stderr)
        if self.lang == "zh":
            self.exit(2, f"{self.prog}：错误：{chinese_error(message)}\n")
        self.exit(2, f"{self.prog}: error: {message}\n")


def lang_option(parser: argparse.ArgumentParser, lang: str) -> None:
    """Add --lang to `parser`; `lang` (already chosen) is its default."""
    parser.add_argument("--lang", choices=list(LANGS), default=lang,
                        help=say("the language of prompts, messages, help and the "
                                 "BitMall store (default: TINYAGENT_LANG, else en)",
                                 "提示符、消息、帮助和比特严选商店数据的语言（默认："
                                 "TINYAGENT_LANG，否则 en）", lang))


def typed_words(parser: argparse.ArgumentParser) -> set[str]:
    """Every value a learner may type as a choice (commands, memories, actions),
    in `parser` and its subcommands: words that stay as typed in any language."""
    words: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            words |= set(action.choices)
            for sub in action.choices.values():
                words |= typed_words(sub)
        elif action.choices:
            words |= {str(choice) for choice in action.choices}
    return words
