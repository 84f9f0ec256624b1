"""The entity guard: the numbers a summary must never lose, nor make up.

Introduced in notebook 04; its failures are the subject of notebook 07. Every order
number (5 digits), tracking number (2 capitals + 10 digits) and refund number (RF +
11 digits) in the compressed messages or in the previous summary must be in the
new summary: the ones the model dropped are appended verbatim on a "- ids kept:
..." line (`keep_ids`), since numbers are what customers ask back and what a model
most easily garbles. The other way round, a line naming an id found in neither is
dropped (`drop_invented`): the model made it up, and a made-up refund number is
worse than none. Left out: names, dates and amounts (a rule for numbers is exact;
for the rest a model would have to judge).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .budget import IDS_LINE

# Refund RF20260701001, tracking SF1234567890, order 88231. The guards on each side
# stop a match inside a longer number, an amount (¥12000, 12,000) or a decimal.
ID_PATTERN = re.compile(r"(?<![A-Za-z0-9])(?:RF\d{11}|[A-Z]{2}\d{10})(?!\d)"
                        r"|(?<![A-Za-z\d¥$])(?<!\d[.,])\d{5}(?!\d|[.,]\d)")


def find_ids(text: str) -> list[str]:
    """Order, tracking and refund numbers in `text`, first appearance first.

    >>> find_ids("Refund RF20260701001 for order 88231 (¥12000), order 88231 again")
    ['RF20260701001', '88231']
    """
    return list(dict.fromkeys(ID_PATTERN.findall(text)))


def drop_invented(summary: str, given: Sequence[str]) -> str:
    """Lines naming an id that is not in `given` (what was summarized) are dropped:
    the model made that id up, and a made-up refund number is worse than none."""
    known = set(given)
    return "\n".join(line for line in summary.splitlines()
                     if all(i in known for i in find_ids(line)))


def keep_ids(summary: str, required: Sequence[str], ids_line: str = IDS_LINE) -> str:
    """The entity guard: append, verbatim, every required id the summary lacks."""
    present = set(find_ids(summary))
    missing = [i for i in required if i not in present]
    return f"{summary}\n{ids_line}{', '.join(missing)}" if missing else summary
