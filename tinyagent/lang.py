"""The package's language: English, or Chinese everywhere it speaks to a person.

Introduced in notebooks/zh/00, whose setup cell calls `set_lang("zh")` once. From then
on everything that talks to a person speaks Chinese: the agent's prompt and trace
labels, the memories' summary fences and errors, the course's tables, plots and
checkers, and the command line (`--lang zh`). `TINYAGENT_LANG=zh` in the environment
(or .env) sets the same switch before the first cell.

One mechanism, in three parts. `get_lang` is the one resolver, with one rule for
every `lang=` argument of the package: "en" and "zh" mean themselves; None means the
package's setting at the time of the call (so an object built before `set_lang`
follows it afterwards); "auto" means the language of the text at hand (a customer's
message, a summary), or the setting when there is none. `is_chinese` is the one test
for Chinese text, and "auto" reads it. A text in two languages is written where it
is used: inline, `say("3 checks pass", "3 项检查通过")`; as a constant, a `Pair`,
read the same way, `CUT_NOTE.say(lang)` (guards.py). So a translation cannot drift
from the sentence it translates. This module is the bottom layer: everything
imports it, and it imports nothing of theirs. Left out: other languages, plural
rules and a message catalogue.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

Lang = Literal["en", "zh"]  # a language the package speaks
LANGS: tuple[Lang, ...] = ("en", "zh")

# The CJK Unified Ideographs block, with Extension A and the compatibility block:
# every Chinese character a customer types, and no Japanese kana or Korean hangul.
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
T = TypeVar("T")  # what a Pair holds: a text, or a table of texts


def is_chinese(text: str) -> bool:
    """True when `text` holds a Chinese character.

    >>> is_chinese("订单 88231 到哪了？"), is_chinese("Where is 88231?")
    (True, False)
    """
    return CJK.search(text) is not None


def _from_environment() -> Lang:
    value = os.environ.get("TINYAGENT_LANG", "").strip().lower()
    return "zh" if value.startswith("zh") else "en"  # "zh", "zh_CN", "zh-CN.UTF-8"


# A plain module global, not a ContextVar: a notebook sets it in one cell and reads it
# in the next, and IPython may run each cell in a fresh context.
_current: Lang = _from_environment()


def set_lang(lang: Lang) -> None:
    """Set the language of everything that speaks to a person: "en" or "zh"."""
    global _current
    if lang not in LANGS:
        raise ValueError(say(f"set_lang takes 'en' or 'zh', got {lang!r}",
                             f"set_lang 只接受 'en' 或 'zh'，当前为 {lang!r}"))
    _current = lang


def get_lang(lang: Lang | Literal["auto"] | None = None,
             text: str | None = None) -> Lang:
    """The language `lang` asks for, by the package's one rule: "en" or "zh" itself;
    None, the setting now (`set_lang`, else TINYAGENT_LANG, else "en"); "auto", the
    language of `text`, or the setting when no text is given.

    >>> get_lang("zh"), get_lang("auto", "退款多久到账？"), get_lang("auto", "Hi")
    ('zh', 'zh', 'en')
    """
    if lang == "auto" and text is not None:
        return "zh" if is_chinese(text) else "en"
    if lang is None or lang == "auto":
        return _current
    if lang not in LANGS:
        raise ValueError(say(
            f"lang must be 'en', 'zh', 'auto' (the language of the text at hand) or "
            f"None (the setting, set_lang), got {lang!r}",
            f"lang 只能是 'en'、'zh'、'auto'（跟随所处理文本的语言）或 None（跟随 "
            f"set_lang 的设置），当前为 {lang!r}"))
    return lang


@dataclass(frozen=True)
class Pair(Generic[T]):
    """One text (or a table of texts) in English and in Chinese, read in the
    language `get_lang` gives.

    >>> Pair("Agent: ", "[回复] ").say("zh")
    '[回复] '
    """

    en: T
    zh: T

    def say(self, lang: Lang | Literal["auto"] | None = None,
            text: str | None = None) -> T:
        """The text in `lang` (None: the setting; "auto": `text`'s language)."""
        return self.zh if get_lang(lang, text) == "zh" else self.en


def say(en: str, zh: str, lang: Lang | Literal["auto"] | None = None) -> str:
    """The English or the Chinese text, as `lang` (or the setting) asks: a `Pair`
    written where it is used.

    >>> say("3 checks pass", "3 项检查通过", lang="zh")
    '3 项检查通过'
    """
    return zh if get_lang(lang) == "zh" else en  # Pair(en, zh).say(lang), unbuilt


@contextmanager
def speaking(lang: Lang | None) -> Iterator[None]:
    """The package speaks `lang` (None: as it does now) inside the `with` block, and
    what it spoke before after it, however the block ends."""
    before = _current
    set_lang(get_lang(lang))
    try:
        yield
    finally:
        set_lang(before)


def text_width(text: str) -> int:
    """Columns `text` takes in a terminal: a wide character (Chinese) takes two.

    >>> text_width("订单 88231"), text_width("order 88231")
    (10, 11)
    """
    return sum(1 + (unicodedata.east_asian_width(c) in "WF") for c in text)


__all__ = ["CJK", "LANGS", "Lang", "Pair", "get_lang", "is_chinese", "say",
           "set_lang", "speaking", "text_width"]
