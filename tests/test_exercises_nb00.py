"""Notebook 00's checkers (course/exercises/nb00.py): the guards, what to remember.

The official solutions pass, and each plausible wrong one is rejected, naming the case
it breaks, in English and in Chinese (test_exercise_catalogue.py)."""

from test_exercise_catalogue import checker_tests

(test_official_solutions_pass, test_wrong_solutions_are_rejected,
 test_official_solutions_pass_in_chinese, test_chinese_reports_hold_no_english,
 test_chinese_verdict_names_the_failing_case) = checker_tests("00")
