"""Checkers for notebook 07 (production memory): cap a section of the summary.

`07.cap_items` takes a function `cap_items(items, max_items=6, max_chars=80)` that
keeps a structured summary's section within its caps (the Nexus design): the newest
`max_items` non-blank items, oldest first, each clipped to `max_chars` characters
with "…" as the last one, the input left unchanged. The reference is
`tinyagent.production.structured.cap_items`. Left out: rendering and the entity guard.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import Case, exercise

# Eight short items; a tuple, so that a function that changes its argument can only
# change the list each case makes from it.
FACTS = tuple(f"fact {n}: order 8823{n} checked" for n in range(1, 9))
LONG = "Refund RF20260701001 for order 88231 approved: ¥1999 back to the card " * 2


def _newest_six(cap_items: Any) -> bool:
    return list(cap_items(list(FACTS))) == list(FACTS[-6:])


def _clipped(cap_items: Any) -> bool:
    (item,) = cap_items([LONG])
    return len(item) == 80 and item == LONG[:79] + "…"


def _exact_fit(cap_items: Any) -> bool:
    item = "x" * 80
    return list(cap_items([item])) == [item]


def _input_unchanged(cap_items: Any) -> bool:
    items = list(FACTS)
    cap_items(items)
    return items == list(FACTS)


def _other_caps(cap_items: Any) -> bool:
    return list(cap_items(["alpha beta gamma", "b", "c"], max_items=2, max_chars=5)) \
        == ["b", "c"] and list(cap_items(["alpha beta"], 1, 5)) == ["alph…"]


@exercise("07.cap_items")
def _cap_items_cases(cap_items: Any) -> Iterator[Case]:
    yield ("a short section comes back as it was",
           lambda: list(cap_items(list(FACTS[:3]))) == list(FACTS[:3]),
           "return the items unchanged when they are within both caps")
    yield ("eight items: the newest six stay, oldest first",
           lambda: _newest_six(cap_items), "keep items[-max_items:]")
    yield ("an item longer than 80 characters is cut to 79 + '…'",
           lambda: _clipped(cap_items), "item[: max_chars - 1] + '…'")
    yield ("an item of exactly 80 characters is kept whole",
           lambda: _exact_fit(cap_items), "clip only when len(item) > max_chars")
    yield ("blank items are dropped", lambda: list(cap_items(["a", "  ", "", "b"]))
           == ["a", "b"], "skip items whose .strip() is empty")
    yield ("the caller's list is left unchanged", lambda: _input_unchanged(cap_items),
           "build a new list instead of deleting from the argument")
    yield ("max_items and max_chars are honoured", lambda: _other_caps(cap_items),
           "use the parameters, not the numbers 6 and 80")
