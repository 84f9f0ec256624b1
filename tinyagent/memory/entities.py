"""The entity guard: the numbers a summary must never lose, nor make up.

Introduced in notebook 04; its failures are the subject of notebook 08. Every order
number (5 digits), tracking number (2 capitals + 10 digits) and refund number (RF +
11 digits) that is grounded must be in the new summary: the ones the model dropped
are appended verbatim on a "- ids kept: ..." line (`keep_ids`), since numbers are
what customers ask back and what a model most easily garbles.

Grounded means the customer wrote it, a tool returned it, or the previous summary
held it (`grounded`). An id only the agent's own words carry ("…find your order
89012", with no tool result behind it) is a claim, not a fact: the agent marks the
messages of a turn with the ids its tools returned (`ChatMessage.grounded_ids`), and
an id of such a message outside them is neither required nor allowed. A line of the
new summary that names an id, or a phone number, found in nothing grounded is
dropped (`drop_invented`): dropped rather than marked "unconfirmed", because a
summary is read back as fact, and a number left in it, marked or not, is the one
the next answer repeats to the customer; nothing grounded is lost with it, since
the guard puts every grounded id back. A message without `grounded_ids` (built by
hand, stored by an older version) grounds every id it names, as before. Left out:
names, dates and amounts (a rule for numbers is exact; for the rest a model would
have to judge).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from ..messages import ChatMessage, Role
from .budget import IDS_LINE

# Refund RF20260701001, tracking SF1234567890, order 88231. The guards on each side
# stop a match inside a longer number, an amount (¥12000, 12,000) or a decimal.
ID_PATTERN = re.compile(r"(?<![A-Za-z0-9])(?:RF\d{11}|[A-Z]{2}\d{10})(?!\d)"
                        r"|(?<![A-Za-z\d¥$])(?<!\d[.,])\d{5}(?!\d|[.,]\d)")
# A phone number ("1-800-325-7496", "138 0013 8000"): 7 to 15 digits, spaces or
# dashes between, not a date (2026-06-22) and not inside an id.
PHONE = re.compile(r"(?<![\w+.-])(?!\d{4}-\d\d-\d\d)\+?\d(?:[ -]?\d){6,14}(?![\w-])")


def find_ids(text: str) -> list[str]:
    """Order, tracking and refund numbers in `text`, first appearance first.

    >>> find_ids("Refund RF20260701001 for order 88231 (¥12000), order 88231 again")
    ['RF20260701001', '88231']
    """
    return list(dict.fromkeys(ID_PATTERN.findall(text)))


def find_numbers(text: str) -> list[str]:
    """The ids of `text`, then its phone numbers: what a summary may only repeat.

    >>> find_numbers("Call 1-800-325-7496 about order 88231 (since 2026-06-22)")
    ['88231', '1-800-325-7496']
    """
    return find_ids(text) + list(dict.fromkeys(PHONE.findall(text)))


def _said(message: ChatMessage) -> str:
    """A message's words and its tool calls' arguments."""
    return " ".join([message.content, *(json.dumps(c.arguments, ensure_ascii=False)
                                        for c in message.tool_calls)])


def returned(results: Iterable[ChatMessage]) -> tuple[str, ...]:
    """The ids and phone numbers that tool results returned: what the agent marks a
    turn's messages with. An error ({"error": …}, the registry's shape) returns
    nothing: it only repeats the id it was asked about."""
    found: list[str] = []
    for message in results:
        try:
            value = json.loads(message.content)
        except json.JSONDecodeError:
            value = None
        if not (isinstance(value, dict) and "error" in value):
            found += find_numbers(message.content)
    return tuple(dict.fromkeys(found))


def grounded(previous: str | None, messages: Sequence[ChatMessage]) -> list[str]:
    """The ids and phone numbers the previous summary held, the customer wrote or a
    tool returned, first appearance first (see the module docstring)."""
    found = find_numbers(previous or "")
    for message in messages:
        said = find_numbers(_said(message))
        if message.grounded_ids is not None and message.role not in (Role.USER,
                                                                     Role.SYSTEM):
            said = [i for i in said if i in message.grounded_ids]
        found += said
    return list(dict.fromkeys(found))


def drop_invented(summary: str, given: Sequence[str]) -> str:
    """Lines naming an id or a phone number that is not in `given` (what is
    grounded) are dropped: the model made it up, and a made-up refund number is
    worse than none."""
    known = set(given)
    return "\n".join(line for line in summary.splitlines()
                     if all(i in known for i in find_numbers(line)))


def keep_ids(summary: str, required: Sequence[str], ids_line: str = IDS_LINE) -> str:
    """The entity guard: append, verbatim, every required id the summary lacks."""
    present = set(find_ids(summary))
    missing = [i for i in required if i not in present]
    return f"{summary}\n{ids_line}{', '.join(missing)}" if missing else summary
