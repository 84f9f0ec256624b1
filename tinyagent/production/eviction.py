"""The eviction ladder: what a full summary gives up first, in six steps.

Introduced in notebook 08, section "When the summary is full: the ladder". Notebook
04's budget (tinyagent.memory.budget) has one rule: the oldest fact line goes first.
A production summary runs for hundreds of turns, and age alone is a poor guide
there: a delivered order from turn 2 matters less than a refund still pending from
turn 1. So the production memories fit their summaries with this ladder instead
(`StructuredSummarizer`, `CompactChatMemory`; any `Summarizer(fit=fit)`), trying
each step in turn until the summary fits:

1. `drop_crowded_id`: the oldest ids of the "- ids kept:" line while that line
   holds more than a quarter of the budget (ids of open matters stay);
2. `drop_resolved_line`: the oldest resolved fact lines (a delivered order, a
   product price); the ids a dropped line held move to the ids line, the cheapest
   form of a fact. A line of several items ("- Products: S20 Pro ¥2499; AirX ¥399")
   loses its first, oldest item first, and goes whole only when one item is left;
3. `drop_resolved_id`: the oldest ids of resolved matters on the ids line;
4. the oldest lines about open matters (pending, in transit, a request the
   fallback quoted, and what the customer stated or was promised: "- Delivery:
   after 6 pm"): `shrink_open_line` first cuts each to its ids and the word that
   makes it open ("- 57100 (user asked)"), so it stays open in the next summary
   too; then `drop_open_line` drops the shrunk lines, their ids moving to the ids
   line; then `drop_open_id` drops those ids, oldest first. A last line still too
   long alone is clipped.

So what was settled long ago goes first, and the ids of what is still open stay
longest. Left out: judging importance by meaning (a model could rank the lines;
this is a rule).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..memory.budget import IDS_LINE, Fitted, clip_tokens, ids_on
from ..tokens import count_tokens

OPEN = re.compile(r"pending|in transit|not shipped|processing|awaiting|open request"
                  r"|requested|待|运输中|未发货|处理中"
                  r"|user asked|用户问"  # a request the fallback quoted: open
                  # what the customer asked for and why, and what the agent promised:
                  # they hold until the customer says otherwise, so they count as open
                  r"|^- (?:Delivery|Contact|Budget|Reason|Preference|Promise|Note"
                  r"|配送|送货|联系方式|预算|原因|偏好|承诺|备注)\b"
                  # a refund's reason, on the refund's line
                  r"|[,，;；]\s*(?:reason|原因)\s*[:：]", re.I)

ITEMS = re.compile(r"^(- [^:：;；]{1,20}[:：]\s*)(.*[;；].*)$")  # "- Label: a; b"


@dataclass
class Draft:
    """A summary being fitted: its fact lines, the ids line's ids, what went."""

    lines: list[str]
    ids: list[str]
    ids_line: str
    find_ids: Callable[[str], list[str]]
    open_ids: set[str] = field(default_factory=set)  # ids named on an open line
    evicted: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, summary: str, ids_line: str,
           find_ids: Callable[[str], list[str]]) -> Draft:
        lines = [line for line in summary.splitlines() if ids_on(line) is None]
        ids = [i for line in summary.splitlines() for i in ids_on(line) or ()]
        open_ids = {i for line in lines if OPEN.search(line) for i in find_ids(line)}
        return cls(lines, ids, ids_line, find_ids, open_ids)

    def text(self) -> str:
        ids = [self.ids_line + ", ".join(self.ids)] if self.ids else []
        return "\n".join(self.lines + ids)

    def facts(self) -> list[int]:
        """Indices of the fact lines (not the section headings), oldest first."""
        return [k for k, line in enumerate(self.lines) if not line.startswith("## ")]

    def resolved(self) -> list[int]:
        return [k for k in self.facts() if not OPEN.search(self.lines[k])]

    def drop_line(self, index: int) -> None:
        """The oldest item of a line of items; else the line, its ids kept."""
        items = ITEMS.match(self.lines[index])
        if items is not None:  # the oldest item goes, the line stays
            body = items.group(2)
            cut = re.search(r"[;；]\s*", body)
            assert cut is not None  # ITEMS matched a separator
            self.lines[index] = items.group(1) + body[cut.end():]
            self.evicted.append(body[: cut.start()])
            return
        line = self.lines.pop(index)
        rest = "\n".join(self.lines)
        demoted = [i for i in self.find_ids(line)
                   if i not in rest and i not in self.ids]
        self.ids[:0] = demoted  # old facts: their ids are the oldest on the line
        self.evicted.append(line)

    def drop_id(self, open_too: bool) -> bool:
        """The oldest id (of a resolved matter unless `open_too`); False: none."""
        index = next((k for k, i in enumerate(self.ids)
                      if open_too or i not in self.open_ids), None)
        if index is None:
            return False
        self.evicted.append(self.ids.pop(index))
        return True


# -- the steps of the module docstring, in order; each says whether it evicted
def drop_crowded_id(draft: Draft, max_summary_tokens: int) -> bool:
    """1. A resolved id, while the ids line holds more than a quarter of the budget."""
    if not draft.ids:
        return False
    if count_tokens(draft.ids_line + ", ".join(draft.ids)) <= max_summary_tokens // 4:
        return False
    return draft.drop_id(open_too=False)


def drop_resolved_line(draft: Draft, max_summary_tokens: int) -> bool:
    """2. The oldest resolved line (or its oldest item), unless it is all there is."""
    resolved = draft.resolved()
    if not resolved:
        return False
    alone = len(draft.facts()) == 1 and not draft.ids
    if alone and ITEMS.match(draft.lines[resolved[0]]) is None:
        return False  # the last words: the open steps and the clip decide
    draft.drop_line(resolved[0])
    return True


def drop_resolved_id(draft: Draft, max_summary_tokens: int) -> bool:
    """3. The oldest id of a resolved matter."""
    return draft.drop_id(open_too=False)


def shrink_open_line(draft: Draft, max_summary_tokens: int) -> bool:
    """4a. The oldest open line that can shrink: its ids and its open word stay."""
    for k in draft.facts():
        small = shrunk(draft.lines[k], draft.find_ids)
        if small is not None:
            draft.evicted.append(draft.lines[k])  # its wording
            draft.lines[k] = small
            return True
    return False


def drop_open_line(draft: Draft, max_summary_tokens: int) -> bool:
    """4b. The oldest line, its ids moving to the ids line; never the last words."""
    facts = draft.facts()
    if len(facts) > 1 or (facts and draft.ids):
        draft.drop_line(facts[0])
        return True
    return False


def drop_open_id(draft: Draft, max_summary_tokens: int) -> bool:
    """4c. The oldest id of all."""
    return draft.drop_id(open_too=True)


STEPS = (drop_crowded_id, drop_resolved_line, drop_resolved_id, shrink_open_line,
         drop_open_line, drop_open_id)


def fit(summary: str, max_summary_tokens: int, find_ids: Callable[[str], list[str]],
        ids_line: str = IDS_LINE) -> Fitted:
    """`summary` within `max_summary_tokens` tokens, evicting by the first of STEPS that
    can, again and again; the ids line is rebuilt as `ids_line` (IDS_LINE_ZH for a
    Chinese summary). The same call as notebook 04's `fit`, so a `Summarizer` takes
    either (`fit=`).

    24 tokens into 20: the delivered order (resolved) goes first, its ids moving to
    the ids line; the pending refund (open) stays whole. Then the resolved ids go,
    oldest first, until the summary fits.

    >>> from tinyagent.memory.entities import find_ids
    >>> notes = ("- Order 88231: delivered, SF1234567890\\n"
    ...          "- Refund RF20260701001: pending")
    >>> fitted = fit(notes, 20, find_ids)
    >>> print(fitted.text)
    - Refund RF20260701001: pending
    - ids kept: SF1234567890
    >>> fitted.evicted
    ['- Order 88231: delivered, SF1234567890', '88231']
    """
    draft = Draft.of(summary, ids_line, find_ids)
    while count_tokens(draft.text()) > max_summary_tokens:
        if not first_step(draft, max_summary_tokens):  # one line left, alone too long
            return Fitted(clip_tokens(draft.text(), max_summary_tokens), draft.evicted)
    # A heading with no item left under it (the structured summary's) goes too.
    lines = draft.lines
    draft.lines = [line for k, line in enumerate(lines) if not line.startswith("## ")
                   or (k + 1 < len(lines) and not lines[k + 1].startswith("## "))]
    return Fitted(draft.text(), draft.evicted)


def first_step(draft: Draft, max_summary_tokens: int) -> bool:
    """Run the first step of STEPS that evicts something; False if none can."""
    for step in STEPS:
        if step(draft, max_summary_tokens):
            return True
    return False


def shrunk(line: str, find_ids: Callable[[str], list[str]]) -> str | None:
    """An open line cut to its ids and the word that makes it open; None for a
    resolved line, a line without ids, or one that short already."""
    found, mark = find_ids(line), OPEN.search(line)
    if not found or not mark:
        return None
    small = f"- {', '.join(found)} ({mark.group(0).lstrip('- ')})"  # "- Reason" too
    return small if len(small) < len(line) else None
