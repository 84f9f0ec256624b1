"""The offline clerk's decisions: which tool to call next, or that it can answer.

Introduced in notebook 00, which traces one ReAct turn (thought -> tool call -> tool
result -> answer). Each intent has a small handler that looks at the current turn's
results: if a fact it needs is missing it asks for a tool (with a short "thought"),
otherwise it answers from what it has. A handler only calls tools the request offers
and never the same call twice in a turn; catalog questions are in catalog.py, the
words it searches with in searches.py. Left out: planning across intents, and
asking follow-up questions beyond "which order / which product?".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import forms, intents, replies, said, searches
from .catalog import compare, knowledge_texts, price_or_buy, promotion, recommend
from .conversation import Conversation
from .step import Reply, ask_tools

RECALL_KINDS = [("refund", re.compile(r"refund|return|退款|退货", re.I)),
                ("tracking", re.compile(r"tracking|shipment|快递|物流|运单", re.I)),
                ("order", re.compile(r"order|订单", re.I))]
ID_PATTERNS = {"refund": intents.REFUND_ID, "tracking": intents.TRACKING_ID,
               "order": intents.ORDER_ID}
POLICY_TOPICS = [("warranty", re.compile(r"warrant|guarantee|保修|质保", re.I)),
                 ("return shipping", re.compile(r"shipping|fee|运费|邮费", re.I))]


def order_status(c: Conversation) -> Reply:
    order = c.order()
    if order is None:
        return Reply(replies.ask_order(c.lang))
    args = {"order_id": order}
    info = c.result("queryOrder", order_id=order)
    track = c.result("queryLogistics", order_id=order)
    if info is None and track is None:  # queryLogistics alone will do if offered
        return (ask_tools(c, "order", ("queryOrder", args), about=[order])
                or ask_tools(c, "logistics", ("queryLogistics", args),
                             about=[order, "?"])
                or Reply(replies.cannot_check(c.lang)))
    for result in (info, track):
        if result is not None and "error" in result:
            return Reply(replies.tool_error(c.lang, result))
    if track is None and info is not None and info.get("tracking_number"):
        follow_up = ask_tools(c, "logistics", ("queryLogistics", args),
                              about=[order, info["tracking_number"]])
        if follow_up:
            return follow_up
    return Reply(replies.order_status(c.lang, order, info or {}, track or {}))


def refund(c: Conversation) -> Reply:
    # No queryOrder first: when the history names the order, that is all a refund
    # needs, and notebook 02 shows exactly this saved call.
    order = c.order()
    if order is None:
        return Reply(replies.ask_order(c.lang))
    result = c.result("applyRefund", order_id=order)
    if result is None:
        # The reason in the words a summary keeps ("strap snapped after two days"),
        # not the whole message: the tool's record and the summary's line agree.
        call = ("applyRefund", {"order_id": order,
                                "reason": forms.refund_reason(c.user_text, order)})
        return (ask_tools(c, "refund", call, about=[order])
                or Reply(replies.cannot_check(c.lang)))
    if "refund_id" not in result:
        return Reply(replies.tool_error(c.lang, result))
    return Reply(replies.refund_done(c.lang, result))


def refund_timing(c: Conversation) -> Reply:
    query = {"query": searches.knowledge_query("refund time", c.lang)}
    result = c.result("searchKnowledge", **query)
    if result is None:
        call = ask_tools(c, "timing", ("searchKnowledge", query))
        if call:
            return call
    # Name the order the refund is for when the messages show one; the refund
    # number itself is only repeated when asked for (the recall intent), so a
    # window that dropped the refund turn visibly cannot answer that question.
    refund_id = c.newest(intents.REFUND_ID)
    order = c.near(refund_id, intents.ORDER_ID) if refund_id else None
    texts = knowledge_texts(result, "refund time")[:1]
    return Reply(replies.refund_timing(c.lang, texts, order))


def recall(c: Conversation) -> Reply:
    # No tool: an id the customer was given is either in the messages or forgotten.
    # This is the line between a model with memory and one without.
    asked = next((k for k, words in RECALL_KINDS if words.search(c.user_text)), None)
    # "the refund number for 55107": a line naming that order wins over newer ones.
    named = intents.ORDER_ID.findall(c.user_text)
    for kind in [asked] if asked else list(ID_PATTERNS):
        near = re.compile(named[0]) if named and kind != "order" else None
        value = c.newest(ID_PATTERNS[kind], near)
        if value:
            order = c.near(value, intents.ORDER_ID) if kind != "order" else None
            return Reply(replies.recall(c.lang, kind, value, order))
    if asked == "tracking" and c.order():  # a tracking number can be looked up
        return order_status(c)
    return Reply(replies.recall_missing(c.lang, asked or "order"))


def policy(c: Conversation) -> Reply:
    topic = next((t for t, words in POLICY_TOPICS if words.search(c.user_text)),
                 "return policy")
    query = searches.knowledge_query(topic, c.lang)
    result = c.result("searchKnowledge", query=query)
    if result is None:
        call = ask_tools(c, "policy", ("searchKnowledge", {"query": query}),
                         about=[topic])
        if call:
            return call
    texts = knowledge_texts(result, topic)[:2]
    return Reply(replies.knowledge(c.lang, texts))


def current_time(c: Conversation) -> Reply:
    result = c.result("getCurrentTime")
    if result is None:
        return (ask_tools(c, "time", ("getCurrentTime", {}))
                or Reply(replies.cannot_check(c.lang)))
    return Reply(replies.now(c.lang, result))


HANDLERS: dict[str, Callable[[Conversation], Reply]] = {
    "order_status": order_status, "refund": refund, "refund_timing": refund_timing,
    "recommend": recommend, "price": price_or_buy, "buy": price_or_buy,
    "compare": compare, "promotion": promotion, "recall": recall, "policy": policy,
    "time": current_time, "help": lambda c: Reply(replies.help_text(c.lang)),
    "recall_fact": lambda c: Reply(said.recall_fact(c)),
}


def respond(c: Conversation) -> Reply:
    """The clerk's next step for this conversation. A message that only states a
    rule ("only deliver after 6 pm") is noted, not taken for a question."""
    intent = intents.detect_intent(c.user_text)
    rules_only = intent in ("help", "order_status") or (
        intent in ("buy", "price") and not intents.products(c.user_text))
    if rules_only and not c.steps \
            and not intents.ORDER_ID.search(c.user_text):
        note = said.noted(c)
        if note:
            return Reply(note)
    return HANDLERS[intent](c)
