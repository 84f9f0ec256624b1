"""What one agent turn did, as data, and the lines a verbose agent prints of it.

Introduced in notebook 00, which prints a turn's trace as it runs (the user's
message, each step's thought, tool calls and clipped results, why the turn stopped
and what its model calls cost, then the answer) and reads `agent.last_trace` to see
why a turn stopped. A `Step` is one model call that asked for tools; `RunTrace` holds
the turn's steps, its tool calls in call order, the prompt tokens of every model
call and its `StopReason`. The printed lines are in English or Chinese
(notebooks/zh/00), as the agent asks: `LABELS`, and the words a Chinese trace uses
for why a turn stopped (`stop_reason` itself stays the identifier tests and
notebooks compare). Left out: timings, costs per step, colours, and a log format
(JSON lines) for a real service.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum

from .lang import Lang, Pair
from .messages import ChatMessage, ToolCall, clip


class StopReason(str, Enum):
    """Why a turn ended. Each is a string too: `trace.stop_reason == "answer"`."""

    ANSWER = "answer"  # the model answered
    CUT_OFF = "cut_off"  # an answer cut at the reply's length limit, marked so
    EMPTY_REPLY = "empty_reply"  # the model sent nothing: an apology instead
    MAX_STEPS = "max_steps"  # the four guards (guards.py), each with its apology
    REPEATED_CALL = "repeated_call"
    TOKEN_BUDGET = "token_budget"
    NO_PROGRESS = "no_progress"

    def __str__(self) -> str:  # print(reason) -> "answer"
        return self.value


@dataclass
class Step:
    """One model call of a turn: its thought, and the tools it called (if any)."""

    thought: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    results: list[str] = field(default_factory=list)


@dataclass
class RunTrace:
    """What happened during one `run()`: read it in tests and notebooks."""

    question: str
    answer: str = ""
    stop_reason: StopReason | None = None  # None while the turn runs
    steps: list[Step] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)  # in call order
    prompt_tokens: list[int] = field(default_factory=list)  # one per model call
    cached_tokens: list[int] = field(default_factory=list)  # of those, cached (usage)
    messages: list[ChatMessage] = field(default_factory=list)  # the final array


# The printed trace's labels; "{n}" is the step number.
LABELS = {"user": Pair("User: ", "[用户] "), "agent": Pair("Agent: ", "[回复] "),
          "thought": Pair("  step {n} thought: ", "  [思考] "),
          "call": Pair("  step {n} call:    ", "  [调用] "),
          "result": Pair("  step {n} result:  ", "  [结果] ")}
STOP_LINE = Pair("  stop: {reason} after {calls} model call{s}; prompt tokens {tokens}",
                 "  [结束] {reason}：{calls} 次模型调用；提示词 token {tokens}")
# Why a turn stopped, as the printed trace says it: the identifier in English.
SAID = {reason: Pair(reason.value, zh) for reason, zh in [
    (StopReason.ANSWER, "已回答"), (StopReason.CUT_OFF, "回答被截断"),
    (StopReason.EMPTY_REPLY, "空回复"), (StopReason.MAX_STEPS, "步数用尽"),
    (StopReason.REPEATED_CALL, "重复调用"),
    (StopReason.TOKEN_BUDGET, "超出 token 预算"), (StopReason.NO_PROGRESS, "没有进展")]}
RESULT_WIDTH = 110  # a tool result is clipped to this many characters in the trace


def step_lines(number: int, step: Step, lang: Lang) -> Iterator[str]:
    """The printed trace of step `number`: its thought, then each call and result."""
    label = {k: LABELS[k].say(lang).format(n=number)
             for k in ("thought", "call", "result")}
    if step.thought.strip():
        yield f"{label['thought']}{step.thought.strip()}"
    for call, result in zip(step.tool_calls, step.results, strict=True):
        args = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}"
                         for k, v in call.arguments.items())
        yield f"{label['call']}{call.name}({args})"
        yield f"{label['result']}{clip(result, RESULT_WIDTH)}"


def stop_line(reason: StopReason, trace: RunTrace, lang: Lang) -> str:
    """The printed line that says why the turn stopped and what its calls cost."""
    calls = len(trace.prompt_tokens)
    return STOP_LINE.say(lang).format(reason=SAID[reason].say(lang), calls=calls,
                                      s="s" * (calls != 1), tokens=trace.prompt_tokens)
