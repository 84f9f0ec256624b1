"""The rules scripts/real_model_check.py holds a real model's run to.

Each rule holds for ANY model, however weak: they look at what travelled over HTTP
(recorded by scripts/recording_proxy.py) and at what the memory holds, never at the
wording. Kept apart from the check so that tests/test_real_model_rules.py can test
them without a server. Left out: anything about answer quality, recall or savings.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any, TextIO

from tinyagent import ChatMessage, LlmError, ReActAgent, Role

# The five guards' reasons, and the two for a reply that could not be used as it came:
# empty (an apology instead) or cut at the length limit (kept, marked as cut).
STOP_REASONS = {"answer", "max_steps", "repeated_call", "token_budget", "no_progress",
                "empty_reply", "cut_off"}


class Results:
    """PASS/FAIL lines as they happen, and the final count."""

    def __init__(self) -> None:
        self.passed, self.failed = 0, 0

    def expect(self, ok: bool, rule: str, detail: str = "") -> bool:
        self.passed, self.failed = self.passed + ok, self.failed + (not ok)
        why = f": {detail}" if detail and not ok else ""
        print(f"  {'PASS' if ok else 'FAIL'}  {rule}{why}"[:300])
        return ok


class Tee(io.StringIO):
    """Everything printed, kept as well as shown: the key must appear nowhere."""

    def __init__(self, shown: TextIO) -> None:
        super().__init__()
        self.shown = shown

    def write(self, text: str) -> int:
        self.shown.write(text)
        return super().write(text)

    def flush(self) -> None:
        self.shown.flush()


def carries_history(sent: list[dict[str, Any]], held: list[ChatMessage],
                    text: str) -> str:
    """'' if the request is system + what memory held + the question, else why not.
    A summary (a system message in memory) must be folded into the system prompt."""
    if not sent or sent[0].get("role") != "system":
        return "the request does not start with the system prompt"
    for m in held:
        if m.role is Role.SYSTEM and m.content not in sent[0].get("content", ""):
            return "the summary is not in the system prompt"
    want = [(m.role.value, m.content) for m in held if m.role is not Role.SYSTEM]
    got = [(d.get("role"), d.get("content")) for d in sent[1:-1]]
    if got != want:
        return f"the request holds {len(got)} history messages, memory {len(want)}"
    if (sent[-1].get("role"), sent[-1].get("content")) != ("user", text):
        return "the question is not the last message"
    return ""


def tool_ids_match(sent: list[dict[str, Any]]) -> bool:
    """Each assistant message's tool calls are answered, right after it, by tool
    messages with exactly those ids."""
    for i, d in enumerate(sent):
        calls = [c.get("id") for c in d.get("tool_calls") or []]
        answers = [m.get("tool_call_id") for m in sent[i + 1:i + 1 + len(calls)]
                   if m.get("role") == "tool"]
        if calls and sorted(map(str, calls)) != sorted(map(str, answers)):
            return False
    return True


def run_turn(agent: ReActAgent, text: str, out: io.StringIO) -> str:
    """One agent turn, its printing captured in `out`: '' when it ended normally,
    "LlmError: ..." for a clear model error, "crash, ..." for anything else."""
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            agent.run(text)
        return ""
    except LlmError as exc:
        return f"LlmError: {exc}"
    except Exception as exc:  # a crash: exactly what the check is here to catch
        return f"crash, {type(exc).__name__}: {exc}"


def reply_content(reply: dict[str, Any] | None) -> object:
    """The message content of a recorded reply (None when there is none)."""
    choices = (reply or {}).get("choices") or [{}]
    return (choices[0].get("message") or {}).get("content")
