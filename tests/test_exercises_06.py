"""The checker of notebook 06: a tuned hybrid passes; the default, a hasty one fail."""

import pytest

from tinyagent import HybridChatMemory, InMemoryChatMemory
from tinyagent.exercises import check


@pytest.fixture(autouse=True)
def quiet(capsys):
    """The checker prints a line per case; these tests read only the verdict."""
    yield
    capsys.readouterr()


def test_a_tuned_hybrid_passes():
    """4/8 peaks lower than 6/10 and compresses no more often: every target met."""
    assert check("06.tune_hybrid", lambda llm: HybridChatMemory(llm, 4, 8))


@pytest.mark.parametrize("sizes, failing", [
    ((6, 10), "peak prompt tokens <= 1,150"),
    ((2, 3), "tokens sent over the dialog <= 103,000"),
], ids=["the-default-peaks-too-high", "compressing-every-turn-costs-too-much"])
def test_the_default_and_a_hasty_tuning_fail(sizes, failing, capsys):
    """6/10 misses the peak target; 2/3 meets it but runs the summarizer every turn
    and sends more tokens in all than it saves."""
    assert not check("06.tune_hybrid", lambda llm: HybridChatMemory(llm, *sizes))
    assert f"❌ {failing}" in capsys.readouterr().out


def test_a_stub_reads_as_not_yet(capsys):
    def stub(llm):
        raise NotImplementedError
    assert not check("06.tune_hybrid", stub)
    out = capsys.readouterr().out
    assert out.count("not implemented yet") == 4 and "0/4" in out


def test_not_a_hybrid_fails_every_case_without_playing_the_dialog(capsys):
    """Another memory is refused at once, by name, in every case."""
    check("06.tune_hybrid", lambda llm: InMemoryChatMemory())
    out = capsys.readouterr().out
    assert out.count("❌") == 4 and "got InMemoryChatMemory" in out
