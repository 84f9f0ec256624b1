"""Rules of `python -m tinyagent.course.ratios`: every compression's ratio, and the
turn by which summary memory pays for itself, in English and in Chinese."""

import io
import re
from contextlib import redirect_stdout

import pytest
from zh_text import english_sentences

from tinyagent.course.ratios import TWELVE_TURNS, main, paid_by

# The report's figures in either language: a ratio per compression, the tokens each
# memory sent in 12 turns, the turn it paid for itself.
RATIO = re.compile(r"= (\d+)%")
SENT = re.compile(r"(?:summary|摘要记忆) ([\d,]+).*?(?:unbounded|全量记忆) ([\d,]+)")
PAID = re.compile(r"(?:by turn|到第) (\w+)")


@pytest.fixture(scope="module", params=["en", "zh"])
def report(request):
    """(lang, what `python -m tinyagent.course.ratios --lang LANG` prints)."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--lang", request.param]) == 0
    return request.param, out.getvalue()


def test_prints_a_ratio_per_compression_and_when_the_summary_paid(report):
    """Three compressions on the twelve turns, one in the six-turn demo, and the
    turn the summary memory paid for itself, in either language."""
    lang, out = report
    assert len(RATIO.findall(out)) == 4, out
    assert PAID.search(out) and PAID.search(out)[1] != "None", out


def test_every_summary_is_smaller_than_what_it_stands_for(report):
    """Each compression's summary is below 100 % of the messages it stands for."""
    lang, out = report
    assert max(int(r) for r in RATIO.findall(out)) < 100, out


def test_summary_memory_sends_fewer_tokens_by_the_end(report):
    """After 12 turns summary memory, its summarizer calls included, has sent fewer
    tokens than unbounded memory, in English and in Chinese."""
    lang, out = report
    summary, unbounded = (int(n.replace(",", "")) for n in SENT.search(out).groups())
    assert summary < unbounded, out


def test_the_chinese_report_is_chinese(report):
    """`--lang zh` prints no English sentence (English stays English)."""
    lang, out = report
    assert (english_sentences(out) == []) == (lang == "zh")


def test_the_chinese_dialog_asks_what_the_english_one_asks():
    """The twelve turns are the same requests in both languages: the same length,
    the same order numbers in the same turns."""
    en, zh = TWELVE_TURNS["en"], TWELVE_TURNS["zh"]
    assert [re.findall(r"\d{5}", t) for t in en] == [
        re.findall(r"\d{5}", t) for t in zh]


def test_paid_by_is_the_turn_it_caught_up_after_being_behind():
    """Ahead from the start is not "paying for itself"; behind, then level, is."""
    assert paid_by([10, 25, 30], [10, 20, 30]) == 3
    assert paid_by([5, 10], [10, 20]) is None
