"""Checkers for notebook 08 (production memory I): a structured summary's caps.

`08.cap_items(items, max_items=6, max_chars=80)` keeps a structured summary's section
within its caps, so the summary stays bounded: the newest `max_items` non-blank
items, oldest first, each clipped to `max_chars` with "…", the input left unchanged.
Beside the named cases, 300 drawn sections of up to 80 items of up to 800
characters (Chinese ones too, blanks of every kind) with caps up to 70 items and 800
characters, against the exercise's rule.
The injection fence, the notebook's other exercise, is in nb08_fence.py.
Left out: the summarizer that writes the sections (the notebook runs it).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ...lang import say
from . import Case, exercise, expect
from ._dialogs import fresh_list
from ._drawn import drawn, size

# Eight short items; a tuple, so each case makes a fresh list from it.
FACTS = tuple(f"fact {n}: order 8823{n} checked" for n in range(1, 9))
LONG = "Refund RF20260701001 for order 88231 approved: ¥1999 back to the card " * 2
# The same items in a Chinese report; the long one is over 80 characters too.
FACTS_ZH = tuple(f"事实 {n}：订单 8823{n} 已核对" for n in range(1, 9))
LONG_ZH = "订单 88231 的退款 RF20260701001 已批准：¥1999 将原路退回银行卡。" * 2
CAP_DRAWS, MOST_ITEMS, MOST_CAP, MOST_CHARS = 300, 80, 70, 800
BLANKS = ("", " ", "   ", "\t", "\n", " \n ")
WORDS = ("order", "88231", "refund", "RF20260701001", "delivered", "pending", "SF",
         "¥1999", "E12", "after 6 pm", "email")
WORDS_ZH = ("订单", "88231", "退款", "RF20260701001", "已签收", "待检测", "顺丰",
            "¥1999", "E12", "下午 6 点以后", "邮件")


def reference_cap(items: list[str], max_items: int = 6, max_chars: int = 80
                  ) -> list[str]:
    """The exercise's rule: drop blanks, keep the newest max_items, clip each."""
    kept = [i if len(i) <= max_chars else i[:max_chars - 1] + "…"
            for i in items if i.strip()]
    return kept[-max_items:] if max_items > 0 else []


def _capped(cap_items: Any, items: list[str], expected: list[str], *caps: int) -> bool:
    given = list(items)
    got = cap_items(given, *caps)
    shown = say(f"{items[:3]}…({len(items)} items)", f"{items[:3]}…（共 {len(items)} "
                "项）") if len(items) > 3 else f"{items}"
    comma = say(", ", "，")
    where = say(f"with {shown}", f"输入为 {shown}") + \
        (f"{comma}max_items={caps[0]}" if caps else "") + \
        (f"{comma}max_chars={caps[1]}" if len(caps) > 1 else "")
    fresh_list(got, given, where)
    expect(given, list(items), say(f"{where}, your argument afterwards",
                                   f"{where}，调用之后你的参数"))
    return expect(got, expected, where)


def _drawn_section(cap_items: Any, rng: random.Random) -> bool:
    """A drawn section and caps, against the exercise's rule."""
    items = []
    for _ in range(size(rng, MOST_ITEMS, 0)):
        if rng.random() < 0.15:
            items.append(rng.choice(BLANKS))
            continue
        words = [rng.choice(say(WORDS, WORDS_ZH)) for _ in range(size(rng, 120))]
        items.append(" ".join(words)[:size(rng, MOST_CHARS)])
    caps = (size(rng, MOST_CAP, 0), size(rng, MOST_CHARS, 2))
    return _capped(cap_items, items, reference_cap(items, *caps), *caps)


def _input_unchanged(cap_items: Any, facts: tuple[str, ...]) -> bool:
    items = list(facts)
    cap_items(items)
    return expect(items, list(facts), say("your argument afterwards",
                                          "调用之后，你的参数"))


@exercise("08.cap_items")
def _cap_items_cases(cap_items: Any) -> Iterator[Case]:
    facts, long = say(FACTS, FACTS_ZH), say(LONG, LONG_ZH)
    three, two, clipped = say(("alpha beta gamma", "alpha beta", "alph…"),
                              ("甲乙丙丁戊己", "一二三四五六", "一二三四…"))
    yield (say("a short section comes back as it was", "短的段落原样返回"),
           lambda: _capped(cap_items, list(facts[:3]), list(facts[:3])),
           say("return the items unchanged when they are within both caps",
               "两个上限都没超过时，原样返回各项"))
    yield (say("eight items: the newest six stay, oldest first",
               "八项：留下最新的六项，最早的在前"),
           lambda: _capped(cap_items, list(facts), list(facts[-6:])),
           say("a section keeps its newest items: the oldest go first",
               "一栏保留最新的几项：最早的先走"))
    yield (say("an item longer than 80 characters is cut to 79 + '…'",
               "超过 80 个字符的项，截成 79 个字符加 '…'"),
           lambda: _capped(cap_items, [long], [long[:79] + "…"]),
           say("the clipped item, '…' included, is max_chars long",
               "截断后的项连同 '…' 一共 max_chars 个字符"))
    yield (say("an item of exactly 80 characters is kept whole, 81 is cut",
               "恰好 80 个字符的项完整保留，81 个就截断"),
           lambda: _capped(cap_items, ["x" * 80], ["x" * 80])
           and _capped(cap_items, ["y" * 81], ["y" * 79 + "…"])
           and _capped(cap_items, ["w" * 79], ["w" * 79])
           and _capped(cap_items, ["z" * 82], ["z" * 79 + "…"]),
           say("an item as long as the cap fits; only a longer one is clipped",
               "和上限一样长的项放得下；只有更长的才截断"))
    yield (say("blank items are dropped", "空白项丢掉"),
           lambda: _capped(cap_items, ["a", "  ", "", "b"], ["a", "b"]),
           say("an item of spaces says nothing and takes a place",
               "只有空格的项什么也没说，却占了一个位置"))
    yield (say("blanks are dropped before counting: six newest non-blank items",
               "先丢空白项再计数：最新的六个非空项"),
           lambda: _capped(cap_items, [*facts, "", "  "], list(facts[-6:])),
           say("drop the blanks first, then keep the newest max_items",
               "先丢掉空白项，再保留最新的 max_items 项"))
    yield (say("max_items=0 keeps nothing; 1, 5 and 7 keep that many",
               "max_items=0 什么都不留；1、5、7 就留这么多"),
           lambda: _capped(cap_items, list(facts), [], 0, 80)
           and _capped(cap_items, list(facts), list(facts[-1:]), 1, 80)
           and _capped(cap_items, list(facts), list(facts[-5:]), 5, 80)
           and _capped(cap_items, list(facts), list(facts[-7:]), 7, 80),
           say("a slice from -0 is the whole list, not none of it",
               "从 -0 开始切片得到的是整个列表，而不是空列表"))
    yield (say("the caller's list is left unchanged", "调用方的列表保持不变"),
           lambda: _input_unchanged(cap_items, facts),
           say("build a new list instead of deleting from the argument",
               "新建一个列表，不要从参数里删除"))
    yield (say("max_items and max_chars are honoured", "遵守 max_items 和 max_chars"),
           lambda: _capped(cap_items, [three, "b", "c"], ["b", "c"], 2, 5)
           and _capped(cap_items, [two], [clipped], 1, 5),
           say("use the parameters, not the numbers 6 and 80",
               "用参数，不要写死 6 和 80"))
    yield (say(f"{CAP_DRAWS} drawn sections of up to {MOST_ITEMS} items, caps up to "
               f"{MOST_CAP} items and {MOST_CHARS} characters",
               f"{CAP_DRAWS} 个抽取的栏目（至多 {MOST_ITEMS} 项），上限至多 {MOST_CAP} "
               f"项、{MOST_CHARS} 个字符"),
           lambda: drawn("08.cap_items", CAP_DRAWS,
                         lambda rng: _drawn_section(cap_items, rng)),
           say("blanks out first, then the newest max_items, each longer than "
               "max_chars cut to max_chars - 1 characters and '…'",
               "先去掉空白项，再留最新的 max_items 项，超过 max_chars 的截成 "
               "max_chars - 1 个字符加 '…'"))
