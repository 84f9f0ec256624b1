"""tinyagent/course/table.py: aligned text in a terminal, HTML in a notebook."""

from tinyagent.course.table import Table


def test_numbers_ids_and_dates_never_split_in_the_html_table():
    """A refund number, an amount and a date are each kept on one line in the HTML,
    however narrow the column gets; the text itself is unchanged and escaped."""
    table = Table("refunds", ["refund", "note"],
                  [["RF20260701001", "¥1,999 on 2026-07-15 <approved>"]])
    html = table._repr_html_()
    for whole in ("RF20260701001", "2026-07-15"):
        assert f'<span style="white-space:nowrap">{whole}</span>' in html
    assert "&lt;approved&gt;" in html and "<approved>" not in html
    # Kept whole, a wide table scrolls sideways in its own box rather than spill out.
    assert html.startswith("<div class='ta-scroll' style='overflow-x:auto'><table>")


def test_the_text_table_aligns_numbers_right_and_counts_cjk_as_two_columns():
    """The repr pads by terminal columns: a Chinese character takes two."""
    text = repr(Table("t", ["名字", "n"], [["退款", "5"], ["ab", "10"]]))
    lines = text.splitlines()
    assert lines[2] == "退款   5" and lines[3] == "ab    10"
