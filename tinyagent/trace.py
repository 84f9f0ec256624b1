"""What one agent turn did, as data: `RunTrace`, and the `Step`s it took.

Introduced in notebook 00, which prints a turn's trace (thought, tool call, tool
result, answer) and reads `agent.last_trace` to see why a turn stopped. A `Step` is
one model call that asked for tools; `RunTrace` holds the turn's steps, its tool
calls in call order and the prompt tokens of every model call. How a verbose agent
prints it, in English or Chinese, is presentation: trace_lines.py. Left out:
timings, costs per step and a structured log format (JSON lines) for a real service.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .messages import ChatMessage, ToolCall


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
    # answer | cut_off (an answer cut at the length limit, marked so) | max_steps |
    # repeated_call | token_budget | no_progress | empty_reply
    stop_reason: str = ""
    steps: list[Step] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)  # in call order
    prompt_tokens: list[int] = field(default_factory=list)  # one per model call
    cached_tokens: list[int] = field(default_factory=list)  # of those, cached (usage)
    messages: list[ChatMessage] = field(default_factory=list)  # the final array
