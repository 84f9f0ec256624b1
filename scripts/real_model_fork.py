"""A real model's KV cache, read by a forked summary request and not by its own.

    python scripts/real_model_fork.py              # starts the local llama.cpp server
    python scripts/real_model_fork.py --url http://127.0.0.1:11434/v1 --model qwen2.5
    python scripts/real_model_fork.py --offline    # a dry run on the offline model

The first five turns of the six-turn demo, played twice by summary memory 8/2 (it
compresses the first three turns when the fourth ends, whatever the replies'
length; --threshold 16 plays nine turns, the demo's again after the sixth): once
with fork=True (its summary request is the agent's last request, the answer and
one more turn: memory/fork.py) and once with notebook 04's summary request of its
own. Every call's seconds, prompt tokens, cached prompt tokens (the server's
`prompt_tokens_details.cached_tokens`: the local server reuses the previous call's
KV cache) and completion tokens are printed, then the two summary requests side by
side. A summary's seconds depend on how many tokens it writes as much as on the
prefix it reuses: the last line says both. The rule it
holds, exit status 1 otherwise: the fork reuses at least 90 % of the prompt of the
agent's call before it, the summary request of its own at most 10 % of its prompt.
Seconds are printed, not asserted (a shared machine's load is noise). Without the
server (llama-cpp-python and the model, see scripts/local_model.py) and without
--url it says so and exits 0: .ci/real_model.sh runs it where they are installed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import local_model

from tinyagent import LlmClient, ReActAgent, SummaryChatMemory, bitmall_tools
from tinyagent.course.catalogue import SIX_TURNS
from tinyagent.memory.fork import ASK

THRESHOLD = 8  # messages: the compression comes when turn 4 ends, turn 5 reads it
REPLY_TOKENS = 120  # every reply's cap: a small model's summary can ramble


@dataclass
class Call:
    kind: str  # "agent", "fork" (summary on the cached prefix), "own" (own request)
    seconds: float
    prompt: int
    cached: int
    completion: int


class Timed:
    """The client, timing each call and reading what the server says it cached."""

    def __init__(self, llm: LlmClient) -> None:
        self.llm, self.calls = llm, []

    def chat(self, messages: list[Any], tools: list[Any] | None = None) -> Any:
        start = time.monotonic()
        response = self.llm.chat(messages, tools)
        kind = ("own" if not tools else "fork"
                if messages[-1].content.startswith(ASK.en[:30]) else "agent")
        usage = response.usage
        self.calls.append(Call(kind, time.monotonic() - start, usage.prompt_tokens,
                               getattr(usage, "cached_tokens", 0) or 0,
                               usage.completion_tokens))
        return response


def play(llm: LlmClient, fork: bool, threshold: int = THRESHOLD) -> list[Call]:
    """The demo's turns (again from the first after the sixth) until the turn after
    the first compression."""
    timed = Timed(llm)
    memory = SummaryChatMemory(timed, threshold=threshold, keep_recent=2, fork=fork)
    agent = ReActAgent(timed, bitmall_tools(), max_steps=3, memory=memory,
                       verbose=False)
    for turn in range(threshold // 2 + 1):
        agent.run(SIX_TURNS["en"][turn % 6])
    return timed.calls


def report(calls: dict[str, list[Call]]) -> int:
    """Print every call, then the two summary requests; 1 if the rule fails."""
    failed = 0
    for label, run in calls.items():
        for call in run:
            print(f"  {label:12} {call.kind:5} {call.seconds:6.2f}s  prompt="
                  f"{call.prompt:>5} cached={call.cached:>5} "
                  f"completion={call.completion:>4}")
    for label, kind in (("fork", "fork"), ("own request", "own")):
        run = calls[label]
        at = next((i for i, c in enumerate(run) if c.kind == kind), None)
        if at is None or at == 0:
            print(f"  FAIL  {label}: no summary request was made")
            failed += 1
            continue
        call, before = run[at], run[at - 1]
        share = call.cached / max(call.prompt, 1)
        print(f"{label}: the summary request reused {call.cached} of {call.prompt} "
              f"prompt tokens ({share:.0%}) in {call.seconds:.2f}s; the agent's call "
              f"before it had a prompt of {before.prompt}")
        ok = (call.cached >= 0.9 * before.prompt if kind == "fork"
              else share <= 0.1)
        failed += not ok
        print(f"  {'ok  ' if ok else 'FAIL'}  {label}: " + (
            "reuses >= 90 % of the previous prompt" if kind == "fork"
            else "reuses <= 10 % of its prompt"))
    fork, own = (next((c for c in calls[k] if c.kind == v), None)
                 for k, v in (("fork", "fork"), ("own request", "own")))
    if fork is None or own is None:
        return 1
    print(f"latency: fork {fork.seconds:.2f}s ({fork.prompt - fork.cached} new "
          f"prompt tokens, {fork.completion} written), own request "
          f"{own.seconds:.2f}s ({own.prompt - own.cached} new, {own.completion} "
          f"written); the fork took {fork.seconds - own.seconds:+.2f}s")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running OpenAI-compatible server instead "
                        "of the local one")
    parser.add_argument("--model", default=local_model.MODEL_ALIAS)
    parser.add_argument("--threads", type=int, default=1, help="server threads")
    parser.add_argument("--threshold", type=int, default=THRESHOLD, help="summary "
                        "memory's threshold in messages: a longer prefix (default 8)")
    parser.add_argument("--offline", action="store_true", help="the offline model "
                        "and its prompt cache (qwen's rule): a dry run of this check")
    args = parser.parse_args(argv)
    server = None
    if args.url or args.offline:
        url = args.url
    else:
        if not local_model.have_server():
            print("real model fork: skipped, the local server is not installed "
                  f"({local_model.INSTALL_HINT}); .ci/real_model.sh installs it")
            return 0
        log, port = Path(tempfile.mkdtemp()) / "server.log", local_model.free_port()
        server = local_model.start_server(local_model.find_model(), "127.0.0.1",
                                          port, log, threads=args.threads)
        url = f"http://127.0.0.1:{port}/v1"
        try:
            local_model.wait_ready(url, server)
        except RuntimeError as exc:
            local_model.stop_server(server)
            print(f"real model fork: {exc}; the end of its log:\n"
                  f"{local_model.log_tail(log)}")
            return 1
    try:
        llm = LlmClient(offline=True) if args.offline else LlmClient(
            "local", url, args.model, timeout=120, max_retries=0,
            max_reply_tokens=REPLY_TOKENS)
        print("[a summary request on the cached prefix (fork) and one of its own: "
              "seconds and cached prompt tokens]")
        calls = {"fork": play(llm, True, args.threshold),
                 "own request": play(llm, False, args.threshold)}
        return report(calls)
    finally:
        if server is not None:
            local_model.stop_server(server)


if __name__ == "__main__":
    sys.exit(main())
