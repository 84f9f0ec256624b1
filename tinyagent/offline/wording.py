"""How the offline clerk speaks Chinese to a customer: 您, their words, offers, choices.

Introduced with the Chinese edition of notebook 00. A clerk who repeats a customer's
rule says it to them, not in their voice: "只用微信联系我，不要打电话" comes back as
"只用微信联系您，不打电话". What the customer said earlier is said back as a person
says it ("您之前说扫地机回不了充"); an offer as a shop writes it ("新品立减 ¥200（截至
7 月 15 日）"); two products side by side, with the difference in price and, when
the customer asks which is better, what the choice turns on. Every function is a
rewording of text it is given (the customer's words, tool results): nothing here
knows the store. English answers keep their own wording (replies.py, said.py). Left
out: grammar beyond these patterns (a pronoun inside a quoted name, say).
"""

from __future__ import annotations

import re
from typing import Any

from . import product_names

Item = dict[str, Any]  # one catalog item of a search result

# The customer's "I" becomes the clerk's "您"; "别打电话" said back is "不打电话".
ME = re.compile(r"我(?!们)")
DO_NOT = re.compile(r"(?:不要|别)(?=打电话|打给|来电|致电|上门|发短信|打扰|联系)")
# statements.py keeps a number the cut lost as " (7点)": Chinese brackets here.
ASCII_BRACKETS = re.compile(r"\s*\(([^()]*)\)")
DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
UNTIL = re.compile(r"[，,]?\s*截至\s*(\d{4}-\d{2}-\d{2})")
# "哪个好", "选哪款", "which is better": the customer asks for a choice
WHICH = re.compile(r"哪个好|哪款好|哪个更好|哪款更好|选哪|买哪|推荐哪|哪个划算|哪款划算"
                   r"|\bwhich\b.*\b(?:better|buy|choose|get)\b", re.I)
# Topics whose words are instructions to the shop: said back as what was asked.
RULES = ("contact", "delivery")


def to_customer(text: str) -> str:
    """The customer's Chinese words as the clerk says them to the customer.

    >>> to_customer("请只用微信联系我，不要打电话。")
    '只用微信联系您，不打电话'
    """
    text = ASCII_BRACKETS.sub(lambda m: f"（{m.group(1)}）", text.strip())
    # the customer's "please" is theirs: "请发邮件告诉我" -> "发邮件告诉您"
    text = re.sub(r"^麻烦|(?<![申邀])请(?!问)", "", text)
    return DO_NOT.sub("不", ME.sub("您", text)).rstrip("。.！!")


def noted(texts: list[str]) -> str:
    """"好的，已记下：…" for the rules a message states, said to the customer."""
    return "好的，已记下：" + "；".join(to_customer(t) for t in texts) + "。"


def said_back(topic: str, text: str) -> str:
    """What the customer said on `topic`, said back to them: a rule as what they
    asked for ("您之前交代过：只用微信联系您"), anything else as what they said
    ("您之前说扫地机回不了充")."""
    text = to_customer(re.sub(r"^我的?", "", text.strip()))
    return f"您之前交代过：{text}。" if topic in RULES else f"您之前说{text}。"


def not_said(what: str) -> str:
    """The customer asks back something no message holds."""
    return f"刚才的对话里没找到您说过的{what}，能再告诉我一次吗？"


def now(stamp: str) -> str:
    """The clock's answer ("2026-07-01 10:00:00 +08:00") as a person says it."""
    match = re.match(r"(\d{4})-(\d\d)-(\d\d)[ T](\d\d:\d\d)(?::\d\d)?\s*(\S*)",
                     stamp)
    if match is None:
        return f"现在是 {stamp}。"
    year, month, day, time, zone = match.groups()
    zone = "（北京时间）" if zone == "+08:00" else f"（UTC{zone}）" if zone else ""
    return f"现在是 {year} 年 {int(month)} 月 {int(day)} 日 {time}{zone}。"


def date(text: str) -> str:
    """ISO dates as a Chinese shop writes them in a sentence: 7 月 15 日."""
    return DATE.sub(lambda m: f"{int(m.group(2))} 月 {int(m.group(3))} 日", text)


def offer(text: str) -> str:
    """An offer as a shop writes it: "新品立减 ¥200（截至 7 月 15 日）"."""
    text = re.sub(r"^(?:新品)?优惠\s*[:：]\s*", "", text.strip()).rstrip("。")
    return UNTIL.sub(lambda m: f"（截至 {date(m.group(1))}）", text)


def short_name(item: Item) -> str:
    """A product by its model name ("S20 Pro"), as the customer calls it; the
    store's full name when it has none (product_names.py)."""
    return product_names.short_name(str(item.get("name", "")))


def line(item: Item, features: bool = True, short: bool = True) -> str:
    """One product in a list or a comparison: its name (the model's, or the
    store's full one), price, offer and features."""
    name = short_name(item) if short else str(item.get("name"))
    text = f"{name}：¥{item.get('price')}"
    if item.get("offer"):
        text += f"，{offer(str(item['offer']))}"
    if features and item.get("features"):
        text += f"；{str(item['features']).rstrip('。')}"
    return text + "。"


def comparison(a: Item, b: Item, question: str = "") -> str:
    """Two products side by side, the price difference, and, when `question` asks
    which to take, what the choice turns on."""
    first, second = short_name(a), short_name(b)
    text = f"{first} 和 {second} 的区别：\n- {line(a)}\n- {line(b)}"
    prices = a.get("price"), b.get("price")
    if not all(isinstance(p, int) for p in prices) or prices[0] == prices[1]:
        return text
    cheap, dear = sorted((a, b), key=lambda i: i["price"])
    gap = dear["price"] - cheap["price"]
    text += f"\n{short_name(dear)} 比 {short_name(cheap)} 贵 ¥{gap}。"
    if WHICH.search(question):
        text += (f"哪款更合适，要看您更看重什么：看重价格选 {short_name(cheap)}；"
                 f"上面 {short_name(dear)} 的那些功能对您更重要，就选 "
                 f"{short_name(dear)}。")
    return text


def price(item: Item) -> str:
    """What a product costs, with its offer: "…售价 ¥2499，新品立减 ¥200（截至 7 月
    15 日）。"."""
    name = str(item.get("name"))
    text = f"{name}{' ' * name[-1:].isascii()}售价 ¥{item.get('price')}"
    return text + (f"，{offer(str(item['offer']))}" if item.get("offer") else "") + "。"


__all__ = ["comparison", "date", "line", "not_said", "noted", "now", "offer", "price",
           "said_back", "short_name", "to_customer"]
