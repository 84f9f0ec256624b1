"""A summary asked for at the end of the conversation: the fork, read from the request.

Introduced in notebook 07 ("What you pay"). A memory that compacts by a
fork (tinyagent/memory/fork.py) sends the agent's own request, tools and all, with
one more user turn: "write a summary of the first 7 turns of this conversation".
A real model reads that last turn and summarizes instead of answering; so does
this one. Everything it needs is in the request:

- the instruction, the last message: which turns ("the first N turns", "前 N 轮";
  without a number, all of them), and whether to merge the summary already in the
  system message ("merge", "合并");
- the turns themselves: the history after the system message, cut at each customer
  message;
- the earlier summary, when asked to merge: the text inside the fence(s) of the
  system message.

`summary_request` writes those as the request summarize.py already reads (its
markers, one line a message), so a forked summary is the very summary notebook 04's
request gets for the same turns. Left out: an instruction in the middle of the
conversation (only the last message is read as one), and a span named any other way
than by its first turns.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..lang import is_chinese

# "summarize the first 7 turns", "总结本次对话的前 7 轮"; or the whole conversation.
SPAN = re.compile(r"summar\w*\b.{0,80}?\bfirst\s+(\d+)\s+turns?"
                  r"|(?:总结|摘要).{0,20}?前\s*(\d+)\s*轮", re.I | re.S)
WHOLE = re.compile(r"summar\w*\s+(?:this|the|our)\s+(?:whole\s+)?conversation"
                   r"|总结(?:一下)?(?:本次|我们的|这段|整个)?对话", re.I)
MERGE = re.compile(r"\bmerge|合并", re.I)
FENCED = re.compile(r"\[(?:Conversation summary|对话摘要)[^\]\n]*\]\n(.*?)\n"
                    r"\[(?:End of conversation summary|对话摘要结束)\]", re.S)
SPEAKERS_ZH = {"user": "用户：", "assistant": "客服：", "tool": "工具结果：",
               "system": "系统："}


def asked_turns(messages: list[dict[str, Any]]) -> int | None:
    """How many turns the last message asks to summarize (0: all of them), or None
    when the last message is not a summary instruction."""
    last = messages[-1] if messages else {}
    text = last.get("content") if last.get("role") == "user" else None
    if not isinstance(text, str):
        return None
    span = SPAN.search(text)
    if span:
        return int(span.group(1) or span.group(2))
    return 0 if WHOLE.search(text) else None


def turns_of(history: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The history cut before each customer message (what precedes the first one
    is a turn of its own)."""
    turns: list[list[dict[str, Any]]] = []
    for message in history:
        if message.get("role") == "user" or not turns:
            turns.append([])
        turns[-1].append(message)
    return turns


def line(message: dict[str, Any], zh: bool) -> str:
    """One message on one line, its tool calls spelled out: "[user] …", "用户：…"."""
    text = " ".join(str(message.get("content") or "").split())
    calls = []
    for call in message.get("tool_calls") or ():
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except json.JSONDecodeError:
            arguments = function.get("arguments")
        calls.append(f"{function.get('name')}"
                     f"({json.dumps(arguments, ensure_ascii=False)})")
    if calls:
        text = f"{text} calls {', '.join(calls)}".strip()
    role = str(message.get("role"))
    return f"{SPEAKERS_ZH.get(role, '')}{text}" if zh else f"[{role}] {text}"


def summary_request(messages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The fork as summarize.py's request (a system line, then "Previous summary:
    … New messages: …"), or None when the last message asks for no summary."""
    count = asked_turns(messages)
    if count is None:
        return None
    start = next((i for i, m in enumerate(messages) if m.get("role") != "system"),
                 len(messages))
    turns = turns_of(messages[start:-1])
    span = [m for turn in (turns[:count] if count else turns) for m in turn]
    system = "\n".join(str(m.get("content") or "") for m in messages[:start])
    previous = "\n".join(FENCED.findall(system)) if MERGE.search(
        messages[-1]["content"]) else ""
    zh = is_chinese(" ".join(str(m.get("content") or "") for m in span
                             if m.get("role") == "user"))
    before, nothing, new = (("之前的摘要：", "无", "新消息：") if zh else
                            ("Previous summary:", "(none)", "New messages:"))
    transcript = "\n".join(line(m, zh) for m in span)
    return [{"role": "system", "content": "Summarize the conversation below."},
            {"role": "user", "content": f"{before}\n{previous or nothing}\n\n"
                                        f"{new}\n{transcript}"}]
