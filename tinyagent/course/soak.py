"""The soak run: does turn 10,000 cost the process what turn 2,000 did?

The companion of longrun.py (notebook 06's last section): that one checks that the
prompt stays bounded; this one watches the process itself over a long conversation,
each memory alone in a fresh Python process with no store: its memory (resident
set size, RSS) and its CPU seconds per 1,000 turns (CPU, not wall-clock time, so
that other jobs on a shared machine do not skew it). A bounded memory must keep
both flat; a cache keyed by every new text, or a list of every request kept
somewhere, shows up here as a slope. The first bucket warms up (imports, the
tokenizer, the caches filling), so the bar compares the last bucket with the
second: at most 1.5 times.

    python -m tinyagent.course.soak                  # 10,000 turns, each memory
    python -m tinyagent.course.soak --turns 2000 --memory window hybrid
    python -m tinyagent.course.soak --adds 100000    # background add(), timed

`--adds` times the background memory's add() alone (an instant summarizer): the
first and the last 10,000 of 100,000 adds, within the same bar. The offline
model's prompt cache is played by the rule TINYAGENT_CACHE_RULE names (default
qwen); `--cache-rule none` leaves it out. Left out: stores (a database grows by
design) and real models.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

MAX_RATIO = 1.5  # the last bucket / the second: at most this
MEMORIES = ("window", "tokens", "summary", "hybrid", "structured", "compact",
            "background")


def rss_mb() -> float:
    """This process's resident memory in MB (Linux: now; elsewhere: its peak)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / (2**20 if sys.platform == "darwin" else 2**10)


def make_memory(name: str) -> Callable[[object], object]:
    """name -> (llm -> a fresh memory): the course's sizes (catalogue.py); the
    background memory gets the structured one's."""
    from .catalogue import STRATEGIES

    if name == "background":
        from ..production import BackgroundSummaryChatMemory

        return lambda llm: BackgroundSummaryChatMemory(
            llm, **STRATEGIES["structured"].sizes)
    return lambda llm: STRATEGIES[name].make(llm)


def play(name: str, turns: int, bucket: int, seed: int) -> list[dict[str, float]]:
    """One memory through `turns` turns of the planted dialog: per bucket of turns,
    the process's CPU seconds (every thread's) and its RSS at the bucket's end."""
    from ..agent import ReActAgent
    from ..llm import LlmClient
    from ..tools import bitmall_tools
    from .planted import planted_dialog

    llm = LlmClient(offline=True)
    memory = make_memory(name)(llm)
    agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    rows, start = [], time.process_time()
    for n, text in enumerate(planted_dialog(turns, seed).turns, 1):
        agent.run(text)
        if n % bucket == 0:
            wait = getattr(memory, "wait", None)
            if wait is not None:  # the background memory: its compressions count
                wait()
            now = time.process_time()
            rows.append({"seconds": now - start, "rss": rss_mb()})
            start = now
    return rows


def timed_adds(adds: int, bucket: int) -> list[dict[str, float]]:
    """The background memory's add() alone, `adds` times: per bucket, its CPU
    seconds (the compressions' thread included) and the slowest single add (wall
    time: what the caller waited)."""
    from ..messages import ChatMessage
    from ..production import BackgroundSummaryChatMemory
    from .bench import InstantSummarizer

    memory = BackgroundSummaryChatMemory(InstantSummarizer())
    messages = [ChatMessage.user(f"Where is my order {88231 + n % 7}?") if n % 2 == 0
                else ChatMessage.assistant(f"Order {88231 + n % 7}: answer {n}.")
                for n in range(adds)]
    rows, slowest, start = [], 0.0, time.process_time()
    for n, message in enumerate(messages, 1):
        before = time.perf_counter()
        memory.add(message)
        slowest = max(slowest, time.perf_counter() - before)
        if n % bucket == 0:
            now = time.process_time()
            rows.append({"seconds": now - start, "slowest": slowest})
            start, slowest = now, 0.0
    memory.wait()
    return rows


def in_child(argv: Sequence[str], rule: str | None = None
             ) -> list[dict[str, float]]:
    """Run one measure in a fresh Python process: one memory's RSS is its own.
    `rule`: the offline prompt cache's rule there (None: this process's)."""
    env = {**os.environ, **({"TINYAGENT_CACHE_RULE": rule} if rule else {})}
    done = subprocess.run([sys.executable, "-m", "tinyagent.course.soak", "--child",
                           *argv], capture_output=True, text=True, check=False,
                          env=env)
    if done.returncode != 0:
        raise RuntimeError(f"the soak run of {' '.join(argv)} failed:\n"
                           f"{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def ratio(rows: list[dict[str, float]], key: str) -> float:
    """The last bucket's figure over the second's (over the first's if only two)."""
    ref = rows[1] if len(rows) > 2 else rows[0]
    return rows[-1][key] / ref[key] if ref[key] else float("inf")


def report(runs: dict[str, list[dict[str, float]]], bucket: int) -> str:
    head = (f"{'memory':<12}{'turns':>7}  {f'CPU s per {bucket:,} turns: 2nd':>28}"
            f"{'last':>7}{'ratio':>7}  {'RSS MB: 2nd':>12}{'last':>7}{'ratio':>7}  ok")
    lines = [head]
    for name, rows in runs.items():
        ref = rows[1] if len(rows) > 2 else rows[0]
        time_ratio, rss_ratio = ratio(rows, "seconds"), ratio(rows, "rss")
        ok = time_ratio <= MAX_RATIO and rss_ratio <= MAX_RATIO
        lines.append(f"{name:<12}{len(rows) * bucket:>7,}  {ref['seconds']:>28.2f}"
                     f"{rows[-1]['seconds']:>7.2f}{time_ratio:>7.2f}  "
                     f"{ref['rss']:>12.0f}{rows[-1]['rss']:>7.0f}{rss_ratio:>7.2f}  "
                     f"{'yes' if ok else 'NO'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tinyagent.course.soak", description="A long conversation "
        "through each memory (no store): RSS and seconds per bucket of turns.")
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--bucket", type=int, default=1_000, help="turns a bucket")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--memory", nargs="+", choices=MEMORIES, default=MEMORIES)
    parser.add_argument("--adds", type=int, default=0, metavar="N",
                        help="instead: time N background add()s, 10 buckets")
    parser.add_argument("--cache-rule", help="the offline prompt cache's rule for "
                        "this run (none: no prompt cache)")
    parser.add_argument("--buckets", action="store_true", help="print every bucket")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:  # in a fresh process: one measure, printed as JSON
        kind, *rest = args.child
        rows = (timed_adds(*map(int, rest)) if kind == "adds"
                else play(kind, *map(int, rest)))
        print(json.dumps(rows))
        return 0
    if args.adds:
        rows = in_child(["adds", str(args.adds), str(max(args.adds // 10, 1))])
        first, last = rows[0]["seconds"], rows[-1]["seconds"]
        slowest = max(r["slowest"] for r in rows) * 1e3
        print(f"background add(), {args.adds:,} adds in 10 buckets: first "
              f"{first:.2f} CPU s, last {last:.2f} CPU s, ratio {last / first:.2f} "
              f"(bar {MAX_RATIO}); slowest add {slowest:.1f} ms")
        return 0 if last / first <= MAX_RATIO else 1
    rule = args.cache_rule or os.environ.get("TINYAGENT_CACHE_RULE") or "qwen"
    print(f"{args.turns:,} turns of the planted dialog (seed {args.seed}), offline, "
          f"prompt cache rule {rule}, no store; each memory in its own process.")
    runs = {}
    for name in args.memory:
        runs[name] = in_child([name, str(args.turns), str(args.bucket),
                               str(args.seed)], args.cache_rule)
        if args.buckets:
            print(f"{name}: " + "  ".join(f"{r['seconds']:.2f}s/{r['rss']:.0f}MB"
                                          for r in runs[name]), flush=True)
    print(report(runs, args.bucket))
    bad = [name for name, rows in runs.items() if max(
        ratio(rows, "seconds"), ratio(rows, "rss")) > MAX_RATIO]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
