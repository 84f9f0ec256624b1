"""The notebooks' kernels fail loudly: without their warm parent, or when one dies."""

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


def test_a_kernel_that_dies_at_start_fails_the_notebook_at_once(tmp_path, monkeypatch):
    """The notebooks' kernel start (conftest.py) stops waiting as soon as the kernel's
    process has exited, and says so, instead of waiting out the startup timeout."""
    import importlib.util
    import json
    import time

    where = importlib.util.spec_from_file_location("root_conftest",
                                                   POOL.parent.parent / "conftest.py")
    conftest = importlib.util.module_from_spec(where)
    where.loader.exec_module(conftest)
    spec = tmp_path / "kernels" / "dies"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-c", "import sys; sys.exit(3)", "{connection_file}"],
        "display_name": "dies at start", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    started = time.monotonic()
    try:
        conftest.start_new_kernel(startup_timeout=60, kernel_name="dies")
    except RuntimeError as exc:
        assert "'dies' exited" in str(exc)
    else:
        raise AssertionError("a kernel that exited was taken as started")
    assert time.monotonic() - started < 10
