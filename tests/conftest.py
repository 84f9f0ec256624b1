"""Fixtures shared by the tests. The fakes live in fakes.py; the environment itself
(offline model, no API key) is set by the conftest.py at the root of the repository."""

import pytest


@pytest.fixture
def quiet(capsys):
    """Swallow what a test printed: the exercise checkers print a report, and a test
    that reads only the verdict should not show it."""
    yield
    capsys.readouterr()
