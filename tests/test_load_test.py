"""scripts/load_test.py, small: processes sharing one session lose no turn."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from _stores import STORES, store_url

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "load_test.py"
sys.path.insert(0, str(SCRIPT.parent))
import load_test  # noqa: E402

REPORT = (r"6 turns in [\d.]+ s = [\d.]+ turns/s; conflicts retried \d+, lost turns 0, "
          r"duplicate versions 0, ids not recalled after reload 0, failed workers 0")


@pytest.mark.parametrize("kind", STORES)
def test_two_processes_on_one_session_lose_nothing(kind, tmp_path, capsys):
    """2 processes x 3 turns on one session: the script reports 6 turns, 0 lost,
    0 duplicate versions, every id recalled after a reload, and exits 0.

    main() runs in this process and forks its two workers from it (the script's own
    way where there is fork), so they are separate processes on one session, and no
    new Python has to load the model client first."""
    with store_url(kind, tmp_path) as url:
        status = load_test.main(["--db", url, "--workers", "2", "--turns", "3",
                                 "--mode", "one"])
    out = capsys.readouterr().out
    assert status == 0, out
    line = out.splitlines()[1]
    assert re.search(REPORT, line), line


def test_the_script_runs_as_a_command():
    """`python scripts/load_test.py --help` starts and names its options: the
    script's own entry point works (the test above calls its main())."""
    done = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert all(f"--{name}" in done.stdout for name in
               ("db", "workers", "turns", "mode", "memory")), done.stdout
