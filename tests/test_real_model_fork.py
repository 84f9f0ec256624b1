"""scripts/real_model_fork.py: a fork reads the cached prefix, a request of its own
does not; the check passes on a sound memory and fails on one that does not fork.

The real server needs llama-cpp-python and the model (.ci/real_model.sh runs the
script there); here the script's dry run plays the offline model and its prompt
cache, which reports a prefix the way the server does."""

import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
sys.path.insert(0, str(SCRIPTS))
import real_model_fork  # noqa: E402

from tinyagent.memory.fork import ForkSummarizer  # noqa: E402
from tinyagent.memory.summarizer import Summarizer  # noqa: E402


def test_the_dry_run_passes_and_prints_both_summary_requests(capsys):
    """Offline: the fork reuses the agent's prompt, the own request nothing."""
    assert real_model_fork.main(["--offline"]) == 0
    out = capsys.readouterr().out
    assert "fork: the summary request reused" in out
    assert "own request: the summary request reused 0 of" in out
    assert "latency: fork" in out


def test_a_memory_that_does_not_fork_fails_the_check(monkeypatch, capsys):
    """A 'fork' that sends a request of its own reuses nothing: the check fails."""
    monkeypatch.setattr(ForkSummarizer, "request", Summarizer.request)
    monkeypatch.setattr(ForkSummarizer, "send", Summarizer.send)
    assert real_model_fork.main(["--offline"]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_without_the_server_it_skips_and_says_how_to_install(monkeypatch, capsys):
    """No llama-cpp-python and no --url: exit 0 with the install command."""
    monkeypatch.setattr(real_model_fork.local_model, "have_server", lambda: False)
    assert real_model_fork.main([]) == 0
    assert "skipped" in capsys.readouterr().out
