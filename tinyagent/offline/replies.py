"""What the offline clerk says: short answers built only from tool results.

Introduced in notebook 00. Every function takes the language ("en" or "zh") and the
parsed tool results, and states facts exactly as the results give them; a missing
field is left out rather than guessed, because the clerk knows nothing of the store
by itself. A Chinese store (bitmall_tools(lang="zh")) gives Chinese texts itself;
a Chinese answer over the English store says what it reads there in its own Chinese
words (chinese_data.py). Catalog answers are worded in catalog.py. Left out:
formatting beyond plain sentences, and translating the tools' free text.
"""

from __future__ import annotations

import re
from typing import Any

from . import chinese_data, wording
from .facts import STATUS

Result = dict[str, Any]

STATUS_ZH = {"delivered": "已签收", "in transit": "运输中",
             "paid, not shipped": "已付款，未发货", "pending inspection": "待检测",
             "approved": "已通过"}
ID_LABELS = {"refund": ("refund number", "退款编号"),
             "tracking": ("tracking number", "运单号"),
             "order": ("order number", "订单号")}


def canonical(status: str) -> str:
    """A Chinese store's status as its English name ("已签收" -> "delivered")."""
    if status.isascii():  # English already: kept as the store wrote it
        return status
    return next((name for name, words, _ in STATUS if words.search(status)), status)


def status_zh(status: str) -> str:
    """A status in Chinese: STATUS_ZH's words, else what its own words say."""
    return STATUS_ZH.get(status) or chinese_data.status(status)


def say(lang: str, english: str, chinese: str) -> str:
    return chinese if lang == "zh" else english


THOUGHTS = {  # what the clerk "thinks" before a tool call: (English, Chinese)
    "order": ("The customer asks about order {0}; I'll look up the order first.",
              "客户在问订单 {0}，我先查询这个订单。"),
    "logistics": ("Order {0} has shipped ({1}); I'll check the logistics.",
                  "订单 {0} 已发货（{1}），我再查一下物流。"),
    "refund": ("The customer wants a refund for order {0}; I'll apply for it.",
               "客户要为订单 {0} 退款，我来提交退款申请。"),
    "timing": ("The customer asks how long a refund takes; I'll check the help "
               "articles.", "客户问退款多久到账，我查一下帮助文档。"),
    "recommend": ("The customer wants a recommendation; I'll search for new "
                  "products.", "客户想要推荐，我搜索一下新款。"),
    "price": ("The customer asks the price of the {0}; I'll search the catalog.",
              "客户问 {0} 的价格，我查一下商品目录。"),
    "buy": ("The customer wants to buy the {0}; I'll check its price and offer.",
            "客户想买 {0}，我查一下价格和优惠。"),
    "compare": ("The customer wants to compare the {0} and the {1}; I'll look both "
                "up.", "客户想对比 {0} 和 {1}，我分别查一下。"),
    "promotion": ("The customer asks about offers; I'll search the current "
                  "promotions.", "客户问优惠活动，我查一下当前的促销。"),
    "policy": ("The customer asks about our {0} rules; I'll check the help "
               "articles.", "客户问售后规定，我查一下帮助文档。"),
    "time": ("I'll check the current time.", "我查一下当前时间。"),
}


def thought(lang: str, key: str, *about: str) -> str:
    """The short thought that goes with a tool call, e.g. THOUGHTS["order"]."""
    return say(lang, *THOUGHTS[key]).format(*about)


def ask_order(lang: str) -> str:
    return say(lang,
               "Which order do you mean? Please give me the 5-digit order number.",
               "请问是哪个订单？请提供 5 位数的订单号。")


def ask_product(lang: str, count: int = 1) -> str:
    if count > 1:
        return say(lang, "Which two products should I compare? For example "
                         "\"S20 Pro vs S20 Max\".",
                   "请问要对比哪两款商品？比如“S20 Pro 和 S20 Max”。")
    return say(lang, "Which product do you mean? For example \"S20 Pro\".",
               "请问是哪款商品？比如“S20 Pro”。")


def help_text(lang: str) -> str:
    return say(lang, "Hello! I'm the BitMall assistant. I can check an order and its "
                     "delivery, apply for a refund, explain refund times and policies, "
                     "and tell you about products, prices and offers. How can I help?",
               "您好！我是比特严选客服，可以帮您查订单和物流、申请退款、"
               "解答退款时效和售后政策，也可以介绍商品、价格和优惠。请问有什么可以帮您？")


def cannot_check(lang: str) -> str:
    return say(lang, "Sorry, I can't look that up right now.",
               "抱歉，我现在无法查询这项信息。")


def tool_error(lang: str, result: Result) -> str:
    error = str(result.get("error") or result.get("text") or "unknown error")
    if lang == "zh":
        error = chinese_data.error(error)
    return say(lang, f"Sorry, I couldn't find that: {error}. Please check the "
                     "number and try again.",
               f"抱歉，没有查到：{error}。请核对号码后再试一次。")


def order_status(lang: str, order_id: str, info: Result, track: Result) -> str:
    if lang == "zh":  # the English store's words, said in Chinese
        info, track = chinese_data.order(info), chinese_data.order(track)
    product = info.get("product")
    status = canonical(info.get("status") or track.get("status") or "")
    carrier = info.get("carrier") or track.get("carrier")
    tracking = info.get("tracking_number") or track.get("tracking_number")
    events = [e for e in track.get("events") or () if isinstance(e, dict)]
    head = say(lang, f"Your order {order_id}" + (f" ({product})" if product else ""),
               f"您的订单 {order_id}" + (f"（{product}）" if product else ""))
    if status == "delivered":
        when = info.get("delivered") or (events[-1].get("time", "")[:10]
                                         if events else "")
        text = say(lang, f"{head} was delivered and signed for"
                         + (f" on {when}." if when else "."),
                   f"{head}已于 {when} 签收。" if when else f"{head}已签收。")
    elif "not shipped" in status or (status and not tracking):
        text = say(lang, f"{head} is paid but has not shipped yet.",
                   f"{head}已付款，还没有发货。")
    else:
        text = say(lang, f"{head} is {status or 'being processed'}.",
                   f"{head}目前{status_zh(status)}。")
    if tracking:
        text += say(lang, f" Carrier: {carrier}, tracking number {tracking}.",
                    f"承运商为{' ' * str(carrier)[:1].isascii()}{carrier}，运单号 "
                    f"{tracking}。")
    if events:
        time, event = events[-1].get("time"), events[-1].get("event")
        text += say(lang, f" Latest update: {time} {event}.",
                    f"最新物流：{time} {event}。")
    if track.get("note"):
        text += say(lang, f" Note: {track['note']}.", f"说明：{track['note']}。")
    return text


def refund_done(lang: str, r: Result) -> str:
    # the tool refuses a second refund, and says so in its note
    again = bool(re.search(r"already|已申请", str(r.get("note", ""))))
    if lang == "zh":
        r = chinese_data.refund(r)
    order, refund_id, amount = r.get("order_id"), r.get("refund_id"), r.get("amount")
    status = str(r.get("status", ""))
    english = ("A refund was already requested" if again
               else "I've applied for a refund")
    chinese = "该订单已申请过退款" if again else "已为您提交退款"
    text = say(lang, f"{english} for order {order}: refund number {refund_id}, "
                     f"amount ¥{amount}, status: {status}.",
               f"{chinese}：订单 {order}，退款编号 {refund_id}，金额 ¥{amount}，"
               f"状态：{status_zh(status)}。")
    if r.get("next_step"):
        text += say(lang, f" Next step: {r['next_step']}.",
                    f"下一步：{r['next_step']}。")
    return text


def refund_timing(lang: str, texts: list[str], order_id: str | None) -> str:
    texts = chinese_data.texts(texts) if lang == "zh" else texts
    if not texts:
        return say(lang, "Sorry, I couldn't find how long refunds take.",
                   "抱歉，没有查到退款到账的时间。")
    text = say(lang, " ".join(texts), join(texts))
    if order_id:
        text = say(lang, f"{text} That applies to your refund for order {order_id}.",
                   join([text, f"您订单 {order_id} 的退款也按这个时间到账。"]))
    return text


def join(texts: list[str]) -> str:
    """Sentences in a row: a space after an English one, none after a Chinese one."""
    text = ""
    for part in texts:
        chinese_end = text.endswith(("。", "！", "？", "）"))
        text += part if not text or chinese_end else f" {part}"
    return text


def recall(lang: str, kind: str, value: str, order_id: str | None) -> str:
    english, chinese = ID_LABELS[kind]
    order = ""
    if order_id and kind != "order":
        order = say(lang, f" (order {order_id})", f"（订单 {order_id}）")
    return say(lang, f"Your {english} is {value}{order}.",
               f"您的{chinese}是 {value}{order}。")


def recall_missing(lang: str, kind: str) -> str:
    english, chinese = ID_LABELS[kind]
    article = "an" if english[0] in "aeiou" else "a"
    if lang == "zh":  # asked for the order number itself: nothing else to ask for
        return (f"刚才的对话里没找到您的{chinese}，麻烦提供一下，我帮您查询。"
                if kind == "order" else
                f"刚才的对话里没找到{chinese}，麻烦提供一下订单号，我帮您查询。")
    return (f"I can't find {article} {english} in our conversation. If you tell me "
            "the order number, I can look it up for you.")


def knowledge(lang: str, texts: list[str]) -> str:
    texts = chinese_data.texts(texts) if lang == "zh" else texts
    if not texts:
        return say(lang, "Sorry, I found no help article about that.",
                   "抱歉，没有找到相关的帮助说明。")
    return join(texts)


def paid(lang: str, order_id: str, info: Result) -> str:
    """What an order cost the customer: queryOrder's price."""
    product = info.get("product")
    if lang == "zh":
        product = chinese_data.product(str(product)) if product else None
        return (f"您的订单 {order_id}" + (f"（{product}）" if product else "")
                + f"实付 ¥{info.get('price')}。")
    return (f"Your order {order_id}" + (f" ({product})" if product else "")
            + f" cost ¥{info.get('price')}.")


def now(lang: str, r: Result) -> str:
    return say(lang, f"It is now {r.get('now')}.", wording.now(str(r.get("now"))))
