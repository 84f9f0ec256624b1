"""Rules every stored notebook keeps (nbval then checks the outputs themselves).

nbval compares each cell's stored output with a fresh run, so a stale output fails
there; these checks catch what nbval cannot: a notebook saved without running, a
cell run out of order, stderr or an error kept in the file, a missing solution.
"""

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LEARNER = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
ALL = LEARNER + sorted((NOTEBOOKS / "solutions").glob("[0-9][0-9]_*.ipynb")) + sorted(
    (NOTEBOOKS / "zh").glob("[0-9][0-9]_*.ipynb"))
SETUP = 'llm = LlmClient.from_env()'


def code_cells(path: Path) -> list[dict]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [c for c in cells if c["cell_type"] == "code"]


def test_the_course_has_its_notebooks():
    """The learner notebooks are numbered 00, 01, ... without gaps."""
    numbers = [int(p.name[:2]) for p in LEARNER]
    assert numbers == list(range(len(numbers))) and len(numbers) >= 3


@pytest.mark.parametrize("path", LEARNER, ids=lambda p: p.name)
def test_each_notebook_has_a_solutions_notebook(path):
    """Every learner notebook has a worked solution with the same name."""
    assert (NOTEBOOKS / "solutions" / path.name).exists()


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.parent.name + "/" + p.name)
def test_stored_run_is_complete_and_in_order(path):
    """Every code cell was executed, top to bottom, in one run (counts 1, 2, 3...)."""
    counts = [c["execution_count"] for c in code_cells(path) if c["source"]]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name} is stale or unexecuted: "
        "run `python scripts/execute_notebooks.py`")


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.parent.name + "/" + p.name)
def test_no_stderr_errors_or_run_dependent_values(path):
    """Stored outputs hold no stderr, no errors, no addresses or uuids."""
    noise = re.compile(r"0x[0-9a-f]{6,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-|"
                       r"/tmp/|\d{2}:\d{2}:\d{2}\.\d{3}")
    for cell in code_cells(path):
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"{path.name}: an error is stored"
            assert out.get("name") != "stderr", f"{path.name}: stderr is stored"
            text = json.dumps(out.get("text", "")) + json.dumps(
                out.get("data", {}).get("text/plain", ""))
            assert not noise.search(text), f"{path.name}: {noise.search(text)[0]}"


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.parent.name + "/" + p.name)
def test_first_code_cell_is_the_setup(path):
    """Each notebook starts with the setup cell: Colab install, .env, the banner."""
    first = "".join(code_cells(path)[0]["source"])
    assert SETUP in first and "google.colab" in first and ".describe(" in first
