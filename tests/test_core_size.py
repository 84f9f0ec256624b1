"""The learner's core is what the agent and the memories import, followed to the
end, and the READMEs give its modules and its size truthfully."""

import re

from test_layering import PACKAGE, imports, module_name, sources

ROOT = PACKAGE.parent
# The core as it is read: agent.py and memory/, and every module they import, at
# any depth and at any level (the top of a file, inside a function, for a type).
# A package's __init__ that Python runs on the way (tinyagent/, tools/) is not read
# for the lesson, and is not counted unless an import names it.
CORE = sorted(["tinyagent/agent.py", "tinyagent/turn.py", "tinyagent/trace.py",
               "tinyagent/guards.py", "tinyagent/chat_model.py",
               "tinyagent/messages.py", "tinyagent/tokens.py", "tinyagent/lang.py",
               "tinyagent/checks.py", "tinyagent/tools/registry.py",
               *(f"tinyagent/memory/{name}.py" for name in (
                   "__init__", "base", "turns", "in_memory", "window",
                   "token_window", "summary", "hybrid", "compressed", "summarizer",
                   "transcript", "entities", "budget", "fence", "fork"))])
READMES = [("README.md", r"is ([\d,]+) lines", "## Reading the code"),
           ("README.zh-CN.md", r"共 ([\d,]+) 行", "## 阅读代码")]


def imported_core() -> list[str]:
    """The core found by following the imports from agent.py and memory/."""
    known = {module_name(path): path for path in sources()}
    todo = [name for name in known if name == "tinyagent.agent"
            or name.split(".")[:2] == ["tinyagent", "memory"]]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += [target for target in imports(known[name]) if target in known]
    return sorted(str(known[name].relative_to(ROOT)) for name in seen)


def core_lines() -> int:
    return sum(len((ROOT / path).read_text(encoding="utf-8").splitlines())
               for path in CORE)


def test_the_core_is_every_module_the_agent_and_memory_import():
    """The list above is the import graph's: a module the agent or a memory starts
    to import, even inside a function, joins the core (and its count)."""
    assert imported_core() == CORE


def test_the_readmes_state_the_cores_size_and_list_its_modules():
    """Both READMEs give the core's line count (`wc -l`) as it is now, and their
    reading path names every module of it."""
    count = f"{core_lines():,}"
    for readme, pattern, heading in READMES:
        text = (ROOT / readme).read_text(encoding="utf-8")
        section = text[text.index(heading):].split("\n## ")[0]
        stated = re.search(pattern, section)
        assert stated is not None and stated.group(1) == count, (
            f"{readme} says {stated and stated.group(1)} lines; the core has {count}")
        missing = [path for path in CORE
                   if path.removeprefix("tinyagent/") not in section]
        assert missing == [], f"{readme}'s reading path leaves out {missing}"
