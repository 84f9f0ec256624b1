"""The package's layers, read from the source: what may import what, and how long a
module may grow. Imports are read with `ast`, so an import inside a function counts
as much as one at the top of a file."""

import ast
import functools
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


def imports(path: Path, source: str | None = None) -> frozenset[str]:
    """The tinyagent modules `path` (or `source`, as if it were that file) imports,
    relative imports resolved: every import statement, at the top, inside a
    function or under `if TYPE_CHECKING`."""
    return file_imports(path) if source is None else imports_in(path, source)


@functools.cache
def file_imports(path: Path) -> frozenset[str]:
    """A file's imports as it stands: parsed once, for every test that reads it."""
    return imports_in(path, path.read_text(encoding="utf-8"))


def imports_in(path: Path, source: str) -> frozenset[str]:
    tree = ast.parse(source)
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
    return frozenset(name for name in found if name.split(".")[0] == "tinyagent")


def packages_of(module: str) -> list[str]:
    """`module` and every package above it: a.b.c -> [a, a.b, a.b.c]."""
    parts = module.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts) + 1)]


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def above_memory(planted: dict[Path, str] | None = None) -> list[str]:
    """memory's imports of a layer above it (`planted`: sources read instead)."""
    planted = planted or {}
    return sorted(f"{module_name(path)} -> {name}"
                  for path in (PACKAGE / "memory").rglob("*.py")
                  for name in imports(path, planted.get(path))
                  if name.startswith(ABOVE_MEMORY))


def import_graph(planted: dict[Path, str] | None = None) -> dict[str, set[str]]:
    """module -> the tinyagent modules it imports (`planted`: sources read instead).
    Importing a.b.c runs a/__init__ and a/b/__init__ first: those count too; an
    edge from a module up to its own package does not (the package's __init__
    re-exports its modules by design)."""
    planted = planted or {}
    known = {module_name(path): path for path in sources()}
    return {name: {parent for target in imports(path, planted.get(path))
                   for parent in packages_of(target)
                   if parent in known and parent != name
                   and not name.startswith(parent + ".")}
            for name, path in known.items()}


def first_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of `graph` (a -> b -> a), or [] when it has none."""
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
        if name not in state and (path := visit(name, [])):
            return path[path.index(path[-1]):]
    return []


def test_memory_imports_nothing_above_it():
    """tinyagent.memory is the course's lower layer: no module of it imports the
    stores, production, the course, the agent, the tools, the offline model, the
    display or the HTTP client, not even inside a function."""
    assert above_memory() == []


def test_no_import_cycle_among_tinyagent_modules():
    """Imports between tinyagent modules form no cycle, those inside functions
    included: a function-level import only hides a cycle until the function runs."""
    cycle = first_cycle(import_graph())
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_the_rules_see_imports_planted_inside_functions():
    """The two rules bite: a memory that imports the HTTP client inside a method,
    and two course modules that import each other only inside functions, are
    found."""
    window = PACKAGE / "memory" / "window.py"
    planted = window.read_text(encoding="utf-8") + (
        "\n\ndef _model():\n    from ..llm import LlmClient\n    return LlmClient\n")
    assert "tinyagent.memory.window -> tinyagent.llm" in above_memory(
        {window: planted})
    chat, sessions = (PACKAGE / "course" / f"{name}.py"
                      for name in ("chat_cli", "sessions_cli"))
    loop = {path: path.read_text(encoding="utf-8")
            + f"\n\ndef _other():\n    from . import {other.stem}\n"
            for path, other in ((chat, sessions), (sessions, chat))}
    assert first_cycle(import_graph(loop)) in (
        ["tinyagent.course.chat_cli", "tinyagent.course.sessions_cli",
         "tinyagent.course.chat_cli"],
        ["tinyagent.course.sessions_cli", "tinyagent.course.chat_cli",
         "tinyagent.course.sessions_cli"])


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_250_lines(path):
    """Every module of tinyagent fits in one sitting: at most 250 lines."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines"
