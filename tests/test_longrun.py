"""Rules of the long run: bounded memories stay bounded, turn after turn."""

import pytest

from tinyagent.course.evaluation import planted_dialog
from tinyagent.course.longrun import LongRun, long_run, main, memories
from tinyagent.llm import LlmClient


@pytest.mark.parametrize("name", ["hybrid 4/8", "production 4 turns"])
def test_a_tight_budget_is_never_exceeded(name):
    """With a budget small enough to force evictions, no summary is ever over it,
    evictions are counted, and no turn stops on the agent's token budget."""
    llm = LlmClient(offline=True)
    run = long_run(llm, name, memories(llm, 60)[name], planted_dialog(16).turns, 60)
    assert max(run.summaries) <= 60 and run.evicted > 0
    assert "token_budget" not in run.stops


def test_drift_compares_means_of_the_reference_and_the_end():
    """The drift is the end's mean prompt against the reference's, minus 1."""
    run = LongRun("x", 100, tuple([100] * 100 + [109] * 100), (0,) * 200,
                  ("answer",) * 200, 0)
    assert run.drift == pytest.approx(0.09) and run.ok
    assert not LongRun("x", 100, run.prompts, (101,) * 200, run.stops, 0).ok


def test_help_documents_the_options(capsys):
    """--help names every option and its default."""
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "--turns" in out and "--budget" in out and "default: 600" in out
