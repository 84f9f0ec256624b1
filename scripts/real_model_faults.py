"""The failures scripts/real_model_check.py provokes on purpose, through the proxy.

A real model is slow, empty, cut off or malformed now and then, never on cue. Here
the recording proxy (scripts/recording_proxy.py) bends one reply at a time, and the
rules say what the course's client, agent and command line must do about it: a
clear error or a sensible answer, never a traceback, never a broken memory. Left
out: provider-specific errors (HTTP 401/429), which the offline tests cover.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time

import local_model
from real_model_rules import Results, reply_content, run_turn
from recording_proxy import RecordingProxy

from tinyagent import InMemoryChatMemory, LlmClient, ReActAgent, Role, bitmall_tools

MAX_STEPS = 2  # a tool call and the answer: a tiny model loops, and time is short
BAD_SHAPE = {"role": "assistant", "content": None,  # the function is null
             "tool_calls": [{"id": "call_0", "type": "function", "function": None}]}
SHAPES = {  # reply shapes real servers send
    "content as a list of parts": {"role": "assistant", "content": [
        {"type": "text", "text": "Hello"}]},
    "a tool call without an id": {"role": "assistant", "content": None, "tool_calls": [
        {"type": "function",
         "function": {"name": "getCurrentTime", "arguments": "{}"}}]},
    "a tool call whose function is null": BAD_SHAPE}


def faults(r: Results, proxy: RecordingProxy, url: str, key: str,
           out: io.StringIO) -> None:
    print("\n[faults]")

    def agent(timeout: float = 120) -> ReActAgent:
        llm = LlmClient(key, url, local_model.MODEL_ALIAS, timeout=timeout,
                        max_retries=0)
        return ReActAgent(llm, bitmall_tools(), max_steps=MAX_STEPS,
                          memory=InMemoryChatMemory())

    slow = agent(timeout=3)
    proxy.inject("delay", seconds=30)
    start = time.monotonic()
    error, spent = run_turn(slow, "Hello", out), time.monotonic() - start
    r.expect(error.startswith("LlmError") and "timed out" in error and spent < 8,
             "a slow call ends in a clear timeout message, on time",
             f"{error or 'no error'} after {spent:.1f}s")
    r.expect(len(slow.memory) == 0, "a failed turn leaves memory as it was")
    for fault, rule in (("empty", "an empty answer is neither shown nor stored"),
                        ("length", "a cut-off answer is not stored as complete")):
        clerk = agent()
        proxy.inject(fault)
        error = run_turn(clerk, "Hello, who are you?", out)
        bent = [e for e in proxy.exchanges if e.fault == fault][-1]
        raw = reply_content(bent.reply)
        stored = [m.content for m in clerk.memory.messages()
                  if m.role is Role.ASSISTANT]
        shown = clerk.last_trace.answer if clerk.last_trace and not error else "-"
        r.expect(not error.startswith("crash") and shown.strip() != ""
                 and "" not in stored and raw not in stored, rule,
                 error or f"shown {shown!r}, stored {stored!r}")
    for label, shape in SHAPES.items():  # a whole turn: the crash may come later
        clerk = agent()
        proxy.inject("shape", shape=shape)
        error = run_turn(clerk, "Hi", out)
        held = clerk.memory.messages()
        r.expect(not error.startswith("crash") and all(
            isinstance(m.content, str) for m in held), f"{label}: no crash",
            error or f"stored {[m.content for m in held]}")


def command_line(r: Results, proxy: RecordingProxy, url: str, key: str,
                 out: io.StringIO) -> None:
    """`tinyagent chat` as a learner runs it, configured by the environment: a
    malformed first reply must give one clear line, and the next turn must run."""
    print("\n[tinyagent chat]")
    env = {**os.environ, "TINYAGENT_API_KEY": key, "TINYAGENT_API_URL": url,
           "TINYAGENT_MODEL": local_model.MODEL_ALIAS}
    env.pop("TINYAGENT_OFFLINE", None)  # CI sets it for the tests
    proxy.inject("shape", shape=BAD_SHAPE)
    first = len(proxy.exchanges)
    start = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tinyagent.course.cli", "chat", "--memory",
             "summary"],
            input="Where is my order 88231?\nI want a refund for it.\n", env=env,
            capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired:
        r.expect(False, "tinyagent chat ends", "still running after 240 s")
        return
    out.write(done.stdout + done.stderr)
    print(f"  ({time.monotonic() - start:.1f}s, exit code {done.returncode}, "
          f"{len(proxy.exchanges) - first} calls)")
    r.expect(done.returncode == 0 and "Traceback" not in done.stderr,
             "a malformed reply gives no traceback, and chat goes on",
             (done.stderr.strip().splitlines() or [""])[-1])  # the exception line
    r.expect(any(e.fault == "" for e in proxy.exchanges[first:]),
             "the next turn reached the model")
