"""The last part of scripts/real_model_check.py: one dialog, timed, with no cap.

The course's six-turn dialog, played by three memories with the course's sizes:
in-memory (the prompt only grows, so the server can reuse all of the previous one
from its KV cache), a window (the oldest turn leaves the front, and the cache
must start again), and a compressing memory (the summary changes the front, and
the cache starts again once a compression). Each call's seconds and the server's
cached prompt tokens are printed, for the reader to compare; timings are not
asserted, a shared machine's load makes them noise. The proxy's caps are off here,
so the one rule is that the server itself bounds every reply: each call ends with
HTTP 200 within the client's timeout, under the check's deadline.
"""

from __future__ import annotations

import io

from real_model_faults import MAX_STEPS
from real_model_rules import Results, run_turn
from recording_proxy import RecordingProxy

from tinyagent import LlmClient, ReActAgent, bitmall_tools
from tinyagent.course.catalogue import SIX_TURNS, STRATEGIES

TURNS = 4  # enough for the window to slide and the summary to compress once


def timed_strategies() -> list[str]:
    """In-memory, window, and the compacting memory if the catalogue has one,
    else the summary."""
    return ["inmemory", "window", "compact" if "compact" in STRATEGIES else "summary"]


def timing(r: Results, proxy: RecordingProxy, llm: LlmClient,
           out: io.StringIO) -> None:
    print("\n[one dialog, no cap from the proxy: seconds and cached prompt tokens]")
    proxy.capped = False
    first = len(proxy.exchanges)
    try:
        for name in timed_strategies():
            strategy = STRATEGIES[name]
            # Sizes small enough that 4 turns slide the window and compress once.
            sizes = {"window": {"max_messages": 4}, "summary":
                     {"threshold": 6, "keep_recent": 2}}.get(name, {})
            agent = ReActAgent(llm, bitmall_tools(), max_steps=MAX_STEPS,
                               memory=strategy.make(llm, **sizes))
            label = strategy.title
            for turn, text in enumerate(SIX_TURNS["en"][:TURNS], 1):
                start = len(proxy.exchanges)
                error = run_turn(agent, text, out)
                for e in proxy.exchanges[start:]:
                    usage = (e.reply or {}).get("usage") or {}
                    cached = (usage.get("prompt_tokens_details") or {}).get(
                        "cached_tokens", "-")
                    print(f"  {label:10} turn {turn} {e.kind:7} {e.seconds:6.2f}s  "
                          f"prompt={usage.get('prompt_tokens', '-'):>4} "
                          f"cached={cached:>4} completion="
                          f"{usage.get('completion_tokens', '-')}")
                if error:
                    print(f"  {label:10} turn {turn} failed: {error}"[:200])
    finally:
        proxy.capped = True
    calls = proxy.exchanges[first:]
    r.expect(bool(calls) and all(e.status == 200 for e in calls),
             "with no cap from the proxy, the server ends every call (HTTP 200)",
             str([e.status for e in calls if e.status != 200]))
