"""The JSON summary of notebook 08: the ledger's lines sorted into seven sections.

Used by summarize.py when the summarizer's system prompt asks for JSON. Each ledger
line goes to one section, by its label or its status, so that no fact is paid for
twice: what is still open (a pending refund, an order in transit, the agent's
promise) is pending; what the customer asked for (delivery, contact, budget,
preferences) and told about themselves (a note) is a constraint; a delivered order
or an approved refund is resolved; the other orders, refunds and reasons are
confirmed facts; products and policies are the running summary, which otherwise
repeats the latest line. Left out: the goal's wording beyond the last open request.
"""

from __future__ import annotations

import re
from typing import Any

from . import intents
from .facts import IDS, clip
from .ledger import as_fact, render
from .statements import TOPICS, reason_on_refund

# Per section of the JSON summary: a structured summary stays readable, and bounded,
# only if each of its sections is (notebook 08 sets the same caps on its side).
MAX_ITEMS, MAX_ITEM_CHARS = 6, 80

SECTIONS = re.compile(r"^(Order|Refund|Product|Reason|订单|退款|商品|原因)")
PENDING = re.compile(r"^(Open request|待处理|Promise|跟进|承诺)|pending|in transit"
                     r"|not shipped|待|运输中|未发货")
# What the customer asked for: the section "preferences and constraints".
STATED = re.compile("^(" + "|".join(label for topic in ("budget", "contact",
                    "delivery", "prefers", "note") for label in TOPICS[topic]) + ")")
RESOLVED = re.compile(r"delivered|approved|refunded|已签收|已通过|已退款")


# What a cut item must still say: its ids, an amount, a time ("¥2000", "7 pm",
# "Saturday").
KEPT = re.compile(IDS.pattern + r"|¥\s?\d[\d,.]*|\d[\d,.]*\s?(?:yuan|元|块)"
                  r"|\d{1,2}(?::\d\d)?\s?(?:[ap]m|点)|\b(?:mon|tues|wednes|thurs|fri|"
                  r"satur|sun)day\b|周[一二三四五六日天]", re.I)


def clip_item(item: str) -> str:
    """At most MAX_ITEM_CHARS, cut at a word in English; the ids, amounts and times
    the cut loses are kept in brackets ("…more than ¥2… (¥2000)" would lose the
    budget a probe asks back)."""
    if len(item) <= MAX_ITEM_CHARS:
        return item
    found = list(dict.fromkeys(m.group() for m in KEPT.finditer(item)))
    suffix = ""
    for _ in range(3):  # a longer suffix means a shorter cut: settle in a few rounds
        kept = item[: MAX_ITEM_CHARS - 1 - len(suffix)]
        if " " in kept[len(kept) // 2:] and not re.search(r"[\u4e00-\u9fff]", kept):
            kept = kept.rsplit(" ", 1)[0]
        kept = kept.rstrip(" ,，;；") + "…"
        lost = [k for k in found if k not in kept]
        suffix = f" ({', '.join(lost)})" if lost else ""
    return kept + suffix


def id_hint(value: str, zh: bool = False) -> str:
    """"refund RF…", "tracking SF…" or "order 88231": an id with its kind."""
    if intents.REFUND_ID.fullmatch(value):
        kind = "退款" if zh else "refund"
    elif intents.TRACKING_ID.fullmatch(value):
        kind = "运单" if zh else "tracking"
    else:
        kind = "订单" if zh else "order"
    return f"{kind} {value}"


def items_of(lines: list[str], zh: bool) -> list[str]:
    """The ledger's lines as items: a refund's reason is an item of its own, so
    that clipping the refund's line to 80 characters never cuts it."""
    items = []
    for line in lines:
        split = reason_on_refund(line)
        items += [split[0], render(as_fact(split[1]), zh)] if split else [line]
    return items


def section_of(item: str) -> str:
    """The one section an item goes to: what is open first, then what the customer
    asked for, then what is settled, then the other facts; the rest is running."""
    for key, pattern in (("pending", PENDING), ("preferences", STATED),
                         ("resolved", RESOLVED), ("confirmed_facts", SECTIONS)):
        if pattern.search(item):
            return key
    return "running_summary"


def structured(lines: list[str], zh: bool = False) -> dict[str, Any]:
    """The seven sections of notebook 08, each item in one of them, each section
    capped at 6 items of 80 characters; a section's overflow, oldest first, joins
    the running summary (which the same cap bounds)."""
    sections: dict[str, list[str]] = {k: [] for k in (
        "running_summary", "confirmed_facts", "preferences", "resolved", "pending")}
    for item in items_of(lines, zh):
        sections[section_of(item)].append(clip_item(item))
    for key in ("confirmed_facts", "preferences", "resolved", "pending"):
        overflow = sections[key][:-MAX_ITEMS]
        sections[key] = sections[key][-MAX_ITEMS:]
        sections["running_summary"][:0] = overflow
    asks = [re.split(r"[:：]\s*", line, maxsplit=1)[-1] for line in lines
            if line.startswith(("Open request", "待处理"))]
    ids = [id_hint(i, zh) for i in dict.fromkeys(IDS.findall("\n".join(lines)))]
    nothing = "（没有需要保留的内容）" if zh else "(nothing to keep)"
    # What no other section holds (products, policies), else the latest news.
    running = sections.pop("running_summary")[-MAX_ITEMS:] or [
        clip_item(line) for line in lines[-1:]]
    return {"running_summary": "\n".join(running) or nothing,
            "goal": clip(asks[-1], MAX_ITEM_CHARS) if asks else "",
            **sections, "retrieval_hints": ids[-MAX_ITEMS:]}
