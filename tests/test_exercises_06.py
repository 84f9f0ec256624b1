"""The checkers of notebook 06 refuse quickly what they cannot measure."""

import pytest

from tinyagent import InMemoryChatMemory
from tinyagent.exercises import check


@pytest.fixture(autouse=True)
def quiet(capsys):
    """The checker prints a report; these tests read it, or only the verdict."""
    yield
    capsys.readouterr()


def test_a_stub_reads_as_not_yet(capsys):
    """An unfinished stub fails each case as "not implemented yet", no crash."""
    def stub(llm):
        raise NotImplementedError
    assert not check("06.tune_hybrid", stub)
    out = capsys.readouterr().out
    assert out.count("not implemented yet") == 6 and "0/6" in out


def test_not_a_hybrid_fails_every_case_by_name(capsys):
    """Another memory is refused in every case, by name, without playing 50 turns."""
    check("06.tune_hybrid", lambda llm: InMemoryChatMemory())
    out = capsys.readouterr().out
    assert out.count("\n✗ FAIL") == 6 and out.count("got InMemoryChatMemory") == 6
