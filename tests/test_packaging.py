"""Rules of the project files: conda and pip users get the same packages."""

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python >= 3.11; 3.10 users skip this check

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ #\[]", requirement.strip(), maxsplit=1)[0].lower().replace(
        "_", "-")


def test_environment_yml_lists_the_same_packages_as_pyproject():
    """environment.yml has every runtime and test package of pyproject, and no other."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    wanted |= {_name(r) for r in project["optional-dependencies"]["test"]}
    listed = set()
    text = (ROOT / "environment.yml").read_text().split("dependencies:", 1)[1]
    for line in text.splitlines():
        item = re.match(r"^\s+-\s+(?!pip:)([A-Za-z][\w.-]*)", line)
        if item:
            listed.add(_name(item.group(1)))
    assert listed - {"python", "pip"} == wanted


def test_env_example_names_the_three_variables():
    """.env.example shows TINYAGENT_API_KEY, _API_URL and _MODEL, and no key value."""
    text = (ROOT / ".env.example").read_text()
    for name in ["TINYAGENT_API_KEY", "TINYAGENT_API_URL", "TINYAGENT_MODEL"]:
        assert re.search(rf"^{name}=", text, re.M)
    assert re.search(r"^TINYAGENT_API_KEY=$", text, re.M)


def test_dotenv_is_ignored_by_git():
    """.env (where keys live) is in .gitignore."""
    assert ".env" in (ROOT / ".gitignore").read_text().split()


def test_constraints_pin_the_packages_that_shape_the_stored_outputs():
    """constraints.txt pins (==) every runtime package and the notebook tools the
    stored outputs were made with; .ci/run installs with it; both READMEs say when."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version.strip(), f"not pinned with ==: {line}"
            pins[_name(name)] = version.strip()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    shaping = {_name(r) for r in project["dependencies"]} | {"nbval", "ipykernel",
                                                              "nbformat"}
    assert shaping <= set(pins), shaping - set(pins)
    assert "-c constraints.txt" in (ROOT / ".ci" / "run").read_text()
    for readme in ("README.md", "README.zh-CN.md"):
        assert "constraints.txt" in (ROOT / readme).read_text(), readme


def test_every_public_course_name_resolves():
    """Each name in tinyagent.course.__all__ imports from tinyagent.course, and
    `compare` is the function even once its module is loaded."""
    import tinyagent.course as course
    import tinyagent.course.evaluation  # noqa: F401  (loads compare.py too)

    for name in course.__all__:
        assert getattr(course, name) is not None, name
    assert callable(course.compare) and course.compare.__name__ == "compare"
    assert {"check", "Playground", "plot_tokens", "SIX_TURNS"} <= set(course.__all__)


def test_importing_the_course_loads_no_plotting_or_widgets():
    """`import tinyagent.course` stays light: matplotlib and ipywidgets load only
    with the name that needs them."""
    import subprocess
    import sys

    code = ("import sys, tinyagent.course; print('matplotlib' in sys.modules, "
            "'ipywidgets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True, cwd=ROOT).stdout
    assert out.split() == ["False", "False"]
