"""Show a memory: one row a message, as text for a terminal and as HTML for a notebook.

Introduced in notebook 02, where a memory first displays itself. Every place that
shows a memory uses these two functions: a memory's `_repr_html_`, `print_memory`
(and with it `tinyagent chat`'s /memory), and the notebook 07 playground. Each row
holds the message's number, role, tokens and a one-line preview; the summary row is
labelled "summary", shown without its fence, and marked (★ in text, shaded in
HTML). Deterministic (no ids, no addresses, no clock), so stored notebook outputs
compare byte for byte. Left out: the full text of a message (print it), and colours
in a terminal.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..messages import ChatMessage, Role, clip
from ..tokens import count_message_tokens

WIDTH = 80  # characters: a text line, fit for a terminal; an HTML preview cell
SUMMARY_STYLE = "background:#fff3cd"  # the summary row's shade in HTML


def row(message: ChatMessage) -> tuple[str, str]:
    """(label, text) of one message. The only system message a memory holds is its
    summary: labelled "summary", shown without its fence (the first and last lines,
    which tell the model it is reference data), so the preview starts with facts."""
    if message.role is not Role.SYSTEM:
        calls = ", ".join(c.signature() for c in message.tool_calls)
        return message.role.value, f"{message.content} {calls}"
    lines = message.content.split("\n")
    return "summary", "\n".join(lines[1:-1] if len(lines) > 2 else lines)


def memory_lines(messages: Sequence[ChatMessage], width: int = WIDTH) -> list[str]:
    """One line a message, at most `width` characters: ★ on the summary, number,
    label, tokens, then the text on one line."""
    lines = []
    for i, message in enumerate(messages, 1):
        label, text = row(message)
        prefix = (f"{'★' if label == 'summary' else ' '}{i:>2}  {label:<9} "
                  f"{count_message_tokens(message):>5}  ")
        lines.append(prefix + clip(text, width - len(prefix)))
    return lines


def memory_html(messages: Sequence[ChatMessage], caption: str,
                width: int = WIDTH) -> str:
    """A table under `caption`: #, role, tokens, preview; the summary row shaded."""
    rows = []
    for i, message in enumerate(messages, 1):
        label, text = row(message)
        shade = f' style="{SUMMARY_STYLE}"' if label == "summary" else ""
        rows.append(f"<tr{shade}><td>{i}</td><td>{label}</td>"
                    f"<td>{count_message_tokens(message)}</td>"
                    f"<td style='text-align:left'>{html.escape(clip(text, width))}"
                    "</td></tr>")
    return ("<table>"
            f"<caption>{html.escape(caption)}</caption>"
            "<tr><th>#</th><th>role</th><th>tokens</th><th>preview</th></tr>"
            + "".join(rows) + "</table>")
