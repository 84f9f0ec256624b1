"""The last part of scripts/real_model_check.py: one dialog, timed, with no cap.

The first turns of the course's six-turn dialog, played by three memories sized so
that they already differ: in-memory (the prompt only grows, so the server reuses
all of the previous one from its KV cache), a window (the oldest turn leaves the
front, and the cache must start again), and a compressing memory (the summary
changes the front, and the cache starts again at each compression). Each call's
seconds and the server's cached prompt tokens are printed, for the reader to
compare; timings are not asserted, a shared machine's load makes them noise. The
proxy's caps are off here: the client asks for REPLY_TOKENS at most, as
TINYAGENT_MAX_REPLY_TOKENS would, and the one rule is that the server honours it:
each call ends with HTTP 200 and no more completion tokens than asked, within the
client's timeout and the check's deadline.
"""

from __future__ import annotations

import io

from real_model_faults import MAX_STEPS
from real_model_rules import Results, run_turn
from recording_proxy import RecordingProxy

from tinyagent import LlmClient, ReActAgent, bitmall_tools
from tinyagent.course.catalogue import SIX_TURNS, STRATEGIES

TURNS = 3  # enough for the window to slide and the summary to compress once
REPLY_TOKENS = 200  # the client's own cap for this part, sent as max_tokens
SIZES = {"window": {"max_messages": 2}, "summary": {"threshold": 4, "keep_recent": 2},
         "compact": {"high_tokens": 110, "low_tokens": 100}}


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
            agent = ReActAgent(llm, bitmall_tools(), max_steps=MAX_STEPS,
                               memory=strategy.make(llm, **SIZES.get(name, {})))
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
    used = [((e.reply or {}).get("usage") or {}).get("completion_tokens", 0)
            for e in calls]
    r.expect(bool(calls) and all(e.status == 200 for e in calls) and max(
        used, default=0) <= REPLY_TOKENS, "with no cap from the proxy, the server "
        f"ends every call (HTTP 200) within the client's {REPLY_TOKENS} tokens",
        f"{[e.status for e in calls if e.status != 200]}, most tokens {max(used)}")
