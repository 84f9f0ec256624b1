"""Rules of the agent's guards: the repeated-call test and the no-progress test."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tinyagent.guards import jaccard, no_progress, same_calls
from tinyagent.messages import ToolCall

# The no-progress rule, pinned: the last three non-blank thoughts, every pair
# compared, Jaccard on character sets >= 0.7.
DITHER = ["still not sure, let me look again (1)", "still not sure, let me look "
          "again (2)", "still not sure, let me look again (3)"]
EDGE = ["abcdefgxy", "abcdefgz", "abcdefgxy"]  # pairs 0.7, 1.0, 0.7
UNDER = ["abcdefgxyw", "abcdefgz", "abcdefgxyw"]  # pairs 0.64, 1.0, 0.64
HALF = ["abcdefgxyzuv", "abcdefghij", "abcdefgxyzuv"]  # pairs 7/15 = 0.47
DRIFT = ["abcdefghij", "bcdefghijk", "cdefghijkl"]  # neighbours 0.82, ends 0.67


def test_no_progress_needs_every_pair_at_least_point_seven():
    """Thoughts pairwise at exactly 0.7 are no progress; at 0.64 or 0.47 they are
    progress (so the threshold is neither lower nor strict)."""
    assert jaccard(*EDGE[:2]) == pytest.approx(0.7) and no_progress(EDGE)
    assert not no_progress(UNDER) and not no_progress(HALF)


def test_no_progress_compares_the_first_and_last_thought_too():
    """Neighbours alike but the first and third not (0.67): progress, not a loop."""
    assert jaccard(DRIFT[0], DRIFT[1]) > 0.8 > 0.7 > jaccard(DRIFT[0], DRIFT[2])
    assert not no_progress(DRIFT)


def test_no_progress_reads_the_last_three_non_blank_thoughts():
    """Only the newest three thoughts count, blanks skipped; fewer is too early."""
    assert no_progress(["I'll look up the order first.", *DITHER])
    assert not no_progress([*DITHER, "I'll look up the order first."])
    assert no_progress([DITHER[0], "", DITHER[1], "  ", DITHER[2], ""])
    assert not no_progress(DITHER[:2]) and not no_progress([])


# The profile's 100 examples (15 already catch a guard that counts blank thoughts,
# or whitespace ones, or looks at the last three before dropping the blanks), the
# edges first: the threshold itself, blanks between and after the three.
@given(st.lists(st.sampled_from([*DITHER, *DRIFT, *EDGE, *UNDER, "", " "]),
                max_size=8), st.lists(st.integers(0, 8), max_size=3))
@example(EDGE, [1, 2, 3])
@example([DRIFT[0], *DITHER], [0, 4, 4])
@example([], [0])
def test_blank_thoughts_never_change_the_verdict(thoughts, places):
    """Inserting blank thoughts anywhere gives the same verdict."""
    padded = list(thoughts)
    for place in places:
        padded.insert(min(place, len(padded)), "  ")
    assert no_progress(padded) == no_progress(thoughts)


def test_same_calls_compares_names_and_arguments_not_ids_nor_order():
    """A step repeats another when it makes the same calls (name and arguments),
    in any order, as many times; ids are new every step."""
    order = ToolCall("a", "queryOrder", {"order_id": "88231"})
    logistics = ToolCall("b", "queryLogistics", {"order_id": "88231"})
    again = ToolCall("z", "queryOrder", {"order_id": "88231"})
    assert same_calls([order, logistics], [logistics, again])
    assert not same_calls([order], [logistics])
    assert not same_calls([order], [ToolCall("z", "queryOrder", {"order_id": "1"})])
    assert not same_calls([order], [again, again]) and same_calls([], [])
