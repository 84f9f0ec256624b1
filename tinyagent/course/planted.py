"""A long BitMall dialog with facts planted at the start and asked for at the end.

Introduced in notebook 06 (section 4), scored by evaluation.py. `planted_dialog(turns=
50, seed=0)` writes the conversation: turn 1 looks an order up (the answer plants its
tracking number), turn 2 applies for a refund (the refund number), filler turns about
products, prices and policies follow in a seeded order and phrasing, and three probes
come near the end: "what was my refund number again?".

Ids alone prove little: a summary memory's entity guard puts every id back whatever
the summary says. So a dialog of at least FACT_TURNS turns also plants what the
customer says in their own words, which no guard restores: the reason for the
refund (an error code) in turn 2, and a delivery time, a contact channel and a
budget in turns 3-8, each in a seeded phrasing; four more probes in the last
FACT_SPAN turns ask for them back ("why did I want the refund?"). The offline model
answers both kinds only from what the messages hold. The dialog comes in English or
Chinese (`lang="zh"`): the two phrasebooks are parallel, line for line, so one seed
picks the same order, the same intents and the same probe turns in both, and the two
editions of notebook 06 measure the same conversation; the Chinese customer says a
question that comes back in other words, and compares two vacuums (planted_zh.py).
Left out: preferences the offline model would have to act on ("please answer
briefly").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..tools import store
from .language import check_lang, get_lang
from .planted_zh import FACTS_ZH, FILLERS_ZH, REASONS_ZH, ChineseFillers, thing

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
FACT_TURNS, FACT_SPAN = 20, 14  # the customer's words: from 20 turns, probes late
# What the customer states, per fact: (English phrasings, Chinese phrasings), and the
# values a seed picks; a probe's answer must hold the value (the hour, the code...).
STATED = {
    "reason": (["It stopped charging and shows error {code}.",
                "It keeps showing error {code} and won't turn on.",
                "The screen shows error {code} every time I start it."],
               REASONS_ZH),  # "扫地机充不进电了…": the thing that broke, named
    "delivery": (["Please only deliver after {hour} pm, I'm at work during the day.",
                  "I'm not home before {hour} pm, so deliver in the evening, please.",
                  "Deliveries after {hour} pm only, please."],
                 ["请只在晚上{hour}点以后送货，白天我在上班。",
                  "我晚上{hour}点以后才在家，请晚上再配送。",
                  "送货请安排在晚上{hour}点以后。"]),
    "contact": (["Please contact me by {channel} only, no phone calls.",
                 "I'd rather you reached me by {channel}, please don't call.",
                 "Only use {channel} to reach me, please."],
                ["请只用{channel}联系我，不要打电话。",
                 "联系我请用{channel}，别打电话。", "请通过{channel}联系我。"]),
    "budget": (["My budget for the next one is under {amount} yuan.",
                "I can't spend more than ¥{amount} on the next one.",
                "Whatever I buy next has to stay under {amount} yuan."],
               ["我下一台的预算在{amount}元以内。", "下一台我最多花{amount}元。",
                "下次买的东西不能超过{amount}元。"]),
}
VALUES = {"code": ["E12", "E21", "E37", "E45"], "hour": ["6", "7", "8"],
          "channel": [("email", "邮件"), ("WeChat", "微信"), ("text message", "短信")],
          "amount": ["1500", "2000", "3000"]}
EXPECTED = {"reason": "{code}", "delivery": ("{hour} pm", "{hour}点"),
            "contact": "{channel}", "budget": "{amount}"}
FACT_PROBES = {  # fact -> ways to ask for it back: (English, Chinese)
    "reason": (["Why did I want the refund?", "Remind me what was wrong with it.",
                "Sorry, what was the problem I reported?"],
               ["我为什么要退款来着？", "再说一下它出了什么问题来着？",
                "不好意思，我之前报的是什么故障？"]),
    "delivery": (["What time did I say to deliver?", "Remind me when I wanted the "
                  "delivery.", "Sorry, when did I ask you to deliver again?"],
                 ["我之前说几点以后送货来着？", "再说一下我要求的送货时间来着？",
                  "不好意思，我说过什么时候配送来着？"]),
    "contact": (["How did I ask you to contact me?", "Remind me how I wanted to be "
                 "contacted.", "Sorry, what did I say about contacting me?"],
                ["我之前说怎么联系我来着？", "再说一下我要求的联系方式来着？",
                 "不好意思，我说过用什么联系我？"]),
    "budget": (["What was my budget again?", "Remind me of my budget.",
                "Sorry, how much did I say I could spend?"],
               ["我的预算是多少来着？", "再说一下我的预算来着？",
                "不好意思，我说过最多花多少来着？"]),
}


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
        [ways[0] for ways in FILLERS_ZH]),  # planted_zh.py: the other ways
}


@dataclass(frozen=True)
class Probe:
    turn: int  # 1-based
    fact: str  # "refund" | "tracking" | "order"
    expected: str  # the planted value the answer must contain

    def label(self, lang: str | None = None) -> str:
        """What the probe asks back, for a page: "refund RF20260701001", or in
        Chinese (`lang`, default: the notebook's) "退款编号 RF20260701001"."""
        fact = FACTS_ZH.get(self.fact, self.fact) if get_lang(lang) == "zh" \
            else self.fact
        return f"{fact} {self.expected}"


@dataclass(frozen=True)
class Dialog:
    turns: tuple[str, ...]
    probes: tuple[Probe, ...]
    facts: dict[str, str] = field(hash=False)  # fact -> planted value
    seed: int = 0
    lang: str = "en"  # the language of the turns, and of the store to play them on
    fact_probes: tuple[Probe, ...] = ()  # the customer's own words, asked back
    stated: dict[str, str] = field(default_factory=dict, hash=False)  # fact -> value


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
    chinese = ChineseFillers()  # each Chinese question said a new way when it recurs
    for _ in range(turns - 2):
        a, b = rng.sample(PRODUCTS, 2)
        index = rng.choice(range(len(book.fillers)))  # as rng.choice(book.fillers)
        script.append(chinese.say(index, a, b, PRODUCTS) if lang == "zh"
                      else book.fillers[index].format(a=a, b=b))
    slots = sorted(rng.sample(range(max(2, turns - PROBE_SPAN), turns), 3))
    probes = []
    for slot, fact in zip(slots, rng.sample(list(book.probes), 3), strict=True):
        script[slot] = rng.choice(book.probes[fact])
        probes.append(Probe(slot + 1, fact, facts[fact]))
    if turns < FACT_TURNS:
        return Dialog(tuple(script), tuple(probes), facts, seed, lang)
    stated, fact_probes = plant_statements(script, rng, slots, lang,
                                           thing(store.ORDERS[order]["product"]))
    return Dialog(tuple(script), tuple(probes), facts, seed, lang,
                  tuple(fact_probes), stated)


def plant_statements(script: list[str], rng: random.Random, taken: list[int],
                     lang: str, broken: str = "它"
                     ) -> tuple[dict[str, str], list[Probe]]:
    """Plant the customer's own words into `script` (in place): the reason after the
    refund request (in Chinese naming the `broken` thing, "扫地机"), three rules in
    turns 3-8, four probes late (not on `taken`)."""
    zh = lang == "zh"
    picked = {k: rng.choice(v) for k, v in VALUES.items()}
    values = {k: v[zh] if isinstance(v, tuple) else v for k, v in picked.items()}
    values["thing"] = broken
    stated: dict[str, str] = {}
    for fact, expected in EXPECTED.items():
        form = expected[zh] if isinstance(expected, tuple) else expected
        stated[fact] = form.format(**values)
    phrasing = {fact: rng.choice(STATED[fact][zh]).format(**values) for fact in STATED}
    script[1] += phrasing["reason"] if zh else " " + phrasing["reason"]
    rules = ["delivery", "contact", "budget"]
    for slot, fact in zip(rng.sample(range(2, 8), 3), rules, strict=True):
        script[slot] = phrasing[fact]
    free = [i for i in range(len(script) - FACT_SPAN, len(script)) if i not in taken]
    probes = []
    for slot, fact in zip(sorted(rng.sample(free, 4)), rng.sample(list(STATED), 4),
                          strict=True):
        script[slot] = rng.choice(FACT_PROBES[fact][zh])
        probes.append(Probe(slot + 1, fact, stated[fact]))
    return stated, probes
