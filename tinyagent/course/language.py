"""Chinese labels in plots.

The language switch itself (`set_lang`, `get_lang`, `say`, `is_chinese`) is
tinyagent/lang.py, below every layer of the package, and `tinyagent` exports it
(notebooks/zh/00). This module adds `use_chinese_font()`, which lets matplotlib draw
Chinese labels: with the machine's CJK font, else the Noto Sans CJK font the course
installs from PyPI (noto-cjk-sans-otc). Left out: fonts for other scripts.
"""

from __future__ import annotations

import re
import warnings

# Fonts with Chinese glyphs, the common ones first: Linux (Noto, WenQuanYi), Windows,
# macOS. matplotlib's default font has none, so Chinese labels would draw as boxes.
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC",
             "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Microsoft YaHei", "SimHei",
             "PingFang SC", "Heiti SC", "Arial Unicode MS")
CJK_FILES = re.compile(r"cjk|wqy|msyh|simhei|pingfang|heiti|sourcehan|unicode", re.I)
NO_FONT = ("没有找到能显示中文的字体，图中的文字改用英文。安装项目的依赖即可显示中文："
           "pip install noto-cjk-sans-otc（或系统的 Noto Sans CJK 字体）。")


def packaged_font() -> str | None:
    """The path of the Noto Sans CJK font the course installs from PyPI (the
    noto-cjk-sans-otc package, a dependency), or None when it is missing."""
    try:
        from noto_cjk_sans_otc import FONT_PATH
    except ImportError:
        return None
    return str(FONT_PATH)


_warned = False  # the missing-font warning is said once a process, however asked


def use_chinese_font() -> str | None:
    """Let matplotlib draw Chinese: the first installed font of CJK_FONTS goes first
    in its list. The machine's own fonts are tried first, then the one the course
    installs (noto-cjk-sans-otc), so a plot renders on any machine. Returns the
    font's name; None when there is none at all, with a warning (in Chinese) the
    first time only, however often a notebook or a plot asks: the plots then keep
    English labels (plots.plot_text) rather than draw boxes."""
    global _warned
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
    if found is None and (path := packaged_font()) is not None:
        font_manager.fontManager.addfont(path)  # every face of the collection
        found = installed()
    if found is None:
        if not _warned:
            warnings.warn(NO_FONT, UserWarning, stacklevel=2)
            _warned = True
        return None
    rcParams["font.family"] = "sans-serif"
    rcParams["font.sans-serif"] = [found, *rcParams["font.sans-serif"]]
    rcParams["axes.unicode_minus"] = False  # CJK fonts often lack the minus sign
    return found


__all__ = ["NO_FONT", "packaged_font", "use_chinese_font"]
