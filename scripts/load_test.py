"""Many processes, one store: does any turn get lost? Prints the figures.

    python scripts/load_test.py                                   # SQLite, temp file
    python scripts/load_test.py --db postgresql://user@host/db    # PostgreSQL
    python scripts/load_test.py --workers 4 --turns 50 --mode one

N worker processes each run a fixed number of agent turns with the offline model,
every turn asking about an order number of its own. `--mode one` puts them all on
one session (they interleave, compress and race to save summaries), `separate`
gives each its own session, `both` runs one then the other. Afterwards the parent
reloads each session and counts: turns per second, summaries dropped and
re-planned because another writer saved first ("conflicts retried"), lost turns
(an order number whose question is not in the transcript), duplicate summary
versions, and order numbers the reloaded memory (summary + verbatim tail) does not
hold. The memory is the structured incremental one (`--memory background`: the same,
compressing on a pool) with a 2-turn verbatim tail and batches of 2 turns, so
compressions happen often. Exit status 1 if anything was lost.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time

from tinyagent import LlmClient, ReActAgent, bitmall_tools
from tinyagent.production import (
    BackgroundSummaryChatMemory,
    IncrementalSummaryChatMemory,
    SessionManager,
)
from tinyagent.storage import open_store, safe_url

OFFLINE = LlmClient(offline=True)


MEMORIES = {"structured": IncrementalSummaryChatMemory,  # compresses inside the turn
            "background": BackgroundSummaryChatMemory}  # on a pool, after the turn


def manager(store, planted: int, memory: str = "structured") -> SessionManager:
    """Sessions whose summary budget holds the `planted` order numbers of one session.

    This test measures loss under concurrency, not eviction: with the default budget
    the oldest numbers would be evicted on purpose once the summary is full
    (notebook 04, "When the summary is full"). A number takes about 7 characters and
    3 tokens on the summary's ids line."""
    return SessionManager(store, lambda: MEMORIES[memory](
        OFFLINE, keep_recent_turns=2, batch_turns=2,
        max_summary_chars=1_000 + 8 * planted,
        max_summary_tokens=200 + 4 * planted), "structured")


def order_id(worker: int, turn: int) -> int:
    return 10000 + worker * 1000 + turn  # 5 digits, one per turn of each worker


def worker(url: str, name: str, number: int, turns: int, planted: int, memory: str,
           queue, go) -> None:
    """One process: `turns` agent turns on session `name`; reports its conflicts."""
    with open_store(url) as store:
        session = manager(store, planted, memory).load(name)
        agent = ReActAgent(OFFLINE, bitmall_tools(), memory=session, verbose=False)
        queue.put(0)  # ready
        go.wait()
        for turn in range(turns):
            agent.run(f"Where is my order {order_id(number, turn)}?")
        if isinstance(session.memory, BackgroundSummaryChatMemory):
            session.memory.wait()  # let the last compression be saved
        queue.put(session.conflicts)


def run(url: str, workers: int, turns: int, shared: bool,
        memory: str = "structured") -> dict[str, float]:
    names = [f"load-{os.getpid()}-{'one' if shared else n}" for n in range(workers)]
    planted = workers * turns if shared else turns  # order numbers in one session
    with open_store(url) as store:
        for name in sorted(set(names[:1] if shared else names)):
            manager(store, planted).create(name)
    # Fork (where there is one) after a warm-up turn: the workers start with the
    # tokenizer and the model client loaded, and no connection is open to inherit.
    ReActAgent(OFFLINE, bitmall_tools(), verbose=False).run("Where is order 10000?")
    methods = multiprocessing.get_all_start_methods()
    spawn = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    queue, go = spawn.Queue(), spawn.Event()
    procs = [spawn.Process(target=worker, args=(
        url, names[0] if shared else names[n], n, turns, planted, memory, queue, go))
        for n in range(workers)]
    for proc in procs:
        proc.start()
    for _ in procs:
        queue.get(timeout=600)  # every worker started: start the clock together
    start = time.perf_counter()
    go.set()
    conflicts = sum(queue.get(timeout=600) for _ in procs)
    for proc in procs:
        proc.join()
    seconds = time.perf_counter() - start
    lost = duplicates = forgotten = 0
    with open_store(url) as store:
        for name in sorted(set(names)):
            owners = [n for n in range(workers) if names[n] == name]
            ids = {order_id(n, t) for n in owners for t in range(turns)}
            transcript = " ".join(m.content or "" for m in store.messages(name))
            lost += sum(f"order {i}?" not in transcript for i in ids)
            versions = [s.version for s in store.summaries(name)]
            duplicates += len(versions) - len(set(versions))
            memory = " ".join(m.content or "" for m in
                              manager(store, planted).load(name).messages())
            forgotten += sum(str(i) not in memory for i in ids)
            store.delete_session(name)
    return {"turns": workers * turns, "seconds": seconds, "conflicts": conflicts,
            "lost": lost, "duplicates": duplicates, "forgotten": forgotten,
            "failed": sum(p.exitcode != 0 for p in procs)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", metavar="URL", help="SQLite file or postgresql:// URL"
                        " (default: a new file in a temporary folder)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--turns", type=int, default=50, help="per worker")
    parser.add_argument("--mode", choices=["one", "separate", "both"], default="both")
    parser.add_argument("--memory", choices=sorted(MEMORIES), default="structured")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or os.path.join(folder, "load.db")
        kind = "PostgreSQL" if url.startswith("postgres") else "SQLite"
        print(f"{kind} at {safe_url(args.db) if args.db else 'a temporary file'}, "
              f"{args.workers} processes x {args.turns} turns, {args.memory} memory, "
              "offline model")
        bad = 0
        for shared in {"one": [True], "separate": [False]}.get(args.mode,
                                                                 [True, False]):
            r = run(url, args.workers, args.turns, shared, args.memory)
            print(f"  {'one session ' if shared else 'own sessions'}: "
                  f"{r['turns']:.0f} turns in {r['seconds']:.1f} s = "
                  f"{r['turns'] / r['seconds']:.1f} turns/s; conflicts retried "
                  f"{r['conflicts']:.0f}, lost turns {r['lost']:.0f}, duplicate "
                  f"versions {r['duplicates']:.0f}, ids not recalled after reload "
                  f"{r['forgotten']:.0f}, failed workers {r['failed']:.0f}")
            bad += r["lost"] + r["duplicates"] + r["forgotten"] + r["failed"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
