"""Rules of the one way to show a memory: text lines and an HTML table."""

from fakes import FakeLlm, chat, fed

from tinyagent import ChatMessage, SummaryChatMemory
from tinyagent.display import (
    draw_memories_in_notebooks,
    memory_html,
    memory_lines,
    memory_table,
)
from tinyagent.memory.fence import SUMMARY_HEADER, summary_message


def test_a_line_fits_the_width_and_numbers_from_one():
    """Every text line is at most `width` characters, numbered 1, 2, ... in order."""
    messages = [ChatMessage.user("x " * 100), ChatMessage.assistant("short")]
    for width in (40, 80):
        lines = memory_lines(messages, width)
        assert all(len(line) <= width for line in lines)
        assert [line.split()[0] for line in lines] == ["1", "2"]


def test_the_summary_is_labelled_and_shown_without_its_fence():
    """The summary row reads "summary" and starts with its facts, not the fence that
    tells the model it is reference data; ★ in text, shaded in HTML."""
    messages = [summary_message("- Order 88231 delivered"), ChatMessage.user("hi")]
    first = memory_lines(messages)[0]
    assert first.startswith("★ 1  summary")
    assert first.endswith("- Order 88231 delivered")
    html = memory_html(messages, "caption")
    assert SUMMARY_HEADER not in first + html
    assert html.count("background") == 1 and "<td>summary</td>" in html


def test_a_notebook_draws_a_memory_with_the_same_rows():
    """In IPython, a memory alone in a cell shows memory_html of its messages under
    its repr: importing tinyagent told IPython how (the memory itself knows no
    HTML)."""
    from IPython.core.interactiveshell import InteractiveShell

    memory = fed(SummaryChatMemory(FakeLlm(), threshold=4, keep_recent=2), chat(3))
    assert not hasattr(memory, "_repr_html_")
    shell = InteractiveShell.instance()
    draw_memories_in_notebooks()  # what `import tinyagent` does in a notebook
    shown, _ = shell.display_formatter.format(memory)
    assert shown["text/html"] == memory_table(memory) == memory_html(
        memory.messages(), repr(memory))
    assert shown["text/plain"] == repr(memory)


def test_tool_calls_show_in_the_preview():
    """A message that only calls a tool still says which tool, with its arguments."""
    from tinyagent import ToolCall

    call = ChatMessage.assistant("", tool_calls=(ToolCall("c1", "queryOrder",
                                                         {"orderId": "88231"}),))
    assert "queryOrder" in memory_lines([call])[0]


def test_a_chinese_dialog_gets_chinese_labels():
    """Labels follow the dialog: 用户/助手/摘要 when the user writes Chinese; an English
    dialog keeps user/assistant; lang= overrides."""
    chinese = [summary_message("- 订单 88231 已签收"),
               ChatMessage.user("退款多久到账？"),
               ChatMessage.assistant("1–3 个工作日。")]
    lines = memory_lines(chinese)
    assert [line[5:7] for line in lines] == ["摘要", "用户", "助手"]
    assert "<th>角色</th>" in memory_html(chinese, "caption")
    english = [ChatMessage.user("hi"), ChatMessage.assistant("hello")]
    assert [line.split()[1] for line in memory_lines(english)] == ["user", "assistant"]
    assert memory_lines(english, lang="zh")[0].split()[1] == "用户"


def test_the_summary_shade_is_the_theme_s_and_the_preview_left_aligned():
    """The summary row's shade is a --jp-* theme colour (it reads in the dark theme
    too), and the preview cell is left-aligned and wraps."""
    html = memory_html([summary_message("- Order 88231"), ChatMessage.user("hi")], "c")
    assert "background:var(--jp-layout-color2)" in html and "#fff3cd" not in html
    assert "text-align:left;overflow-wrap:anywhere" in html


def test_numbers_and_dates_are_kept_whole_and_the_rest_escaped():
    """Order and refund numbers, dates, prices and times sit in no-wrap spans, in
    English and Chinese text; a 300-character run is left free to wrap; markup in the
    text is escaped, never broken by a span."""
    from tinyagent.display import html_text

    keep = '<span style="white-space:nowrap">{}</span>'.format
    text = html_text("订单88231于2026-07-15签收，退款RF20260701001 ¥1999 12:30<b>'")
    for whole in ("88231", "2026-07-15", "RF20260701001", "¥1999", "12:30"):
        assert keep(whole) in text
    assert "&lt;b&gt;&#x27;" in text
    assert "nowrap" not in html_text("9" * 300)


def test_a_row_is_the_message_preview_and_the_summary_without_its_fence():
    """display.row gives a message's own preview (one job, one place); the summary
    row is the summary's text, no fence, clipped to the same width."""
    from tinyagent.display import row
    from tinyagent.memory.fence import summary_message
    from tinyagent.messages import ChatMessage
    question = ChatMessage.user("Where   is my order 88231? " * 5)
    assert row(question, 40) == ("user", question.preview(40))
    assert row(summary_message("- order 88231: in transit"), 40) == (
        "summary", "- order 88231: in transit")
