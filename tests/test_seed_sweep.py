"""scripts/seed_sweep.py, small: its seed ranges, its rows and its --check."""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "seed_sweep.py"
sys.path.insert(0, str(SCRIPT.parent))
import seed_sweep  # noqa: E402


def test_seed_ranges_are_read_or_refused_by_name():
    """"0-19" is twenty seeds, "7" one; anything else is refused with the form."""
    assert seed_sweep.seeds("0-19") == range(20)
    assert seed_sweep.seeds("7") == range(7, 8)
    with pytest.raises(Exception, match="N or N-M"):
        seed_sweep.seeds("zero")


def test_a_row_holds_recall_and_shares_of_in_memory():
    """A row: the seed, both recalls out of 3, then four shares in % of in-memory's
    figures; the memories hold less than the full buffer."""
    from tinyagent.llm import LlmClient
    row = seed_sweep.sweep_row(LlmClient(offline=True), 3, turns=6)
    assert row[0] == 3 and all(0 <= r <= 3 for r in row[1:3])
    assert all(0 < share < 100 for share in row[3:5])  # memory: less than it all
    assert all(share > 0 for share in row[5:])  # tokens: on six turns maybe more


def test_check_fails_a_dialog_too_short_for_the_targets(monkeypatch):
    """--check exits 1, naming the seeds, when a target is missed (six turns are too
    few for the summary to pay). In this process: sys.exit(text) is how the script
    exits, and Python prints that text and exits 1 (the --help test below runs the
    script in a process of its own)."""
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), "--seeds", "0", "--turns", "6",
                                      "--check"])
    with pytest.raises(SystemExit) as stop:
        seed_sweep.main()
    assert isinstance(stop.value.code, str)  # Python's exit status for a text is 1
    assert "targets missed on seeds [0]" in stop.value.code


def help_text(script: str, own_process: bool, monkeypatch, capsys) -> str:
    """`python scripts/<script> --help`: run as a command, or its main() here."""
    if own_process:
        return subprocess.run([sys.executable, str(SCRIPT.parent / script), "--help"],
                              capture_output=True, text=True, check=True).stdout
    module = __import__(script.removesuffix(".py"))
    monkeypatch.setattr(sys, "argv", [script, "--help"])
    with pytest.raises(SystemExit) as stop:
        module.main()
    assert stop.value.code == 0
    return capsys.readouterr().out


# seed_sweep.py as a command of its own, once; recall_sweep.py's main() in this process
@pytest.mark.parametrize("script, own_process", [("seed_sweep.py", True),
                                                 ("recall_sweep.py", False)])
def test_every_option_of_the_sweeps_says_what_it_does(script, own_process,
                                                      monkeypatch, capsys):
    """--help gives every option a line of help: none is a bare flag name."""
    text = help_text(script, own_process, monkeypatch, capsys)
    options = text[text.index("options:"):].split("\n  -")[1:]
    assert options, text
    for option in options:
        flag, _, rest = option.strip().partition("  ")
        assert rest.strip() or "\n" in option.strip(), f"{script}: -{flag} has no help"


def test_compact_targets_are_checked_rule_by_rule():
    """A row that misses a target is named with its rule, the target and its seeds;
    a row within every target is not; an unknown rule is refused by name."""
    ok = [0, 50, "qwen", "30 s", "compact 700/200", 70.0, 76.0, 95.0, 90.0, 3, 4,
          14.0, 58.0, 70.0]
    dear = [1, 150, "qwen", "30 s", "compact 700/200", 63.0, 70.0, 90.0, 90.0, 3,
            3, 40.0, 80.0, 63.0]
    assert seed_sweep.misses("qwen", [ok]) == []
    found = seed_sweep.misses("qwen", [ok, dear])
    assert [m.split(" (")[0] for m in found] == [
        "qwen input <= 62 % at 150", "qwen ids 3/3, facts 4/4",
        "qwen peak <= 35 % at 150"]
    assert all("seeds 1-1: 1" in m for m in found)
    with pytest.raises(ValueError, match="acme"):
        seed_sweep.variant("acme")
