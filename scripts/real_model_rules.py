"""The rules scripts/real_model_check.py holds a real model's run to.

Each rule holds for ANY model, however weak: they look at what travelled over HTTP
(recorded by scripts/recording_proxy.py), never at the wording. What a request
should carry is worked out apart from the memory under test: from the turns as the
agent played them (its questions and answers), and from the tools run again on a
store of their own, so that a memory that misreports itself cannot vouch for its
own requests. Kept apart from the check so that tests/test_real_model_rules.py can
test them without a server. Each rule is there because a broken agent once passed
without it: an agent whose memories stored nothing, a memory that dropped its
newest turn once it held two, history sent newest first, tool results replaced by
"OK", a summarizer that wrote the same line whatever it read or copied its input,
a server that never let the model answer in prose. Left out: anything about answer
quality, recall or savings.
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any, TextIO

from tinyagent import ChatMessage, LlmError, ReActAgent, Role, ToolCall
from tinyagent.guards import REPEAT_NOTICE
from tinyagent.tools.registry import ToolRegistry

RUN_TOOL = ToolRegistry.run  # as it was at import: a break may replace it later

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


def written_by_model(summary: str, reply: str, request: str, ids_line: str) -> bool:
    """Whether the stored summary holds a line the model wrote: one of at least
    PROSE_CHARS characters (a word or a fence is not a summary) that is in the
    model's summary `reply` and not in the summarizer's `request` (the previous
    summary and the turns it was sent: copied, not written). The guards may drop
    lines and add an ids line, no more; a fallback or a constant summary has none."""
    lines = [line.strip() for line in summary.splitlines()
             if line.strip() and not line.startswith(ids_line.strip())]
    return any(len(line) >= PROSE_CHARS and line in reply
               and line.removeprefix("- ").strip() not in request for line in lines)


def turn_messages(turns: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(role, content) of the turns played so far, as a memory that keeps the
    questions and final answers stores them: user, assistant, user, ..."""
    return [pair for question, answer in turns
            for pair in (("user", question), ("assistant", answer))]


def holds_the_turns(sent: list[dict[str, Any]], turns: list[tuple[str, str]],
                    whole: bool) -> str:
    """'' if the request's history (between the system prompt and the question) is
    the turns played so far, in order: all of them (`whole`: a memory that keeps
    everything), else the newest ones, at least the newest, in whole turns (a window
    or a summary keeps the newest turns verbatim); else why not."""
    history = [(d.get("role"), d.get("content")) for d in sent[1:-1]
               if d.get("role") != "system"]
    played = turn_messages(turns)
    if whole and history != played:
        return (f"the request holds {len(history)} history messages, the "
                f"{len(turns)} turns played {len(played)}")
    if not whole and turns and (not history or history[0][0] != "user"
                                or history != played[len(played) - len(history):]):
        return "the request's history is not the newest turns played, in order"
    return ""


def rerun(calls: list[ToolCall], shadow: ToolRegistry) -> dict[str, str]:
    """{call id: result} for the calls the agent ran, run again in the same order
    on `shadow`, a store of its own (the store's clock is fixed: same results)."""
    return {call.id: RUN_TOOL(shadow, call) for call in calls}


def tool_results_sent(sent: list[dict[str, Any]], results: dict[str, str]) -> str:
    """'' if every tool message of this turn's request (after the question) carries
    what its call returns (`results`, from `rerun`), or the agent's notice for a
    repeated call, which is not run; else why not. Run it on a turn's last request:
    that one holds every result the turn sent."""
    start = max((i for i, d in enumerate(sent) if d.get("role") == "user"), default=0)
    notices = tuple(n.split("{call}")[0] for n in (REPEAT_NOTICE.en, REPEAT_NOTICE.zh))
    for d in sent[start:]:
        if d.get("role") != "tool":
            continue
        got, want = str(d.get("content")), results.get(str(d.get("tool_call_id")))
        if want is None and not got.startswith(notices):
            return f"a tool result answers no call that was run: {got[:60]!r}"
        if want is not None and not got.startswith(want):  # a note may follow
            return (f"a tool result was sent as {got[:60]!r}, not as the tool "
                    f"returns it ({want[:60]!r})")
    return ""
