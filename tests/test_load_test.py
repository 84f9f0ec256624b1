"""scripts/load_test.py, small: processes sharing one session lose no turn."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from _stores import STORES, store_url

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "load_test.py"


@pytest.mark.parametrize("kind", STORES)
def test_two_processes_on_one_session_lose_nothing(kind, tmp_path):
    """2 processes x 3 turns on one session: the script reports 6 turns, 0 lost,
    0 duplicate versions, every id recalled after a reload, and exits 0."""
    with store_url(kind, tmp_path) as url:
        done = subprocess.run([sys.executable, str(SCRIPT), "--db", url, "--workers",
                               "2", "--turns", "3", "--mode", "one"],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    line = done.stdout.splitlines()[1]
    assert re.search(r"6 turns in [\d.]+ s = [\d.]+ turns/s; conflicts retried \d+, "
                     r"lost turns 0, duplicate versions 0, ids not recalled after "
                     r"reload 0, failed workers 0", line), line
