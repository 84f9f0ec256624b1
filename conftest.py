"""Test-wide set-up, run once before any test or notebook.

- Force the offline model, so a developer's API key (in the environment or .env)
  never changes a test result or a notebook output. nbval's kernels inherit this.
- Build matplotlib's font cache here: on a fresh install its first import prints
  "Matplotlib is building the font cache" to stderr, which would otherwise land in
  the first notebook that plots and fail strict nbval.
- Compile the package once, up front, and let Python keep bytecode: otherwise, with
  PYTHONDONTWRITEBYTECODE set, every worker and each of the notebooks' kernels
  compiles it again (about 3 s of CPU over the suite).
- With `-n auto`, one xdist worker more than the cores (below).
"""

import compileall
import os
import sys
from pathlib import Path

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
    """`-n auto`: one worker more than the cores. A worker that runs a notebook waits
    while the notebook's kernel, another process, computes; the extra worker keeps
    the cores busy meanwhile (on two cores the suite takes about 2 s less)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    return cores + 1
