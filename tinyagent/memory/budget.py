"""The summary budget: a bounded memory must stay bounded, however long the chat.

Introduced in notebook 04, section "When the summary is full". Every summary memory
keeps its summary within `max_summary_tokens` (default 350 tokens, about 1,400
characters: a page of notes, a small share of an 8,000-token prompt budget). The
budget is applied last, after the entity guard has appended the ids the model
dropped, so those ids are inside it too.

One rule: while the summary is over budget, the oldest fact line goes, and the ids
it held move to the "- ids kept:" line, the cheapest form of a fact. When one fact
line is left, the oldest ids go; a last line too long alone is clipped. `Notes`
holds the summary being fitted, and each step is one of its methods. `fit`
returns what it evicted; the memories count it in `stats()`. Left out: which facts
matter more than their age says (a refund still pending outlives a delivered order
in notebook 08's ladder, tinyagent.production.eviction).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..lang import Pair
from ..tokens import count_tokens

DEFAULT_SUMMARY_TOKENS = 350  # ~1,400 characters of English at ~4 characters a token
IDS_LINE = "- ids kept: "
IDS_LINE_ZH = "- 保留编号："  # a Chinese summary's ids line
IDS_LINES = Pair(IDS_LINE, IDS_LINE_ZH)  # the ids line, in the summary's language
# How a summary is fitted: (summary, max_summary_tokens, find_ids, ids_line).
Fit = Callable[[str, int, Callable[[str], list[str]], str], "Fitted"]


@dataclass
class Fitted:
    """A summary within its budget, and what had to go (oldest first)."""

    text: str
    evicted: list[str] = field(default_factory=list)


def ids_on(line: str) -> list[str] | None:
    """The ids of an ids line, in either language (None: not an ids line)."""
    prefix = next((p for p in (IDS_LINE, IDS_LINE_ZH) if line.startswith(p)), None)
    return None if prefix is None else [i for i in line[len(prefix):].split(", ") if i]


@dataclass
class Notes:
    """A summary being fitted: its fact lines and the ids of its ids line, oldest
    first. Each step below changes them together, so `text()` is always whole."""

    lines: list[str]
    ids: list[str]
    ids_line: str  # the ids line's label, in the summary's language
    moved: int = 0  # ids moved from dropped lines: before the guard's, oldest first

    @classmethod
    def read(cls, summary: str, ids_line: str) -> Notes:
        rows = summary.splitlines()
        return cls([row for row in rows if ids_on(row) is None],
                   [i for row in rows for i in ids_on(row) or ()], ids_line)

    def text(self) -> str:
        ids = [self.ids_line + ", ".join(self.ids)] if self.ids else []
        return "\n".join(self.lines + ids)

    def drop_oldest_line(self, find_ids: Callable[[str], list[str]]) -> str:
        """The oldest fact line goes; its ids no other line names join the ids
        line, after the ids moved there before and before the guard's."""
        line = self.lines.pop(0)
        rest = "\n".join(self.lines)
        kept = [i for i in find_ids(line) if i not in rest and i not in self.ids]
        self.ids[self.moved:self.moved] = kept
        self.moved += len(kept)
        return line

    def drop_oldest_id(self) -> str:
        """The oldest id of the ids line goes (one fact line is left)."""
        self.moved = max(self.moved - 1, 0)
        return self.ids.pop(0)


def fit(summary: str, max_summary_tokens: int, find_ids: Callable[[str], list[str]],
        ids_line: str = IDS_LINE) -> Fitted:
    """`summary` within `max_summary_tokens` tokens: the oldest line goes first, its
    ids moving to the ids line (rebuilt as `ids_line`, IDS_LINE_ZH in Chinese).

    27 tokens into 24: the oldest line, order 88231, goes; its tracking number stays
    on the ids line (88231 stays too: the refund line still names it).

    >>> from tinyagent.memory.entities import find_ids
    >>> notes = ("- Order 88231: delivered, SF1234567890\\n"
    ...          "- Refund RF20260701001: order 88231")
    >>> fitted = fit(notes, 24, find_ids)
    >>> print(fitted.text)
    - Refund RF20260701001: order 88231
    - ids kept: SF1234567890
    >>> fitted.evicted
    ['- Order 88231: delivered, SF1234567890']
    """
    notes, evicted = Notes.read(summary, ids_line), []
    while count_tokens(notes.text()) > max_summary_tokens and (
            len(notes.lines) > 1 or notes.ids):
        if len(notes.lines) > 1:
            evicted.append(notes.drop_oldest_line(find_ids))
        else:  # the last fact line stays: the oldest id goes
            evicted.append(notes.drop_oldest_id())
    text = notes.text()
    if count_tokens(text) > max_summary_tokens:  # one line left, alone too long
        text = clip_tokens(text, max_summary_tokens)
    return Fitted(text, evicted)


def clip_tokens(text: str, max_summary_tokens: int) -> str:
    """Cut characters off the end until the text fits, marking the cut with "…"."""
    while text and count_tokens(text + "…") > max_summary_tokens:
        text = text[: max(len(text) - 8, 0)]
    return text + "…"
