"""A long BitMall dialog with facts planted at the start and asked for at the end.

Introduced in notebook 06 (section 4), scored by evaluation.py. `planted_dialog(turns=
50, seed=0)` writes one customer's conversation: turn 1 looks an order up (the
answer plants its tracking number), turn 2 applies for a refund (the refund number)
and says why, and the customer then shops for another vacuum: prices, offers,
comparisons, the new models, policies, a purchase. Three probes come near the end:
"what was my refund number again?".

Ids alone prove little: a summary memory's entity guard puts every id back whatever
the summary says. So a dialog of at least FACT_TURNS turns also plants what the
customer says in their own words, which no guard restores: the reason for the
refund (an error code) in turn 2, and in turns 3-8, in this order, how to reach them
about the refund, a budget for the vacuum they will buy, and when to deliver it;
four more probes in the last FACT_SPAN turns ask for them back ("why did I want the
refund?"). The offline model answers both kinds only from what the messages hold.

The customer asks each question once, in a seeded phrasing; buys only a vacuum
within the budget they stated, after asking about it; and, when a long dialog has
asked everything, asks again with the reason said ("Just to be sure, once more:
…"). The dialog comes in English or Chinese (`lang`, default: the package's
language): the phrasebooks are parallel line for line (planted_zh.py), so one seed
writes the same conversation in both, and the two editions of notebook 06 measure
it. Left out: preferences the offline model would have to act on ("please answer
briefly").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations

from ..lang import Pair, get_lang, say
from ..tools import store
from .planted_en import (
    AGAIN,
    FACT_PROBES,
    FILLERS,
    LOOKUPS,
    PROBES,
    REFUNDS,
    STATED_EN,
)
from .planted_zh import (
    AGAIN_ZH,
    FACT_PROBES_ZH,
    FACTS_ZH,
    FILLERS_ZH,
    LOOKUPS_ZH,
    PROBES_ZH,
    REASONS_ZH,
    REFUNDS_ZH,
    STATED_ZH,
    thing,
)

# Orders that have shipped, so each has a tracking number to plant.
ORDERS = ("88231", "90417", "55107", "61554")
FIRST_REFUND = f"RF{store.FIXED_NOW:%Y%m%d}001"  # fresh tools number refunds from 001
PRODUCTS = ("S10 Lite", "S10 Pro", "S20 Pro", "S20 Max", "AirX", "BandPro")
VACUUMS = PRODUCTS[:4]  # a comparison weighs two of these, a purchase is one
ONCE = ("buy", "date")  # never asked again: a purchase is made once
PROBE_SPAN = 8  # the probes fall in the last PROBE_SPAN turns
FACT_TURNS, FACT_SPAN = 20, 14  # the customer's words: from 20 turns, probes late
RULE_TURNS = range(2, 8)  # 0-based: turns 3-8 state the rules, nothing is bought
# What the customer states, per fact: (English phrasings, Chinese phrasings), in the
# order it is stated; the values a seed picks; a probe's answer must hold the value.
STATED = {fact: Pair(ways, REASONS_ZH if fact == "reason" else STATED_ZH[fact])
          for fact, ways in STATED_EN.items()}
VALUES = {"code": ["E12", "E21", "E37", "E45"], "hour": ["6", "7", "8"],
          "channel": [Pair("email", "邮件"), Pair("WeChat", "微信"),
                      Pair("text message", "短信")],
          "amount": ["2000", "2500", "3000"]}
EXPECTED = {"reason": "{code}", "delivery": Pair("{hour} pm", "{hour}点"),
            "contact": "{channel}", "budget": "{amount}"}


@dataclass(frozen=True)
class Phrasebook:
    """One language's phrasings; every list is parallel to the English one."""

    lookups: list[str]
    refunds: list[str]
    probes: dict[str, list[str]]
    fillers: dict[str, list[str]]
    again: list[str]  # said before a question that comes back
    stated: dict[str, list[str]]
    fact_probes: dict[str, list[str]]


PHRASEBOOKS = Pair(
    Phrasebook(LOOKUPS, REFUNDS, PROBES, FILLERS, AGAIN,
               {k: v.en for k, v in STATED.items()}, FACT_PROBES),
    Phrasebook(LOOKUPS_ZH, REFUNDS_ZH, PROBES_ZH, FILLERS_ZH, AGAIN_ZH,
               {k: v.zh for k, v in STATED.items()}, FACT_PROBES_ZH))


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


def planted_dialog(turns: int = 50, seed: int = 0, lang: str | None = None
                   ) -> Dialog:
    """A deterministic dialog in `lang` (default: the package's language at the
    time of the call): facts planted in turns 1-2 (and 2-8), probes near the end.
    The same seed gives the same conversation in either language."""
    lang = get_lang(lang)
    if turns < 6:
        raise ValueError(say(f"turns must be >= 6 (two plants, three probes, one "
                             f"filler), got {turns}", f"turns 至少为 6（两轮埋入事实、"
                             f"三轮探针、一轮填充），当前为 {turns}", lang))
    book, rng = PHRASEBOOKS.say(lang), random.Random(seed)
    order = rng.choice(ORDERS)
    facts = {"order": order, "tracking": store.ORDERS[order]["tracking_number"],
             "refund": FIRST_REFUND}
    script: list[str | None] = [None] * turns
    script[0] = pick(rng, book.lookups).format(order=order)
    script[1] = pick(rng, book.refunds).format(order=order)
    slots = sorted(rng.sample(range(max(2, turns - PROBE_SPAN), turns), 3))
    probes = []
    for slot, fact in zip(slots, rng.sample(list(book.probes), 3), strict=True):
        script[slot] = pick(rng, book.probes[fact])
        probes.append(Probe(slot + 1, fact, facts[fact]))
    stated: dict[str, str] = {}
    fact_probes: list[Probe] = []
    if turns >= FACT_TURNS:
        product = str(store.ORDERS[order]["product"])
        stated, fact_probes = plant_statements(script, rng, slots, book, lang,
                                               thing(product))
    budget = int(stated.get("budget", 0)) or None
    fill(script, rng, book, budget, planted=turns >= FACT_TURNS)
    return Dialog(tuple(t or "" for t in script), tuple(probes), facts, seed, lang,
                  tuple(fact_probes), stated)


def pick(rng: random.Random, ways: list[str]) -> str:
    """One of `ways`, drawn by index: the same draw in every language."""
    return ways[rng.randrange(len(ways))]


def plant_statements(script: list[str | None], rng: random.Random, taken: list[int],
                     book: Phrasebook, lang: str, broken: str = "它"
                     ) -> tuple[dict[str, str], list[Probe]]:
    """Plant the customer's own words into `script` (in place): the reason after the
    refund request (in Chinese naming the `broken` thing, "扫地机"), the three rules
    in turns 3-8 in the order they follow from each other, four probes late (after
    turn 8, not on `taken`)."""
    zh = lang == "zh"
    picked = {k: rng.choice(v) for k, v in VALUES.items()}
    values = {k: v.say(lang) if isinstance(v, Pair) else v for k, v in picked.items()}
    values["thing"] = broken
    stated = {fact: (form.say(lang) if isinstance(form, Pair) else form).format(
        **values) for fact, form in EXPECTED.items()}
    said = {fact: pick(rng, ways).format(**values)
            for fact, ways in book.stated.items()}
    script[1] = f"{script[1]}{'' if zh else ' '}{said['reason']}"
    for slot, fact in zip(sorted(rng.sample(RULE_TURNS, 3)),
                          ["contact", "budget", "delivery"], strict=True):
        script[slot] = said[fact]
    start = max(len(script) - FACT_SPAN, RULE_TURNS.stop)
    free = [i for i in range(start, len(script)) if i not in taken]
    probes = []
    for slot, fact in zip(sorted(rng.sample(free, 4)), rng.sample(list(STATED), 4),
                          strict=True):
        script[slot] = pick(rng, book.fact_probes[fact])
        probes.append(Probe(slot + 1, fact, stated[fact]))
    return stated, probes


def questions(rng: random.Random, budget: int | None) -> list[tuple[str, str, str]]:
    """Every question this customer has, once: (kind, product a, product b), in a
    seeded order. The purchase is one vacuum within the budget (any without one),
    and the two accessories."""
    prices = {name: p["price"] for name in PRODUCTS for p in store.PRODUCTS
              if name in p["name"]}
    affordable = [v for v in VACUUMS if budget is None or prices[v] <= budget]
    chosen = rng.choice(affordable or list(VACUUMS))
    found = [("price", p, "") for p in PRODUCTS] + [("offer", p, "") for p in PRODUCTS]
    found += [("compare", a, b) for a, b in combinations(VACUUMS, 2)]
    found += [("buy", p, "") for p in (chosen, *PRODUCTS[4:])]
    found += [(kind, "", "") for kind in FILLERS if kind not in
              ("price", "offer", "compare", "buy")]
    rng.shuffle(found)
    return found


def fill(script: list[str | None], rng: random.Random, book: Phrasebook,
         budget: int | None, planted: bool) -> None:
    """Fill the free turns of `script` (in place) with the customer's questions,
    each once; a product is bought only after it was asked about (and, with the
    customer's words planted, after turn 8). Past the last new question, earlier
    ones come back, each with the reason said."""
    pending, asked, mentioned = questions(rng, budget), [], set()
    repeats: list[tuple[str, str, str]] = []
    for index, text in enumerate(script):
        if text is not None:
            continue
        early = planted and index < RULE_TURNS.stop  # no purchase before the rules
        question = next((q for q in pending if q[0] != "buy" or (
            q[1] in mentioned and not early)), None)
        prefix = ""
        if question is not None:
            pending.remove(question)
            asked.append(question)
        else:  # everything asked once (or only a purchase not yet possible)
            if not repeats:
                repeats = [q for q in asked if q[0] not in ONCE] or list(asked)
                rng.shuffle(repeats)
            question, prefix = repeats.pop(), pick(rng, book.again)
        kind, a, b = question
        mentioned |= {a, b}
        said = pick(rng, book.fillers[kind]).format(a=a, b=b)
        lower = prefix and said.isascii() and said[:2] not in ("I ", "I'")
        script[index] = prefix + (said[0].lower() + said[1:] if lower else said)
