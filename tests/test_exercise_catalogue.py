"""The exercise catalogue: every checker has wrong solutions, and official ones.

The wrong solutions are in wrong_solutions.py; each checker module's test file
(test_exercises_nb03.py for nb03.py) runs `checker_tests` over its own exercises.
The official solutions are read from the solutions notebooks: their imports,
functions and classes are executed (not the cells that print), so the code a learner
is shown is the code that is checked.
"""

import ast
import functools
import json
import re
from pathlib import Path

import pytest
from hypothesis import strategies as st
from wrong_solutions import CATALOGUE, fresh

from tinyagent.course.exercises import CHECKS, check

SOLUTIONS = Path(__file__).parent.parent / "notebooks" / "solutions"
# dialogs for the properties that sweep more than a checker samples: "pt" is a plain
# turn then a turn with a tool call (exercises/_dialogs.py), the seed picks the orders
SHAPES = st.text(alphabet="pt", min_size=1, max_size=7)
SEEDS = st.integers(min_value=0, max_value=50)
# exercise -> (solutions notebook, the name the exercise's check cell passes)
OFFICIAL = {
    "00.no_progress": ("00_setup_and_tour", "no_progress"),
    "00.same_signature": ("00_setup_and_tour", "same_signature"),
    "00.what_to_remember": ("00_setup_and_tour", "what_to_remember"),
    "01.build_messages": ("01_stateless_failure", "build_messages"),
    "02.my_memory": ("02_in_memory_memory", "MyMemory"),
    "03.rounds_window": ("03_sliding_window", "RoundsWindowMemory"),
    "03.token_window": ("03_sliding_window", "token_window"),
    "04.summary_trigger": ("04_summary_memory", "plan_compression"),
    "05.merge_step": ("05_hybrid_memory", "merge_summary"),
    "06.tune_hybrid": ("06_compare_strategies", "tuned_hybrid"),
    "06.cheapest_recall": ("06_compare_strategies", "choose_memory"),
    "07.cap_items": ("07_production_memory", "cap_items"),
    "07.apply_if_current": ("07_production_memory", "apply_if_current"),
    "07.restore": ("07_production_memory", "restore"),
    "07.fence": ("07_production_memory", "fence"),
}


@functools.cache  # parsed once: the property tests ask for it on every example
def official(notebook: str, name: str):
    """The definitions of a solutions notebook's code cells, executed quietly."""
    cells = json.loads((SOLUTIONS / f"{notebook}.ipynb").read_text())["cells"]
    namespace: dict = {}
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        # IPython magics (%pip) are not Python: each becomes a `pass`.
        lines = "".join(cell["source"]).splitlines()
        source = "\n".join(re.sub(r"^(\s*)[%!].*", r"\1pass", line) for line in lines)
        tree = ast.parse(source)
        tree.body = [node for node in tree.body if isinstance(node, (
            ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef))]
        exec(compile(tree, notebook, "exec"), namespace)
    return namespace[name]


@pytest.mark.usefixtures("quiet")
def test_every_exercise_has_wrong_solutions():
    """No checker goes untested: each registered exercise has a catalogue entry."""
    check("00.no_progress", lambda t: False)  # loads every checker module
    assert set(CATALOGUE) == {n for n in CHECKS if not n.startswith("99.")}
    tested = {p.stem[-2:] for p in Path(__file__).parent.glob("test_exercises_nb*.py")}
    assert {name[:2] for name in CATALOGUE} <= tested  # a test file per module


def checker_tests(notebook: str):
    """The two tests of one checker module (notebook "03": nb03.py): the official
    solutions pass, and each wrong solution of the catalogue is rejected."""
    names = sorted(n for n in OFFICIAL if n.startswith(f"{notebook}."))
    wrongs = [pytest.param(name, wrong, case, id=f"{name}:{slip}")
              for name, entries in CATALOGUE.items() if name.startswith(f"{notebook}.")
              for slip, wrong, case in entries]

    @pytest.mark.usefixtures("quiet")
    @pytest.mark.parametrize("name", names)
    def test_the_official_solution_passes(name):
        """The solutions notebook's code passes its own exercise."""
        assert check(name, official(*OFFICIAL[name]))

    @pytest.mark.parametrize("name, wrong, case", wrongs)
    def test_each_wrong_solution_is_rejected_naming_the_case(name, wrong, case,
                                                             capsys):
        """A wrong solution fails, and the first failure printed is the case it
        breaks."""
        capsys.readouterr()
        result = check(name, fresh(wrong))
        out = capsys.readouterr().out.splitlines()
        assert not result
        assert case in result.failures[0]
        assert out[1].startswith("✗ FAIL") and case in out[1]

    return (test_the_official_solution_passes,
            test_each_wrong_solution_is_rejected_naming_the_case)
