"""The summary budget: a bounded memory must stay bounded, however long the chat.

Introduced in notebook 04, section "When the summary is full". Every summary memory
keeps its summary within `max_summary_tokens` (default 350 tokens, about 1,400
characters: a page of notes, a small share of an 8,000-token prompt budget). The
budget is applied last, after the entity guard has appended the ids the model
dropped, so those ids are inside it too.

When the summary is over budget, something must go, in this order:

1. the oldest ids of the "- ids kept:" line while that line holds more than a
   quarter of the budget (ids of open matters stay);
2. the oldest resolved fact lines (a delivered order, a product price); the ids a
   dropped line held move to the ids line, the cheapest form of a fact. A line of
   several items ("- Products: S20 Pro ¥2499; AirX ¥399") loses its first, oldest
   item first, and goes whole only when one item is left;
3. the oldest ids of resolved matters on the ids line;
4. the oldest lines about open matters (pending, in transit, a request the
   fallback quoted, and what the customer stated or was promised: "- Delivery:
   after 6 pm"): first each shrinks to its ids and the word that makes it open
   ("- 57100 (user asked)"), so it stays open in the next summary too; then the
   shrunk lines go, their ids moving to the ids line; then those ids, oldest first.

So what was settled long ago goes first, and the ids of what is still open stay
longest. `fit` returns what it evicted; the memories count it in `stats()`. Left out:
judging importance by meaning (a model could rank the lines; this is a rule).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..tokens import count_tokens

DEFAULT_SUMMARY_TOKENS = 350  # ~1,400 characters of English at ~4 characters a token
IDS_LINE = "- ids kept: "
IDS_LINE_ZH = "- 保留编号："  # a Chinese summary's ids line (lang="zh")
IDS_LINES = (IDS_LINE, IDS_LINE_ZH)
OPEN = re.compile(r"pending|in transit|not shipped|processing|awaiting|open request"
                  r"|requested|待|运输中|未发货|处理中"
                  r"|user asked|用户问"  # a request the fallback quoted: open
                  # what the customer asked for and why, and what the agent promised:
                  # they hold until the customer says otherwise, so they count as open
                  r"|^- (?:Delivery|Contact|Budget|Reason|Preference|Promise|Note|送货"
                  r"|联系方式|预算|原因|偏好|承诺|备注)\b", re.I)

ITEMS = re.compile(r"^(- [^:：;；]{1,20}[:：]\s*)(.*[;；].*)$")  # "- Label: a; b"


@dataclass
class Fitted:
    """A summary within its budget, and what had to go (oldest first)."""

    text: str
    evicted: list[str] = field(default_factory=list)


def ids_on(line: str) -> list[str] | None:
    """The ids of an ids line, in either language (None: not an ids line)."""
    prefix = next((p for p in IDS_LINES if line.startswith(p)), None)
    return None if prefix is None else [i for i in line[len(prefix):].split(", ") if i]


def fit(summary: str, max_tokens: int, find_ids: Callable[[str], list[str]],
        ids_line: str = IDS_LINE) -> Fitted:
    """`summary` within `max_tokens` tokens, evicting in the order of the docstring;
    the ids line is rebuilt as `ids_line` (IDS_LINE_ZH for a Chinese summary)."""
    lines = [line for line in summary.splitlines() if ids_on(line) is None]
    ids = [i for line in summary.splitlines() for i in ids_on(line) or ()]
    open_ids = {i for line in lines if OPEN.search(line) for i in find_ids(line)}
    evicted: list[str] = []

    def text() -> str:
        return "\n".join(lines + ([ids_line + ", ".join(ids)] if ids else []))

    def drop_line(index: int) -> None:
        items = ITEMS.match(lines[index])
        if items:  # the oldest item goes, the line stays
            body = items.group(2)
            cut = re.search(r"[;；]\s*", body)
            lines[index] = items.group(1) + body[cut.end():]
            evicted.append(body[: cut.start()])
            return
        line = lines.pop(index)
        rest = "\n".join(lines)
        demoted = [i for i in find_ids(line) if i not in rest and i not in ids]
        ids[:0] = demoted  # old facts: their ids are the oldest on the line
        evicted.append(line)

    def drop_id(open_too: bool) -> bool:
        index = next((k for k, i in enumerate(ids) if open_too or i not in open_ids),
                     None)
        if index is None:
            return False
        evicted.append(ids.pop(index))
        return True

    while count_tokens(current := text()) > max_tokens:
        facts = [k for k, line in enumerate(lines) if not line.startswith("## ")]
        resolved = [k for k in facts if not OPEN.search(lines[k])]
        if ids and count_tokens(ids_line + ", ".join(ids)) > max_tokens // 4 \
                and drop_id(open_too=False):
            continue
        if resolved and (len(facts) > 1 or ids or ITEMS.match(lines[resolved[0]])):
            drop_line(resolved[0])
        elif drop_id(open_too=False):
            continue
        elif (k := next((k for k in facts if shrunk(lines[k], find_ids)), None)
              ) is not None:
            evicted.append(lines[k])  # its wording; its ids and openness stay
            lines[k] = shrunk(lines[k], find_ids) or lines[k]
        elif len(facts) > 1 or (facts and ids):
            drop_line(facts[0])
        elif not drop_id(open_too=True):  # one line left, alone too long: clip it
            return Fitted(_clip_tokens(current, max_tokens), evicted)
    # A heading with no item left under it (notebook 07's sections) goes too.
    kept = [line for k, line in enumerate(lines) if not line.startswith("## ")
            or (k + 1 < len(lines) and not lines[k + 1].startswith("## "))]
    lines[:] = kept
    return Fitted(text(), evicted)


def shrunk(line: str, find_ids: Callable[[str], list[str]]) -> str | None:
    """An open line cut to its ids and the word that makes it open; None for a
    resolved line, a line without ids, or one that short already."""
    found, mark = find_ids(line), OPEN.search(line)
    if not found or not mark:
        return None
    small = f"- {', '.join(found)} ({mark.group(0).lstrip('- ')})"  # "- Reason" too
    return small if len(small) < len(line) else None


def _clip_tokens(text: str, max_tokens: int) -> str:
    """Cut characters off the end until the text fits, marking the cut with "…"."""
    while text and count_tokens(text + "…") > max_tokens:
        text = text[: max(len(text) - 8, 0)]
    return text + "…"
