"""The items of the ledger's shared lines: products and policies, written and read back.

Used by ledger.py (notebook 04: what a summary keeps). All the products share one
line and all the policy answers another, items separated by "; ", each as a clerk
notes it: a product with its price and its offer in one pair of brackets ("S20 Pro
¥2499 (¥200 off until 2026-07-15)", "S20 Pro ¥2499（立减 ¥200，截至 7 月 15 日）"),
a policy by its topic, its conditions and quantities ("returns no reason 7 days",
"7 天无理由退货"). A Chinese policy is built the way Chinese puts words in order:
what qualifies the topic before it (a period that goes with a condition first:
"7 天无理由退货"), who pays and how much after it ("非质量问题退货运费买家承担
¥10–15"); with no condition, the topic then its quantity ("保修 1 年"); a limit
that does not apply in brackets at the end ("（不受 7 天限制）"). `read_item`
reads an item back, in either language. Left out: offers with two conditions, and
English word order for periods ("1-year warranty" is noted "warranty 1-year").
"""

from __future__ import annotations

import re

from .facts import OFFER_LABEL, QUALIFIER, QUANTITY, Fact, gist

TOPICS = {  # policy topic -> (English, Chinese) label of its item
    "return window": ("returns", "退货"), "return shipping": ("return shipping",
    "退货运费"), "refund time": ("refunds", "退款到账"), "warranty": ("warranty",
    "保修"), "inspection": ("quality problems", "质量问题检测")}
# A condition that says who pays goes after the topic in Chinese ("运费买家承担");
# the others say which case the rule is for ("无理由", "非质量问题", "免费"): before.
PAYERS = ("buyer pays", "买家承担")
PERIOD = re.compile(r"天|年|个月|周|小时|个工作日")
# An offer's last day, as a clerk notes it: "Jul 15", "7 月 15 日" (an offer ends
# within the year it runs in).
DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)")
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def offer(text: str, zh: bool) -> str:
    """An offer as a note says it, in one pair of brackets: no label ("launch
    offer:"), no kind of offer before 立减 ("新品"), a date in brackets said after a
    comma, a date as a clerk writes it ("until Jul 15", "截至 7 月 15 日")."""
    text = OFFER_LABEL.sub("", text, count=1).strip()
    text = re.sub(r"^[\u4e00-\u9fff]{1,4}(?=立减)", "", text)
    comma = "，" if zh else ", "
    text = re.sub(r"\s*[(（]([^()（）]+)[)）]", lambda m: comma + m.group(1), text)
    return DATE.sub(lambda m: f"{int(m.group(2))} 月 {int(m.group(3))} 日" if zh
                    else f"{MONTHS[int(m.group(2)) - 1]} {int(m.group(3))}", text)


def policy(topic: str, text: str, zh: bool) -> str:
    """A policy item: its label and what `gist` kept of the answer, in the
    language's order (module docstring)."""
    label = TOPICS.get(topic)
    if label is None:
        return text
    if not zh:
        return f"{label[0]} {text}"
    words = text.split(" ")
    found = [m.group() for m in QUANTITY.finditer(text)]
    amount = " ".join(q for q in found if not q.startswith("不受"))
    limits = "".join(f"（{q}）" for q in found if q.startswith("不受"))
    shorts = {short for _, short in QUALIFIER}
    case = "".join(w for w in words if w in shorts and w not in PAYERS)
    pays = "".join(w for w in words if w in PAYERS)
    if not found and not (case or pays):  # an answer's gist: its main clause
        return f"{label[1]} {text}"
    if case and PERIOD.search(amount) and not pays:
        return f"{amount}{case}{label[1]}{limits}"  # "7 天无理由退货"
    return f"{case}{label[1]}{pays} {amount}".strip() + limits


def item(fact: Fact, zh: bool) -> str:
    """A product ("S20 Pro ¥2499 (¥200 off …)") or a policy ("returns 7 days")."""
    f = fact.fields
    if fact.kind == "policy":
        return policy(fact.key, f.get("text", ""), zh)
    said = offer(f.get("offer", ""), zh)
    brackets = f"（{said}）" if zh else f" ({said})"
    named = " ".join(p for p in (fact.key, f.get("price", "")) if p)
    return named + (brackets if said else "")


PRODUCT_ITEM = re.compile(r"^(.+?)\s*(¥[\d,.]+)?\s*(?:[(（](.+)[)）])?$")
TOPIC_LABELS = sorted(((label, topic) for topic, pair in TOPICS.items()
                       for label in pair), key=lambda pair: -len(pair[0]))


def read_item(kind: str, text: str) -> Fact:
    """One item of a "Products:" or "Policies:" line back into its fact."""
    text = text.strip()
    if kind == "product":
        match = PRODUCT_ITEM.match(text)  # matches any non-empty text
        name, price, said = match.groups() if match else (text, None, None)
        found = {"price": price, "offer": said}
        return Fact("product", name, {k: v for k, v in found.items() if v})
    for label, topic in TOPIC_LABELS:
        if text.startswith(label + " "):  # "returns no reason 7 days", "保修 1 年"
            return Fact("policy", topic, {"text": text[len(label):].strip()})
        if re.search(r"[\u4e00-\u9fff]", label) and label in text:  # "7 天无理由退货"
            return Fact("policy", topic, {"text": gist(text.replace(label, " "))})
    return Fact("policy", text[:40], {"text": text})
