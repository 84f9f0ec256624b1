"""Notebook 07's checker (course/exercises/nb07.py): compact's marks from the rule.

What only this exercise needs; the tests every checker gets (the official solution
passes, each wrong one is rejected naming its case, in English and in Chinese) are
test_checkers.py's."""

import contextlib

import pytest
from test_exercise_catalogue import one_line
from wrong_solutions_nb07 import package

from tinyagent.course.exercises import Wrong, check
from tinyagent.course.exercises.nb07 import (
    DIALOG,
    DRAWS,
    SHARES,
    drawn_rules,
    judged,
    played,
)
from tinyagent.lang import speaking
from tinyagent.offline.cache_rules import get_rule
from tinyagent.production import CompactChatMemory, marks_for

pytestmark = pytest.mark.usefixtures("quiet")


def test_a_stub_reads_as_not_yet(capsys):
    """An unfinished stub gets one line naming the function, and plays nothing."""
    def size_compact(rule):
        raise NotImplementedError
    before = played.cache_info().currsize
    assert not check("07.size_compact", size_compact)
    out = capsys.readouterr().out
    assert one_line(out) and "not written yet" in out and "size_compact" in out
    assert played.cache_info().currsize == before


@pytest.mark.parametrize("own", [marks_for, CompactChatMemory.for_rule])
def test_the_packages_own_sizing_passed_as_is_is_refused(own, capsys):
    """`marks_for` (or `for_rule`) passed as it is gets one friendly line: write it
    yourself."""
    assert not check("07.size_compact", own)
    out = capsys.readouterr().out
    assert one_line(out) and "write it yourself" in out


def test_marks_are_judged_by_what_they_do_not_by_their_type():
    """A wrapper around the package's marks is the learner's own and passes, however
    it returns them: a list, or floats."""
    assert check("07.size_compact", lambda rule: [float(n) for n in package(rule)])


def test_a_low_mark_that_forgets_the_fixed_part_is_rejected_in_both_languages():
    """A low mark that reaches the minimum alone, as if the memory were the whole
    prompt, carries about 600 tokens of history too many on every call: under
    gpt-4o-mini's dear read that is a third more, in either language. (Under
    Gemini's minimum it costs less, near the tolerance: in Chinese it fails there
    first, so it is not in the catalogue, whose first failing case is one.)"""
    def forgets(rule):
        high, low = package(rule)
        new = max(200, rule.min_tokens + rule.step_tokens)
        return high - low + new, new
    for lang in ("en", "zh"):
        with speaking(lang), pytest.raises(Wrong, match="1152/1152|1600/1152"):
            judged(forgets, get_rule("openai-gpt-4o-mini"), *DIALOG)


def test_the_drawn_rules_are_stable_and_reach_every_kind_of_read():
    """The drawn rules are the same on every run; their cached prices go round the
    cheap, middling and dear bands; their minimums run from none to above
    Gemini's; their dialogs are 40 to 120 turns."""
    rules = drawn_rules()
    assert rules == drawn_rules() and len(rules) == DRAWS
    bands = [next(i for i, (low, high) in enumerate(SHARES)
                  if low <= rule.cached_share <= high) for rule, _, _ in rules]
    assert set(bands) == {0, 1, 2}
    minimums = [rule.min_tokens for rule, _, _ in rules]
    assert min(minimums) < 256 and max(minimums) > 2048, minimums
    assert all(40 <= turns <= 120 for _, turns, _ in rules)


def test_a_set_of_marks_is_played_once_a_dialog_and_billed_under_each_rule():
    """Record once, re-bill: the same marks under the three named rules play the
    named dialog once (the package's marks, its references, are played first)."""
    rules = [get_rule(name) for name in ("gemini", "deepseek", "openai-gpt-4o-mini")]
    for rule in rules:
        played(marks_for(rule).high_tokens, marks_for(rule).low_tokens, *DIALOG, "en")
    before = played.cache_info().misses
    for rule in rules:
        with contextlib.suppress(Wrong):  # a bill over the package's: beside the point
            judged(lambda rule: (1901, 557), rule, *DIALOG)
    assert played.cache_info().misses - before == 1
