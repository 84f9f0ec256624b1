"""The course's language setting: English by default, Chinese when a notebook asks."""

import pytest

from tinyagent.lang import get_lang, is_chinese, say, set_lang, speaking


@pytest.fixture(autouse=True)
def english_again():
    yield
    set_lang("en")


def test_english_unless_a_notebook_asks_for_chinese():
    """Without set_lang, course output is English."""
    assert say("3 checks pass", "3 项检查通过") == "3 checks pass"


def test_set_lang_makes_every_later_call_chinese():
    """After set_lang("zh"), say() picks the Chinese text."""
    set_lang("zh")
    assert say("yes", "是") == "是" and get_lang() == "zh"


def test_an_explicit_lang_overrides_the_notebook_setting():
    """lang= wins over the notebook's setting, in both directions."""
    set_lang("zh")
    assert say("yes", "是", lang="en") == "yes"
    set_lang("en")
    assert say("yes", "是", lang="zh") == "是"


def test_speaking_sets_the_language_for_a_block_then_restores_it():
    """Inside `with speaking("zh")` the package speaks Chinese; after it, even when
    the block raised, it speaks what it spoke before. None keeps the setting."""
    set_lang("zh")
    with pytest.raises(KeyError), speaking("en"):
        assert get_lang() == "en"
        raise KeyError("a failing check")
    assert get_lang() == "zh"
    with speaking(None):
        assert get_lang() == "zh"


@pytest.mark.parametrize("bad", ["cn", "EN", "", "fr"])
def test_an_unknown_language_is_refused_by_name(bad):
    """A language other than "en" or "zh" raises ValueError naming it."""
    with pytest.raises(ValueError, match=repr(bad)):
        set_lang(bad)
    assert get_lang() == "en"


def test_chinese_text_is_recognised_by_its_characters():
    """is_chinese: true for Han characters, false for Latin text and digits."""
    assert is_chinese("订单 88231") and not is_chinese("order 88231")


def test_matplotlib_draws_chinese_without_a_missing_glyph_warning():
    """After use_chinese_font(), a Chinese title draws without a warning (the course
    installs a CJK font, so one is always found)."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tinyagent.course.language import CJK_FONTS, use_chinese_font

    found = use_chinese_font()
    assert found in CJK_FONTS
    figure, axes = plt.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph warns
        axes.set_title("每轮发送的 token")
        figure.canvas.draw()
    plt.close(figure)
