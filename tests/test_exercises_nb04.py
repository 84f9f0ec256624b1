"""Notebook 04's checkers (course/exercises/nb04.py): when a summary memory compresses.

What only these exercises need; the tests every checker gets (the official solutions
pass, each wrong one is rejected naming its case, in English and in Chinese) are
test_checkers.py's."""

from hypothesis import given, settings
from hypothesis import strategies as st
from test_exercise_catalogue import OFFICIAL, SEEDS, SHAPES, official

from tinyagent.course.exercises._dialogs import dialog
from tinyagent.course.exercises.nb04 import reference_plan


@settings(max_examples=60, deadline=None)
@given(SHAPES, SEEDS, st.integers(min_value=4, max_value=14),
       st.integers(min_value=2, max_value=8))
def test_plan_compression_matches_the_package(shape, seed, threshold, keep_recent):
    """The solutions notebook's plan_compression equals SummaryChatMemory's rule."""
    plan = official(*OFFICIAL["04.summary_trigger"])
    messages = dialog(shape, seed)
    assert plan(messages, threshold, keep_recent) == reference_plan(
        messages, threshold, keep_recent)
