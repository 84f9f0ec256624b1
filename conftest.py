"""Test-wide set-up, run once before any test or notebook.

- Force the offline model, so a developer's API key (in the environment or .env)
  never changes a test result or a notebook output. nbval's kernels inherit this.
- Build matplotlib's font cache here: on a fresh install its first import prints
  "Matplotlib is building the font cache" to stderr, which would otherwise land in
  the first notebook that plots and fail strict nbval.
- Compile the package once, up front, and let Python keep bytecode: otherwise, with
  PYTHONDONTWRITEBYTECODE set, every worker and each of the notebooks' kernels
  compiles it again (about 3 s of CPU over the suite).
- With `-n auto`, one xdist worker a core; notebooks a file to a worker, the unit
  tests alone a test at a time (below).
- The notebooks' kernels are forks of one warm parent that has already imported the
  SDK, matplotlib and the rest (tests/kernel_pool.py says why and how).
- nbval's kernel start skips jupyter_client's last 0.2 s of listening, and its debug
  line formats a message only when written (both below): 0.2 s a notebook, and a
  second of formatting over the suite, that change no check.
"""

import compileall
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

os.environ["TINYAGENT_OFFLINE"] = "1"
os.environ.pop("TINYAGENT_API_KEY", None)

if "PYTEST_XDIST_WORKER" not in os.environ:  # the main process, before any worker
    from matplotlib import font_manager  # noqa: F401  (builds the cache on import)

    # Compiled once here, the package loads from its .pyc files in every worker and
    # in each of the notebooks' kernels, even where PYTHONDONTWRITEBYTECODE is set.
    compileall.compile_dir(Path(__file__).parent / "tinyagent", quiet=1)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: one worker a core. Each worker pays its own start (pytest, the SDK,
    matplotlib, the tokenizer: about 5 s of CPU); with the notebooks' kernels forked
    from one warm parent, a third worker on two cores costs more than it overlaps
    (measured: 111 s of CPU and 66 s with two, 128 s and 68 s with three; measured
    again later, 9 s more CPU with three for no gain beyond the machine's noise)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """Notebooks, each file whole on one worker: a notebook's cells run in order in
    one kernel (`--dist loadfile`, the default). The unit tests alone are spread a
    test at a time, a worker that runs out taking from the other (work stealing): a
    file's slow tests no longer hold up one worker while the other waits (on two
    idle cores: about 29.4 s against 30.7 s). An explicit other `--dist` is kept."""
    if config.getvalue("dist") != "loadfile" or notebooks_collected(config):
        return None  # xdist's own choice
    from xdist.scheduler import WorkStealingScheduling

    return WorkStealingScheduling(config, log)


def notebooks_collected(config) -> bool:
    """Whether the run's paths hold a notebook (nbval runs them)."""
    if not getattr(config.option, "nbval", False):
        return False
    paths = [Path(arg.split("::")[0]) for arg in config.args]
    return any(path.suffix == ".ipynb" or (path.is_dir() and any(path.rglob("*.ipynb")))
               for path in paths)


POOL = Path(__file__).parent / "tests" / "kernel_pool.py"
POOL_KERNEL = "tinyagent-pool"


def pool_wanted(config) -> bool:
    """Forked kernels where fork is safe (Linux) and notebooks are about to run."""
    if os.environ.get("TINYAGENT_KERNEL_POOL", "").lower() in ("off", "0", "no"):
        return False
    if not (sys.platform.startswith("linux") and hasattr(socket, "send_fds")):
        return False
    return notebooks_collected(config)


def pytest_configure(config) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ and pool_wanted(config):
        start_pool(config)
    if getattr(config.option, "nbval", False):
        import nbval.kernel

        nbval.kernel.start_new_kernel = start_new_kernel
        nbval.kernel.pformat = LazyFormat
    if os.environ.get("TINYAGENT_KERNEL_POOL", "").startswith("/"):  # workers too
        config.option.nbval_current_env = False
        config.option.nbval_kernel_name = POOL_KERNEL


def start_new_kernel(startup_timeout: float = 60, kernel_name: str = "python",
                     **kwargs):
    """nbval's kernel start, without the 0.2 s that jupyter_client then spends
    listening for stray IOPub messages: nbval next asks the kernel for its info and
    reads IOPub up to that request's idle status itself (IOPub keeps its order)."""
    from jupyter_client.manager import KernelManager
    from nbval.kernel import NbvalKernelspecManager

    manager = KernelManager(kernel_name=kernel_name,
                            kernel_spec_manager=NbvalKernelspecManager())
    manager.start_kernel(**kwargs)
    client = manager.client()
    client.start_channels()
    deadline = time.monotonic() + float(startup_timeout)
    waited = 0
    while True:  # as jupyter_client waits: a reply, then IOPub shown to be connected
        if waited % 10 == 0:  # asked again each second; alive? every tenth of one
            client.kernel_info()
        waited += 1
        try:
            if client.get_shell_msg(timeout=0.1)["msg_type"] == "kernel_info_reply":
                client.get_iopub_msg(timeout=0.2)
                return manager, client
        except queue.Empty:
            pass
        alive = manager.is_alive()
        if not alive or time.monotonic() > deadline:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
            raise RuntimeError(f"kernel {kernel_name!r} " + (
                f"did not answer in {startup_timeout} s" if alive else
                "exited before it answered (TINYAGENT_KERNEL_POOL=off gives plain "
                "kernels; run the notebook by hand to see its error)"))


class LazyFormat:
    """nbval pretty-prints every kernel message for a debug line that is off by
    default: the formatting now happens only when the line is written."""

    def __init__(self, message) -> None:
        self.message = message

    def __str__(self) -> str:
        from pprint import pformat

        return pformat(self.message)


def start_pool(config) -> None:
    """The warm parent, and a kernel spec whose command asks it for a kernel."""
    folder = Path(tempfile.mkdtemp(prefix="tinyagent-kernels-"))
    spec = folder / "kernels" / POOL_KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(POOL), "launch", "-f", "{connection_file}"],
        "display_name": "Python 3 (forked from a warm parent)",
        "language": "python", "metadata": {"debugger": False}}))
    path = str(folder / "pool.sock")
    with open(path + ".log", "w", encoding="utf-8") as log:
        config._kernel_pool = (folder, subprocess.Popen(
            [sys.executable, str(POOL), "serve", path],
            stdout=subprocess.DEVNULL, stderr=log, start_new_session=True))
    os.environ["TINYAGENT_KERNEL_POOL"] = path  # inherited by workers and kernels
    os.environ["TINYAGENT_KERNEL_POOL_PID"] = str(config._kernel_pool[1].pid)
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        filter(None, [str(folder), os.environ.get("JUPYTER_PATH")]))


def pytest_unconfigure(config) -> None:
    pool = getattr(config, "_kernel_pool", None)
    if pool is not None:
        folder, parent = pool
        parent.terminate()
        parent.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(items) -> None:
    """Notebooks first, the largest first (a notebook's size follows what it plays),
    so that no long notebook starts last while the other workers sit idle. A file's
    own items keep their order: a notebook's cells run in sequence in one kernel."""
    sizes: dict[str, int] = {}  # a notebook's size, read once for all its cells

    def cost(item) -> tuple[int, int]:
        path = str(item.fspath)
        if not path.endswith(".ipynb"):
            return (1, 0)
        if path not in sizes:
            sizes[path] = os.path.getsize(path)
        return (0, -sizes[path])

    items.sort(key=cost)  # a stable sort: each file's items stay in order
