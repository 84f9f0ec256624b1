"""Notebook 03's checkers (course/exercises/nb03.py and nb03_token_window.py): windows
that cut between turns.

What only these exercises need; the tests every checker gets (the official solutions
pass, each wrong one is rejected naming its case, in English and in Chinese) are
test_checkers.py's."""

from hypothesis import given, settings
from hypothesis import strategies as st
from test_exercise_catalogue import OFFICIAL, SEEDS, SHAPES, official

from tinyagent.course.exercises._dialogs import dialog, tokens
from tinyagent.course.exercises.nb03 import well_formed
from tinyagent.course.exercises.nb03_token_window import reference_token_window


@settings(max_examples=60, deadline=None)
@given(SHAPES, SEEDS, st.integers(min_value=1, max_value=600))
def test_token_window_matches_the_package_on_any_budget(shape, seed, budget):
    """The solutions notebook's token_window equals TokenWindowChatMemory's window,
    is well formed, and fits the budget unless it is the newest turn alone."""
    token_window = official(*OFFICIAL["03.token_window"])
    got = token_window(dialog(shape, seed), budget)
    assert got == reference_token_window(dialog(shape, seed), budget)
    assert well_formed(got)
    newest = dialog(shape[-1], seed)
    assert tokens(got) <= budget or len(got) == len(newest)


def test_a_turn_measured_as_a_request_gets_its_own_hint(capsys):
    """A token window that sums a turn with count_messages_tokens (which adds the
    reply priming of a request) is told that cause, not "'<=', not '<'"."""
    from wrong_solutions import request_tokens

    from tinyagent.course.exercises import check
    check("03.token_window", request_tokens)
    out = capsys.readouterr().out
    assert "the few tokens a request adds for the reply" in out
    assert "exactly max_tokens still fits" not in out
