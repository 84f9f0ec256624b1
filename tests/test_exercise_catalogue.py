"""The exercise catalogue: every checker has wrong solutions, and official ones.

The wrong solutions are in wrong_solutions.py; each checker module's test file
(test_exercises_nb03.py for nb03.py) runs `checker_tests` over its own exercises.
The official solutions are read from the solutions notebooks: their imports,
functions and classes are executed (not the cells that print), so the code a learner
is shown is the code that is checked. Each checker is also run in Chinese
(`check(..., lang="zh")`) on the same code and on the Chinese edition's own code
(zh_solutions.py), in the same test file, so the two languages share a worker's
warm-up and the checkers' remembered model replies; and each Chinese report is made
once, then read by every test that asks a rule of it.
"""

import ast
import contextlib
import functools
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import strategies as st
from wrong_solutions import CATALOGUE, fresh

from tinyagent.course.exercises import CHECKS, CheckResult, check
from tinyagent.lang import get_lang, set_lang

SOLUTIONS = Path(__file__).parent.parent / "notebooks" / "solutions"
# dialogs for the properties that sweep more than a checker samples: "pt" is a plain
# turn then a turn with a tool call (exercises/_dialogs.py), the seed picks the orders
SHAPES = st.text(alphabet="pt", min_size=1, max_size=7)
SEEDS = st.integers(min_value=0, max_value=50)
CHECK_CELL = re.compile(r"""^check\(\s*["'](\d\d\.\w+)["']\s*,\s*(\w+)""", re.M)


def official_names() -> dict[str, tuple[str, str]]:
    """exercise -> (solutions notebook, the name its check cell passes), read from
    the solutions notebooks' `check("08.cap_items", cap_items)` lines: a new
    notebook's solutions join by themselves."""
    found = {}
    for path in sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            if cell["cell_type"] == "code":
                for name, code in CHECK_CELL.findall("".join(cell["source"])):
                    found[name] = (path.stem, code)
    return found


OFFICIAL = official_names()


@functools.cache  # parsed once, one object a solution: its Chinese runs are shared
def official(notebook: str, name: str):
    """A solutions notebook's definition of `name`, executed quietly with the
    definitions and imports it uses (an import that only a printing cell or another
    exercise needs, such as notebook 10's Agents SDK, is not loaded)."""
    cells = json.loads((SOLUTIONS / f"{notebook}.ipynb").read_text())["cells"]
    trees = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        # IPython magics (%pip) are not Python: each becomes a `pass`.
        lines = "".join(cell["source"]).splitlines()
        source = "\n".join(re.sub(r"^(\s*)[%!].*", r"\1pass", line) for line in lines)
        trees.append(ast.parse(source))
    defined = {node.name: node for tree in trees for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    used, waiting = {name}, [name]
    while waiting:  # the names `name` uses, and those its definitions use
        node = defined.get(waiting.pop())
        for found in ast.walk(node) if node else ():
            if isinstance(found, ast.Name) and found.id not in used:
                used.add(found.id)
                waiting.append(found.id)
    namespace: dict = {}
    for tree in trees:
        tree.body = [node for node in tree.body if (
            isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in used
        ) or (isinstance(node, (ast.Import, ast.ImportFrom)) and _used(node, used))]
        exec(compile(tree, notebook, "exec"), namespace)
    return namespace[name]


def _used(node: ast.Import | ast.ImportFrom, used: set[str]) -> bool:
    """The import binds a name in `used` (a star import is kept: it may)."""
    return any(alias.name == "*" or (alias.asname or alias.name.split(".")[0]) in used
               for alias in node.names)


@pytest.mark.usefixtures("quiet")
def test_every_exercise_has_wrong_solutions():
    """No checker goes untested: each registered exercise has a catalogue entry."""
    check("00.no_progress", lambda t: False)  # loads every checker module
    assert set(CATALOGUE) == {n for n in CHECKS if not n.startswith("99.")}
    # ...and test_checkers.py runs the catalogue: every entry is one of its cases
    from test_checkers import wrongs

    assert {p.values[0] for p in wrongs} == set(CATALOGUE)


def stub(*args, **kwargs):
    """A learner notebook's unfinished code: a function, or a class to build."""
    raise NotImplementedError


def candidates(name: str) -> dict:
    """The code an exercise is run on in Chinese: the official solution, as the
    English and the Chinese notebook write it, a stub and every wrong solution of the
    catalogue."""
    from zh_solutions import chinese_official  # it reads OFFICIAL from this module

    return {"official": official(*OFFICIAL[name]),
            "official-zh": chinese_official(name), "stub": stub,
            **{slip: wrong for slip, wrong, _ in CATALOGUE[name]}}


def chinese_report(name: str, who: str) -> tuple[CheckResult, str]:
    """`check(name, candidate, lang="zh")` and what it printed, run once for each
    piece of code (the Chinese official code is mostly the English one)."""
    return _chinese_run(name, candidates(name)[who])


@functools.cache  # each Chinese run is shared by the tests that read it
def _chinese_run(name: str, code) -> tuple[CheckResult, str]:
    """The report as printed, except that no line is cut to fit the page: the
    tests read whole lines (a quote cut in two would read as English words)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), unwrapped_reports():
        result = check(name, fresh(code), lang="zh")
    return result, out.getvalue()


@contextlib.contextmanager
def unwrapped_reports():
    """check() prints every line whole, however long, until the block ends."""
    from tinyagent.course.exercises import _wrap
    width, _wrap.WIDTH = _wrap.WIDTH, 10**9
    try:
        yield
    finally:
        _wrap.WIDTH = width


ROLES = {"system", "user", "assistant", "tool"}  # role values, as code writes them


def one_line(out: str) -> bool:
    """A report of one line, cut to fit (course/exercises/_wrap.py): every line
    after the first goes on under it, and none is a case."""
    lines = out.rstrip("\n").split("\n")
    return all(line.startswith("  ") and not line.lstrip().startswith(("✓", "✗"))
               for line in lines[1:])


def first_case(out: str) -> tuple[str, list[str]]:
    """(the verdict, its line breaks taken out; the lines from the first case on)."""
    lines = out.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(("✓", "✗")))
    return "".join(line.strip() for line in lines[:start]), lines[start:]


def checkers_words(report: str) -> str:
    """The checker's own words: the learner's values shown in quotes are data."""
    return re.sub(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"", " ", report)


def descriptions(name: str, candidate, lang: str) -> list[str]:
    """An exercise's case descriptions in `lang`, without running the cases."""
    notebook = get_lang()
    set_lang(lang)
    try:
        return [description for description, _, _ in CHECKS[name](candidate)]
    finally:
        set_lang(notebook)
