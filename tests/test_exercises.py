"""Rules of the exercise checker: deterministic lines, stubs read as 'not yet'."""

import pytest

from tinyagent.exercises import CHECKS, check, exercise


@exercise("99.double")
def _double_cases(fn):
    yield "doubles 2", lambda: fn(2) == 4, "multiply by two"
    yield "doubles -1", lambda: fn(-1) == -2, "negative numbers too"


def test_all_passing_prints_a_line_per_case(capsys):
    """A correct answer prints ✅ per case and a passing verdict."""
    assert check("99.double", lambda x: 2 * x)
    assert capsys.readouterr().out.splitlines() == [
        "✅ doubles 2", "✅ doubles -1", "99.double: 2/2 checks passed, well done!"]


def test_a_stub_reads_as_not_yet(capsys):
    """A stub raising NotImplementedError fails each case with the hint, no crash."""
    def stub(x):
        raise NotImplementedError
    assert not check("99.double", stub)
    out = capsys.readouterr().out
    assert "❌ doubles 2 — not implemented yet: multiply by two" in out
    assert out.rstrip().endswith("0/2 checks passed, not yet — keep going.")


def test_a_crash_shows_the_error(capsys):
    """Learner code that raises shows the exception type and message."""
    assert not check("99.double", lambda x: x / 0)
    assert "ZeroDivisionError: division by zero" in capsys.readouterr().out


def test_unknown_exercise_lists_the_known_ones():
    """A wrong name raises KeyError listing the exercises that exist."""
    with pytest.raises(KeyError, match="99.double"):
        check("nope", None)
    assert "99.double" in CHECKS
