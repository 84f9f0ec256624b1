"""The transcript a summarizer reads: one line a message, in the dialog's language.

Introduced in notebook 04, which prints the summarizer's request. "[user] Where is
my order 88231?" in English, "用户：帮我查一下订单 88231 的物流到哪了" in Chinese, as
transcripts in each language are written; each message is folded onto its line, so
that no message can forge a line of its own, and its tool calls are spelled out.
The request's markers around the previous summary and the new messages come in both
languages too (`Pair`s, lang.py); the offline model reads either. Left out: images
and other parts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..lang import Lang, Pair
from ..messages import ChatMessage, Role

# What the request says around the two parts: the previous summary (or that there is
# none yet), then the new messages. The offline model reads both languages' markers.
MARKERS = (Pair("Previous summary:", "之前的摘要："), Pair("(none)", "无"),
           Pair("New messages:", "新消息："))
# Who says a line: "[user] …" in English; "用户：…", "客服：…" in Chinese, as Chinese
# transcripts are written. The offline model reads both.
SPEAKERS = {"user": Pair("[user] ", "用户："),
            "assistant": Pair("[assistant] ", "客服："),
            "tool": Pair("[tool] ", "工具结果："),
            "system": Pair("[system] ", "系统：")}


def said(m: ChatMessage) -> str:
    """A message's text on one line, its tool calls spelled out."""
    text = " ".join(m.content.split())  # folded: no message can forge a line of its own
    if m.tool_calls:
        calls = ", ".join(f"{c.name}({json.dumps(c.arguments, ensure_ascii=False)})"
                          for c in m.tool_calls)
        text = f"{text} calls {calls}" if text else f"calls {calls}"
    return text


def render(messages: Sequence[ChatMessage], lang: Lang | None = None) -> str:
    """One line a message: the transcript the summarizer reads, "[user] text" in
    English, "用户：text" in Chinese (`lang`; None: the package's language)."""
    return "\n".join(SPEAKERS[m.role.value].say(lang) + said(m) for m in messages)


def customer_words(previous: str | None, messages: Sequence[ChatMessage]) -> str:
    """What decides a summary's language when it follows the dialog (lang="auto"):
    the customer's messages, or with none in `messages`, the previous summary."""
    users = [m.content for m in messages if m.role is Role.USER]
    return " ".join(users) if users else previous or ""
