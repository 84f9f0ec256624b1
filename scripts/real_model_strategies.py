"""The main part of scripts/real_model_check.py: each memory strategy, a few turns.

Every turn's requests are read from the recording proxy and held to the rules of
scripts/real_model_rules.py; then every call of the run together (`report`). What a
rule looks at is chosen so that a broken agent fails it whatever the model writes,
and is worked out apart from the memory under test: each request's history must be
the turns as the agent played them, in order (all of them for the in-memory
memory, over three turns; the newest ones for the others), each tool result the
tool's own (run again on a store of the check's), a summary must hold a line of at
least 20 characters that the model wrote in the reply to the compression that made
it and that its request did not already hold, and one reply at least must be prose.
Left out: the faults (real_model_faults.py).
"""

from __future__ import annotations

import io
from typing import Any

from real_model_faults import BAD_SHAPE, MAX_STEPS
from real_model_rules import (
    STOP_REASONS,
    Results,
    carries_history,
    holds_the_turns,
    prose_answers,
    reply_content,
    rerun,
    run_turn,
    tool_ids_match,
    tool_results_sent,
    written_by_model,
)
from recording_proxy import TRUNCATED_MARK, Fault, RecordingProxy

from tinyagent import (
    HybridChatMemory,
    InMemoryChatMemory,
    LlmClient,
    ReActAgent,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
    bitmall_tools,
    count_tokens,
)
from tinyagent.memory.budget import IDS_LINE
from tinyagent.memory.entities import find_ids

TURNS = ["Where is my order 88231? Use the queryOrder tool.",
         "I want a refund for it, it won't go back to its dock.",
         "What was my order number again?"]


def memories(llm: LlmClient, quick: bool,
             only: tuple[str, ...] = ()) -> dict[str, tuple[Any, int]]:
    """Every strategy and its number of turns: enough to carry history (three for
    the in-memory one: a memory off by one shows at its third), and for the bounded
    ones to pass their bound (the summaries compress at the ends of turns 2 and 3).
    `quick`: the two that the deliberate breaks trip; `only`: these by name."""
    every = {"none": (None, 2), "in-memory": (InMemoryChatMemory(), 3),
             "window 2": (SlidingWindowChatMemory(2), 3),
             "tokens 120": (TokenWindowChatMemory(120), 2),
             "summary 4/2": (SummaryChatMemory(llm, threshold=4, keep_recent=2), 3),
             "hybrid 2/4": (HybridChatMemory(llm, recent_size=2,
                                             summary_threshold=4), 3)}
    chosen = only or (("in-memory", "summary 4/2") if quick else tuple(every))
    return {k: v for k, v in every.items() if k in chosen}


def strategies(r: Results, proxy: RecordingProxy, llm: LlmClient, out: io.StringIO,
               broken: str, quick: bool = False, only: tuple[str, ...] = ()) -> None:
    written = []  # per summarizing strategy: did a model-written line survive?
    for name, (memory, turns) in memories(llm, quick, only).items():
        print(f"\n[{name}]")
        agent = ReActAgent(llm, bitmall_tools(), max_steps=MAX_STEPS, memory=memory)
        shadow = bitmall_tools()  # the same store, the check's own: tools run again
        played: list[tuple[str, str]] = []  # (question, answer) as the agent played
        if name.startswith("hybrid"):  # its first summary comes back cut off
            proxy.inject("length", "summary")
        # A 135M model never calls a tool unasked: the server is asked for one on
        # the first call (tool_choice "required"); what comes back is the model's.
        proxy.inject("tool")
        ids: list[str] = []
        cut_stored = False  # checked after every turn: a later summary may hide it
        start = len(proxy.exchanges)
        for turn, text in enumerate(TURNS[:turns], 1):
            held = memory.messages() if memory is not None else []
            first = len(proxy.exchanges)
            if broken == "reply" and turn == 1:
                proxy.faults.insert(0, Fault("shape", "agent", shape=BAD_SHAPE))
            error = run_turn(agent, text, out)
            if not r.expect(not error, f"turn {turn} ends without an error", error):
                continue
            trace = agent.last_trace
            calls = [e for e in proxy.exchanges[first:] if e.kind == "agent"]
            r.expect(trace.stop_reason in STOP_REASONS and 1 <= len(calls) <= MAX_STEPS
                     and trace.answer.strip() != "", f"turn {turn} stops for a known "
                     f"reason, within {MAX_STEPS} calls, with an answer",
                     f"{trace.stop_reason!r}, {len(calls)} calls, {trace.answer!r}")
            sent = calls[0].request["messages"]
            why = carries_history(sent, held, text)
            r.expect(not why, f"turn {turn} request carries what memory held", why)
            if memory is not None:
                why = holds_the_turns(sent, played, whole=name == "in-memory")
                r.expect(not why, f"turn {turn} request holds the turns played, in "
                         "order", why)
            played.append((text, trace.answer))
            r.expect(all(e.request["messages"][:len(sent)] == sent and tool_ids_match(
                e.request["messages"]) for e in calls),
                f"turn {turn} later calls keep it, and tool ids match their calls")
            why = tool_results_sent(calls[-1].request["messages"],
                                    rerun(trace.tool_calls, shadow))
            r.expect(not why, f"turn {turn} sends each tool result as the tool "
                     "returned it", why)
            ids += find_ids(text + " " + trace.answer)
            cut_stored |= TRUNCATED_MARK in str(getattr(memory, "summary", ""))
        if isinstance(memory, SummaryChatMemory | HybridChatMemory):
            summary = memory.summary or ""
            r.expect(memory.compression_count >= 1, "the summarizer ran")
            kept = "\n".join(m.content for m in memory.messages())
            r.expect(all(i in kept for i in ids), "every id the turns held survives",
                     str([i for i in ids if i not in kept]))
            budget = memory.summarizer.max_summary_tokens  # the summary's budget
            r.expect(count_tokens(summary) <= budget, "the summary stays within its "
                     "budget", f"{count_tokens(summary)} tokens of {budget}")
            r.expect(not cut_stored, "a cut-off summary is never stored as the summary")
            asked = [e for e in proxy.exchanges[start:] if e.kind == "summary"]
            last = asked[-1] if asked else None  # the compression that made it
            request = "\n".join(str(m.get("content"))
                                for m in (last.request["messages"] if last else []))
            written.append(
                len(asked) == memory.compression_count and last is not None
                and not last.fault and written_by_model(
                    summary, str(reply_content(last.reply)), request, IDS_LINE))
            print(f"  summary stored: {summary!r}"[:400])
    r.expect(any(written), "a summary the model wrote is stored (not the fallback)")


def report(r: Results, proxy: RecordingProxy) -> None:
    """Each call's latency, then the rules about all of them together."""
    print("\n[every call]")
    for n, e in enumerate(proxy.exchanges, 1):
        usage = (e.reply or {}).get("usage") or {}
        cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens", "-")
        print(f"  #{n:02} {e.kind:7} {e.seconds:6.2f}s  HTTP {e.status or '-'}  "
              f"finish={e.finish_reason:10} prompt={usage.get('prompt_tokens', '-')} "
              f"cached={cached} completion={usage.get('completion_tokens', '-')} "
              f"{e.fault}")
    real = [e for e in proxy.exchanges if e.fault not in ("delay", "shape")]
    r.expect(all(e.status == 200 for e in real), "the server accepted every request",
             str([e.status for e in real if e.status != 200]))
    r.expect(all(e.request.get("tool_choice") == "auto" for e in real
                 if e.kind == "agent"), 'tools are sent with tool_choice "auto"')
    r.expect(all("max_tokens" in e.request or "max_completion_tokens" in e.request
                 for e in real), "every request caps the reply length")
    r.expect(any(e.finish_reason == "tool_calls" for e in real) and any(
        e.request["messages"][-1].get("role") == "tool" for e in real),
        "a real tool call was parsed, run and its result sent back")
    prose = prose_answers([e.reply for e in real if e.kind == "agent"
                           and e.fault in ("", "tool")])
    for text in list(dict.fromkeys(prose))[:2]:  # two different ones
        print(f"  the model, in prose: {text!r}"[:300])
    r.expect(bool(prose), "the model answered in prose at least once (20+ "
             "characters, no tool-call syntax)")
