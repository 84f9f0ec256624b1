"""What the offline clerk types into the store's search tools, in the customer's words.

Introduced in notebook 00, where a trace shows `searchKnowledge(query=…)`. A Chinese
question is searched in Chinese ("退款 到账"), an English one in English ("refund
time"), as a person at the counter would type it; both stores index both languages,
so either query finds the article. `TOPICS` also names the words that pick the
matching article among several results, in either store's language. Left out:
spelling variants and synonyms beyond these.
"""

from __future__ import annotations

# topic -> (English query, Chinese query, words of the article's own topic)
TOPICS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "refund time": ("refund time", "退款 到账", ("refund", "退款")),
    "promotion": ("promotion", "优惠 活动", ("promotion", "优惠")),
    "warranty": ("warranty", "保修", ("warranty", "保修")),
    "return shipping": ("return shipping", "退货 运费", ("shipping", "运费")),
    "return policy": ("return policy", "退货 无理由 运费", ("return", "退货")),
}
# The kinds of product of intents.KINDS, as a Chinese customer says them.
KINDS_ZH = {"robot vacuum": "扫地机器人", "earbuds": "耳机", "fitness band": "手环"}


def knowledge_query(topic: str, lang: str) -> str:
    """The help-article search for `topic` ("refund time") in `lang`."""
    english, chinese, _ = TOPICS[topic]
    return chinese if lang == "zh" else english


def topic_words(topic: str) -> tuple[str, ...]:
    """Words that an article on `topic` has in its own topic, in either language."""
    return TOPICS[topic][2]


def new_products_query(kind: str | None, lang: str) -> str:
    """The catalog search for new products, of `kind` when the customer named one."""
    if lang == "zh":
        return f"新款 {KINDS_ZH[kind]}" if kind else "新款"
    return f"new {kind}" if kind else "new"


def offers_query(lang: str) -> str:
    """The catalog search for products on offer."""
    return "优惠" if lang == "zh" else "offer"
