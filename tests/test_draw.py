"""The picture of the messages array: each message marked by where it went."""

from tinyagent.course.draw import draw_messages
from tinyagent.memory.fence import summary_message
from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.tokens import count_message_tokens

SYSTEM = ChatMessage.system("You are BitMall's assistant.")
Q1 = ChatMessage.user("Where is my order 88231?")
A1 = ChatMessage.assistant("Delivered.")
Q2 = ChatMessage.user("I want a refund")


def statuses(drawing):
    return [(row.role, row.status) for row in drawing.rows]


def test_unsent_messages_are_dropped_and_the_system_prompt_is_added():
    """What the request lacks is 'dropped'; what only the request has is 'added'."""
    drawing = draw_messages([Q1, A1, Q2], [SYSTEM, Q2])
    assert statuses(drawing) == [("system", "added"), ("user", "dropped"),
                                 ("assistant", "dropped"), ("user", "sent")]


def test_summarized_messages_and_the_summary_are_marked():
    """Messages folded into a summary say so; the fenced summary is 'summary'."""
    summary = summary_message("- order 88231 delivered")
    drawing = draw_messages([Q1, A1, Q2], [SYSTEM, summary, Q2], summarized=[Q1, A1])
    assert statuses(drawing) == [("system", "added"), ("system", "summary"),
                                 ("user", "summarized"), ("assistant", "summarized"),
                                 ("user", "sent")]
    assert "in the summary: 2 messages" in drawing.caption()


def test_a_repeated_message_is_matched_once():
    """Two equal questions: only as many are 'sent' as the request holds."""
    drawing = draw_messages([Q1, Q1], [Q1])
    assert [row.status for row in drawing.rows] == ["sent", "dropped"]


def test_tool_calls_are_drawn_and_the_output_is_deterministic():
    """A tool call shows its name and arguments; text and HTML are repeatable."""
    call = ChatMessage.assistant("", (ToolCall("c1", "queryOrder",
                                               {"order_id": "88231"}),))
    first = draw_messages([Q1, call], [SYSTEM, Q1, call], title="turn 1")
    again = draw_messages([Q1, call], [SYSTEM, Q1, call], title="turn 1")
    assert "→ queryOrder(88231)" in repr(first)
    assert repr(first) == repr(again) and first._repr_html_() == again._repr_html_()
    assert "<table" in first._repr_html_() and "0x" not in repr(first)


def test_the_caption_counts_messages_and_tokens():
    """The caption sums what is sent and what is dropped, tokens included."""
    caption = draw_messages([Q1, A1, Q2], [SYSTEM, Q2]).caption()
    assert caption.startswith("request: 2 messages, ")
    assert "dropped: 2 messages" in caption


def test_a_summary_inside_the_system_prompt_gets_its_own_row():
    """The agent merges the summary into the system prompt: drawn as two rows whose
    tokens add up to the message's."""
    merged = ChatMessage.system(SYSTEM.content + "\n\n" +
                                summary_message("- refund RF20260701001").content)
    drawing = draw_messages([Q1, A1, Q2], [merged, Q2], summarized=[Q1, A1])
    assert statuses(drawing)[:2] == [("system", "added"), ("system", "summary")]
    assert drawing.rows[0].tokens + drawing.rows[1].tokens == \
        count_message_tokens(merged)
    assert drawing.caption().startswith("request: 2 messages")


def test_a_chinese_notebook_draws_chinese_marks_and_caption():
    """lang="zh": Chinese marks, roles and caption over the same rows."""
    english = draw_messages([Q1, A1, Q2], [SYSTEM, Q2], lang="en")
    chinese = draw_messages([Q1, A1, Q2], [SYSTEM, Q2], lang="zh")
    assert chinese.rows == english.rows
    assert repr(chinese).startswith("请求：2 条消息") and "已丢弃" in repr(chinese)
    assert "dropped" not in repr(chinese) + chinese._repr_html_()


def test_chinese_rows_line_up_in_columns():
    """A Chinese mark takes two columns a character: the token column still lines up."""
    lines = repr(draw_messages([Q1, A1, Q2], [SYSTEM, Q2], lang="zh")).splitlines()[1:]
    width = [len(line) + sum("\u4e00" <= ch <= "\u9fff" for ch in line)
             for line in lines]
    ends = [w - len(line.split("  ")[-1]) for w, line in zip(width, lines, strict=True)]
    assert len(set(ends)) == 1


def test_colours_come_from_the_theme_and_the_message_is_left_aligned():
    """Backgrounds and text colours are the notebook theme's --jp-* variables (so
    light and dark both read): no fixed light shade. The message cell is
    left-aligned and wraps a long word; its numbers and dates stay whole."""
    import re

    summary = summary_message("- order 88231 delivered")
    dated = ChatMessage.user("Delivered on 2026-07-15?")
    html = draw_messages([Q1, A1, dated], [SYSTEM, summary, dated],
                         summarized=[Q1, A1])._repr_html_()
    colours = re.findall(r"(?:background|[^-]color):([^;\"]+)", html)
    assert colours and all(c.startswith("var(--jp-") for c in colours), colours
    assert "text-align:left;overflow-wrap:anywhere" in html
    assert '<span style="white-space:nowrap">2026-07-15</span>' in html
