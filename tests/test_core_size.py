"""The learner's core is counted, and the READMEs say its size truthfully."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tinyagent"
# What a learner reads to understand the agent and its memory: memory/ plus the agent
# (its loop, one turn, its trace and guards), the model client, messages and tokens.
CORE = [*sorted((PACKAGE / "memory").glob("*.py")),
        *(PACKAGE / name for name in ("agent.py", "agent_args.py", "turn.py",
                                       "trace.py", "guards.py", "llm.py",
                                       "messages.py", "tokens.py"))]


def core_lines() -> int:
    return sum(len(path.read_text(encoding="utf-8").splitlines()) for path in CORE)


def test_the_readmes_state_the_cores_size_as_counted():
    """Both READMEs give the core's line count (`wc -l`) as it is now."""
    count = f"{core_lines():,}"
    for readme, pattern in [("README.md", r"is ([\d,]+) lines"),
                            ("README.zh-CN.md", r"共 ([\d,]+) 行")]:
        stated = re.search(pattern, (ROOT / readme).read_text(encoding="utf-8"))
        assert stated is not None and stated.group(1) == count, (
            f"{readme} says {stated and stated.group(1)} lines; the core has {count}")


def test_every_core_module_exists():
    """The list above names real files: a renamed module must be renamed here too."""
    assert all(path.is_file() for path in CORE)
