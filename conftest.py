"""Test-wide set-up: force the offline model, so a developer's API key (in the
environment or .env) never changes a test result or a notebook output. nbval's
kernels inherit this environment."""

import os

os.environ["TINYAGENT_OFFLINE"] = "1"
os.environ.pop("TINYAGENT_API_KEY", None)
