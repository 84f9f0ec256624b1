"""The course's timings: one rule, measured from the notebooks, shown everywhere.

scripts/timings.py counts each notebook's words, code lines, output lines and
exercises and turns them into minutes by a written rule; the README's table and every
notebook's "Time" line (both editions) must be exactly what it prints.
"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def load_script():
    spec = importlib.util.spec_from_file_location("timings",
                                                  ROOT / "scripts" / "timings.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["timings"] = module  # its dataclass looks its module up by name
    spec.loader.exec_module(module)
    return module


timings = load_script()
ROWS = timings.timings()


@pytest.mark.parametrize("name, lang", [("README.md", "en"), ("README.zh-CN.md", "zh")])
def test_the_readme_table_is_the_scripts_output(name, lang):
    """Each README holds the table the script prints, in its language, between its
    markers."""
    readme = (ROOT / name).read_text(encoding="utf-8")
    assert f"<!-- timings -->\n{timings.table(ROWS, lang)}\n<!-- /timings -->" \
        in readme


@pytest.mark.parametrize("row", ROWS, ids=lambda t: t.name)
@pytest.mark.parametrize("folder, lang", [("", "en"), ("zh", "zh")])
def test_each_time_line_is_the_scripts(row, folder, lang):
    """Each notebook's first cell has the script's "Time" line for it, and no other."""
    path = ROOT / "notebooks" / folder / f"{row.name}.ipynb"
    first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    assert timings.TIME_LINE.findall(first) and \
        timings.time_line(row, lang) in first.splitlines()


def test_the_rule_adds_up(tmp_path):
    """180 words, 12 code lines, 40 output lines and one checked exercise are 1 + 1 +
    1 + 10 = 13 minutes, rounded up to 15; in a workshop 1 + 0.5 + 1 = 2.5, to 5."""
    cells = [{"cell_type": "markdown", "source": ["word " * 180]},
             {"cell_type": "code", "source": ["x = 1\n" * 11 + "check('a', f)"],
              "outputs": [{"text": "line\n" * 40}]}]
    path = tmp_path / "99_rule.ipynb"
    path.write_text(json.dumps({"cells": cells}))
    row = timings.measure(path)
    assert (row.words, row.code_lines, row.output_lines, row.checked) == \
        (180, 12, 40, 1)
    assert (row.on_your_own, row.workshop) == (15, 5)


def test_the_course_is_not_timed_below_its_content():
    """Every notebook takes at least a minute per 180 words plus 10 per exercise."""
    for row in ROWS:
        assert row.on_your_own >= row.words / 180 + row.exercise_minutes
