"""What a learner sees before writing a line: stored outputs ask, they do not tell.

A learner notebook is stored after a run on its unfinished stubs. Its check cells
must show one short line each (what to write, how to check it), with no case and
no hint; and no output anywhere in it may hold a line of the solutions notebook's
code that the learner's own notebook does not already show.
"""

import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
LEARNER = [*sorted(NOTEBOOKS.glob("[0-9]*.ipynb")),
           *sorted((NOTEBOOKS / "zh").glob("[0-9]*.ipynb"))]
SHORTEST = 12  # characters: shorter lines (`return kept`, `else:`) give nothing away


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def code_lines(path: Path) -> set[str]:
    return {line.strip() for cell in cells(path) if cell["cell_type"] == "code"
            for line in "".join(cell["source"]).splitlines()}


def outputs(cell: dict) -> str:
    return "".join("".join(o.get("text") or o.get("data", {}).get("text/plain", ""))
                   for o in cell.get("outputs", []))


def solution_lines(learner: Path) -> set[str]:
    """Lines of the solutions notebook's code that the learner's code lacks."""
    solutions = code_lines(NOTEBOOKS / "solutions" / learner.name)
    own = code_lines(learner) | code_lines(NOTEBOOKS / learner.name)
    return {line for line in solutions - own
            if len(line) >= SHORTEST and not line.startswith("#")}


def name(path: Path) -> str:
    return path.relative_to(NOTEBOOKS).as_posix()


@pytest.mark.parametrize("path", LEARNER, ids=name)
def test_no_output_holds_a_solution_line(path):
    """No stored output contains a line of the solution's code."""
    secret = solution_lines(path)
    assert secret, f"{name(path)}: its solutions notebook adds no code line?"
    leaks = [(n, line) for n, cell in enumerate(cells(path)) for line in secret
             if line in outputs(cell)]
    assert leaks == []


@pytest.mark.parametrize("path", LEARNER, ids=name)
def test_each_check_cell_shows_one_line_and_no_hint(path):
    """A check cell, run on the stub, shows one line: not written yet, no case, no
    hint, no mark."""
    checks = [cell for cell in cells(path) if cell["cell_type"] == "code"
              and any(line.startswith("check(")
                      for line in "".join(cell["source"]).splitlines())]
    assert checks, f"{name(path)} has no check cell"
    for cell in checks:
        shown = outputs(cell)
        # one line, cut to fit the page: any further line goes on under it
        assert all(line.startswith("  ") for line in shown.splitlines()[1:]), shown
        assert "not written yet" in shown or "还没有写" in shown, shown
        for clue in ("hint", "提示", "✗", "✓", "expected", "应为"):
            assert clue not in shown, shown


def test_the_leak_test_can_fail():
    """The rule bites: a solution line pasted into an output is found."""
    path = LEARNER[0]
    line = sorted(solution_lines(path))[0]
    assert any(line in text for text in [f"output\n{line}\n"])
