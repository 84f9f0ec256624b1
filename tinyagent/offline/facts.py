"""Reading facts out of text: what the offline summarizer's ledger is made of.

Introduced in notebook 04, used by ledger.py. `read_facts(text)` finds, sentence by
sentence, the facts a good summary keeps: an order with its product, amount, status
and tracking; a refund with its order, amount and status; a product with its price
and offer; a policy answer by topic, tersely, as its conditions and quantities
("no reason 7 days"). It reads any text the same way: an answer, a tool result
turned into a line, or a line of an earlier summary, so a summary can be read back
and merged. Every rule is a regular expression over words customers and
clerks use (English and Chinese), never store data. Left out: facts spread over two
messages, and currencies other than ¥.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import intents
from .product_names import product_of, short_name

AMOUNT = re.compile(r"¥\s?\d+(?:,\d{3})*(?:\.\d+)?")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# (canonical status, the words that say it, its Chinese label): first match wins.
STATUSES = [
    ("delivered", r"delivered|signed for|已签收|签收", "已签收"),
    ("not shipped", r"not (?:been )?shipped|未发货|没有发货", "未发货"),
    ("in transit", r"in transit|on (?:its|the) way|out for delivery|运输中", "运输中"),
    ("shipped", r"\bshipped\b|\bdispatched\b|已发货", "已发货"),
    ("pending inspection", r"pending inspection|待检测", "待检测"),
    ("approved", r"\bapproved\b|已通过", "已通过"),
    ("rejected", r"\b(?:rejected|declined)\b|已拒绝", "已拒绝"),
    ("refunded", r"\brefunded\b|已退款", "已退款"),
    ("cancelled", r"\bcancel+ed\b|已取消", "已取消"),
]
STATUS = [(name, re.compile(words, re.I), zh) for name, words, zh in STATUSES]
CARRIER = re.compile(r"(?:carrier|courier|\bvia|承运商为?|快递)\s*[:：]?\s*"
                     r"([^,，;；.。]+)", re.I)
# "SF Express " or "顺丰速运 " just before the id: a Chinese carrier's name ends
# in the kind of service it is, or is a short name after a comma ("，顺丰 SF…")
CARRIER_BEFORE = re.compile(r"((?:[A-Z][\w-]*\s){1,3}"
                            r"|[\u4e00-\u9fff]{1,6}(?:速运|速递|快递|快运|物流|邮政)\s?"
                            r"|(?<=[，,])[\u4e00-\u9fff]{2,4}(?<!单号)(?<!编号)\s)$")
LATEST = re.compile(r"^(?:latest update|最新物流)\s*[:：]\s*", re.I)
# "Current offer: …" continues the product just named; a list after it ("当前优惠：
# - …", the Chinese for "Current offers:") names its own products.
OFFER_INTRO = re.compile(r"^(?:current offer|当前优惠)\s*[:：](?!\s*-)\s*", re.I)
OFFER_LABEL = re.compile(r"\b[\w -]{0,20}(?:offer|优惠)\s*[:：]\s*", re.I)
# An amount that is a discount, not a price: "offer: ¥200 off", "立减 ¥200".
PRICELESS = re.compile(r"(?:offer|优惠|立减)\s*[:：]?\s*¥\s?[\d,.]+"
                       r"|¥\s?[\d,.]+\s*(?:off|立减)", re.I)
OFFER = re.compile(r"offer|discount|\boff\b|coupon|优惠|立减|折", re.I)
COMPARATIVE = re.compile(r"\b(?:more|less|cheaper|dearer)\b|贵|便宜|差价", re.I)
# Not facts about the customer: the clock, and the next step of a refund (its
# status says where it stands).
SKIP = re.compile(r"^(?:it is now|现在是|next step|下一步)", re.I)
POLICY = [  # (topic, words): one ledger item per topic, the newest answer wins
    ("inspection", r"inspection|检测"),  # first: its answers mention refunds too
    ("refund time", r"business days?.*(?:refund|payment)|(?:refund|payment).*"
                    r"business days?|到账|个工作日.*退|退.*个工作日"),
    ("return shipping", r"return shipping|shipping (?:fee|cost)|运费"),
    ("return window", r"\b(?:7|seven)[- ]day|七天|7 ?天|无理由"),
    ("warranty", r"warranty|guarantee|保修|质保"),
]
POLICIES = [(topic, re.compile(words, re.I)) for topic, words in POLICY]
# What a policy answer says, tersely: its quantities (a period, a fee) and who or
# what they depend on. "Returns without a reason are accepted within 7 days, …"
# becomes "no reason 7 days": the ledger prefixes the topic ("returns").
QUANTITY = re.compile(r"(?:\bno\s)?(?:¥\s?\d+(?:[–-]\d+)?|\d+(?:[–-]\d+)?[- ]?"
                      r"(?:business days?|days?|years?|months?|weeks?|hours?)\b)"
                      r"|(?:不受\s?)?\d+(?:[–-]\d+)?\s?(?:个工作日|天|年|个月|周|小时)"
                      r"(?:\s?限制)?", re.I)
QUALIFIERS = [  # (words, the short form kept)
    (r"no reason|without (?:a )?reason", "no reason"), (r"无理由", "无理由"),
    (r"not (?:a )?quality problems?|non-quality", "non-quality"),
    (r"非质量问题", "非质量问题"), (r"\bbuyer\b", "buyer pays"), (r"买家", "买家承担"),
    (r"\b(?:seller|we) pays?\b|\bfree\b", "free"), (r"卖家|包邮|免费", "免费")]
QUALIFIER = [(re.compile(words, re.I), short) for words, short in QUALIFIERS]
SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")  # "；" goes on


@dataclass
class Fact:
    """One entity or topic: its kind, its key (an id, a name) and what is known."""

    kind: str
    key: str
    fields: dict[str, str] = field(default_factory=dict)


def status_of(text: str) -> str | None:
    return next((name for name, words, _ in STATUS if words.search(text)), None)


def tracking_of(text: str) -> dict[str, str]:
    """{"tracking": "SF Express SF1234567890"}: the carrier when the text names it."""
    match = intents.TRACKING_ID.search(text)
    if not match:
        return {}
    carrier = CARRIER.search(text)
    name = carrier.group(1).strip() if carrier else ""
    if not name or intents.TRACKING_ID.search(name):  # "中通快递 ZT…": named before it
        before = CARRIER_BEFORE.search(text[: match.start()])
        name = before.group(1).strip() if before else ""
    # a Chinese carrier as people say it: "顺丰速运" -> "顺丰", "中通快递" -> "中通"
    name = re.sub(r"(?<=[\u4e00-\u9fff]{2})(?:速运|速递|快递|快运|物流)$", "", name)
    return {"tracking": f"{name} {match.group()}".strip()}


# A ledger line read back: "Order 88231: <product>, …" names the product first.
OWN_LINE = re.compile(r"^(?:Order|订单)\s+\d{5}\s*[:：]\s*([^,，]+)")


def order_fields(text: str) -> dict[str, str]:
    own = OWN_LINE.match(text)
    first = own.group(1).strip() if own else ""
    if first and (status_of(first) or AMOUNT.search(first) or DATE.search(first)
                  or intents.TRACKING_ID.search(first)):
        first = ""  # no product on that line: its first field is another fact
    product = short_name(first or product_of(text) or "")
    found = {"product": product, "amount": _first(AMOUNT, text),
             "status": status_of(text)}  # not its date: the status is what is asked
    return {k: v for k, v in found.items() if v} | tracking_of(text)


def _until_unmatched(text: str) -> str:
    """`text` up to a ";" or a bracket it did not open: an offer after a price,
    "新品立减 ¥200（截至 7 月 15 日）；新款…" -> "新品立减 ¥200（截至 7 月 15 日）"."""
    depth = 0
    for index, char in enumerate(text):
        depth += (char in "(（") - (char in ")）")
        if depth < 0 or (char in ";；" and depth == 0):
            return text[:index]
    return text


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.search(text)
    return match.group().replace(" ", "") if match else None


def read_facts(text: str, context: dict[str, str] | None = None) -> list[Fact]:
    """The facts in a text, sentence by sentence. `context` remembers the order and
    the product the text last named, for sentences that only continue them."""
    context = {} if context is None else context
    facts: list[Fact] = []
    for sentence in SENTENCE.split(text):
        sentence = sentence.strip(" -•")
        if sentence and not SKIP.match(sentence):
            facts += read_sentence(sentence, context)
    return facts


def read_sentence(s: str, context: dict[str, str]) -> list[Fact]:
    """The facts in one sentence (see `read_facts`)."""
    if SKIP.match(s):
        return []
    refunds = intents.REFUND_ID.findall(s)
    if refunds:  # "refund number RF…, order 88231, amount ¥1999, status: …"
        orders = intents.ORDER_ID.findall(intents.REFUND_ID.sub(" ", s))
        found = {"order": orders[0] if orders else None,
                 "amount": _first(AMOUNT, s), "status": status_of(s)}
        return [Fact("refund", refunds[0], {k: v for k, v in found.items() if v})]
    orders = intents.ORDER_ID.findall(s)
    if orders:
        context["order"] = orders[0]
        return [Fact("order", orders[0], order_fields(s))]
    if intents.TRACKING_ID.search(s) and "order" in context:
        return [Fact("order", context["order"], tracking_of(s))]
    if LATEST.match(s) and "order" in context:
        latest = re.sub(r"^\d{4}-\d\d-\d\d [\d:]+\s*", "", LATEST.sub("", s))
        return [Fact("order", context["order"],
                     {"latest": clip(latest.rstrip(".。"), 50)})]
    if OFFER_INTRO.match(s) and "product" in context:
        offer = OFFER_INTRO.sub("", s).rstrip("。.")
        return [Fact("product", context["product"], {"offer": offer})]
    name, price = product_of(s), _first(AMOUNT, PRICELESS.sub("", s))
    if name and OFFER_LABEL.search(s) and not price:  # "… launch offer: ¥200 off"
        short = intents.products(name)
        context["product"] = short[0] if short else name
        offer = OFFER_LABEL.split(s, maxsplit=1)[-1].strip(" .。")
        return [Fact("product", context["product"], {"offer": offer})]
    if name and price and not COMPARATIVE.search(s):
        rest = s[s.find("¥", s.find(name)) :]  # after the price: its offer, if any
        rest = re.sub(r"^¥\s?[\d,.]+[\s,，(（]*", "", rest)
        offer = _until_unmatched(rest).strip(" .。")
        offer = OFFER_LABEL.sub("", offer, count=1)  # "launch offer: ¥200" -> "¥200"
        found = {"price": price, "offer": offer if OFFER.search(offer) else None}
        short = intents.products(name)  # "S20 Pro" for "BitMall S20 Pro Robot Vacuum"
        context["product"] = short[0] if short else name
        return [Fact("product", context["product"],
                     {k: v for k, v in found.items() if v})]
    for topic, words in POLICIES:
        if words.search(s):
            text = re.sub(r"^[^:：]{0,12}[:：]\s*", "", s)
            return [Fact("policy", topic, {"text": gist(text)})]
    return []


def gist(text: str) -> str:
    """A policy answer's conditions and quantities ("no reason 7 days"); an answer
    with neither keeps its main clause."""
    found = [short for words, short in QUALIFIER if words.search(text)]
    found += [m.group().replace(" -", "-") for m in QUANTITY.finditer(text)]
    return " ".join(dict.fromkeys(found)) or main_clause(text, 24)


def main_clause(text: str, least: int = 30) -> str:
    """The sentence up to the first comma that leaves at least `least` characters:
    "Returns … within 7 days, counted from …" keeps "Returns … within 7 days"."""
    clauses = re.split(r"(?<=\S)(?=[,，;；])", text.rstrip("。."))
    kept = clauses[0]
    for clause in clauses[1:]:
        if len(kept) >= least:
            break
        kept += clause
    return clip(kept, 72)


IDS = re.compile("|".join(p.pattern for p in (
    intents.REFUND_ID, intents.TRACKING_ID, intents.ORDER_ID)))


def clip(text: str, width: int) -> str:
    """At most `width` characters; ids that the cut would lose are kept in brackets."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    suffix = ""
    for _ in range(3):  # a longer suffix means a shorter cut: settle in a few rounds
        kept = text[: max(width - 1 - len(suffix), 0)] + "…"
        lost = [i for i in dict.fromkeys(IDS.findall(text)) if i not in kept]
        suffix = f" ({', '.join(lost)})" if lost else ""
    return kept + suffix
