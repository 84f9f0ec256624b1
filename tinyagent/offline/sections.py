"""The JSON summary of notebook 07: the ledger's lines sorted into seven sections.

Used by summarize.py when the summarizer's system prompt asks for JSON. Each ledger
line goes to the sections it belongs to, by its label or its status: an order or a
refund is a confirmed fact, a delivered one is resolved too, a pending one pending;
what the customer asked for (delivery, contact, budget, preferences) is a
constraint; an agent's promise is pending. Left out: the goal's wording beyond the
last open request.
"""

from __future__ import annotations

import re
from typing import Any

from . import intents
from .facts import IDS, clip
from .statements import TOPICS

# Per section of the JSON summary: a structured summary stays readable, and bounded,
# only if each of its sections is (notebook 07 sets the same caps on its side).
MAX_ITEMS, MAX_ITEM_CHARS = 6, 80

SECTIONS = re.compile(r"^(Order|Refund|Product|Reason|订单|退款|商品|原因)")
PENDING = re.compile(r"^(Open request|待处理|Promise|承诺)|pending|in transit"
                     r"|not shipped|待|运输中|未发货")
# What the customer asked for: the section "preferences and constraints".
STATED = re.compile("^(" + "|".join(label for topic in ("budget", "contact",
                    "delivery", "prefers") for label in TOPICS[topic]) + ")")
RESOLVED = re.compile(r"delivered|approved|refunded|已签收|已通过|已退款")


def id_hint(value: str, zh: bool = False) -> str:
    """"refund RF…", "tracking SF…" or "order 88231": an id with its kind."""
    if intents.REFUND_ID.fullmatch(value):
        kind = "退款" if zh else "refund"
    elif intents.TRACKING_ID.fullmatch(value):
        kind = "运单" if zh else "tracking"
    else:
        kind = "订单" if zh else "order"
    return f"{kind} {value}"


def structured(lines: list[str], zh: bool = False) -> dict[str, Any]:
    """The seven sections of notebook 07, each capped at 6 items of 80 characters."""
    def pick(pattern: re.Pattern[str]) -> list[str]:
        chosen = [clip(line, MAX_ITEM_CHARS) for line in lines if pattern.search(line)]
        return chosen[-MAX_ITEMS:]
    asks = [re.split(r"[:：]\s*", line, maxsplit=1)[-1] for line in lines
            if line.startswith(("Open request", "待处理"))]
    ids = [id_hint(i, zh) for i in dict.fromkeys(IDS.findall("\n".join(lines)))]
    nothing = "（没有需要保留的内容）" if zh else "(nothing to keep)"
    return {"running_summary": "\n".join(lines) or nothing,
            "goal": clip(asks[-1], MAX_ITEM_CHARS) if asks else "",
            "confirmed_facts": pick(SECTIONS),
            "preferences": pick(STATED),
            "resolved": pick(RESOLVED),
            "pending": pick(PENDING),
            "retrieval_hints": ids[-MAX_ITEMS:]}
