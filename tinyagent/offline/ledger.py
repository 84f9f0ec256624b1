"""The fact ledger: one line per entity or topic, merged by entity.

Introduced in notebook 04, used by summarize.py. A good summary is not a shorter
transcript but a ledger: each line holds the newest fact known about one order,
refund, product or policy (facts.py reads them). `Ledger` merges by entity: a newer
field replaces an older one, an unchanged fact is never written twice, and a changed
one moves to the end, so the oldest lines are the oldest news. The lines render in
the language of the conversation, with its labels. Left out: ranking by importance
(the memory's budget decides what goes, budget.py).
"""

from __future__ import annotations

from .facts import STATUS, Fact

LABELS = {  # kind -> (English, Chinese) label of its ledger line
    "order": ("Order", "订单"), "refund": ("Refund", "退款"),
    "product": ("Product", "商品"), "policy": ("Policy", "规定"),
    "prefers": ("Preference", "偏好"), "open": ("Open request", "待处理"),
    "note": ("Note", "备注")}
# Lines of free text, not fields; a "line" is one the ledger could not read, kept
# as it was written (shortened).
TEXT_KINDS = ("policy", "prefers", "open", "note", "line")


class Ledger:
    """Facts by (kind, key), oldest first; a changed fact moves to the end."""

    def __init__(self) -> None:
        self.facts: dict[tuple[str, str], Fact] = {}

    def add(self, fact: Fact) -> None:
        key = (fact.kind, fact.key)
        old = self.facts.get(key)
        if old is None:
            if fact.fields or fact.kind in TEXT_KINDS:
                self.facts[key] = fact
            return
        # "SF123…" alone is no news after "SF Express SF123…": only new values count.
        news = {k: v for k, v in fact.fields.items() if v not in old.fields.get(k, "")}
        merged = old.fields | news
        if merged != old.fields:  # newer status, tracking, price: replaces the old
            del self.facts[key]
            self.facts[key] = Fact(fact.kind, fact.key, merged)

    def has(self, value: str) -> bool:
        """True when a fact already names `value` (an id)."""
        return any(value == f.key or any(value in v for v in f.fields.values())
                   for f in self.facts.values())

    def drop(self, kind: str) -> None:
        self.facts = {k: f for k, f in self.facts.items() if f.kind != kind}

    def lines(self, zh: bool) -> list[str]:
        return [render(f, zh) for f in self.facts.values()]


def render(fact: Fact, zh: bool) -> str:
    """One ledger line: "Order 88231: …" or "订单 88231：…"."""
    sep, colon = ("，", "：") if zh else (", ", ": ")
    f = dict(fact.fields)
    if fact.kind == "line":
        return f.get("text", "")
    if fact.kind in TEXT_KINDS:
        return f"{LABELS[fact.kind][zh]}{colon}{f.get('text', '')}"
    if "status" in f:
        name = f["status"]
        f["status"] = next((z for n, _, z in STATUS if n == name), name) if zh else name
        if f.get("date") and name == "delivered":
            f["status"] += f" {f.pop('date')}"
    f.pop("date", None)  # a date without a delivery is the order date: not kept
    if f.get("status") not in ("in transit", "运输中"):
        f.pop("latest", None)  # the last event matters only while it travels
    if "order" in f:
        f["order"] = f"{'订单' if zh else 'order'} {f['order']}"
    order = ("order", "product", "amount", "price", "status", "offer", "tracking",
             "latest")
    parts = [f[k] for k in order if f.get(k)]
    return f"{LABELS[fact.kind][zh]} {fact.key}{colon}{sep.join(parts)}"
