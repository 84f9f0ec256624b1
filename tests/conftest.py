"""Fixtures shared by the tests. The fakes live in fakes.py; the environment itself
(offline model, no API key) is set by the conftest.py at the root of the repository.

Hypothesis runs derandomized: its examples come from each test's own source, not a
fresh random seed, so a property test that fails on a CI server fails the same way
on a laptop, and one that passes does not start failing next week by chance."""

import pytest
from hypothesis import settings

settings.register_profile("reproducible", derandomize=True)
settings.load_profile("reproducible")


@pytest.fixture
def quiet(capsys):
    """Swallow what a test printed: the exercise checkers print a report, and a test
    that reads only the verdict should not show it."""
    yield
    capsys.readouterr()
