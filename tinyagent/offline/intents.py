"""Reading a customer's message: its language, its intent and the ids it names.

Introduced in notebook 00, where the offline model is toured. Everything here is a
regular expression compiled once at import, so reading a message costs microseconds.
An intent is the first rule (in `INTENTS` order) whose English or Chinese words occur
in the message; the order encodes precedence, e.g. "how long until my refund arrives"
is about refund *timing*, not a new refund. Left out: spelling mistakes, negation
("I do NOT want a refund") and messages that ask two things at once.
"""

from __future__ import annotations

import re

from . import statements

# -- ids and names. Lookarounds keep an order number from matching inside a date, a
# price (¥19999), a refund number or a tracking number.
ORDER_ID = re.compile(r"(?<![A-Za-z\d¥$.,])\d{5}(?!\d|,\d{3}|\.\d)")
REFUND_ID = re.compile(r"(?<![A-Za-z])RF\d{11}(?!\d)")
TRACKING_ID = re.compile(r"(?<![A-Za-z])(?!RF\d{11})[A-Z]{2}\d{10}(?!\d)")
# Model names ("S20 Pro", "s10 lite") and brand-like CamelCase words ("AirX").
MODEL_NAME = re.compile(
    r"(?<![A-Za-z\d])([A-Z]\d{1,3})(?:\s?(pro|max|lite|plus|ultra|mini))?(?![A-Za-z\d])",
    re.I)
CAMEL_NAME = re.compile(r"(?<![A-Za-z\d])[A-Z][a-z]+[A-Z][A-Za-z]*(?![A-Za-z\d])")
BRAND_PHRASE = re.compile(r"BitMall(?:\s+[A-Z][\w-]*)+")
NOT_PRODUCTS = {"BitMall", "OpenAI", "ReAct", "ChatGPT", "DeepSeek", "JavaScript"}

# "The first order I asked about", "我最开始问的那个": the oldest mention, not the
# newest (Conversation.order, Conversation.products).
FIRST = re.compile(r"\b(?:first|very first|earliest|at the (?:start|beginning))\b"
                   r"|最开始|一开始|最早|最先|第一个|第一单|头一个|开头", re.I)

# Generic kinds of product: words the customer uses, not store data.
KINDS = {
    "robot vacuum": re.compile(r"vacuum|robot|扫地|吸尘", re.I),
    "earbuds": re.compile(r"earbud|earphone|headphone|耳机", re.I),
    "fitness band": re.compile(r"\bbands?\b|fitness|tracker|手环", re.I),
}

# "order number 88231", "订单号：88231" only *name* an id; removed before intent
# detection so that "my order number was 88231, where is it?" is not a recall.
ID_INTRO = re.compile(
    r"(?:\b(?:order|refund|tracking)\s*(?:number|no\.?|id|#)\s*(?:is|was|:)?\s*"
    r"|(?:订单|退款|快递|物流|运单)?(?:编号|单号|号)\s*(?:是|为|:|：)?\s*)"
    r"(?=\d{5}|RF\d|[A-Z]{2}\d{10})", re.I)


def _rule(english: str, chinese: str) -> re.Pattern[str]:
    return re.compile(rf"{english}|{chinese}", re.I)


# (intent, words). First match wins, so the order below is the precedence.
INTENTS: list[tuple[str, re.Pattern[str]]] = [
    ("refund_timing", _rule(
        r"\b(how\s+long|when|how\s+many\s+days|how\s+soon)\b.*\b(refund|money)"
        r"|\b(refund|money)\b.*\b(how\s+long|when|how\s+many\s+days|how\s+soon)\b",
        r"到账|(退款|退钱|钱).*(多久|几天|什么时候)|(多久|几天|什么时候).*(退款|退钱|钱)")),
    ("recall", _rule(
        r"\b(refund|tracking|order|return|shipment)\s+(number|no\b\.?|id\b|code)",
        r"编号|单号")),
    ("policy", _rule(
        r"\b(polic(y|ies)|warranty|guarantee|rules?)\b|\breturn\s+shipping\b"
        r"|\bshipping\s+(fee|cost)s?\b|\b(7|seven)[- ]day",
        r"政策|保修|质保|规则|运费|七天|7天|无理由")),
    ("compare", _rule(
        r"\b(differen(ce|ces|t)|compare[sd]?|comparison|vs\.?|versus)\b"
        r"|\bwhich\s+(one\s+)?is\s+better\b",
        r"区别|对比|比较|不同|哪个好|哪款好|选哪|哪个更好|哪款更好|哪个划算")),
    ("price", _rule(r"\b(prices?|priced|costs?|how\s+much)\b",
                    r"多少钱|价格|价钱|几块|售价")),
    ("promotion", _rule(
        r"\b(offers?|discounts?|promotions?|promo|deals?|coupons?|on\s+sale)\b",
        r"活动|优惠|打折|折扣|促销|降价")),
    ("recommend", _rule(
        r"\b(recommend\w*|suggest\w*|new\s+models?|newest|latest|what'?s\s+new)\b",
        r"推荐|新款|新品|最新")),
    ("buy", _rule(
        r"\b(buy|purchase|place\s+an\s+order|order\s+(it|one|this|that)"
        r"|add\s+(it\s+)?to\s+(my\s+)?cart)\b",
        r"下单|购买(?!的)|(?<!已)买(?![的了过])")),
    ("refund", _rule(
        r"\b(refund\w*|return(s|ed|ing)?|money\s+back|(send|take)\s+it\s+back)\b",
        r"退")),
    ("order_status", _rule(
        r"\b(where|track\w*|shipping|shipped|ships?|delivery|deliver\w*|arriv\w*"
        r"|package|parcel|logistics|status|courier|dispatch\w*)\b",
        # "它什么时候到", "啥时候能到", "几号能收到": when it arrives, not a refund's
        # money (到账 is refund timing, above)
        r"物流|到哪|快递|发货|到了|送到|配送|状态|签收|到货|送达|收到"
        r"|(?:什么|啥|哪天|几号|几天|多久|多长时间|何时|几时).{0,4}到(?!账)")),
    ("time", _rule(r"\bwhat\s+(time|day|date)\b|\btoday'?s\s+date\b",
                   r"几点|几号|什么时间|日期")),
]


def detect_intent(text: str) -> str:
    """The intent of one user message; "order_status" for a bare order number."""
    cleaned = ID_INTRO.sub(" ", text)
    for intent, words in INTENTS:
        if words.search(cleaned):
            return intent
        # "what time did I say to deliver?": a fact the customer stated, asked back
        if intent == "recall" and statements.asked_topic(cleaned):
            return "recall_fact"
    # "88231?" or "查一下订单 88231": an order number alone asks about that order.
    return "order_status" if ORDER_ID.search(text) else "help"


def order_ids(text: str) -> list[str]:
    return ORDER_ID.findall(text)


# "It", "this one", "它", "这款": a product or order the customer does not name.
PRONOUN = re.compile(r"\b(?:it|this(?: one)?|that(?: one)?)\b|它|这个|那个|这款|那款"
                     r"|这台|那台", re.I)


def pronoun_first(text: str) -> bool:
    """Whether `text` says "it" before it names a product: "它和 S20 Max 比"."""
    pronoun = PRONOUN.search(text)
    named = [m.start() for m in (MODEL_NAME.search(text), CAMEL_NAME.search(text))
             if m is not None]
    return pronoun is not None and bool(named) and pronoun.start() < min(named)


def kind_of(text: str) -> str | None:
    """The kind of product a text talks about ("robot vacuum"), if any."""
    for kind, words in KINDS.items():
        if words.search(text):
            return kind
    return None


def products(text: str) -> list[str]:
    """Product names in a text, in order, without repeats: "S20 Pro", "AirX".

    A model name is normalised ("s20 pro" -> "S20 Pro") so the same product typed
    two ways counts once.
    """
    found: list[tuple[int, str]] = []
    for match in MODEL_NAME.finditer(text):
        model, edition = match.groups()
        name = model.upper() + (f" {edition.capitalize()}" if edition else "")
        found.append((match.start(), name))
    for match in CAMEL_NAME.finditer(text):
        if match.group() not in NOT_PRODUCTS:
            found.append((match.start(), match.group()))
    if not found:  # "BitMall Robot Vacuum": a brand phrase with no model name in it
        found = [(m.start(), m.group()) for m in BRAND_PHRASE.finditer(text)]
    names: list[str] = []
    for _, name in sorted(found):
        if name not in names:
            names.append(name)
    return names
