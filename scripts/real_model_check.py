"""Run the course's agent and memories against a real model server, over real HTTP.

Every test talks to the offline model in-process; this script takes the path a
learner with a key takes. It starts llama-cpp-python's server on 127.0.0.1 with
SmolLM2-135M-Instruct (scripts/local_model.py), puts a recording proxy in front of
it (scripts/recording_proxy.py), and runs the agent with each memory strategy for a
few turns, one compression included. It asserts only what holds for ANY model
(scripts/real_model_rules.py): requests accepted, the history each request carries,
tool-call ids that match, known stop reasons, summaries within budget, ids kept, no
key printed; then (scripts/real_model_faults.py) clear handling of a slow call, an
empty answer, a cut-off reply and malformed ones, in the agent and in `tinyagent
chat`. Wording, recall and savings are the model's business: not asserted.

    python scripts/real_model_check.py [--install] [--break history|reply]

`--break` damages the run on purpose, to show that the check catches it. Exit code
1 on any failure, after the line "real model check: N passed, M failed".
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import local_model  # noqa: E402
from real_model_faults import BAD_SHAPE, MAX_STEPS, command_line, faults  # noqa: E402
from real_model_rules import (  # noqa: E402
    STOP_REASONS,
    Results,
    Tee,
    carries_history,
    run_turn,
    tool_ids_match,
)
from recording_proxy import TRUNCATED_MARK, RecordingProxy  # noqa: E402

from tinyagent import (  # noqa: E402
    ChatMessage,
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
from tinyagent.memory.summarizer import find_ids  # noqa: E402

TURNS = ["Where is my order 88231? Use the queryOrder tool.",
         "I want a refund for it, it won't go back to its dock.",
         "What was my order number again?"]
def memories(llm: LlmClient) -> dict[str, tuple[Any, int]]:
    """Every strategy and its number of turns: enough to carry history, and for the
    bounded ones to pass their bound (the summaries compress once, at turn 2's end)."""
    return {"none": (None, 2), "in-memory": (InMemoryChatMemory(), 2),
            "window 2": (SlidingWindowChatMemory(2), 3),
            "tokens 120": (TokenWindowChatMemory(120), 2),
            "summary 4/2": (SummaryChatMemory(llm, threshold=4, keep_recent=2), 3),
            "hybrid 2/4": (HybridChatMemory(llm, recent_size=2, summary_threshold=4),
                           3)}


def strategies(r: Results, proxy: RecordingProxy, llm: LlmClient, out: io.StringIO,
               broken: str) -> None:
    for name, (memory, turns) in memories(llm).items():
        print(f"\n[{name}]")
        agent = ReActAgent(llm, bitmall_tools(), max_steps=MAX_STEPS, memory=memory)
        if name.startswith("hybrid"):  # its summarizer's reply comes back cut off
            proxy.inject("length", "summary")
        ids: list[str] = []
        cut_stored = False  # checked after every turn: a later summary may hide it
        for turn, text in enumerate(TURNS[:turns], 1):
            held = memory.messages() if memory is not None else []
            first = len(proxy.exchanges)
            if broken == "reply" and turn == 1:
                proxy.inject("shape", shape=BAD_SHAPE)
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
            r.expect(all(e.request["messages"][:len(sent)] == sent and tool_ids_match(
                e.request["messages"]) for e in calls),
                f"turn {turn} later calls keep it, and tool ids match their calls")
            ids += find_ids(text + " " + trace.answer)
            cut_stored |= TRUNCATED_MARK in str(getattr(memory, "summary", ""))
        if isinstance(memory, SummaryChatMemory):
            summary = memory.summary or ""
            r.expect(memory.compression_count >= 1, "the summarizer ran")
            kept = "\n".join(m.content for m in memory.messages())
            r.expect(all(i in kept for i in ids), "every id the turns held survives",
                     str([i for i in ids if i not in kept]))
            budget = memory.summarizer.max_tokens  # the summary's budget, in tokens
            r.expect(count_tokens(summary) <= budget, "the summary stays within its "
                     "budget", f"{count_tokens(summary)} tokens of {budget}")
            r.expect(not cut_stored, "a cut-off summary is never stored as the summary")


def report(r: Results, proxy: RecordingProxy) -> None:
    """Each call's latency, then the rules about all of them together."""
    print("\n[every call]")
    for n, e in enumerate(proxy.exchanges, 1):
        usage = (e.reply or {}).get("usage") or {}
        print(f"  #{n:02} {e.kind:7} {e.seconds:6.2f}s  HTTP {e.status or '-'}  "
              f"finish={e.finish_reason:10} prompt={usage.get('prompt_tokens', '-')} "
              f"completion={usage.get('completion_tokens', '-')} {e.fault}")
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install", action="store_true",
                        help="pip-install the server and the model when missing")
    parser.add_argument("--break", dest="broken", choices=["history", "reply"],
                        default="", help="damage the run to show the check fails")
    parser.add_argument("--deadline", type=float, default=600,
                        help="hard wall-clock limit in seconds (default 600)")
    # One thread: llama.cpp's threads spin-wait on each other, so on cores shared
    # with other jobs a second thread made calls 1.5-3x slower, not faster.
    parser.add_argument("--threads", type=int, default=1, help="server threads")
    args = parser.parse_args(argv)
    sys.stdout = tee = Tee(sys.stdout)
    if args.install:
        local_model.install()
    if not local_model.have_server():
        print(f"real model check: the server is missing: {local_model.INSTALL_HINT}")
        return 1
    key = "sk-check-" + secrets.token_hex(16)  # fake, and greppable in every output
    log, port = Path(tempfile.mkdtemp()) / "server.log", local_model.free_port()
    # A small context also bounds a runaway tool call: the function-calling format
    # generates arguments with no length limit but the context's.
    server = local_model.start_server(local_model.find_model(), "127.0.0.1", port,
                                      log, n_ctx=2048, threads=args.threads)
    r, out, proxy = Results(), io.StringIO(), RecordingProxy(f"http://127.0.0.1:{port}")

    def give_up() -> None:  # the hard limit: no hang outlives the CI budget
        print(f"real model check: {r.passed} passed, {r.failed + 1} failed (the "
              f"deadline of {args.deadline:g}s passed)", flush=True)
        local_model.stop_server(server)
        os._exit(1)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stop the server
    timer = threading.Timer(args.deadline, give_up)
    timer.daemon = True
    timer.start()
    try:
        ready = local_model.wait_ready(f"http://127.0.0.1:{port}/v1", server)
        print(f"server ready in {ready:.1f}s (pid {server.pid}, log {log})")
        url = proxy.start()
        if args.broken == "history":  # the stateless agent's bug: no history sent
            build = ReActAgent.build_messages

            def forgetful(agent: ReActAgent, text: str) -> list[ChatMessage]:
                messages = build(agent, text)
                return [messages[0], messages[-1]]

            ReActAgent.build_messages = forgetful  # type: ignore[method-assign]
        llm = LlmClient(key, url, local_model.MODEL_ALIAS, timeout=120, max_retries=0)
        strategies(r, proxy, llm, out, args.broken)
        faults(r, proxy, url, key, out)
        command_line(r, proxy, url, key, out)
        report(r, proxy)
    finally:
        proxy.stop()
        local_model.stop_server(server)
        timer.cancel()
    printed = tee.getvalue() + out.getvalue() + log.read_text(errors="replace")
    r.expect(key not in printed, "the key is never printed (output, agent, server)")
    print(f"real model check: {r.passed} passed, {r.failed} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
