"""Notebook 04's checkers (course/exercises/nb04.py): when a summary memory compresses.

The official solutions pass, and each plausible wrong one is rejected, naming the case
it breaks, in English and in Chinese, where the Chinese edition's own code passes too
(test_exercise_catalogue.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from test_exercise_catalogue import OFFICIAL, SEEDS, SHAPES, checker_tests, official

from tinyagent.course.exercises._dialogs import dialog
from tinyagent.course.exercises.nb04 import reference_plan

(test_official_solutions_pass, test_wrong_solutions_are_rejected,
 test_official_solutions_pass_in_chinese, test_chinese_reports_hold_no_english,
 test_chinese_verdict_names_the_failing_case,
 test_the_chinese_editions_official_code_passes,
 test_a_wrong_solution_is_shown_got_and_expected_in_chinese) = checker_tests("04")


@settings(max_examples=60, deadline=None)
@given(SHAPES, SEEDS, st.integers(min_value=4, max_value=14),
       st.integers(min_value=2, max_value=8))
def test_plan_compression_matches_the_package(shape, seed, threshold, keep_recent):
    """The solutions notebook's plan_compression equals SummaryChatMemory's rule."""
    plan = official(*OFFICIAL["04.summary_trigger"])
    messages = dialog(shape, seed)
    assert plan(messages, threshold, keep_recent) == reference_plan(
        messages, threshold, keep_recent)
