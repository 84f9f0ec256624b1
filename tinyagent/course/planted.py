"""A long BitMall dialog with facts planted at the start and asked for at the end.

Introduced in notebook 06 (section 4), scored by evaluation.py. `planted_dialog(turns=
50, seed=0)` writes the conversation: turn 1 looks an order up (the answer plants its
tracking number), turn 2 applies for a refund (the refund number), filler turns about
products, prices and policies follow in a seeded order and phrasing, and three probes
come near the end: "what was my refund number again?".

The offline model recalls three kinds of fact, refund, tracking and order numbers,
and only from what the messages hold, so those are what is planted. The dialog comes
in English or Chinese (`lang="zh"`): the two phrasebooks are parallel, line for line,
so one seed picks the same order, the same intents and the same probe turns in both,
and the two editions of notebook 06 measure the same conversation. Left out:
preferences ("please answer briefly"), which the offline model cannot act on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..tools import store
from .language import check_lang

# Orders that have shipped, so each has a tracking number to plant.
ORDERS = ("88231", "90417", "55107", "61554")
FIRST_REFUND = f"RF{store.FIXED_NOW:%Y%m%d}001"  # fresh tools number refunds from 001
LOOKUPS = ["Where is my order {order}?", "Can you track order {order} for me?",
           "Has my order {order} shipped yet?", "What's the delivery status of order "
           "{order}?"]
REFUNDS = ["I want a refund for order {order}, please.", "I'd like to return order "
           "{order}.", "Can I get my money back for order {order}?"]
PROBES = {  # fact -> ways to ask for it back (the offline model's recall intent)
    "refund": ["What was my refund number again?", "Can you remind me of my refund "
               "number?", "Sorry, what's the refund number again?"],
    "tracking": ["What was the tracking number again?", "Remind me of my tracking "
                 "number, please.", "Sorry, what's the tracking number again?"],
    "order": ["What was my order number again?", "Remind me of my order number, "
              "please.", "Sorry, which order number was that again?"],
}
PRODUCTS = ("S10 Lite", "S10 Pro", "S20 Pro", "S20 Max", "AirX", "BandPro")
FILLERS = [  # product, price, promotion, policy and time questions: no order numbers
    "How much is the {a}?", "What does the {a} cost?", "What's the price of the {a}?",
    "What's the difference between the {a} and the {b}?", "Compare the {a} vs the {b}",
    "I'd like to buy the {a}.", "Do you have any new robot vacuums to recommend?",
    "Can you suggest a new model?", "Any discounts at the moment?",
    "Are there any deals right now?", "What is the warranty on robot vacuums?",
    "Who pays the return shipping?", "How does the 7-day return policy work?",
    "How long until my refund arrives?", "What's today's date?",
]
PROBE_SPAN = 8  # the probes fall in the last PROBE_SPAN turns


@dataclass(frozen=True)
class Phrasebook:
    """One language's phrasings; every list is parallel to the English one."""

    lookups: list[str]
    refunds: list[str]
    probes: dict[str, list[str]]
    fillers: list[str]


PHRASEBOOKS = {
    "en": Phrasebook(LOOKUPS, REFUNDS, PROBES, FILLERS),
    "zh": Phrasebook(
        ["订单 {order} 的物流到哪了？", "帮我查一下订单 {order} 的快递",
         "订单 {order} 发货了吗？", "订单 {order} 现在是什么状态？"],
        ["订单 {order} 我要退款。", "我想把订单 {order} 退货。",
         "订单 {order} 能退钱吗？"],
        {"refund": ["刚才那个退款编号是多少来着？", "能再告诉我一下退款编号吗？",
                    "不好意思，退款单号是多少来着？"],
         "tracking": ["运单号是多少来着？", "再说一下我的快递单号。",
                      "不好意思，物流单号是多少来着？"],
         "order": ["我的订单号是多少来着？", "再说一下我的订单编号。",
                   "不好意思，刚才是哪个订单号来着？"]},
        ["{a} 多少钱？", "{a} 的价格是多少？", "{a} 售价多少？",
         "{a} 和 {b} 有什么区别？", "对比一下 {a} 和 {b}", "我想买 {a}。",
         "有没有新款扫地机推荐？", "推荐一款新品吧", "最近有什么优惠吗？",
         "现在有活动吗？", "扫地机保修多久？", "退货运费谁出？",
         "七天无理由退货怎么算？", "退款多久到账？", "今天几号？"]),
}


@dataclass(frozen=True)
class Probe:
    turn: int  # 1-based
    fact: str  # "refund" | "tracking" | "order"
    expected: str  # the planted value the answer must contain


@dataclass(frozen=True)
class Dialog:
    turns: tuple[str, ...]
    probes: tuple[Probe, ...]
    facts: dict[str, str] = field(hash=False)  # fact -> planted value
    seed: int = 0
    lang: str = "en"  # the language of the turns, and of the store to play them on


def planted_dialog(turns: int = 50, seed: int = 0, lang: str = "en") -> Dialog:
    """A deterministic dialog in `lang`: facts planted in turns 1-2, probes near the
    end. The same seed gives the same conversation in either language."""
    if turns < 6:
        raise ValueError(f"turns must be >= 6 (two plants, three probes, one filler), "
                         f"got {turns}")
    book = PHRASEBOOKS[check_lang(lang)]
    rng = random.Random(seed)
    order = rng.choice(ORDERS)
    facts = {"order": order, "tracking": store.ORDERS[order]["tracking_number"],
             "refund": FIRST_REFUND}
    script = [rng.choice(book.lookups).format(order=order),
              rng.choice(book.refunds).format(order=order)]
    for _ in range(turns - 2):
        a, b = rng.sample(PRODUCTS, 2)
        script.append(rng.choice(book.fillers).format(a=a, b=b))
    slots = sorted(rng.sample(range(max(2, turns - PROBE_SPAN), turns), 3))
    probes = []
    for slot, fact in zip(slots, rng.sample(list(book.probes), 3), strict=True):
        script[slot] = rng.choice(book.probes[fact])
        probes.append(Probe(slot + 1, fact, facts[fact]))
    return Dialog(tuple(script), tuple(probes), facts, seed, lang)
