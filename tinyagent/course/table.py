"""Text tables that align in a terminal and show as HTML in a notebook.

Introduced in notebook 06, where the comparison and the evaluation print their
figures with it. A CJK character takes two terminal columns, so the alignment counts
columns, not characters; numbers align right. `pad` does the same for one cell of a
line a notebook prints itself (`f"{pad(title, 14)}"`, where `f"{title:<14}"` would
count a Chinese title's characters and misalign it). Left out: wrapping long cells.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from ..display import html_text
from ..lang import text_width


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` padded with spaces to `width` terminal columns (a Chinese character
    takes two), on the right, or on the left with `right=True`.

    >>> pad("混合 4/8", 10) + "|", pad("4/8", 5, right=True)
    ('混合 4/8  |', '  4/8')
    """
    gap = " " * max(width - text_width(text), 0)
    return gap + text if right else text + gap


@dataclass(repr=False)
class Table:
    """Rows of strings: the repr aligns them (numbers right), notebooks show HTML."""

    caption: str
    header: list[str]
    rows: list[list[str]]

    def __repr__(self) -> str:
        columns = list(zip(self.header, *self.rows, strict=True))
        widths = [max(map(text_width, column)) for column in columns]
        numeric = [all(c.replace(",", "").replace(".", "", 1).isdigit()
                       for c in column[1:])
                   for column in columns]
        lines = [self.caption]
        for row in [self.header, *self.rows]:
            gaps = [" " * (w - text_width(c)) for c, w in zip(row, widths, strict=True)]
            lines.append("  ".join(g + c if right else c + g for c, g, right
                                   in zip(row, gaps, numeric, strict=True)).rstrip())
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        # Long cells wrap (at any character if they must), and no column is squeezed
        # below a short word: the table fits a 1,024-pixel screen. Numbers, ids and
        # dates never split (html_text keeps each on one line); a table that is still
        # wider than the notebook scrolls sideways in its own box, nothing cut off.
        cell = ("<{0} style='text-align:left;overflow-wrap:anywhere;min-width:5em'>"
                "{1}</{0}>").format
        rows = [(self.header, "th"), *((row, "td") for row in self.rows)]
        return (f"<div class='ta-scroll' style='overflow-x:auto'><table><caption>"
                f"{html.escape(self.caption)}</caption>" + "".join(
            "<tr>" + "".join(cell(tag, html_text(c)) for c in row) + "</tr>"
            for row, tag in rows) + "</table></div>")
