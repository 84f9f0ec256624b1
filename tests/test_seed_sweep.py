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


def test_check_fails_a_dialog_too_short_for_the_targets():
    """--check exits 1, naming the seeds, when a target is missed (six turns are too
    few for the summary to pay)."""
    done = subprocess.run([sys.executable, str(SCRIPT), "--seeds", "0", "--turns",
                           "6", "--check"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and "targets missed on seeds [0]" in done.stderr


@pytest.mark.parametrize("script", ["seed_sweep.py", "recall_sweep.py"])
def test_every_option_of_the_sweeps_says_what_it_does(script):
    """--help gives every option a line of help: none is a bare flag name."""
    text = subprocess.run([sys.executable, str(SCRIPT.parent / script), "--help"],
                          capture_output=True, text=True, check=True).stdout
    options = text[text.index("options:"):].split("\n  -")[1:]
    for option in options:
        flag, _, rest = option.strip().partition("  ")
        assert rest.strip() or "\n" in option.strip(), f"{script}: -{flag} has no help"
