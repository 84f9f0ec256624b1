"""The Jupyter server behind browser_check.py: JupyterLab, and Notebook 7 beside it.

One `jupyter lab` process, offline, on 127.0.0.1, a free port and a random token,
serving a temporary copy of the notebooks; with the `notebook` package installed the
same server also serves Notebook 7's pages (NOTEBOOK7). Lab's settings for the run
come from SETTINGS. Left out: HTTPS and other kernels.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from local_model import free_port  # what serving a local model needs too
from local_model import stop_server as stop  # by its PID: politely, then for good

# Lab's own settings for the run: every cell stays in the page (so each is checked
# and measured), and no news or update check reaches for the network.
SETTINGS = {"notebook-extension/tracker": '{"windowingMode": "none"}',
            "apputils-extension/notification":
                '{"checkForUpdates": false, "fetchNews": "false"}'}
NOTEBOOK7 = "/notebooks/{}?token={}"  # Notebook 7's page for one notebook


def start_lab(root: Path, home: Path) -> tuple[subprocess.Popen, str, Path]:
    """`jupyter lab` on a free port with a random token; (process, url, log). The
    url's two {} take a workspace and a notebook; the same server serves Notebook 7
    at /notebooks/ (NOTEBOOK7)."""
    port = free_port()
    token = os.urandom(16).hex()
    for name, text in SETTINGS.items():
        path = home / "settings" / f"@jupyterlab/{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    env = dict(os.environ, TINYAGENT_OFFLINE="1",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"))
    env.pop("TINYAGENT_API_KEY", None)  # a developer's key must not reach the kernels
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser",
               "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
               "--JupyterNotebookApp.expose_app_in_browser=True"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log = home / "jupyter.log"
    process = subprocess.Popen(command, env=env, stdout=log.open("w"),
                               stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):  # up to a minute for the server to answer
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            return process, f"{base}/lab/workspaces/{{}}/tree/{{}}?token={token}", log
        except OSError:
            time.sleep(0.5)
    stop(process)
    raise RuntimeError(f"jupyter lab did not start; its log:\n{log.read_text()}")
