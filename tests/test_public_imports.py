"""The notebooks import only the package's public names.

A learner copies a notebook's imports into their own code, so those imports must be
the package's promises: a public package (one with an `__all__`) and a name listed
in it. A private module (`tinyagent.memory.summarizer`, `tinyagent.course.draw`) may
be renamed or split at any time; its public package re-exports what stays.
"""

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ALL = sorted(p for folder in ("", "zh", "solutions")
             for p in (NOTEBOOKS / folder).glob("[0-9][0-9]_*.ipynb"))
PUBLIC = {"tinyagent", "tinyagent.memory", "tinyagent.production", "tinyagent.storage",
          "tinyagent.course", "tinyagent.course.exercises", "tinyagent.agents_sdk"}


def code(path: Path) -> list[str]:
    """The notebook's code cells, each an IPython magic line made a `pass`."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [re.sub(r"^(\s*)[%!].*$", r"\1pass", "".join(cell["source"]), flags=re.M)
            for cell in notebook["cells"] if cell["cell_type"] == "code"]


def tinyagent_imports(source: str) -> list[tuple[str, list[str]]]:
    """(module, names) for every import of tinyagent in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] \
                == "tinyagent":
            found.append((node.module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names
                      if alias.name.split(".")[0] == "tinyagent"]
    return found


def test_the_parser_sees_a_private_import():
    """The scan finds `from tinyagent.x.y import z`, also inside an indented block."""
    source = "if True:\n    from tinyagent.memory.summarizer import PROMPT as P\n"
    assert tinyagent_imports(source) == [("tinyagent.memory.summarizer", ["PROMPT"])]


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_a_notebook_imports_only_public_names(path):
    """Every tinyagent import names a public package and a name in its __all__."""
    wrong = []
    for module, names in (found for cell in code(path)
                          for found in tinyagent_imports(cell)):
        if module not in PUBLIC:
            wrong.append(f"{module} is not a public package ({sorted(PUBLIC)})")
            continue
        exported = set(importlib.import_module(module).__all__)
        wrong += [f"{module}.{name} is not in {module}.__all__"
                  for name in names if name not in exported]
    assert not wrong, f"{path.name}: " + "; ".join(wrong)
