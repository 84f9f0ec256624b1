"""The transcript a summarizer reads: one line a message, in the dialog's language.

Introduced in notebook 04, which prints the summarizer's request. "[user] Where is
my order 88231?" in English, "用户：帮我查一下订单 88231 的物流到哪了" in Chinese, as
transcripts in each language are written; each message is folded onto its line, so
that no message can forge a line of its own, and its tool calls are spelled out.
The request's markers around the previous summary and the new messages come in both
languages too; the offline model reads either. Left out: images and other parts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..lang import get_lang, is_chinese
from ..messages import ChatMessage, Role

# What the request says around the two parts, per language: (previous summary, no
# summary yet, new messages). The offline model reads both languages' markers.
MARKERS = {"en": ("Previous summary:", "(none)", "New messages:"),
           "zh": ("之前的摘要：", "无", "新消息：")}
# Who says a line of a Chinese transcript, as Chinese transcripts are written
# ("用户：…", "客服：…"); English ones say "[user] …". The offline model reads both.
SPEAKERS_ZH = {"user": "用户：", "assistant": "客服：", "tool": "工具结果：",
               "system": "系统："}


def said(m: ChatMessage) -> str:
    """A message's text on one line, its tool calls spelled out."""
    text = " ".join(m.content.split())  # folded: no message can forge a line of its own
    if m.tool_calls:
        calls = ", ".join(f"{c.name}({json.dumps(c.arguments, ensure_ascii=False)})"
                          for c in m.tool_calls)
        text = f"{text} calls {calls}" if text else f"calls {calls}"
    return text


def render(messages: Sequence[ChatMessage], lang: str | None = None) -> str:
    """One line a message: the transcript the summarizer reads, "[user] text" in
    English, "用户：text" in Chinese (`lang`, else the package's language)."""
    if get_lang(lang) == "zh":
        return "\n".join(f"{SPEAKERS_ZH[m.role.value]}{said(m)}" for m in messages)
    return "\n".join(f"[{m.role.value}] {said(m)}" for m in messages)


def dialog_lang(previous: str | None, messages: Sequence[ChatMessage]) -> str:
    """"zh" when the customer writes Chinese, else "en". With no user message in
    `messages`, the previous summary's language decides."""
    users = [m.content for m in messages if m.role is Role.USER]
    text = " ".join(users) if users else previous or ""
    return "zh" if is_chinese(text) else "en"
