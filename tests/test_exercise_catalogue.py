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
from zh_text import english_sentences, stray_english

from tinyagent.course.exercises import CHECKS, CheckResult, check
from tinyagent.course.exercises._wrap import wrap
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


def checker_tests(notebook: str):
    """The tests of one checker module (notebook "03": nb03.py), in this order: the
    official solutions pass, and each wrong solution of the catalogue is rejected
    naming its case; then the same in Chinese, where no report holds an English
    sentence (official, stub or wrong code)."""
    names = sorted(n for n in OFFICIAL if n.startswith(f"{notebook}."))
    wrongs = [pytest.param(name, wrong, case, id=f"{name}:{slip}")
              for name, entries in CATALOGUE.items() if name.startswith(f"{notebook}.")
              for slip, wrong, case in entries]
    slips = [pytest.param(name, slip, id=f"{name}:{slip}")
             for name, entries in sorted(CATALOGUE.items())
             if name.startswith(f"{notebook}.") for slip, _, _ in entries]

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
        verdict, shown = first_case("\n".join(out))
        assert "checks pass" in verdict
        assert shown[:len(wrap(f"✗ FAIL  {result.failures[0]}"))] == wrap(
            f"✗ FAIL  {result.failures[0]}")

    @pytest.mark.parametrize("name", names)
    def test_the_official_solution_passes_in_chinese(name):
        """The solutions notebook's code passes in Chinese too, where the inputs a
        report shows (dialogs, summaries) are Chinese."""
        result, out = chinese_report(name, "official")
        assert result, out

    @pytest.mark.parametrize("name", names)
    def test_a_chinese_report_holds_no_english_sentence(name):
        """Whatever the code (official, stub, each wrong solution), the Chinese
        report has no run of three English words: not in the verdict, the marks,
        the cases, the evidence or the hints."""
        for who in candidates(name):
            _, out = chinese_report(name, who)
            assert english_sentences(out) == [], f"{name} with {who}:\n{out}"

    @pytest.mark.parametrize("name, wrong, case", wrongs)
    def test_the_chinese_verdict_names_the_case_that_fails(name, wrong, case):
        """Right under the Chinese verdict comes the Chinese twin of the case the
        English report names first."""
        english = descriptions(name, wrong, "en")
        index = next(i for i, text in enumerate(english) if case in text)
        chinese = descriptions(name, wrong, "zh")[index]
        slip = next(s for s, w, _ in CATALOGUE[name] if w is wrong)
        result, out = chinese_report(name, slip)
        lines = out.splitlines()  # made unwrapped: one line a case
        assert "第一个 ✗ 未通过" in lines[0] and lines[1] == f"✗ 未通过  {chinese}", out
        assert result.failures[0] == chinese

    @pytest.mark.parametrize("name", names)
    def test_the_chinese_editions_official_code_passes(name):
        """The official code as the Chinese notebook writes it (Chinese prompt,
        labels, markers) passes its checker in Chinese, every case, with no English
        word outside names."""
        result, out = chinese_report(name, "official-zh")
        assert result, out
        assert stray_english(checkers_words(out.replace(name, " ")), ROLES) == [], out

    @pytest.mark.parametrize("name, slip", slips)
    def test_a_wrong_solution_is_shown_got_and_expected_in_chinese(name, slip):
        """Every wrong solution's Chinese report shows evidence, 得到 (what the code
        gave) and 应为 (what was expected), not only a hint, and no English."""
        result, out = chinese_report(name, slip)
        assert not result
        assert "得到" in out and "应为" in out, out
        assert stray_english(checkers_words(out.replace(name, " ")), ROLES) == [], out

    return (test_the_official_solution_passes,
            test_each_wrong_solution_is_rejected_naming_the_case,
            test_the_official_solution_passes_in_chinese,
            test_a_chinese_report_holds_no_english_sentence,
            test_the_chinese_verdict_names_the_case_that_fails,
            test_the_chinese_editions_official_code_passes,
            test_a_wrong_solution_is_shown_got_and_expected_in_chinese)
