"""The rules scripts/real_model_check.py holds a real model's run to.

Each rule holds for ANY model, however weak: they look at what travelled over HTTP
(recorded by scripts/recording_proxy.py) and at what the memory holds, never at the
wording. Kept apart from the check so that tests/test_real_model_rules.py can test
them without a server. Each rule is there because a broken agent once passed
without it: an agent whose memories stored nothing, a summarizer that wrote the
same line whatever it read, a server that never let the model answer in prose.
Left out: anything about answer quality, recall or savings.
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any, TextIO

from tinyagent import ChatMessage, LlmError, ReActAgent, Role

# The five guards' reasons, and the two for a reply that could not be used as it came:
# empty (an apology instead) or cut at the length limit (kept, marked as cut).
STOP_REASONS = {"answer", "max_steps", "repeated_call", "token_budget", "no_progress",
                "empty_reply", "cut_off"}
PROSE_CHARS = 20  # shorter is a word or a name, not an answer
# What a tool call looks like when it leaks into the text: a tag, a JSON object with
# a name or arguments, or the `functions.name:` prefix of some formats.
TOOL_SYNTAX = re.compile(r"</?tool_call>|\{\s*\"(name|arguments)\"|functions\.\w+")


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


def prose_answers(replies: list[dict[str, Any] | None]) -> list[str]:
    """The replies that are prose: finished normally, no tool call, at least
    PROSE_CHARS characters, no tool-call syntax in the text. The server's replies,
    not the agent's answers: the agent's apology for an empty reply is not prose
    the model wrote."""
    found = []
    for reply in replies:
        choice = ((reply or {}).get("choices") or [{}])[0]
        message, text = choice.get("message") or {}, reply_content(reply)
        if (choice.get("finish_reason") == "stop" and not message.get("tool_calls")
                and isinstance(text, str) and len(text.strip()) >= PROSE_CHARS
                and not TOOL_SYNTAX.search(text)):
            found.append(text.strip())
    return found


def holds_previous(sent: list[dict[str, Any]], previous: str) -> bool:
    """Whether the request carries the previous turn's user text before the new
    question: what a memory that keeps everything must send."""
    return any(d.get("role") == "user" and d.get("content") == previous
               for d in sent[:-1])


def written_by_model(summary: str, replies: list[str], ids_line: str) -> bool:
    """Whether the stored summary holds a line the model wrote in one of its
    summary replies (the guards may drop lines and add an ids line, no more).
    A fallback or a constant summary holds none."""
    lines = [line.strip() for line in summary.splitlines()
             if line.strip() and not line.startswith(ids_line.strip())]
    return any(len(line) >= 3 and any(line in reply for reply in replies)
               for line in lines)  # 3: a 135M model's whole summary may be "```"
