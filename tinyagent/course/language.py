"""The course's language: English, or Chinese for the notebooks in notebooks/zh.

Introduced in notebooks/zh/00: its setup cell calls `set_lang("zh")` once, and from
then on every course printer and exercise checker speaks Chinese. Each of them also
takes `lang=` to override the notebook's setting for one call. Texts are written in
pairs where they are used, `say("3 checks pass", "3 项检查通过")`, so a translation
cannot drift away from the sentence it translates. The package core (agent, memory,
tools) does not read this setting: it takes `lang=` or follows the user's own words.
`use_chinese_font()` lets matplotlib draw Chinese labels. Left out: other languages,
plural rules and a message catalogue.
"""

from __future__ import annotations

import re
import warnings

from ..guards import is_chinese  # the agent's own test: one definition of Chinese

LANGS = ("en", "zh")

# A plain module global, not a ContextVar: a notebook sets it in one cell and reads it
# in the next, and IPython may run each cell in a fresh context.
_current = "en"


def set_lang(lang: str) -> None:
    """Set the notebook's language for course output: "en" or "zh"."""
    global _current
    _current = check_lang(lang)


def get_lang(lang: str | None = None) -> str:
    """`lang` if given, else the notebook's setting (English unless `set_lang`)."""
    return _current if lang is None else check_lang(lang)


def check_lang(lang: str) -> str:
    """`lang` itself, or ValueError naming it when it is neither "en" nor "zh"."""
    if lang not in LANGS:
        raise ValueError(f"lang must be 'en' or 'zh', got {lang!r}")
    return lang


def say(en: str, zh: str, lang: str | None = None) -> str:
    """The English or the Chinese text, as `lang` (or the notebook) asks."""
    return zh if get_lang(lang) == "zh" else en


# Fonts with Chinese glyphs, the common ones first: Linux (Noto, WenQuanYi), Windows,
# macOS. matplotlib's default font has none, so Chinese labels would draw as boxes.
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC",
             "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Microsoft YaHei", "SimHei",
             "PingFang SC", "Heiti SC", "Arial Unicode MS")
CJK_FILES = re.compile(r"cjk|wqy|msyh|simhei|pingfang|heiti|sourcehan|unicode", re.I)


def use_chinese_font() -> str | None:
    """Let matplotlib draw Chinese: the first installed font of CJK_FONTS goes first
    in its list. Returns the font's name, or None when none is installed; then the
    missing-glyph warnings are silenced, so a notebook still runs (with boxes)."""
    from matplotlib import font_manager, rcParams

    def installed() -> str | None:
        names = {font.name for font in font_manager.fontManager.ttflist}
        return next((name for name in CJK_FONTS if name in names), None)

    found = installed()
    if found is None:  # matplotlib's font list is cached: fonts added since are missed
        for path in font_manager.findSystemFonts():
            if CJK_FILES.search(path):
                font_manager.fontManager.addfont(path)
        found = installed()
    if found is None:
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from")
        return None
    rcParams["font.family"] = "sans-serif"
    rcParams["font.sans-serif"] = [found, *rcParams["font.sans-serif"]]
    rcParams["axes.unicode_minus"] = False  # CJK fonts often lack the minus sign
    return found


__all__ = ["LANGS", "check_lang", "get_lang", "is_chinese", "say", "set_lang",
           "use_chinese_font"]
