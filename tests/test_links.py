"""The course's web addresses: only checked ones, and its own written by one script.

Every http(s) address in a notebook (sources and outputs) or a README must be on the
allow-list below, each one checked by hand before it went in. The course's own
address (badges, clone, Colab install) comes from pyproject.toml through
scripts/publish_links.py, so the files are always as that script writes them.
"""

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
# Checked addresses: the original sources, the ideas the course cites, and the
# providers' documented endpoints (README, "Using a real model").
ALLOWED = (
    "https://github.com/nageoffer/tinyagent",
    "https://research.trychroma.com/context-rot",
    "https://aclanthology.org/2024.tacl-1.9",
    "https://arxiv.org/abs/2310.08560",
    "https://dashscope.aliyuncs.com/compatible-mode/v1",
    "https://api.deepseek.com/v1",
    "https://api.openai.com/v1",
    "http://localhost:11434/v1",
    "https://ollama.com",
    # notebook 10: the Agents SDK's sessions, LangGraph's short-term memory
    "https://openai.github.io/openai-agents-python/sessions/",
    "https://langchain-ai.github.io/langgraph/agents/memory",
    "http://<instructor-ip>:11434/v1",  # templates the instructor fills in
    "https://github.com/<you>/tinyagent-memory",
)
# An address, a <placeholder> in it included (a template the reader fills in).
ADDRESS = re.compile(r"https?://(?:<[\w-]+>|[^\s)\"'`<>\]\\])+")
FILES = [*sorted((ROOT / "notebooks").glob("**/*.ipynb")), ROOT / "README.md",
         ROOT / "README.zh-CN.md"]


def load_script():
    spec = importlib.util.spec_from_file_location(
        "publish_links", ROOT / "scripts" / "publish_links.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_address_is_a_checked_one(path):
    """No http(s) address outside the allow-list, in sources or outputs."""
    text = path.read_text(encoding="utf-8")
    found = {a.rstrip(".,;:") for a in ADDRESS.findall(text)}
    assert sorted(a for a in found if a not in ALLOWED) == []


def test_the_invented_organisation_is_gone():
    """The made-up github.com/tinyagent-course appears nowhere a learner reads."""
    for path in FILES:
        assert "tinyagent-course" not in path.read_text(encoding="utf-8"), path


def test_the_files_are_as_the_script_writes_them():
    """With no address in pyproject.toml, every notebook and README is exactly what
    publish_links.py writes: no badge, the Colab line installs the uploaded folder."""
    script = load_script()
    assert script.address() is None
    for path in script.targets():
        assert script.written(path, None) == path.read_text(encoding="utf-8"), path


def test_an_address_writes_badges_clone_and_the_colab_line():
    """Set an address and every learner notebook gets its two badges, the setup cell
    installs from it, and the READMEs get badges and a clone command; taking the
    address out again restores the files byte for byte."""
    script = load_script()
    url = "https://github.com/someone/tinyagent-memory"
    path = ROOT / "notebooks" / "zh" / "03_sliding_window.ipynb"
    text = script.written(path, url)
    cells = json.loads(text)["cells"]
    title = "".join(cells[0]["source"])
    assert "colab.research.google.com/github/someone/tinyagent-memory/blob/main/" \
        "notebooks/zh/03_sliding_window.ipynb" in title and "mybinder.org" in title
    assert f'%pip install -q "tinyagent-memory @ git+{url}"' in "".join(
        cells[1]["source"])
    assert script.notebook(text, "notebooks/zh/03_sliding_window.ipynb", None) == \
        path.read_text(encoding="utf-8")
    readme = script.readme((ROOT / "README.md").read_text(encoding="utf-8"), "en", url)
    assert f"`git clone {url}`" in readme and "badge_logo.svg" in readme
    assert script.readme(readme, "en", None) == \
        (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_bad_address_is_refused_naming_it(tmp_path):
    """An address that is not https is refused with a one-line error naming it."""
    script = load_script()
    toml = tmp_path / "pyproject.toml"
    toml.write_text('[project]\nname = "x"\n[project.urls]\n'
                    'Repository = "github.com/x"\n')
    with pytest.raises(ValueError, match="'github.com/x'"):
        script.address(toml)


def test_help_prints_the_usage_and_writes_nothing(monkeypatch, capsys):
    """`publish_links.py --help` prints how to use it and exits 0 before it reads
    pyproject.toml or touches a file."""
    script = load_script()

    def touched(*args):
        raise AssertionError("--help must not read or write the files")
    monkeypatch.setattr(script, "targets", touched)
    monkeypatch.setattr(script, "address", touched)
    with pytest.raises(SystemExit) as exit_info:
        script.main(["--help"])
    assert exit_info.value.code == 0
    assert "--check" in capsys.readouterr().out
