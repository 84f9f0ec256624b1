"""The notebooks' forked kernels fail loudly when their warm parent is missing."""

import subprocess
import sys
from pathlib import Path

POOL = Path(__file__).parent / "kernel_pool.py"


def test_a_kernel_without_its_warm_parent_fails_with_the_parents_log(tmp_path):
    """No parent listening and none alive: the launcher exits non-zero at once, and
    says where it looked and what the parent's log holds, instead of hanging."""
    socket_path = tmp_path / "pool.sock"
    (tmp_path / "pool.sock.log").write_text("ImportError: no module named openai\n")
    env = {"TINYAGENT_KERNEL_POOL": str(socket_path),
           "TINYAGENT_KERNEL_POOL_PID": "0", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, str(POOL), "launch", "-f", "x.json"],
                          env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert f"no warm parent at {socket_path}" in done.stderr
    assert "ImportError: no module named openai" in done.stderr
