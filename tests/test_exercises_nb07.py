"""Notebook 07's checkers (course/exercises/nb07.py): caps, freshness, restarts, fences.

The official solutions pass, and each plausible wrong one is rejected, naming the case
it breaks (test_exercise_catalogue.py)."""

from test_exercise_catalogue import checker_tests

test_official_solutions_pass, test_wrong_solutions_are_rejected = checker_tests("07")
