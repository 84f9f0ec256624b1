"""A picture of the messages array: what goes into the request, what was left out.

Introduced in notebook 01 and used again in 02 to 05. `draw_messages(conversation,
request)` lines up every message of the conversation so far, oldest first, and marks
each one: sent in this request, dropped (the model never sees it again), or folded
into the summary. Messages that only the request holds, the system prompt and the
summary, are marked as added. A notebook shows it as HTML, coloured rows with their
token counts, coloured from the notebook's theme so that they read in light and
dark; `print()` gives the same rows as text. Both are deterministic, so the
stored notebooks compare byte for byte. Its words follow the notebook's language
(`set_lang("zh")`, or `lang=`). Left out: images (a picture made of HTML
needs no plotting library and reads the same on every screen).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from ..display import html_text, label, pad
from ..lang import get_lang, say
from ..memory.fence import FENCES
from ..messages import ChatMessage, Role, clip
from ..tokens import count_message_tokens, count_tokens

# status -> (text mark, row style). The marks are words, so they read in any font
# and without colour. Backgrounds and text take the notebook theme's own colours
# (JupyterLab's --jp-* variables: readable in the light and the dark theme); only
# the bar on the left is a fixed hue, with no text on it.
STATUS = {
    "sent": ("sent", "border-left:6px solid var(--jp-success-color1,#388e3c);"
                     "background:var(--jp-layout-color1)"),
    "added": ("added", "border-left:6px solid var(--jp-brand-color1,#1976d2);"
                       "background:var(--jp-layout-color2)"),
    "summary": ("summary", "border-left:6px solid var(--jp-warn-color1,#f57c00);"
                           "background:var(--jp-layout-color2)"),
    "summarized": ("→ summary", "border-left:6px solid var(--jp-warn-color1,#f57c00);"
                                "background:var(--jp-layout-color1)"),
    "dropped": ("dropped", "border-left:6px solid var(--jp-border-color1,#9e9e9e);"
                           "color:var(--jp-content-font-color2);"
                           "background:var(--jp-layout-color1);"
                           "text-decoration:line-through"),
}
MARKS_ZH = {"sent": "已发送", "added": "新增", "summary": "摘要",
            "summarized": "→ 摘要", "dropped": "已丢弃"}


@dataclass(frozen=True)
class Row:
    """One message in the picture."""

    role: str
    text: str  # one line, clipped
    tokens: int
    status: str  # a key of STATUS
    split: bool = False  # the summary's part of the system message: not a message


def _text(message: ChatMessage, width: int) -> str:
    text = " ".join(message.content.split())
    if message.tool_calls:
        calls = ", ".join(f"{c.name}({', '.join(map(str, c.arguments.values()))})"
                          for c in message.tool_calls)
        text = f"{text} → {calls}".strip(" →") if text else f"→ {calls}"
    return clip(text, width)


def _take(pool: list[ChatMessage], message: ChatMessage) -> bool:
    """Remove the first message equal to `message` from `pool`; False if none.
    (Messages with tool calls hold dicts, so they cannot be counted in a set.)"""
    for i, candidate in enumerate(pool):
        if candidate == message:
            del pool[i]
            return True
    return False


def _added(message: ChatMessage, width: int) -> list[Row]:
    """Rows for a message only the request holds. The agent puts a summary into its
    system prompt (providers reject a second system message later on), so a system
    message that holds the summary's fence is drawn as two rows: prompt, summary."""
    tokens = count_message_tokens(message)
    at = min((i for header, _ in FENCES if (i := message.content.find(header)) >= 0),
             default=-1)
    if message.role is not Role.SYSTEM or at < 0:
        return [Row(message.role.value, _text(message, width), tokens, "added")]
    summary = ChatMessage.system(message.content[at:])
    if at == 0:
        return [Row("system", _text(summary, width), tokens, "summary")]
    part = count_tokens(summary.content)  # the rest is the prompt's: totals stay exact
    prompt = ChatMessage.system(message.content[:at])
    return [Row("system", _text(prompt, width), tokens - part, "added"),
            Row("system", _text(summary, width), part, "summary", split=True)]


def _status(message: ChatMessage, in_request: bool) -> str:
    if message.role is Role.SYSTEM and message.content.startswith(
            tuple(header for header, _ in FENCES)):
        return "summary"
    return "sent" if in_request else "dropped"


@dataclass(frozen=True)
class MessagesDrawing:
    """Rows, request order for what is sent; shows as HTML or as text."""

    title: str
    rows: tuple[Row, ...]
    lang: str = "en"  # the language of its marks and caption

    def mark(self, status: str) -> str:
        return MARKS_ZH[status] if self.lang == "zh" else STATUS[status][0]

    def count(self, *statuses: str) -> tuple[int, int]:
        """(messages, tokens) of the rows with these statuses."""
        rows = [r for r in self.rows if r.status in statuses]
        return sum(not r.split for r in rows), sum(r.tokens for r in rows)

    def caption(self) -> str:
        sent, sent_tokens = self.count("sent", "added", "summary")
        words = [("request", "请求"), ("dropped", "已丢弃"),
                 ("in the summary", "已并入摘要")]
        parts = []
        for (english, chinese), status in zip(words, ("", "dropped", "summarized"),
                                              strict=True):
            n, tokens = (sent, sent_tokens) if not status else self.count(status)
            if n or not status:
                parts.append(say(f"{english}: {n} messages, {tokens:,} tokens",
                                 f"{chinese}：{n} 条消息，{tokens:,} 个 token",
                                 self.lang))
        return " · ".join(parts)

    def __repr__(self) -> str:
        lines = [self.title, self.caption()] if self.title else [self.caption()]
        for n, row in enumerate(self.rows, 1):
            mark, role = self.mark(row.status), label(row.role, self.lang)
            lines.append(f"{n:>3} {pad(mark, 10)} {pad(role, 9)} {row.tokens:>4}  "
                         f"{row.text}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        cell = "padding:2px 8px;font-family:monospace;font-size:12px;"
        # A narrow column would break a Chinese mark between its characters (已丢/弃)
        short = cell + "white-space:nowrap;" * (self.lang == "zh")
        # The message: left-aligned (a notebook right-aligns table cells), wrapping
        # anywhere in a long word, its numbers and dates kept whole (html_text)
        left = f"{cell}max-width:560px;text-align:left;overflow-wrap:anywhere"
        rows = "".join(
            f'<tr style="{STATUS[r.status][1]}"><td style="{cell}">{n}</td>'
            f'<td style="{short}">{self.mark(r.status)}</td>'
            f'<td style="{short}">{label(r.role, self.lang)}</td>'
            f'<td style="{cell}text-align:right">{r.tokens}</td>'
            f'<td style="{left}">{html_text(r.text)}</td></tr>'
            for n, r in enumerate(self.rows, 1))
        head = f"<b>{html.escape(self.title)}</b><br>" if self.title else ""
        names = (("#", "status", "role", "tokens", "message") if self.lang == "en"
                 else ("#", "状态", "角色", "token", "消息"))
        heads = "".join(f'<th style="{short}">{name}</th>' for name in names)
        return (f'<div>{head}<span style="font-size:12px">'
                f"{html.escape(self.caption())}</span>"
                f'<table style="border-collapse:collapse;margin-top:4px">'
                f'<tr style="text-align:left">{heads}</tr>{rows}</table></div>')


def draw_messages(conversation: Sequence[ChatMessage],
                  request: Sequence[ChatMessage], *,
                  summarized: Sequence[ChatMessage] = (), title: str = "",
                  width: int = 72, lang: str | None = None) -> MessagesDrawing:
    """Every message said so far, marked by where it went; then what only the
    request holds (system prompt, summary) at the top, as the model reads them.

    `conversation`: the transcript, oldest first. `request`: the array sent.
    `summarized`: the messages a summary memory folded into its summary.
    """
    in_request, in_summary = list(request), list(summarized)
    said: list[Row] = []
    for message in conversation:
        if _take(in_request, message):
            status = _status(message, True)
        elif _take(in_summary, message):
            status = "summarized"
        else:
            status = "dropped"
        said.append(Row(message.role.value, _text(message, width),
                        count_message_tokens(message), status))
    # What the request holds that nobody said: the system prompt and the summary.
    added = [row for m in in_request for row in _added(m, width)]
    return MessagesDrawing(title, tuple(added + said), get_lang(lang))


__all__ = ["MessagesDrawing", "Row", "draw_messages"]
