"""The package's language: English, or Chinese everywhere it speaks to a person.

Introduced in notebooks/zh/00, whose setup cell calls `set_lang("zh")` once. From then
on everything that talks to a person speaks Chinese: the agent's prompt and trace
labels, the memories' summary fences and errors, the course's tables, plots and
checkers, and the command line (`--lang zh`). `TINYAGENT_LANG=zh` in the environment
(or .env) sets the same switch before the first cell. Every class that speaks also
takes `lang=` to override the setting for one object, and the agent can follow the
customer's own words (`lang="auto"`).

This module is the bottom layer: memory, agent, tools and course all import it, and
it imports nothing of theirs. `is_chinese` is the one test for Chinese text in the
package. Left out: other languages, plural rules and a message catalogue (texts are
written in pairs where they are used, `say("3 checks pass", "3 项检查通过")`, so a
translation cannot drift from the sentence it translates).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

LANGS = ("en", "zh")

# The CJK Unified Ideographs block, with Extension A and the compatibility block:
# every Chinese character a customer types, and no Japanese kana or Korean hangul.
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def is_chinese(text: str) -> bool:
    """True when `text` holds a Chinese character.

    >>> is_chinese("订单 88231 到哪了？"), is_chinese("Where is 88231?")
    (True, False)
    """
    return CJK.search(text) is not None


def check_lang(lang: str) -> str:
    """`lang` itself, or ValueError naming it when it is neither "en" nor "zh"."""
    if lang not in LANGS:
        raise ValueError(say(f"lang must be 'en' or 'zh', got {lang!r}",
                             f"lang 只能是 'en' 或 'zh'，当前为 {lang!r}", _current))
    return lang


def _from_environment() -> str:
    value = os.environ.get("TINYAGENT_LANG", "").strip().lower()
    return "zh" if value.startswith("zh") else "en"  # "zh", "zh_CN", "zh-CN.UTF-8"


# A plain module global, not a ContextVar: a notebook sets it in one cell and reads it
# in the next, and IPython may run each cell in a fresh context.
_current = _from_environment()


def set_lang(lang: str) -> None:
    """Set the language of everything that speaks to a person: "en" or "zh"."""
    global _current
    _current = check_lang(lang)


def get_lang(lang: str | None = None) -> str:
    """`lang` if given, else the setting (`set_lang`, else TINYAGENT_LANG, else "en").

    >>> get_lang("zh")
    'zh'
    """
    return _current if lang is None else check_lang(lang)


@contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """The package speaks `lang` (None: as it does now) inside the `with` block, and
    what it spoke before after it, however the block ends."""
    before = _current
    set_lang(get_lang(lang))
    try:
        yield
    finally:
        set_lang(before)


def say(en: str, zh: str, lang: str | None = None) -> str:
    """The English or the Chinese text, as `lang` (or the setting) asks.

    >>> say("3 checks pass", "3 项检查通过", lang="zh")
    '3 项检查通过'
    """
    return zh if get_lang(lang) == "zh" else en


def text_width(text: str) -> int:
    """Columns `text` takes in a terminal: a wide character (Chinese) takes two.

    >>> text_width("订单 88231"), text_width("order 88231")
    (10, 11)
    """
    return sum(1 + (unicodedata.east_asian_width(c) in "WF") for c in text)


__all__ = ["CJK", "LANGS", "check_lang", "get_lang", "is_chinese", "say", "set_lang",
           "speaking", "text_width"]
