"""What the playground shows: its transcript, gauge and memory panel, as HTML and text.

Introduced with the playground in notebook 09 (playground.py holds the controls and
the conversation; this, how they look). Colours come from the notebook's theme
(JupyterLab's --jp-* variables), so the light and the dark theme both read; a state
shown in colour is said in words too. Text is left-aligned, a long word wraps
anywhere instead of widening the notebook, and numbers and dates stay whole
(`html_text`). Everything is deterministic, for nbval. Left out: streaming.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from ..display import SUMMARY_STYLE, html_text, memory_html, memory_lines
from ..lang import say
from ..memory.base import ChatMemory
from ..messages import Role, clip
from ..tokens import count_message_tokens

# HTML widgets use the controls' tall line height; text reads better closer.
PANEL = "line-height:1.4;white-space:normal;text-align:left"
# Prose may break a long word anywhere; a table may not (its "tokens" column would
# read "toke/ns"): there only the preview cell wraps so.
PROSE = f"{PANEL};overflow-wrap:anywhere"
# The transcript scrolls inside a fixed height; column-reverse keeps its scroll at
# the bottom, so the newest turn is in view and the controls stay where they are.
SCROLL = (f"{PROSE};max-height:18em;overflow-y:auto;display:flex;"
          "flex-direction:column-reverse;border:1px solid var(--jp-border-color2);"
          "padding:0 8px")


def status(problem: str, setting: str, turns: int, refused: int, lang: str) -> str:
    """The status line: the strategy and its sizes (or why none runs), the turns
    sent and those the agent refused (they never reached the model)."""
    if problem:
        head = say(f"⚠ {problem}. Using no memory until that is fixed.",
                   f"⚠ {problem}。改好之前不使用记忆。", lang)
    else:
        started = say("Conversation", "对话", lang) if turns else \
            say("New conversation", "新对话", lang)
        head = f"{started}{say(': ', '：', lang)}{setting}"
    count = turns - refused
    sent = say(f" · {count} turn{'s' * (count != 1)} sent", f" · 已发送 {count} 轮",
               lang)
    no = say(f" · {refused} refused (over the token budget)",
             f" · {refused} 轮被拒绝（超出 token 预算）", lang)
    return head + (sent if turns else "") + (no if refused else "")


def run_again(lang: str) -> str:
    """The line printed above the live controls: it outlives the kernel."""
    return say("The playground runs in this notebook's kernel: if its controls below "
               "read as an error (the notebook was reopened, or the kernel "
               "restarted), run this cell again.",
               "演练场运行在当前的内核里：如果下面的控件显示成一行报错（这一课重新"
               "打开过，或者内核重启过），请重新运行这个单元格。", lang)


def prose(text: str) -> str:
    """A line of text as wrapping HTML, numbers kept whole."""
    return f"<div style='{PROSE}'>{html_text(text)}</div>"


def transcript_html(turns: Sequence[tuple[str, str]], lang: str) -> str:
    """Every turn, the newest in view; a line in words when there is none yet."""
    you, agent = say("You:", "你：", lang), say("Agent:", "客服：", lang)
    shown = "".join(f"<p><b>{you}</b> {html_text(q)}<br><b>{agent}</b> "
                    f"{html_text(a)}</p>" for q, a in turns)
    empty = say("No messages yet.", "还没有消息。", lang)
    return f"<div style='{SCROLL}'><div>{shown or f'<p><i>{empty}</i></p>'}</div></div>"


def gauge_label(tokens: int, budget: int, lang: str) -> str:
    """The gauge's number and, past 60 % of the budget, its state in words."""
    share = tokens / budget
    if share > 1:
        word = say(" · ⚠ over the budget: the turn was refused",
                   " · ⚠ 超出预算：这一轮被拒绝", lang)
    elif share >= 0.9:
        word = say(" · ⚠ near the budget", " · ⚠ 接近预算", lang)
    else:
        word = say(" · more than half used", " · 已用过半", lang) * (share >= 0.6)
    return say(f"{tokens:,} / {budget:,} tokens in the last prompt",
               f"上一次提示词：{tokens:,} / {budget:,} token", lang) + word


def bar_style(tokens: int, budget: int) -> str:
    share = tokens / budget
    return "danger" if share >= 0.9 else "warning" if share >= 0.6 else "success"


def gauge_text(tokens: int, budget: int, lang: str, width: int = 20) -> str:
    filled = round(width * min(tokens / budget, 1))
    label = say("Prompt tokens: ", "提示词 token：", lang)
    return f"{label}{tokens} / {budget} [{'#' * filled}{'.' * (width - filled)}]"


def panel_title(memory: ChatMemory | None, lang: str) -> str:
    if memory is None:
        return say("Memory: none (every turn starts from scratch)",
                   "记忆：无（每一轮都从零开始）", lang)
    messages = memory.messages()
    tokens = sum(count_message_tokens(m) for m in messages)
    extra = getattr(memory, "compression_count", None)
    if lang == "zh":
        return (f"记忆：{len(messages)} 条消息，{tokens} token"
                + (f"，{extra} 次压缩" if extra is not None else ""))
    return (f"Memory: {len(messages)} messages, {tokens} tokens"
            + (f", {extra} compression{'s' * (extra != 1)}" if extra is not None
               else ""))


def empty_line(memory: ChatMemory | None, lang: str) -> str:
    if memory is None:
        return say("Empty: with no memory, each request holds only the new question.",
                   "空：没有记忆时，每次请求只带着新问题。", lang)
    return say("Empty: nothing stored yet. Each turn you send appears here.",
               "空：还没有存下任何内容。你发送的每一轮都会出现在这里。", lang)


def panel_html(memory: ChatMemory | None, lang: str) -> str:
    """The memory panel: the summary in full, then the memory's own table."""
    messages = memory.messages() if memory is not None else []
    title = html.escape(panel_title(memory, lang))
    if not messages:  # words, not a table with a header and no rows
        return f"<b>{title}</b><p><i>{html.escape(empty_line(memory, lang))}</i></p>"
    head = say("Summary", "摘要", lang)
    summary = "".join(f"<div style='{SUMMARY_STYLE};padding:4px'><b>{head}</b>"
                      "<pre style='white-space:pre-wrap;overflow-wrap:anywhere'>"
                      f"{html.escape(m.content)}</pre></div>"
                      for m in messages if m.role is Role.SYSTEM)
    return summary + memory_html(messages, panel_title(memory, lang), lang=lang)


def panel_text(memory: ChatMemory | None, lang: str) -> str:
    """The memory panel as text: one line a message, the summary marked ★."""
    messages = memory.messages() if memory is not None else []
    if not messages:
        return f"{panel_title(memory, lang)}\n  ({empty_line(memory, lang)})"
    return "\n".join([panel_title(memory, lang), *memory_lines(messages, lang=lang)])


def text_view(status: str, turns: Sequence[tuple[str, str]], gauge: str,
              panel: str, lang: str) -> str:
    """The whole playground as deterministic text: what nbval compares."""
    you, bot = say("you", "用户", lang), say("bot", "客服", lang)
    lines = [f"{you}> {clip(q, 90)}\n{bot}> {clip(a, 90)}" for q, a in turns]
    name = say("Playground", "演练场", lang)  # what notebook 09 calls it in Chinese
    return "\n".join([f"{name} · {status}", *lines, gauge, panel])


def layout(pg: Any) -> Any:
    """The playground's controls in one box: the settings row, the status, the
    transcript, the chat box, the gauge and the memory panel, top to bottom."""
    import ipywidgets as w

    def row(*children: Any) -> Any:  # on a narrow screen: wrap, not cut
        return w.HBox(children, layout=w.Layout(flex_flow="row wrap"))

    box = w.VBox([row(pg.strategy_menu, pg.slider_box, pg.new_button, pg.undo_button),
                  pg.status, pg.transcript, pg.chat_box,
                  row(pg.gauge, pg.gauge_label), pg.memory_panel])
    box.add_class("tinyagent-playground")  # keys stay in its controls
    return box
