"""The cheapest memory with full recall: one recording per set of requests, bills
that add up, and compact's row against the others."""

import pytest

from tinyagent.course.billing import tally
from tinyagent.course.cheapest import (
    FULL,
    SUMMARY,
    history,
    parts,
    play,
    variant,
)
from tinyagent.course.sensitivity import LUNCH, STEADY


@pytest.fixture(scope="module")
def played():
    return play(30, 3, variants=("qwen", "anthropic", "qwen@1024"),
                scenarios=(STEADY, LUNCH))


def test_a_variant_is_a_rule_with_its_own_minimum():
    """"qwen@1024" is qwen's rule with a 1,024-token minimum; a plain name is the
    documented rule; an unknown one is refused by name."""
    assert variant("qwen@1024").min_tokens == 1024
    assert variant("qwen").min_tokens == 256
    with pytest.raises(ValueError, match="acme"):
        variant("acme")


def test_each_set_of_requests_is_recorded_once(played):
    """In-memory, summary and hybrid once; compact once per set of marks, and again
    only where the lunch break outlasts the rule's cache (anthropic's 5 minutes,
    not qwen's, which states no expiry)."""
    names = set(played.runs)
    assert {FULL, SUMMARY, "hybrid 4/8"} <= names
    assert played.compact["qwen", STEADY.name] == played.compact["qwen", LUNCH.name]
    cold = played.compact["anthropic", LUNCH.name]
    assert cold.endswith(", cold") and cold != played.compact["anthropic",
                                                              STEADY.name]
    assert len(names) == 3 + 3 + 1


def test_the_parts_of_a_bill_add_up_to_it(played):
    """Calls under the minimum, new tails, the fixed part and the history: their sum
    is the input bill, under each rule and schedule; the history is read from the
    cache only when a call is cached at all."""
    for name in ("qwen", "anthropic", "qwen@1024"):
        rule = variant(name)
        for scenario in (STEADY, LUNCH):
            schedule = played.schedule(scenario)
            split = parts(played.runs[FULL], rule, schedule)
            direct = tally(played.runs[FULL], rule, schedule=schedule).input
            assert split.total == pytest.approx(direct)
            assert split.history > 0 and split.tail > 0


def test_the_history_of_a_request_is_what_lies_before_its_question():
    """Between the system prompt and the last user message: the earlier turns."""
    from tinyagent.offline.prompt_tokens import message_tokens

    messages = [{"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Where is 88231?"},
                {"role": "assistant", "content": "Delivered."},
                {"role": "user", "content": "Refund it"}]
    assert history({"messages": messages}) == sum(
        len(message_tokens(m)) for m in messages[1:3])
    assert history({"messages": messages[:2]}) == 0


def test_a_row_is_the_bills_divided(played):
    """compact's row: its input and full bills over in-memory's and summary's, as
    billed directly; its recall and peak from its score."""
    row = played.row("anthropic", LUNCH)
    rule, schedule = variant("anthropic"), played.schedule(LUNCH)
    mine = tally(played.runs[row.name], rule, schedule=schedule)
    full = tally(played.runs[FULL], rule, schedule=schedule)
    summary = tally(played.runs[SUMMARY], rule, schedule=schedule)
    assert row.to_full == pytest.approx(mine.input / full.input)
    assert row.to_full_with_replies == pytest.approx(mine.billed / full.billed)
    assert row.to_summary == pytest.approx(mine.input / summary.input)
    assert (row.ids, row.facts) == (3, 4) and 0 < row.peak <= 1
    warm = tally(played.runs[row.name.removesuffix(", cold")], rule,
                 schedule=schedule)
    assert row.warm_only == pytest.approx(warm.input / full.input)
