"""A Chinese answer over English tool data: the clerk's own words for what it reads.

Introduced with the Chinese edition of notebook 00. The Chinese store
(`bitmall_tools(lang="zh")`, what `set_lang("zh")` and `tinyagent chat --lang zh`
give) returns Chinese data, which the clerk states as it is: this module passes
Chinese text through unchanged. When a Chinese question meets the English store, the
clerk does not paste English into its Chinese answer, and it cannot translate free
text (it knows no store data and carries no dictionary). It says in Chinese what its
own rules read in the English: a status ("delivered" -> 已签收), a product by its
model name and kind ("BitMall S10 Pro Robot Vacuum" -> "BitMall S10 Pro 扫地机器人"),
a carrier by its initials ("SF Express" -> "SF 快递"), a shipment event by its kind
("arrived at Beijing transit center" -> "到达转运中心"; the place is left out), and a
help article or a next step by its topic, conditions and quantities ("Approved
refunds reach … in 1–3 business days" -> "退款时效：1–3 个工作日（英文说明的要点）").
Everything else in English is left out. Left out: real translation.
"""

from __future__ import annotations

import re
from typing import Any

from ..lang import is_chinese
from . import facts, intents, product_names
from .searches import KINDS_ZH

Result = dict[str, Any]

CARRIER_WORDS = {"express": "快递", "logistics": "物流", "post": "邮政",
                 "delivery": "快递", "courier": "快递"}
EVENTS = [(re.compile(words, re.I), chinese) for words, chinese in [
    (r"signed for|\bdelivered\b", "已签收"), (r"out for delivery", "派送中"),
    (r"picked up|collected", "已揽收"), (r"arrived.*transit", "到达转运中心"),
    (r"arrived.*sorting", "到达分拣中心"), (r"left.*sorting", "离开分拣中心"),
    (r"left.*transit", "离开转运中心"), (r"arrived", "到达"),
    (r"\bleft\b|departed|dispatched", "已发出"), (r"in transit", "运输中")]]
TOPICS_ZH = {"inspection": "售后检测", "refund time": "退款时效",
             "return shipping": "退货运费", "return window": "退货期限",
             "warranty": "保修"}
QUALIFIERS_ZH = {"no reason": "无理由", "non-quality": "非质量问题",
                 "buyer pays": "买家承担", "free": "免费"}
UNITS = [(r"\s*[- ]?business days?", " 个工作日"), (r"\s*[- ]?days?", " 天"),
         (r"\s*[- ]?years?", " 年"), (r"\s*[- ]?months?", " 个月"),
         (r"\s*[- ]?weeks?", " 周"), (r"\s*[- ]?hours?", " 小时")]
OFF = re.compile(r"(¥\s?[\d,.]+)\s*off", re.I)
UNTIL = re.compile(r"\b(?:until|till|through)\s+(\d{4}-\d{2}-\d{2})", re.I)
NOT_FOUND = re.compile(r"not found|no \w+ match", re.I)


def english(text: object) -> bool:
    """Text in Latin letters only: English the clerk must not quote in Chinese."""
    return (isinstance(text, str) and not is_chinese(text)
            and re.search(r"[A-Za-z]{2}", text) is not None)


def product(name: str) -> str:
    """A product's name in Chinese words: its brand and model names, its kind."""
    if not english(name):
        return name
    kind = intents.kind_of(name)
    words = ["BitMall"] * name.startswith("BitMall") + intents.products(name)
    return " ".join(words + ([KINDS_ZH[kind]] if kind else [])) or "该商品"


def status(text: str) -> str:
    """A status in Chinese: as the store wrote it, or by the words that say it."""
    if text and not english(text):
        return text
    return next((zh for _, words, zh in facts.STATUS if words.search(text)), "处理中")


def carrier(name: str) -> str:
    """A carrier by its initials and the kind of service: "SF Express" -> "SF 快递"."""
    if not english(name):
        return name
    words = [CARRIER_WORDS.get(w.lower(), w if w.isupper() else "")
             for w in name.split()]
    return " ".join(w for w in words if w) or "快递"


def event(text: str) -> str | None:
    """A shipment event by its kind, or None when the clerk cannot tell it."""
    if not english(text):
        return text
    return next((chinese for words, chinese in EVENTS if words.search(text)), None)


def quantity(match: re.Match[str], text: str) -> str:
    """One quantity ("1–3 business days", "no 7-day") in Chinese units."""
    value = match.group()
    before = text[: match.start()]
    for words, unit in UNITS:
        value = re.sub(words + r"$", unit, value, flags=re.I)
    value = re.sub(r"^no\s", "不限 ", value)
    return ("超过 " if re.search(r"\b(?:past|after|beyond)\s+(?:the\s+)?$", before,
                                 re.I) else "") + value


def digest(text: str) -> str | None:
    """An English help text as its topic, conditions and quantities in Chinese,
    marked as such; None when the clerk's rules read nothing in it."""
    if not english(text):
        return text
    topic = next((t for t, words in facts.POLICIES if words.search(text)), None)
    parts = [QUALIFIERS_ZH[short] for words, short in facts.QUALIFIER
             if short in QUALIFIERS_ZH and words.search(text)]
    parts += [quantity(m, text) for m in facts.QUANTITY.finditer(text)]
    offer = offer_words(text)
    if offer:
        name = product_names.product_of(text)
        label = f"{product(name)} 优惠" if name else "优惠"
        return f"{label}：{offer}（英文说明的要点）"
    if not parts:
        return None
    label = TOPICS_ZH.get(topic or "", "说明")
    return f"{label}：{' '.join(dict.fromkeys(parts))}（英文说明的要点）"


def offer_words(text: str) -> str | None:
    """An offer's amount off and end date in Chinese ("立减 ¥200，截至 2026-07-15")."""
    if not english(text):
        return text
    parts = [f"立减 {m.group(1)}" for m in OFF.finditer(text)]
    parts += [f"截至 {m.group(1)}" for m in UNTIL.finditer(text)]
    return "，".join(parts) or None


def order(info: Result) -> Result:
    """queryOrder's or queryLogistics' result with its words in Chinese."""
    result = dict(info)
    if english(result.get("product")):
        result["product"] = product(result["product"])
    if english(result.get("carrier")):
        result["carrier"] = carrier(result["carrier"])
    if isinstance(result.get("events"), list):
        result["events"] = [{**e, "event": event(str(e.get("event", "")))}
                            for e in result["events"] if isinstance(e, dict)]
        result["events"] = [e for e in result["events"] if e["event"]]
    if english(result.get("note")):
        result["note"] = digest(result["note"])
    return result


def refund(r: Result) -> Result:
    """applyRefund's result with its next step as a Chinese digest (or left out)."""
    return {**r, "next_step": digest(r["next_step"])} if english(r.get("next_step")) \
        else r


def item(found: Result) -> Result:
    """A catalog item in Chinese words; English features are left out."""
    if not english(found.get("name")):
        return found
    return {**found, "name": product(str(found["name"])),
            "offer": offer_words(found["offer"]) if found.get("offer") else None,
            "features": None}


def texts(found: list[str]) -> list[str]:
    """Help-article texts: Chinese ones as they are, English ones as digests
    (each a sentence, so they join as Chinese sentences do)."""
    return [t if is_chinese(text) else f"{t}。"
            for text, t in ((text, digest(text)) for text in found) if t]


def error(text: str) -> str:
    """A tool's English error in Chinese: what was not found, by its id."""
    if not english(text):
        return text
    ids = intents.ORDER_ID.findall(text)
    what = f"订单 {ids[0]}" if ids else "相关信息"
    return f"{what}（未找到）" if NOT_FOUND.search(text) else f"{what}（工具报错）"
