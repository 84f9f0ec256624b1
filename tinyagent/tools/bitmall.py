"""The six BitMall tools: a small shop whose methods are the tools the agent calls.

Introduced in notebook 00. `BitMall` holds its own copy of the store's orders and the
refunds asked for so far; each public method is one tool, and `registry()` offers
them to the agent with the JSON schemas the model sees. `bitmall_tools()` is a fresh
shop's registry, so every agent starts from the same store. Each tool returns JSON
text, the form a real tool API would give, so the model (offline or real) reads facts
only from tool results. An unknown order is a clear "not found" result, not an
exception. Left out: payments, stock, addresses and authentication; refunds are
recorded in memory only. `lang="zh"` serves the same shop in Chinese (store_zh.py);
`bitmall_tools()` serves it in the package's language (`set_lang`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from ..lang import get_lang, say
from . import store_zh
from .registry import Tool, ToolRegistry
from .store import EVENTS, FIXED_NOW, KNOWLEDGE, ORDERS, PRODUCTS

RETURN_WINDOW_DAYS = 7  # no-reason returns: 7 days from the day after delivery
TEXTS = {  # the tools' own sentences; the Chinese ones are in store_zh.py
    "not_found": "order {0} not found",
    "hint": "order numbers have 5 digits; please check the number",
    "not_shipped": "not shipped yet: orders ship within 48 hours of payment",
    "already": "a refund was already requested",
    "approved": "approved", "pending": "pending inspection",
    "cancelled_step": "order cancelled before delivery; the refund goes back to the "
                      "original payment method",
    "return_step": "7-day return: send the item back with its main accessories; "
                   "return shipping ¥10–15 unless it is a quality problem",
    "quality_step": "past the 7-day window, handled as a quality problem: "
                    "after-sales inspection within 1–3 business days, then the refund",
    "no_article": "no help article matches {0!r}",
    "no_product": "no product matches {0!r}",
    # what the model reads about each tool and argument
    "queryOrder": "Look up an order: product, price, status, carrier and tracking "
                  "number.",
    "queryLogistics": "Shipment events of an order, oldest first.",
    "applyRefund": "Apply for a refund or return of an order; returns the refund "
                   "number.",
    "searchKnowledge": "Search help articles: returns, refunds, shipping fees, "
                       "warranty, promotions.",
    "getCurrentTime": "The current date and time in China (UTC+8).",
    "searchProducts": "Search the catalog by name or kind (e.g. 'S20 Pro', 'new robot "
                      "vacuum'); price, offer, features.",
    "order_id": "the 5-digit order number, e.g. 88231",
    "reason": "why the customer wants it",
    "query": "what to look for",
    "product_query": "product name or kind",
}


def _words(text: str) -> set[str]:
    """Lower-case words, plus each CJK character run, for simple keyword matching."""
    return set(re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]+", text.lower()))


def _matches(query: str, keywords: str) -> int:
    """How many query words appear in the keywords (CJK matched as substrings)."""
    score = 0
    for word in _words(query):
        if word in keywords.lower().split() or (
                not word.isascii() and any(k in word or word in k
                                           for k in keywords.split())):
            score += 1
    return score


class BitMall:
    """One shop: a fresh copy of the orders, the refunds made, and a clock."""

    def __init__(self, clock: Callable[[], datetime] = lambda: FIXED_NOW,
                 lang: str | None = None) -> None:
        lang = get_lang() if lang is None else lang  # the package's, unless given
        if lang not in ("en", "zh"):
            raise ValueError(say(f"unknown store language {lang!r}: use 'en' or 'zh'",
                                 f"商店没有 {lang!r} 这种语言：请用 'en' 或 'zh'"))
        self.clock = clock  # the store's fixed "now", so refund numbers repeat
        self.lang, zh = lang, lang == "zh"
        self.text = store_zh.TEXTS if zh else TEXTS
        # order_id -> order record: a fresh copy, so one shop's refund stays its own
        self.orders = store_zh.orders() if zh else copy.deepcopy(ORDERS)
        self.events = store_zh.events() if zh else EVENTS
        self.products = store_zh.products() if zh else PRODUCTS
        self.knowledge = store_zh.knowledge() if zh else KNOWLEDGE
        self.refunds: dict[str, dict] = {}  # order_id -> refund record

    def not_found(self, order_id: str) -> dict:
        return {"error": self.text["not_found"].format(order_id),
                "hint": self.text["hint"]}

    def query_order(self, order_id: str) -> dict:
        order = self.orders.get(order_id.strip())
        return ({"order_id": order_id.strip(), **order} if order
                else self.not_found(order_id))

    def query_logistics(self, order_id: str) -> dict:
        order_id = order_id.strip()
        if order_id not in self.orders:
            return self.not_found(order_id)
        order = self.orders[order_id]
        events = [{"time": t, "event": e} for t, e in self.events.get(order_id, [])]
        result = {"order_id": order_id, "carrier": order["carrier"],
                  "tracking_number": order["tracking_number"],
                  "status": order["status"], "events": events}
        if not events:
            result["note"] = self.text["not_shipped"]
        return result

    def apply_refund(self, order_id: str, reason: str = "") -> dict:
        order_id = order_id.strip()
        if order_id not in self.orders:
            return self.not_found(order_id)
        if order_id in self.refunds:  # asking twice must not create a second refund
            return {**self.refunds[order_id], "note": self.text["already"]}
        order, today = self.orders[order_id], self.clock().date()
        if order["delivered"] is None:
            status, step = "approved", "cancelled_step"
        elif today <= date.fromisoformat(order["delivered"]) + timedelta(
                days=RETURN_WINDOW_DAYS):
            status, step = "approved", "return_step"
        else:
            status, step = "pending", "quality_step"
        refund_id = f"RF{today:%Y%m%d}{len(self.refunds) + 1:03d}"
        self.refunds[order_id] = {"refund_id": refund_id, "order_id": order_id,
                                  "amount": order["price"],
                                  "status": self.text[status],
                                  "next_step": self.text[step], "reason": reason}
        return self.refunds[order_id]

    def search_knowledge(self, query: str) -> dict:
        scored = [(_matches(query, a["keywords"] + " " + a["topic"]), i, a)
                  for i, a in enumerate(self.knowledge)]
        best = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))[:3]
        results = [{"topic": a["topic"], "text": a["text"]} for _, _, a in best]
        return {"results": results} if results else {
            "results": [], "note": self.text["no_article"].format(query)}

    def get_current_time(self) -> dict:
        return {"now": self.clock().strftime("%Y-%m-%d %H:%M:%S %z")[:-2] + ":00"}

    def search_products(self, query: str) -> dict:
        q = query.lower()
        exact = [p for p in self.products
                 if q.strip() and q.strip() in p["name"].lower()]
        if exact:
            found = exact
        else:
            wants_new = bool(re.search(r"\bnew\b|新款|最新", q))
            scored = [(_matches(query, f"{p['name']} {p['keywords']}"), p)
                      for p in self.products if p["new"] or not wants_new]
            top = max((s for s, _ in scored), default=0)
            found = [p for s, p in scored if s > 0 and s == top]
            if wants_new and not found:
                found = [p for p in self.products if p["new"]]
            if re.search(r"offer|discount|promotion|deal|sale|优惠|活动|折扣", q):
                found = [p for p in self.products if p["offer"]]
        results = [{k: p[k] for k in ("name", "price", "new", "offer", "features")}
                   for p in found]
        return {"results": results} if results else {
            "results": [], "note": self.text["no_product"].format(query)}

    def registry(self) -> ToolRegistry:
        """The six methods as tools, each with the schema the model sees."""
        say = self.text  # the descriptions, in the store's language
        order_arg = _string_arg("order_id", say["order_id"])
        refund_args = copy.deepcopy(order_arg)
        refund_args["properties"]["reason"] = {"type": "string",
                                               "description": say["reason"]}
        return ToolRegistry([
            Tool("queryOrder", say["queryOrder"], self.query_order, order_arg),
            Tool("queryLogistics", say["queryLogistics"], self.query_logistics,
                 copy.deepcopy(order_arg)),
            Tool("applyRefund", say["applyRefund"], self.apply_refund, refund_args),
            Tool("searchKnowledge", say["searchKnowledge"], self.search_knowledge,
                 _string_arg("query", say["query"])),
            Tool("getCurrentTime", say["getCurrentTime"], self.get_current_time),
            Tool("searchProducts", say["searchProducts"], self.search_products,
                 _string_arg("query", say["product_query"])),
        ], lang=self.lang)  # its errors in the store's language


def _string_arg(name: str, description: str) -> dict:
    """The schema of a tool that takes one required string argument."""
    return {"type": "object", "required": [name],
            "properties": {name: {"type": "string", "description": description}}}


def bitmall_tools(clock: Callable[[], datetime] = lambda: FIXED_NOW,
                  lang: str | None = None) -> ToolRegistry:
    """A new registry with queryOrder, queryLogistics, applyRefund, searchKnowledge,
    getCurrentTime and searchProducts over a fresh shop's own copy of the store,
    whose texts are English (lang="en") or Chinese (lang="zh"); by default in the
    package's language (`set_lang`, TINYAGENT_LANG)."""
    return BitMall(clock, get_lang(lang)).registry()
