"""Rules of notebook 04's summary budget: bounded means bounded, the oldest line goes
first, and the ids of what went stay. The rules every budget keeps (notebook 04's one
rule and notebook 08's ladder) are tested over both."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tinyagent.memory import budget
from tinyagent.memory.budget import IDS_LINE, IDS_LINE_ZH, fit
from tinyagent.memory.entities import find_ids
from tinyagent.production import eviction
from tinyagent.tokens import count_tokens

EVERY_FIT = pytest.mark.parametrize("fit_rule", [budget.fit, eviction.fit],
                                    ids=["one rule", "ladder"])
SUMMARY = "\n".join([
    "- Order 88231: S10 Pro, delivered 2026-06-22, SF Express SF1234567890",
    "- Refund RF20260701001: order 88231, ¥1999, pending inspection",
    "- Product S20 Pro: ¥2499, launch offer: ¥200 off until 2026-07-15",
    "- Order 90417: AirX Earbuds, in transit, YTO Express YT5566778899"])


@EVERY_FIT
def test_within_budget_nothing_changes(fit_rule):
    """A summary that fits is returned as it is, nothing evicted."""
    fitted = fit_rule(SUMMARY, 500, find_ids)
    assert fitted.text == SUMMARY and fitted.evicted == []


def test_the_oldest_line_goes_first_and_its_ids_stay():
    """Over budget, the oldest line goes, whatever it says; the ids only it held
    move to the ids line, and the newer lines stay word for word."""
    lines = SUMMARY.splitlines()
    fitted = fit(SUMMARY, count_tokens(SUMMARY) - 5, find_ids)
    assert fitted.evicted == lines[:1]
    assert fitted.text == "\n".join([*lines[1:], f"{IDS_LINE}SF1234567890"])


def test_lines_go_oldest_first_until_the_summary_fits():
    """A tighter budget takes the next oldest lines, in order, and no more than it
    must: the newest line stays; an id moves when no line left names it, and the
    ids line lists the ids in the order their lines went."""
    lines = SUMMARY.splitlines()
    fitted = fit(SUMMARY, 50, find_ids)
    assert fitted.evicted == lines[:3]
    assert fitted.text.splitlines() == [
        lines[3], f"{IDS_LINE}SF1234567890, RF20260701001, 88231"]
    assert count_tokens(fitted.text) <= 50
    assert count_tokens(f"{lines[2]}\n{fitted.text}") > 50  # one more line: over


def test_with_one_line_left_the_oldest_ids_go():
    """When only one fact line is left, the ids line gives up its oldest ids; the
    last line stays whole."""
    ids = ", ".join(str(10000 + i) for i in range(40))
    fitted = fit(f"- Order 90417: in transit\n{IDS_LINE}{ids}", 40, find_ids)
    assert fitted.text.startswith("- Order 90417: in transit\n")
    assert fitted.evicted[:2] == ["10000", "10001"]
    assert fitted.text.endswith("10039") and count_tokens(fitted.text) <= 40


def test_a_single_line_too_long_alone_is_clipped():
    """A last line longer than the whole budget is cut, marked with an ellipsis."""
    fitted = fit("- note: " + "many details " * 40, 30, find_ids)
    assert fitted.text.endswith("…") and count_tokens(fitted.text) <= 30


@EVERY_FIT
@given(st.lists(st.text(st.sampled_from("ab 12345RF¥-:\n"), max_size=80),
                max_size=30), st.integers(50, 400))
@example(["- " + "12345 " * 80], 50)  # one line, alone too long: clipped
@example([f"{IDS_LINE}" + ", ".join(str(10000 + i) for i in range(60))], 50)  # ids
@example(["- a", f"{IDS_LINE_ZH}12345, 67890", "- b 12345"], 50)  # fits as it is
def test_never_over_budget(fit_rule, lines, max_tokens):
    """Whatever the text, the fitted summary is within the budget."""
    fitted = fit_rule("\n".join(lines), max_tokens, find_ids)
    assert count_tokens(fitted.text) <= max_tokens


@EVERY_FIT
def test_a_chinese_ids_line_is_read_and_rebuilt_in_chinese(fit_rule):
    """With ids_line=IDS_LINE_ZH, the ids of an existing Chinese ids line and of an
    evicted line end up on one "- 保留编号：" line, oldest first."""
    summary = ("- 订单 88231：S10 Pro，已签收，顺丰速运 SF1234567890\n"
               "- 退款 RF20260701001：订单 88231，¥1999，待检测\n"
               f"{IDS_LINE_ZH}55107")
    fitted = fit_rule(summary, count_tokens(summary) - 5, find_ids, IDS_LINE_ZH)
    assert fitted.evicted == [summary.splitlines()[0]]
    assert fitted.text.splitlines()[-1] == f"{IDS_LINE_ZH}SF1234567890, 55107"
    assert IDS_LINE not in fitted.text
