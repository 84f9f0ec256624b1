"""Test-wide set-up, run once before any test or notebook.

- Force the offline model, so a developer's API key (in the environment or .env)
  never changes a test result or a notebook output. nbval's kernels inherit this.
- Build matplotlib's font cache here: on a fresh install its first import prints
  "Matplotlib is building the font cache" to stderr, which would otherwise land in
  the first notebook that plots and fail strict nbval.
"""

import os

os.environ["TINYAGENT_OFFLINE"] = "1"
os.environ.pop("TINYAGENT_API_KEY", None)

from matplotlib import font_manager  # noqa: E402,F401  (builds the cache on import)
