"""The README's "No Wi-Fi" wheelhouse recipe: its commands, and (on request) a run.

The fast test reads the recipe the README prints and checks the two mistakes that
broke it before: `pip download` has no `-e`, and the build backend must be in the
wheelhouse. The slow test runs the recipe: `pip download` into a temporary folder
(network or a pip find-links mirror needed, about a minute), then the install with
`--no-index` from that folder alone, as a dry run that ignores what is installed, so
every package must come from the wheelhouse. It runs when TINYAGENT_TEST_WHEELHOUSE=1
(CI sets it); a wheelhouse without setuptools makes it fail.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def recipe() -> tuple[list[str], list[str]]:
    """The `pip download` and `pip install --no-index` commands under "No Wi-Fi?"."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**No Wi-Fi?**"):]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    commands = [shlex.split(line) for line in block.splitlines()
                if line.startswith("pip ")]
    download = [c for c in commands if c[1] == "download"]
    install = [c for c in commands if c[1] == "install"]
    assert len(download) == len(install) == 1, block
    return download[0], install[0]


def test_the_recipe_downloads_the_project_and_its_build_backend():
    """`pip download` gets ".[test]" without -e, plus setuptools and wheel."""
    download, _ = recipe()
    assert "-e" not in download and "--editable" not in download
    assert ".[test]" in download and "wheel" in download
    assert any(arg.startswith("setuptools") for arg in download)
    assert download[download.index("-d") + 1] == "wheels"


def test_the_recipe_installs_from_the_wheelhouse_only():
    """The install uses --no-index and -f wheels, and installs the project editable."""
    _, install = recipe()
    assert "--no-index" in install and install[install.index("-f") + 1] == "wheels"
    assert install[install.index("-e") + 1] == ".[test]"


def test_the_wheelhouse_holds_the_agents_sdk_notebook_09_needs():
    """The recipe downloads the [test] extra, and that extra holds openai-agents,
    so a room without Wi-Fi can run notebook 09 and `tinyagent grade`."""
    import tomllib

    download, _ = recipe()
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]["test"]
    assert ".[test]" in download
    assert any(re.match(r"openai-agents\b", requirement) for requirement in extra)


def _pip(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    """pip as the README runs it, with this machine's pip settings for downloads
    only: the install must see nothing but the wheelhouse."""
    return subprocess.run([sys.executable, "-m", "pip", *args[1:]], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, **env},
                          timeout=600)


@pytest.mark.skipif(os.environ.get("TINYAGENT_TEST_WHEELHOUSE") != "1",
                    reason="downloads ~100 MB; set TINYAGENT_TEST_WHEELHOUSE=1")
def test_the_recipe_runs(tmp_path):
    """The downloaded wheelhouse alone installs the project and every dependency."""
    project = tmp_path / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(
        ".venv", ".git", "wheels", "*.egg-info", "__pycache__", "build"))
    download, install = recipe()
    fetched = _pip(download, project)
    assert fetched.returncode == 0, fetched.stderr[-2000:]
    offline = {"PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": ""}
    installed = _pip(install + ["--dry-run", "--ignore-installed"], project,
                     **offline)
    assert installed.returncode == 0, installed.stderr[-2000:]
    assert "Would install" in installed.stdout and "tinyagent-memory" in \
        installed.stdout
