"""Notebook 06's pictures speak the notebook's language when Chinese can be drawn."""

import functools

import pytest

from tinyagent import LlmClient
from tinyagent.course import plots
from tinyagent.course.compare import compare
from tinyagent.lang import set_lang


@pytest.fixture(scope="module", autouse=True)
def plt():
    """matplotlib, off screen: imported by the first test here, not at collection
    (every pytest worker collects this file; few run it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@pytest.fixture(scope="module")
def six():
    return compare(LlmClient(offline=True), lang="zh")


@pytest.fixture
def chinese():
    set_lang("zh")
    yield
    set_lang("en")


def _texts(ax):
    return [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]


def test_a_chinese_notebook_with_a_chinese_font_gets_chinese_labels(
        six, chinese, monkeypatch, plt):
    """With a font that draws Chinese, title and axes are Chinese."""
    monkeypatch.setattr(plots, "cjk_font", lambda: "Noto Sans CJK SC")
    ax = plots.plot_tokens(six)
    assert _texts(ax) == ["每轮发给模型的内容（第一次调用）", "轮次", "提示词 token"]
    plt.close("all")


def test_without_a_chinese_font_the_labels_stay_english(six, chinese, monkeypatch,
                                                        plt):
    """No font for Chinese: English labels, never boxes and a warning."""
    monkeypatch.setattr(plots, "cjk_font", lambda: None)
    ax = plots.plot_tokens(six, cumulative=True)
    assert _texts(ax) == ["Cumulative cost: prompts + summarizer", "turn",
                          "tokens sent so far"]
    plt.close("all")


def test_an_english_notebook_gets_english_labels_whatever_the_fonts(six, plt):
    """The English edition's pictures do not depend on the machine's fonts."""
    ax = plots.plot_tokens(six)
    assert _texts(ax)[1:] == ["turn", "prompt tokens"]
    plt.close("all")


def test_the_font_found_is_first_in_matplotlibs_list():
    """cjk_font() names a font matplotlib knows and now tries first, or finds none."""
    from matplotlib import font_manager, rcParams

    name = plots.cjk_font()
    assert name is None or (name in {f.name for f in font_manager.fontManager.ttflist}
                            and rcParams["font.sans-serif"][0] == name)


@pytest.fixture
def no_system_fonts(monkeypatch):
    """A machine without any font of its own that draws Chinese: matplotlib's list
    and the system's font files lose every CJK font (restored afterwards)."""
    import matplotlib
    from matplotlib import font_manager, rcParams

    from tinyagent.course.language import CJK_FILES

    manager = font_manager.fontManager
    monkeypatch.setattr(manager, "ttflist", [f for f in manager.ttflist
                                             if not CJK_FILES.search(f.fname)
                                             and "noto_cjk" not in f.fname])
    monkeypatch.setattr(font_manager, "findSystemFonts", lambda *a, **k: [])
    manager._findfont_cached.cache_clear()
    with matplotlib.rc_context():
        yield
    manager._findfont_cached.cache_clear()
    assert rcParams  # the rc_context restored the font list


def _draw_without_missing_glyphs(figure):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph 36718 … missing from font(s)" fails
        figure.canvas.draw()


def test_without_system_fonts_the_courses_own_font_draws_chinese(
        six, chinese, no_system_fonts, monkeypatch, plt):
    """With no CJK font on the machine, the font the course installs from PyPI
    (noto-cjk-sans-otc) is found, and a Chinese plot, title, axes and legend, draws
    every glyph."""
    from tinyagent.course.language import use_chinese_font

    monkeypatch.setattr(plots, "cjk_font", use_chinese_font)
    ax = plots.plot_tokens(six)
    assert _texts(ax)[1] == "轮次"
    assert "全量记忆" in [t.get_text() for t in ax.get_legend().get_texts()]
    _draw_without_missing_glyphs(ax.figure)
    plt.close("all")


def test_with_no_font_at_all_one_chinese_warning_and_english_labels(
        six, chinese, no_system_fonts, monkeypatch, plt):
    """No CJK font anywhere: one warning, in Chinese, says so and how to fix it, even
    when the notebook asks for the font itself and then draws; the plot (and any
    label made with plot_text) falls back on English, which draws, not boxes."""
    from tinyagent.course import language

    monkeypatch.setattr(language, "packaged_font", lambda: None)
    monkeypatch.setattr(language, "_warned", False)  # as in a fresh kernel
    with pytest.warns(UserWarning, match="没有找到能显示中文的字体") as said:
        monkeypatch.setattr(plots, "cjk_font", functools.cache(
            language.use_chinese_font))
        language.use_chinese_font()  # the notebook's own call, as 02 and 04 make it
        ax = plots.plot_tokens(six)
        assert plots.plot_text("turn", "轮次") == "turn"
    assert len([w for w in said if "中文的字体" in str(w.message)]) == 1
    assert _texts(ax)[1] == "turn"
    assert "in-memory" in [t.get_text() for t in ax.get_legend().get_texts()]
    _draw_without_missing_glyphs(ax.figure)
    plt.close("all")


def test_the_plots_module_imports_neither_evaluation_nor_comparison():
    """plots.py draws what evaluation.py and comparison.py measure, and imports
    neither: evaluation imports plots, never the other way round."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(plots.__file__).read_text())
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)}
    assert not imported & {"evaluation", "comparison"}, imported
