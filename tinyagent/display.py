"""Show a memory: one row a message, as text for a terminal and as HTML for a notebook.

Introduced in notebook 02, where a memory first displays itself. Every place that
shows a memory uses these two functions: a notebook (`memory_table`), `print_memory`
(and with it `tinyagent chat`'s /memory), and the notebook 09 playground. The
memories know nothing of HTML: this module sits above them, and importing tinyagent
tells a running IPython, once, to draw every memory as `memory_table`
(`draw_memories_in_notebooks`). Each row
holds the message's number, role, tokens and a one-line preview; the summary row is
labelled "summary", shown without its fence, and marked (★ in text, shaded in
HTML). HTML takes its colours from the notebook's theme (JupyterLab's --jp-*
variables: both the light and the dark theme read), keeps text left-aligned, and
keeps numbers and dates whole on one line (`html_text`). Deterministic (no ids, no
addresses, no clock), so stored notebook outputs compare byte for byte. The labels
follow the dialog's language: Chinese (用户, 助手, 工具, 摘要) when the user writes
Chinese, or as `lang` asks. Left out: the full text
of a message (print it), and colours in a terminal.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Sequence

from .lang import Lang, get_lang, text_width
from .memory.base import BaseChatMemory, ChatMemory
from .messages import ChatMessage, Role, clip
from .tokens import count_message_tokens

WIDTH = 80  # characters: a text line, fit for a terminal; an HTML preview cell
# The summary row's shade: the theme's second layer colour, under the theme's text
# colour (readable in light and dark), with an accent bar; no colour for other fronts.
SUMMARY_STYLE = ("background:var(--jp-layout-color2);"
                 "border-left:4px solid var(--jp-warn-color1,#f57c00)")
# A number, an order or refund number, a date or a price: kept on one line, as a
# reader would not split "2026-07-15" or "RF20260701001". Longer runs (a pasted
# 300-character token) may still wrap, so nothing is wider than the notebook.
WHOLE = re.compile(r"(?<![\w.,:/%–-])[A-Za-z¥$€£]{0,4}\d(?:[\w.,:/–-]{0,24}[\w%])?"
                   r"(?![\w%])", re.ASCII)  # ASCII: 于2026 starts a date
LABELS = {"user": "用户", "assistant": "助手", "tool": "工具", "summary": "摘要",
          "system": "系统", "role": "角色", "tokens": "token", "preview": "预览"}


LEFT = "text-align:left;overflow-wrap:anywhere"


def language(messages: Sequence[ChatMessage], lang: str | None = "auto") -> Lang:
    """`lang` by the package's one rule, "auto" reading the customer's words: "zh"
    when a user message holds Chinese."""
    return get_lang(lang, " ".join(m.content for m in messages if m.role is Role.USER))


def label(word: str, lang: str) -> str:
    """A role or column name, in English or in Chinese."""
    return LABELS.get(word, word) if lang == "zh" else word


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` columns: a Chinese character takes two."""
    return text + " " * (width - text_width(text))


def html_text(text: str) -> str:
    """`text` escaped for HTML, its numbers and dates kept whole (no line break)."""
    parts = WHOLE.split(text)  # the text between; the numbers are found again below
    whole = [f'<span style="white-space:nowrap">{html.escape(m)}</span>'
             for m in WHOLE.findall(text)]
    return "".join(html.escape(p) + w for p, w in zip(parts, [*whole, ""],
                                                     strict=True))


def kind(message: ChatMessage) -> str:
    """A row's label: the role, or "summary" for the one system message a memory
    holds (its summary)."""
    return "summary" if message.role is Role.SYSTEM else message.role.value


def row(message: ChatMessage, width: int = WIDTH) -> tuple[str, str]:
    """(label, text on one line of at most `width` characters) of one message: the
    message's own preview; the summary shown without its fence (the first and last
    lines, which tell the model it is reference data), so it starts with facts."""
    if message.role is not Role.SYSTEM:
        return kind(message), message.preview(width)
    lines = message.content.split("\n")
    return kind(message), clip("\n".join(lines[1:-1] if len(lines) > 2 else lines),
                               width)


def memory_lines(messages: Sequence[ChatMessage], width: int = WIDTH,
                 lang: str = "auto") -> list[str]:
    """One line a message, at most `width` characters: ★ on the summary, number,
    label, tokens, then the text on one line."""
    lines, lang = [], language(messages, lang)
    for i, message in enumerate(messages, 1):
        role = kind(message)
        star = "★" if role == "summary" else " "
        prefix = (f"{star}{i:>2}  {pad(label(role, lang), 9)} "
                  f"{count_message_tokens(message):>5}  ")
        lines.append(prefix + row(message, width - len(prefix))[1])
    return lines


def memory_html(messages: Sequence[ChatMessage], caption: str,
                width: int = WIDTH, lang: str = "auto") -> str:
    """A table under `caption`: #, role, tokens, preview; the summary row shaded.
    The preview is left-aligned (a notebook right-aligns table cells)."""
    rows, lang = [], language(messages, lang)
    for i, message in enumerate(messages, 1):
        role, text = row(message, width)
        shade = f' style="{SUMMARY_STYLE}"' if role == "summary" else ""
        rows.append(f"<tr{shade}><td>{i}</td><td>{label(role, lang)}</td>"
                    f"<td>{count_message_tokens(message)}</td>"
                    f"<td style='{LEFT}'>{html_text(text)}</td></tr>")
    return ("<table>"
            f"<caption>{html.escape(caption)}</caption>"
            "<tr><th>#</th>" + "".join(f"<th>{label(word, lang)}</th>" for word in
                                       ("role", "tokens", "preview")) + "</tr>"
            + "".join(rows) + "</table>")


def memory_table(memory: ChatMemory) -> str:
    """A memory as a notebook shows it: its messages' table under its repr."""
    return memory_html(memory.messages(), repr(memory))


def draw_memories_in_notebooks() -> None:
    """Have a running IPython (a notebook) draw every memory of this package as
    `memory_table`; outside IPython there is nothing to tell. The package's
    __init__ calls it, so `memory` alone in a cell shows the table."""
    ipython = sys.modules.get("IPython")  # never imported here: a script stays fast
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type(BaseChatMemory,
                                                                 memory_table)
