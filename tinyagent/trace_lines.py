"""The printed trace: the lines a verbose agent prints for a turn, in two languages.

Introduced in notebook 00, which prints a turn as it runs: the user's message, each
step's thought, tool calls and (clipped) results, why the turn stopped and what its
model calls cost, then the answer. This is presentation only: the agent (agent.py)
prints these lines when `verbose`, and the trace itself, as data, is trace.py's.
`TRACE_LABELS` are the labels in English and Chinese (notebooks/zh/00); a Chinese
trace says why the turn stopped in Chinese too. Left out: colours, and a log format
for a real service.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from .messages import clip
from .trace import RunTrace, Step

# The verbose trace's labels, English or Chinese: "{n}" is the step number.
TRACE_LABELS = {
    "en": {"user": "User: ", "thought": "  step {n} thought: ",
           "call": "  step {n} call:    ", "result": "  step {n} result:  ",
           "stop": "  stop: {reason} after {calls} model call{s}; "
                   "prompt tokens {tokens}",
           "agent": "Agent: "},
    "zh": {"user": "[用户] ", "thought": "  [思考] ", "call": "  [调用] ",
           "result": "  [结果] ", "agent": "[回复] ",
           "stop": "  [结束] {reason}：{calls} 次模型调用；提示词 token {tokens}"},
}
# Why a turn stopped, as the Chinese trace says it (`stop_reason` stays the English
# identifier that tests and notebooks compare against).
STOP_REASONS_ZH = {"answer": "已回答", "cut_off": "回答被截断", "max_steps": "步数用尽",
                   "repeated_call": "重复调用", "token_budget": "超出 token 预算",
                   "no_progress": "没有进展", "empty_reply": "空回复"}
RESULT_WIDTH = 110  # a tool result is clipped to this many characters in the trace



def step_lines(number: int, step: Step, labels: dict[str, str]) -> Iterator[str]:
    """The printed trace of step `number`: its thought, then each call and result."""
    label = {k: labels[k].format(n=number) for k in ("thought", "call", "result")}
    if step.thought.strip():
        yield f"{label['thought']}{step.thought.strip()}"
    for call, result in zip(step.tool_calls, step.results, strict=True):
        args = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}"
                         for k, v in call.arguments.items())
        yield f"{label['call']}{call.name}({args})"
        yield f"{label['result']}{clip(result, RESULT_WIDTH)}"


def stop_line(reason: str, trace: RunTrace, labels: dict[str, str]) -> str:
    """The printed line that says why the turn stopped and what its calls cost."""
    calls = len(trace.prompt_tokens)
    if labels is TRACE_LABELS["zh"]:
        reason = STOP_REASONS_ZH.get(reason, reason)
    return labels["stop"].format(reason=reason, calls=calls, s="s" * (calls != 1),
                                 tokens=trace.prompt_tokens)
