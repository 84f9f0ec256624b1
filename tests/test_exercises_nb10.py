"""Notebook 10's checker (course/exercises/nb10.py): a tool step as Agents SDK items.

The official solution passes, and each plausible wrong one is rejected, naming the case
it breaks, in English and in Chinese (test_exercise_catalogue.py)."""

from test_exercise_catalogue import checker_tests

(test_official_solutions_pass, test_wrong_solutions_are_rejected,
 test_official_solutions_pass_in_chinese, test_chinese_reports_hold_no_english,
 test_chinese_verdict_names_the_failing_case,
 test_the_chinese_editions_official_code_passes,
 test_a_wrong_solution_is_shown_got_and_expected_in_chinese) = checker_tests("09")
