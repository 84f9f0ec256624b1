"""Record what the course's measuring commands print, for the figures the prose cites.

    python scripts/record_outputs.py              # every command (about 10 min)
    python scripts/record_outputs.py ratios       # those whose name starts so
    python scripts/record_outputs.py --list       # the commands and their files

The README and the notebooks quote figures that a command prints ("`python -m
tinyagent.course.ratios` ... 69 / 202 = 34 %"). tests/test_prose_numbers.py checks
every such figure against that command's output: the cheap commands it runs itself;
the others take seconds to minutes, so their output is recorded here, in
tests/outputs/NAME.txt, its first line the command. Run this after a change that
changes what a command prints (the offline summarizer, a memory's sizes, the cache
rules), then fix the prose the test names. Offline, so the outputs are the same on
every machine. Left out: commands that time things (`tinyagent bench`): their
figures vary from run to run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUTS = ROOT / "tests" / "outputs"
# name -> (the command as the prose cites it, the arguments after it)
COMMANDS: dict[str, tuple[str, list[str]]] = {
    "ratios": ("python -m tinyagent.course.ratios", []),
    "ratios_zh": ("python -m tinyagent.course.ratios", ["--lang", "zh"]),
    "evaluation": ("python -m tinyagent.course.evaluation", []),
    "evaluation_zh": ("python -m tinyagent.course.evaluation", ["--lang", "zh"]),
    "longrun": ("python -m tinyagent.course.longrun", []),
    "longrun_zh": ("python -m tinyagent.course.longrun", ["--lang", "zh"]),
    "longrun_budget_80": ("python -m tinyagent.course.longrun", ["--budget", "80"]),
    "longrun_budget_80_zh": ("python -m tinyagent.course.longrun",
                             ["--lang", "zh", "--budget", "80"]),
    "seed_sweep": ("python scripts/seed_sweep.py", ["--seeds", "0-19"]),
    "seed_sweep_compact": ("python scripts/seed_sweep.py", ["--compact"]),
    "seed_sweep_compact_zh": ("python scripts/seed_sweep.py",
                              ["--compact", "--lang", "zh"]),
    "seed_sweep_compact_20": ("python scripts/seed_sweep.py",
                              ["--compact", "--seeds", "20-29"]),
    "recall_sweep": ("python scripts/recall_sweep.py", []),
    "recall_sweep_zh": ("python scripts/recall_sweep.py", ["--lang", "zh"]),
}


def argv(name: str) -> list[str]:
    """The command line that is run: the cited command, then its arguments."""
    cited, extra = COMMANDS[name]
    return [sys.executable, *cited.split()[1:], *extra]


def record(name: str) -> Path:
    """Run one command offline, from the project folder, and save what it printed."""
    env = dict(os.environ, TINYAGENT_OFFLINE="1", PYTHONHASHSEED="0")
    for variable in ("TINYAGENT_API_KEY", "TINYAGENT_LANG", "TINYAGENT_CACHE_RULE"):
        env.pop(variable, None)  # the language and the rule are the arguments' alone
    done = subprocess.run(argv(name), cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    path = OUTPUTS / f"{name}.txt"
    cited, extra = COMMANDS[name]
    path.write_text(f"$ {' '.join([cited, *extra])}\n{done.stdout}", encoding="utf-8")
    return path


def main(args: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python scripts/record_outputs.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="command names, or their start "
                        "(default: every command)")
    parser.add_argument("--list", action="store_true", help="list the commands")
    options = parser.parse_args(args)
    names = [n for n in COMMANDS if not options.names
             or n.startswith(tuple(options.names))]
    for name in names:
        cited, extra = COMMANDS[name]
        if options.list:
            print(f"{name:<22} {' '.join([cited, *extra])}")
            continue
        print(f"{name}: {record(name).relative_to(ROOT)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
