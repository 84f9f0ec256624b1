"""Chinese labels in plots, and the course's view of the one language switch.

The switch itself (`set_lang`, `get_lang`, `say`, `is_chinese`) is tinyagent/lang.py,
below every layer of the package; it is re-exported here because the course's
printers and checkers were its first users (notebooks/zh/00). This module adds
`use_chinese_font()`, which lets matplotlib draw Chinese labels. Left out: fonts for
other scripts.
"""

from __future__ import annotations

import re
import warnings

from ..lang import LANGS, check_lang, get_lang, is_chinese, say, set_lang

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
