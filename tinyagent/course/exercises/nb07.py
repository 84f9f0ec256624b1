"""Checkers for notebook 07 (production memory): a summary's caps and freshness.

`07.cap_items(items, max_items=6, max_chars=80)` keeps a structured summary's section
within its caps, so the summary stays bounded: the newest `max_items` non-blank
items, oldest first, each clipped to `max_chars` with "…", the input left unchanged.
`07.apply_if_current(state, planned_version, batch_size, text)` applies a background
summary only if the summary has not changed since the batch was planned.
Left out: threads (the notebook runs the real ones), and restarts and fences
(nb07_restart.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ...production.incremental import SummaryState
from ..language import say
from . import Case, exercise, expect
from ._dialogs import fresh_list

# Eight short items; a tuple, so each case makes a fresh list from it.
FACTS = tuple(f"fact {n}: order 8823{n} checked" for n in range(1, 9))
LONG = "Refund RF20260701001 for order 88231 approved: ¥1999 back to the card " * 2
# The same items in a Chinese report; the long one is over 80 characters too.
FACTS_ZH = tuple(f"事实 {n}：订单 8823{n} 已核对" for n in range(1, 9))
LONG_ZH = "订单 88231 的退款 RF20260701001 已批准：¥1999 将原路退回银行卡。" * 2


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


def _input_unchanged(cap_items: Any, facts: tuple[str, ...]) -> bool:
    items = list(facts)
    cap_items(items)
    return expect(items, list(facts), say("your argument afterwards",
                                          "调用之后，你的参数"))


@exercise("07.cap_items")
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


def _applied(apply_if_current: Any, state: SummaryState, planned: int, size: int,
             expected: SummaryState) -> bool:
    got = apply_if_current(state, planned, size, say("- new summary", "- 新摘要"))
    return expect(got, expected, say(f"with {state}, a batch of {size} messages "
                                     f"planned at version {planned}",
                                     f"输入为 {state}，一批 {size} 条消息，"
                                     f"规划时是第 {planned} 版"))


@exercise("07.apply_if_current")
def _apply_cases(apply_if_current: Any) -> Iterator[Case]:
    old, text = say(("- old summary", "- new summary"), ("- 旧摘要", "- 新摘要"))
    now = SummaryState(old, covered_up_to=6, compression_count=2, version=2)
    new = SummaryState(text, covered_up_to=10, compression_count=3, version=3)
    yield (say("a batch planned at the current version is applied",
               "按当前版本规划的一批，照常应用"),
           lambda: _applied(apply_if_current, now, 2, 4, new),
           say("an applied batch moves every count on: what is covered, how many "
               "compressions, which version", "应用一批之后，每个计数都往前走：覆盖到"
               "哪里、压缩了几次、第几版"))
    yield (say("a batch planned before another compression is stale: nothing changes",
               "在另一次压缩之前规划的一批已经过期：什么都不变"),
           lambda: _applied(apply_if_current, now, 1, 4, now),
           say("a summary planned on an older version would overwrite newer work",
               "按旧版本规划的摘要，会覆盖掉更新的成果"))
    yield (say("a batch planned at a newer version is stale too",
               "按更新的版本规划的一批，也算过期"),
           lambda: _applied(apply_if_current, now, 3, 4, now),
           say("any version other than the current one is stale, newer ones too",
               "只要不是当前版本就过期，更新的版本也一样"))
    yield (say("the first compression: from version 0 and nothing covered",
               "第一次压缩：从第 0 版开始，还没有覆盖任何消息"),
           lambda: _applied(apply_if_current, SummaryState(), 0, 6,
                            SummaryState(text, 6, 1, 1)),
           say("before any summary the version is 0; the first summary makes it 1",
               "还没有摘要时版本是 0；第一份摘要让它变成 1"))
    yield (say("the counts follow the batch, not fixed numbers",
               "计数跟着这一批走，不是固定的数字"),
           lambda: _applied(apply_if_current, replace(now, version=7), 7, 2,
                            SummaryState(text, 8, 3, 8)),
           say("batches come in any size: the counts move by this batch's",
               "一批可以是任意大小：计数按这一批的大小往前走"))
