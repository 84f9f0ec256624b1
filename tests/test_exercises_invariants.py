"""The official solutions agree with the package on any dialog, not only the cases.

The checkers sample a few dialogs; these properties sweep many, so a solution that
passes its checker by luck, or a checker case that contradicts the package, shows up.
"""

from hypothesis import given, settings
from hypothesis import strategies as st
from test_exercise_catalogue import OFFICIAL, official

from tinyagent.course.exercises._dialogs import dialog, tokens
from tinyagent.course.exercises.nb03 import reference_token_window, well_formed
from tinyagent.course.exercises.nb04 import reference_plan

shapes = st.text(alphabet="pt", min_size=1, max_size=7)
seeds = st.integers(min_value=0, max_value=50)


@settings(max_examples=60, deadline=None)
@given(shapes, seeds, st.integers(min_value=1, max_value=600))
def test_token_window_matches_the_package_on_any_budget(shape, seed, budget):
    """The solutions notebook's token_window equals TokenWindowChatMemory's window,
    is well formed, and fits the budget unless it is the newest turn alone."""
    token_window = official(*OFFICIAL["03.token_window"])
    got = token_window(dialog(shape, seed), budget)
    assert got == reference_token_window(dialog(shape, seed), budget)
    assert well_formed(got)
    newest = dialog(shape[-1], seed)
    assert tokens(got) <= budget or len(got) == len(newest)


@settings(max_examples=60, deadline=None)
@given(shapes, seeds, st.integers(min_value=4, max_value=14),
       st.integers(min_value=2, max_value=8))
def test_plan_compression_matches_the_package(shape, seed, threshold, keep_recent):
    """The solutions notebook's plan_compression equals SummaryChatMemory's rule."""
    plan = official(*OFFICIAL["04.summary_trigger"])
    messages = dialog(shape, seed)
    assert plan(messages, threshold, keep_recent) == reference_plan(
        messages, threshold, keep_recent)
