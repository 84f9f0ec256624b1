"""The package's layers, read from the source: what may import what, and how long a
module may grow. Imports are read with `ast`, so an import inside a function counts
as much as one at the top of a file."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tinyagent"
# What the memory strategies must not know about: they sit below all of these. A
# memory needs a model's `chat()` (tinyagent.chat_model), never the HTTP client that
# implements it (llm.py and its parts), and it never draws itself (display.py).
ABOVE_MEMORY = ("tinyagent.storage", "tinyagent.production", "tinyagent.course",
                "tinyagent.agent", "tinyagent.turn", "tinyagent.trace",
                "tinyagent.guards", "tinyagent.offline", "tinyagent.display",
                "tinyagent.llm", "tinyagent.reply", "tinyagent.call_errors",
                "tinyagent.settings", "tinyagent.http_limits", "tinyagent.tools")
MAX_LINES = 250


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The tinyagent modules `path` imports, relative imports resolved: every import
    statement, at the top, inside a function or under `if TYPE_CHECKING`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            # `from . import x` and `from .pkg import mod` may name modules too
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] == "tinyagent"}


def packages_of(module: str) -> list[str]:
    """`module` and every package above it: a.b.c -> [a, a.b, a.b.c]."""
    parts = module.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts) + 1)]


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_memory_imports_nothing_above_it():
    """tinyagent.memory is the course's lower layer: no module of it imports the
    stores, production, the course, the agent, the tools, the offline model, the
    display or the HTTP client, not even inside a function."""
    wrong = {f"{module_name(path)} -> {name}"
             for path in (PACKAGE / "memory").rglob("*.py")
             for name in imports(path)
             if name.startswith(ABOVE_MEMORY)}
    assert not wrong, sorted(wrong)


def test_no_import_cycle_among_tinyagent_modules():
    """Imports between tinyagent modules form no cycle, those inside functions
    included: a function-level import only hides a cycle until the function runs (a
    package counts as its __init__, which importing any module of it runs first)."""
    known = {module_name(path): path for path in sources()}
    # Importing a.b.c runs a/__init__ and a/b/__init__ first: those count too.
    graph = {name: {parent for target in imports(path)
                    for parent in packages_of(target)
                    if parent in known and parent != name}
             for name, path in known.items()}
    # A package imports its own modules by design: its __init__ re-exports them,
    # so an edge from a module up to its own package is the only cycle allowed.
    graph = {name: {t for t in targets if not name.startswith(t + ".")}
             for name, targets in graph.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> list[str] | None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                return [*path, name, target]
            if target not in state and (cycle := visit(target, [*path, name])):
                return cycle
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            path = visit(name, [])
            cycle = path[path.index(path[-1]):] if path else []
            assert not cycle, "import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_250_lines(path):
    """Every module of tinyagent fits in one sitting: at most 250 lines."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines"
