"""The fact ledger: a line per order or refund, one for products, merged by entity.

Introduced in notebook 04, used by summarize.py. A good summary is not a shorter
transcript but a ledger: each line holds the newest fact known about one order or
refund, and all the products and all the policy answers share one terse line each
("Products: S20 Pro ¥2499 (¥200 off until …); AirX ¥399"), items separated by "; ",
as a careful writer would note them (facts.py reads them). `Ledger` merges by
entity: a newer field replaces an older one, an unchanged fact is never written
twice, and a changed one moves to the end, so the oldest lines and items are the
oldest news. Products and policies can be looked up again, so only the newest two
of each stay. What the customer stated is keyed by what it is about: a later rule
about the same thing replaces it, two reasons for one order add up (a reason said
again in other words only once), and a refund's reason is written on the refund's
line. The lines render in the language of the conversation, with its labels;
items.py writes and reads back the shared lines' items. Left out: ranking by
importance (the memory's budget decides what goes, budget.py).
"""

from __future__ import annotations

import re

from ..lang import is_chinese
from .facts import STATUS, Fact
from .forms import about
from .items import item
from .statements import TOPICS as STATED
from .statements import Statement, label_of_line
from .voice import MAX_TOKENS, fit

GROUPS = {  # kind -> (English, Chinese) label of the one line its facts share
    "product": ("Products", "商品"), "policy": ("Policies", "规定")}
# Catalogue facts the agent can look up again: only the newest two stay, enough for
# "that one" and "the cheaper one". Orders and refunds, about this customer, all stay.
KEPT = {"product": 2, "policy": 2}
LABELS = {  # kind -> (English, Chinese) label of its ledger line
    "order": ("Order", "订单"), "refund": ("Refund", "退款"),
    "product": ("Product", "商品"), "policy": ("Policy", "规定"),
    "prefers": ("Preference", "偏好"), "open": ("Open request", "待处理"),
    "note": ("Note", "备注"), **STATED}
# Lines of free text, not fields; a "line" is one the ledger could not read, kept
# as it was written (shortened). What the customer stated (statements.py) is text
# too: one line for each thing it is about, so a later statement about the same
# thing replaces the earlier one.
TEXT_KINDS = ("policy", "open", "note", "line", *STATED)


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
        if fact.kind == "reason" and "text" in news:  # a second reason adds to it
            news["text"] = more_reasons(old.fields["text"], news["text"])
        merged = old.fields | news
        # A newer status, tracking or price replaces the old. A product or policy
        # said again is news too: the newest few of those are the ones that stay.
        if merged != old.fields or (fact.kind in GROUPS and fact.fields):
            del self.facts[key]
            self.facts[key] = Fact(fact.kind, fact.key, merged)

    def has(self, value: str) -> bool:
        """True when a fact already names `value` (an id)."""
        return any(value == f.key or any(value in v for v in f.fields.values())
                   for f in self.facts.values())

    def drop(self, kind: str) -> None:
        self.facts = {k: f for k, f in self.facts.items() if f.kind != kind}

    def lines(self, zh: bool) -> list[str]:
        """One line per fact, except products and policies: one line per kind, where
        its newest item is, items oldest first."""
        facts = list(self.facts.values())
        last = {f.kind: k for k, f in enumerate(facts)}
        # A refund's reason goes on the refund's line, as a ticket notes it.
        refunded = {f.fields.get("order") for f in facts if f.kind == "refund"}
        reasons = {f.key: f for f in facts if f.kind == "reason" and f.key in refunded}
        lines = []
        for k, fact in enumerate(facts):
            why = reasons.get(fact.fields.get("order", "")) if fact.kind == "refund" \
                else None
            if fact.kind == "reason" and fact.key in reasons:
                continue
            if why is not None:
                lines.append(render(fact, zh) + ("，原因：" if zh else ", reason: ")
                             + why.fields.get("text", ""))
            elif fact.kind not in GROUPS:
                lines.append(render(fact, zh))
            elif last[fact.kind] == k:
                kept = [f for f in facts if f.kind == fact.kind][-KEPT[fact.kind]:]
                items = [item(f, zh) for f in kept]
                colon, sep = ("：", "；") if zh else (": ", "; ")
                lines.append(GROUPS[fact.kind][zh] + colon + sep.join(items))
        return lines


def more_reasons(old: str, new: str) -> str:
    """Two reasons for one order, both kept ("cuts out, shows error E45"): what is
    wrong adds up, unlike a rule, which the newer words replace. The oldest go when
    they outgrow two statements' budget."""
    zh = is_chinese(old + new)
    joint = f"{old}，{new}" if zh else f"{old}, {new}"
    parts: list[str] = []
    for part in (p for p in re.split(r"[,，]\s*", joint) if p):
        pad = "" if zh else " "  # whole words in English, any run in Chinese
        if f"{pad}{_plain(part)}{pad}" not in f"{pad}{_plain(' '.join(parts))}{pad}":
            parts.append(part)  # not said already, in other words
    return fit(parts, zh, ranks=list(range(len(parts))), max_tokens=2 * MAX_TOKENS)


def _plain(text: str) -> str:
    """Words only, for telling whether a reason was given already: "shows error
    E12, won't turn on" is in "shows error E12 and won't turn on"."""
    return " ".join(re.sub(r"\b(?:and|but|also|then)\b|[^\w']+", " ", text.lower())
                    .split())


def render(fact: Fact, zh: bool) -> str:
    """One ledger line: "Order 88231: …" or "订单 88231：…"."""
    sep, colon = ("，", "：") if zh else (", ", ": ")
    f = dict(fact.fields)
    if fact.kind == "line":
        return f.get("text", "")
    if fact.kind in STATED and f.get("about"):  # what it is about, when unsaid
        shown = f["about"]
        if re.fullmatch(r"\d{5}", shown):
            shown = f"订单 {shown}" if zh else f"order {shown}"
        shown = f"（{shown}）" if zh else f" ({shown})"
        return f"{LABELS[fact.kind][zh]}{shown}{colon}{f.get('text', '')}"
    if fact.kind in TEXT_KINDS:
        return f"{LABELS[fact.kind][zh]}{colon}{f.get('text', '')}"
    if "status" in f:
        name = f["status"]
        f["status"] = next((z for n, _, z in STATUS if n == name), name) if zh else name
    if f.get("status") not in ("in transit", "运输中"):
        f.pop("latest", None)  # the last event matters only while it travels
    if "order" in f:
        f["order"] = f"{'订单' if zh else 'order'} {f['order']}"
    order = ("order", "product", "amount", "price", "status", "offer", "tracking",
             "latest")
    parts = [f[k] for k in order if f.get(k)]
    return f"{LABELS[fact.kind][zh]} {fact.key}{colon}{sep.join(parts)}"


def as_fact(said: Statement) -> Fact:
    """A statement as a ledger fact, keyed by what it is about, so that a later one
    replaces it only when both are about the same thing; what the words do not say
    themselves (the order of a reason, a budget's condition) is shown in brackets."""
    shown = "" if said.subject == about(said.topic, said.text) else said.subject
    return Fact(said.topic, said.subject, {"text": said.text, "about": shown})


def read_line(line: str) -> Fact | None:
    """A ledger line such as "Delivery: after 6 pm" or "原因（订单 88231）：…" back
    into its fact (either language); None for any other line."""
    found = label_of_line(line)
    if found is None:
        return None
    kind, text, shown = found
    return as_fact(Statement(kind, text, shown or about(kind, text)))
