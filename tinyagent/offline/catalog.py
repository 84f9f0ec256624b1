"""The offline clerk's catalog questions: new products, prices, buying, comparing,
offers.

Introduced in notebook 00. Each handler looks at the current turn's results and asks
for a catalog search when a fact is missing, searching in the customer's language
(searches.py). "It", "那个", "这个" are the product the conversation named last
(Conversation.products); "how much did I pay for it" / "它多少钱买的" asks what an
order cost, so when no product is named it is the order the conversation named last,
looked up with queryOrder. Left out: stock, delivery estimates and placing orders.
"""

from __future__ import annotations

import re
from typing import Any

from . import chinese_data, intents, replies, searches, wording
from .conversation import Conversation
from .replies import say
from .step import Found, Reply, ask_tools, best_match, found

Item = dict[str, Any]  # one catalog item of a search result
# Paying, in the past: the customer asks what an order cost them, not the list price.
PAID = re.compile(r"\b(paid|spent|did\s+(it|that|this|I|you)\s+(cost|pay))\b"
                  r"|买的|花了|付了|实付|花的|付的", re.I)


def search(c: Conversation, query: str, thought: str, about: object = ()
           ) -> Reply | Found:
    """Catalog items for `query`, or first the tool call that searches for them."""
    result = c.result("searchProducts", query=query)
    if result is None:
        return (ask_tools(c, thought, ("searchProducts", {"query": query}),
                          about=about)
                or Reply(replies.cannot_check(c.lang)))
    return found(result)


def recommend(c: Conversation) -> Reply:
    query = searches.new_products_query(intents.kind_of(c.user_text), c.lang)
    items = search(c, query, "recommend")
    if isinstance(items, Reply):
        return items
    return Reply(product_list(c.lang, items, "Here are our new models:",
                                       "目前的新款有："))


def paid(c: Conversation) -> Reply | None:
    """What the order the customer means cost them, or None when this is not a
    question about a past order (a product is named, or no order is)."""
    order = c.order()
    if not PAID.search(c.user_text) or intents.products(c.user_text) or not order:
        return None
    info = c.result("queryOrder", order_id=order)
    if info is None:
        return ask_tools(c, "order", ("queryOrder", {"order_id": order}),
                         about=[order])
    if "error" in info:
        return Reply(replies.tool_error(c.lang, info))
    return Reply(replies.paid(c.lang, order, info))


def price_or_buy(c: Conversation) -> Reply:
    asked = paid(c) if intents.detect_intent(c.user_text) == "price" else None
    if asked:
        return asked
    names = c.products(1)
    if not names:
        return Reply(replies.ask_product(c.lang))
    name, buying = names[0], intents.detect_intent(c.user_text) == "buy"
    items = search(c, name, "buy" if buying else "price", about=[name])
    if isinstance(items, Reply):
        return items
    item = best_match(items, name)
    if item is None:
        return Reply(product_list(c.lang, items, f"I found these for {name}:",
                                           f"和 {name} 相关的商品："))
    return Reply(buy(c.lang, item) if buying else price(c.lang, item))


def compare(c: Conversation) -> Reply:
    names = c.products(2)
    if len(names) < 2:
        return Reply(replies.ask_product(c.lang, 2))
    if "searchProducts" not in c.offered:
        return Reply(replies.cannot_check(c.lang))
    missing = [("searchProducts", {"query": n}) for n in names
               if c.result("searchProducts", query=n) is None]
    call = ask_tools(c, "compare", *missing, about=names)  # both in one step
    if call:
        return call
    a, b = (best_match(found(c.result("searchProducts", query=n)), n) for n in names)
    if a is None or b is None:
        return Reply(product_list(c.lang, [], "", ""))
    return Reply(compare_text(c.lang, a, b, c.user_text))


def promotion(c: Conversation) -> Reply:
    offer_query = searches.offers_query(c.lang)
    article_query = searches.knowledge_query("promotion", c.lang)
    by_offer = c.result("searchProducts", query=offer_query)
    article = c.result("searchKnowledge", query=article_query)
    if by_offer is None and article is None:
        article_call = ("searchKnowledge", {"query": article_query})
        return (ask_tools(c, "promotion", ("searchProducts", {"query": offer_query}))
                or ask_tools(c, "promotion", article_call)
                or Reply(replies.cannot_check(c.lang)))
    if by_offer is not None:
        offers = [i for i in found(by_offer) if i.get("offer")]
        return Reply(product_list(c.lang, offers, "Current offers:",
                                          "目前的优惠活动："))
    return Reply(replies.knowledge(c.lang, knowledge_texts(article, "promotion")[:2]))


def knowledge_texts(result: dict[str, Any] | None, topic: str) -> list[str]:
    """Help-article texts, the article on `topic` (searches.TOPICS) first."""
    words = searches.topic_words(topic)
    items = sorted(found(result), key=lambda i: not any(
        w in str(i.get("topic", "")) for w in words))
    return [str(i.get("text")) for i in items if i.get("text")]


# -- the wording of catalog answers
def chinese_line(lang: str, item: Item) -> bool:
    """A Chinese answer over a Chinese catalog (an English name keeps ": " and "; ")."""
    return lang == "zh" and not str(item.get("name", "")).isascii()


def product_line(item: Item, features: bool = False, lang: str = "en") -> str:
    item = chinese_data.item(item) if lang == "zh" else item
    zh = chinese_line(lang, item)  # full-width punctuation, no spaces
    if zh:  # a shop's Chinese: "…：¥2499，新品立减 ¥200（截至 7 月 15 日）；…"
        return wording.line(item, features, short=False).rstrip("。")
    line = f"{item.get('name')}{'：' if zh else ': '}¥{item.get('price')}"
    if item.get("offer"):
        line += f"（{item['offer']}）" if zh else f" ({item['offer']})"
    if features and item.get("features"):
        line += f"{'；' if zh else '; '}{item['features']}"
    return line


def product_list(lang: str, items: list[Item], english: str, chinese: str) -> str:
    items = [chinese_data.item(i) for i in items] if lang == "zh" else items
    if not items:
        return say(lang, "Sorry, I found no matching products.",
                   "抱歉，没有找到符合的商品。")
    # a Chinese line ends with "。", so each still reads as one sentence once a
    # summary folds the list onto one line
    lines = "\n".join(f"- {product_line(item, True, lang)}"
                      + ("。" if chinese_line(lang, item) else "") for item in items)
    return say(lang, english, chinese) + "\n" + lines


def price(lang: str, item: Item) -> str:
    item = chinese_data.item(item) if lang == "zh" else item
    name, offer = item.get("name"), item.get("offer")
    if lang == "zh":
        return wording.price(item)
    return (f"The {name} costs ¥{item.get('price')}."
            + (f" Current offer: {offer}." if offer else ""))


def compare_text(lang: str, a: Item, b: Item, question: str = "") -> str:
    if lang == "zh":
        return wording.comparison(chinese_data.item(a), chinese_data.item(b),
                                  question)
    text = say(lang, " ", "").join(product_line(i, True, lang) + say(lang, ".", "。")
                                   for i in (a, b))
    if isinstance(a.get("price"), int) and isinstance(b.get("price"), int):
        cheap, dear = sorted((a, b), key=lambda i: i["price"])
        gap = dear["price"] - cheap["price"]
        text += say(lang, f" The {dear.get('name')} costs ¥{gap} more.",
                    f"{dear.get('name')} 比 {cheap.get('name')} 贵 ¥{gap}。")
    return text


def buy(lang: str, item: Item) -> str:
    return price(lang, item) + say(
        lang, " You can order it on its product page in the BitMall app or website; "
              "I can't place orders for you here.",
        "您可以在比特严选 App 或网站的商品页直接下单，我这里没法替您下单。")
