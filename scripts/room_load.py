"""A room on one model server: N learners play notebook 05's six-turn demo at once.

    python scripts/room_load.py --url http://127.0.0.1:8000/v1 --learners 10

For the README's capacity figure (instructor notes). Each simulated learner is a
thread with its own client and hybrid memory (6/10, the demo's), as a laptop in the
room would be, with the settings the server tells learners to use (no retries) and
the client's default timeout. Each learner asks about another order, so their
prompts differ after the shared system prompt and tools (the server's prefix cache
cannot serve one learner's history to another). A learner whose cell is refused
(HTTP 503, "busy, try again in 30 s") runs it again after those 30 s, as told,
up to three times. It prints when the first and the last learner were done, and
over all calls the median and slowest call and how many were refused or timed
out. Left out: the notebook's own cells around the demo
(about as many calls again), think time between cells, and the network.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tinyagent import HybridChatMemory, LlmClient, LlmError, ReActAgent  # noqa: E402
from tinyagent.course.catalogue import SIX_TURNS  # noqa: E402
from tinyagent.tools import bitmall_tools  # noqa: E402

RETRY_AFTER = 30  # seconds, what the server's 503 says
TRIES = 4  # a refused cell is run again up to three times
OTHER_ERRORS: list[str] = []  # neither refused nor timed out: printed at the end

ORDERS = ("88231", "90417", "55107", "73820", "61554")  # the store's orders


class Timed:
    """An LlmClient whose every call's seconds and failure are kept."""

    def __init__(self, llm: LlmClient, log: list[tuple[float, str]]) -> None:
        self.llm, self.log = llm, log

    def chat(self, messages, tools=None):  # type: ignore[no-untyped-def]
        start = time.monotonic()
        try:
            reply = self.llm.chat(messages, tools)
        except LlmError as exc:
            why = "busy" if "503" in str(exc) else "timeout" if "timed out" in str(
                exc) else "error"
            self.log.append((time.monotonic() - start, why))
            if why == "error":
                OTHER_ERRORS.append(str(exc)[:200])
            raise
        self.log.append((time.monotonic() - start, ""))
        return reply


def learner(n: int, url: str, model: str, log: list[tuple[float, str]],
            ended: dict[int, float], started: float) -> None:
    llm = Timed(LlmClient("workshop", url, model, max_retries=0), log)
    agent = ReActAgent(llm, bitmall_tools(), memory=HybridChatMemory(llm, 6, 10),
                       verbose=False)
    for text in SIX_TURNS["en"]:
        for _ in range(TRIES):
            try:
                agent.run(text.replace("88231", ORDERS[n % len(ORDERS)]))
                break
            except LlmError as exc:  # counted in the log
                if "503" not in str(exc):
                    break  # the learner goes on to the next cell
                time.sleep(RETRY_AFTER)
    ended[n] = time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the server, e.g. "
                        "http://127.0.0.1:8000/v1")
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--learners", type=int, default=10)
    args = parser.parse_args(argv)
    log: list[tuple[float, str]] = []
    ended: dict[int, float] = {}
    started = time.monotonic()
    threads = [threading.Thread(target=learner, args=(n, args.url, args.model, log,
                                                      ended, started))
               for n in range(args.learners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done = [seconds for seconds, why in log if not why]
    print(f"{args.learners} learners, six turns each: the last finished after "
          f"{max(ended.values()):.0f} s (first {min(ended.values()):.0f} s); "
          f"{len(log)} calls, median {statistics.median(done or [0]):.1f} s, "
          f"slowest {max(done or [0]):.1f} s; refused (503) "
          f"{sum(why == 'busy' for _, why in log)}, timed out "
          f"{sum(why == 'timeout' for _, why in log)}, other errors "
          f"{sum(why == 'error' for _, why in log)}")
    for error in dict.fromkeys(OTHER_ERRORS):
        print(f"  {error}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
