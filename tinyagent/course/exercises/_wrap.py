"""A checker's report cut into lines that fit, each continued under its own text.

Used by `check` (notebook 00 introduces it). A notebook shows printed text as it
is, and a browser breaks a line too long for the page wherever it must, mid-word
and back at the left edge, so a failing case's evidence becomes hard to follow. So
the report is cut here, at WIDTH columns (a Chinese character takes two): at a
space, or between two Chinese characters (never before a Chinese comma or full
stop), and a line goes on under the start of its own text: under a case's words
after "✗ FAIL  ", two columns further in for the evidence. The cut is the same on
every machine: the stored notebooks stay byte-stable. Left out: a word longer than
a line (an id, a long repr) is not cut; the page may still break it.
"""

from __future__ import annotations

import re

from ...lang import text_width

WIDTH = 80  # columns: fits a notebook at 1,280 px with the file browser open
# A line's head: its indent, and the mark of a case ("✓ PASS  ", "✗ 未通过  ").
HEAD = re.compile(r"^(\s*)(?:([✓✗] \S+\s+))?")
# Units a line may be cut between: `code` whole, spaces, one Chinese character (with
# the punctuation after it, which never starts a line), a run of anything else.
CHINESE = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
UNIT = re.compile(r"`[^`\n]*`|\s+|[\u2e80-\u9fff\uf900-\ufaff][，。；：、！？）」』]*"
                  r"|[\uff00-\uffef]+|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+")


def wrap(line: str, width: int | None = None) -> list[str]:
    """`line` as lines of at most `width` (WIDTH) columns, continued under its text."""
    width = width or WIDTH
    if text_width(line) <= width:
        return [line]
    indent, mark = HEAD.match(line).groups()
    head = indent + (mark or "")
    # a case's words go on under themselves; evidence and verdicts two columns in
    more = " " * text_width(head) if mark else indent + "  "
    lines, current = [], head
    for space, word in _pieces(line[len(head):]):
        if current not in (head, more) and \
                text_width(current + space + word) > width:
            lines.append(current)
            current, space = more, ""
        current += space + word
    lines.append(current)
    return lines


def _pieces(text: str) -> list[tuple[str, str]]:
    """(the space before, an unbreakable piece): pieces break at spaces and between
    two Chinese characters, never inside "6）：" or a word."""
    pieces: list[tuple[str, str]] = []
    space, before = "", " "
    for unit in UNIT.findall(text):
        if unit.isspace():
            space, before = space + unit, unit
            continue
        if space or not pieces or (CHINESE.match(before) and CHINESE.match(unit)):
            pieces.append((space, unit))
        else:
            pieces[-1] = (pieces[-1][0], pieces[-1][1] + unit)
        space, before = "", unit
    return pieces


def wrapped(text: str, width: int | None = None) -> str:
    """Every line of `text` wrapped."""
    return "\n".join(part for line in text.split("\n") for part in wrap(line, width))


__all__ = ["WIDTH", "wrap", "wrapped"]
