"""The checker of notebook 07: the reference passes, plausible slips fail."""

import pytest

from tinyagent.exercises import check
from tinyagent.production.structured import cap_items


@pytest.fixture(autouse=True)
def quiet(capsys):
    """The checker prints a line per case; these tests read only the verdict."""
    yield
    capsys.readouterr()


def test_the_package_function_passes():
    """tinyagent.production.structured.cap_items is the reference answer."""
    assert check("07.cap_items", cap_items)


def keeps_oldest(items, max_items=6, max_chars=80):
    return [i if len(i) <= max_chars else i[: max_chars - 1] + "…"
            for i in items if i.strip()][:max_items]


def no_ellipsis(items, max_items=6, max_chars=80):
    return [i[:max_chars] for i in items if i.strip()][-max_items:]


def mutates(items, max_items=6, max_chars=80):
    while len(items) > max_items:
        items.pop(0)
    return [i if len(i) <= max_chars else i[: max_chars - 1] + "…"
            for i in items if i.strip()]


def fixed_caps(items, max_items=6, max_chars=80):
    return [i if len(i) <= 80 else i[:79] + "…" for i in items if i.strip()][-6:]


@pytest.mark.parametrize("wrong", [keeps_oldest, no_ellipsis, mutates, fixed_caps])
def test_slips_fail(wrong):
    """Keeping the oldest, cutting without "…", changing the input, or ignoring the
    parameters: each fails at least one case."""
    assert not check("07.cap_items", wrong)


def test_the_stub_reads_as_not_yet(capsys):
    """An unfinished stub fails every case with a hint, and does not crash."""
    def stub(items, max_items=6, max_chars=80):
        raise NotImplementedError

    assert not check("07.cap_items", stub)
    assert "07.cap_items: 0/7 checks passed" in capsys.readouterr().out
