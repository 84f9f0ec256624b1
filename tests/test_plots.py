"""Notebook 06's pictures speak the notebook's language when Chinese can be drawn."""

import matplotlib
import pytest

from tinyagent import LlmClient
from tinyagent.course import plots
from tinyagent.course.compare import compare
from tinyagent.course.language import set_lang

matplotlib.use("Agg")


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
        six, chinese, monkeypatch):
    """With a font that draws Chinese, title and axes are Chinese."""
    monkeypatch.setattr(plots, "cjk_font", lambda: "Noto Sans CJK SC")
    ax = plots.plot_tokens(six)
    assert _texts(ax) == ["每轮发给模型的内容（第一次调用）", "轮次", "提示词 token"]
    matplotlib.pyplot.close("all")


def test_without_a_chinese_font_the_labels_stay_english(six, chinese, monkeypatch):
    """No font for Chinese: English labels, never boxes and a warning."""
    monkeypatch.setattr(plots, "cjk_font", lambda: None)
    ax = plots.plot_tokens(six, cumulative=True)
    assert _texts(ax) == ["Cumulative cost: prompts + summarizer", "turn",
                          "tokens sent so far"]
    matplotlib.pyplot.close("all")


def test_an_english_notebook_gets_english_labels_whatever_the_fonts(six):
    """The English edition's pictures do not depend on the machine's fonts."""
    ax = plots.plot_tokens(six)
    assert _texts(ax)[1:] == ["turn", "prompt tokens"]
    matplotlib.pyplot.close("all")


def test_the_font_found_is_first_in_matplotlibs_list():
    """cjk_font() names a font matplotlib knows and now tries first, or finds none."""
    from matplotlib import font_manager, rcParams

    name = plots.cjk_font()
    assert name is None or (name in {f.name for f in font_manager.fontManager.ttflist}
                            and rcParams["font.sans-serif"][0] == name)
