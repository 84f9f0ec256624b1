"""Checkers for notebook 00 (setup and tour): the repeated-call guard's test.

`00.same_signature` tells whether two steps made the same tool calls, graded against
the agent's own test, `guards.same_calls`. A step's calls are a multiset: ids do not
count, nor does the order of the calls or of their arguments, but how often a call
appears does, and a call is its name together with its arguments. Then 300 drawn
pairs of steps of up to 30 calls: the second the first in another order, with new
ids and keys in another order, and often one change (an argument's value or type,
two calls' arguments swapped, a tool renamed, one call twice and another gone).
Left out: the loop that calls the guard, which the notebook runs on the agent.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ... import guards
from ...lang import say
from ...messages import ToolCall
from . import Case, exercise, expect
from ._dialogs import ORDERS
from ._drawn import drawn, size

__all__ = ["call"]


def call(call_id: str, name: str, **arguments: Any) -> ToolCall:
    return ToolCall(call_id, name, arguments)


def _same(same_signature: Any, a: list[ToolCall], b: list[ToolCall]) -> bool:
    """The learner's verdict must be the repeated-call guard's own verdict."""
    def show(calls: list[ToolCall]) -> str:
        return "[" + ", ".join(f"{c.id}:{c.signature()}" for c in calls) + "]"
    return expect(same_signature(list(a), list(b)), guards.same_calls(a, b),
                  say(f"with {show(a)} and {show(b)}",
                      f"输入为 {show(a)} 和 {show(b)}"))


TOOLS = ("queryOrder", "queryLogistics", "applyRefund", "searchProducts",
         "searchKnowledge", "getCurrentTime")
DRAWS, LONGEST = 300, 30  # the named steps hold at most three calls


def _arguments(rng: random.Random) -> dict[str, Any]:
    """Arguments as a model writes them: an order, a reason, a query, nothing."""
    kinds = [{"order_id": rng.choice(ORDERS)},
             {"order_id": rng.choice(ORDERS), "reason": rng.choice(("dock", "noise"))},
             {"query": rng.choice(("S20 Pro", "refund policy", "AirX"))},
             {"limit": rng.randint(1, 3), "tags": [rng.choice("ab"), "x"]},
             {"filter": {"max_price": rng.choice((1999, 2499)), "color": "black"},
              "sort": "price"}, {}]
    return rng.choice(kinds)


def _reordered(rng: random.Random, value: Any) -> Any:
    """The same arguments with every dict's keys, nested ones too, in another order."""
    if not isinstance(value, dict):
        return value
    keys = list(value)
    rng.shuffle(keys)
    return {k: _reordered(rng, value[k]) for k in keys}


def _changed(rng: random.Random, calls: list[ToolCall]) -> list[ToolCall]:
    """One change a step may differ by (or, by chance, none at all)."""
    if not calls:
        return [call("c0", rng.choice(TOOLS), **_arguments(rng))]
    i, j = rng.randrange(len(calls)), rng.randrange(len(calls))
    one, other = calls[i], calls[j]
    change = rng.choice(("value", "type", "swap", "rename", "twice", "drop", "add"))
    if change == "value":
        calls[i] = ToolCall(one.id, one.name, _arguments(rng))
    elif change == "type" and "order_id" in one.arguments:
        calls[i] = ToolCall(one.id, one.name, {**one.arguments, "order_id": int(
            one.arguments["order_id"])})
    elif change == "swap":
        calls[i] = ToolCall(one.id, one.name, other.arguments)
        calls[j] = ToolCall(other.id, other.name, one.arguments)
    elif change == "rename":
        calls[i] = ToolCall(one.id, rng.choice(TOOLS), one.arguments)
    elif change == "twice":
        calls[j] = ToolCall(other.id, one.name, one.arguments)
    elif change == "drop":
        del calls[i]
    else:
        calls.insert(i, ToolCall(f"c{len(calls)}", one.name, one.arguments))
    return calls


def _steps(rng: random.Random) -> tuple[list[ToolCall], list[ToolCall]]:
    """Two steps: the second the first's calls reordered, new ids, maybe a change."""
    pool = [(rng.choice(TOOLS), _arguments(rng)) for _ in range(rng.randint(1, 4))]
    a = [call(f"call_{n}", *rng.choice(pool)[:1], **rng.choice(pool)[1])
         for n in range(size(rng, LONGEST, 0) if rng.random() < 0.9 else 0)]
    b = [ToolCall(f"call_{len(a) + n}", c.name, _reordered(rng, c.arguments))
         for n, c in enumerate(rng.sample(a, len(a)))]
    return a, (_changed(rng, b) if rng.random() < 0.6 else b)


def _drawn_same(same_signature: Any, rng: random.Random) -> bool:
    a, b = _steps(rng)
    return _same(same_signature, a, b)


@exercise("00.same_signature")
def _same_signature_cases(same_signature: Any) -> Iterator[Case]:
    rng = random.Random(0)
    one, other = rng.sample(ORDERS, 2)  # not always 88231: nothing to hard-code
    order = call("call_1", "queryOrder", order_id=one)
    logistics = call("call_2", "queryLogistics", order_id=one)

    def again(call: ToolCall, call_id: str = "call_9") -> ToolCall:
        return ToolCall(call_id, call.name, dict(call.arguments))

    yield (say("the same call with a new id is a repeat",
               "同一个调用换了新 id：算重复"),
           lambda: _same(same_signature, [order], [again(order)]),
           say("ids are new every step: compare name and arguments only",
               "每一步的 id 都是新的：只比较工具名和参数"))
    yield (say("another order number is not a repeat", "换了订单号：不算重复"),
           lambda: _same(same_signature, [order],
                         [call("call_9", "queryOrder", order_id=other)]),
           say("the arguments are part of the signature", "参数是签名的一部分"))
    yield (say("another tool with the same arguments is not a repeat",
               "参数相同、换了工具：不算重复"),
           lambda: _same(same_signature, [order], [logistics]),
           say("the tool name is part of the signature", "工具名是签名的一部分"))
    yield (say("the calls of a step may come in any order",
               "同一步里的几个调用可以是任意顺序"),
           lambda: _same(same_signature, [order, logistics],
                         [again(logistics, "c8"), again(order)]),
           say("the model may list one step's calls in any order: still the same step",
               "模型列出同一步调用的先后是随意的：仍是同一步"))
    yield (say("argument order does not matter", "参数的先后顺序无关紧要"),
           lambda: _same(same_signature,
                         [call("a", "applyRefund", order_id=one, reason="dock")],
                         [call("b", "applyRefund", reason="dock", order_id=one)]),
           say("the same arguments written in another key order are the same call",
               "同样的参数换了键的顺序，仍是同一个调用"))
    yield (say("one call is not the same as that call twice",
               "调用一次和同一个调用两次不一样"),
           lambda: _same(same_signature, [order], [again(order), again(order, "c8")])
           and _same(same_signature, [order, order], [again(order)]),
           say("a set forgets how many times a call appears",
               "集合会忘掉一个调用出现了几次"))
    yield (say("the same calls in other numbers are not a repeat",
               "同样几个调用、次数不同：不算重复"),
           lambda: _same(same_signature, [order, order, logistics],
                         [again(order), again(logistics, "c8"),
                          again(logistics, "c7")]),
           say("a step is a multiset of calls: two lists of three can hold the same "
               "calls and still differ in how often each appears",
               "一步里的调用是可重复的集合：两个都是三项的列表，可能调用种类相同、"
               "各自次数不同"))
    yield (say("the same names and the same arguments, paired otherwise, are not a "
               "repeat", "工具名相同、参数也相同，但配对不同：不算重复"),
           lambda: _same(same_signature,
                         [order, call("call_3", "queryLogistics", order_id=other)],
                         [call("c8", "queryOrder", order_id=other), again(logistics)]),
           say("a call is its name together with its arguments: compare whole calls",
               "一个调用是工具名连同它的参数：要整体比较"))
    yield (say("two calls of one tool, in either order, are a repeat",
               "同一个工具的两个调用，先后颠倒：仍算重复"),
           lambda: _same(same_signature,
                         [order, call("call_3", "queryOrder", order_id=other)],
                         [call("c8", "queryOrder", order_id=other), again(order)]),
           say("putting the calls in order by tool name alone leaves two calls of one "
               "tool in the order they came", "只按工具名排序，同一个工具的两个调用"
               "仍是原来的先后"))
    yield (say("a step with no calls repeats only another step with no calls",
               "没有调用的一步，只和同样没有调用的一步算重复"),
           lambda: _same(same_signature, [], [])
           and _same(same_signature, [], [order]),
           say("two empty lists of signatures are equal", "两个空的签名列表相等"))
    yield (say(f"agrees with the guard on {DRAWS} drawn pairs of steps of up to "
               f"{LONGEST} calls", f"在 {DRAWS} 对抽取的步骤上（每步至多 {LONGEST} "
               "个调用）与守卫一致"),
           lambda: drawn("00.same_signature", DRAWS,
                         lambda rng: _drawn_same(same_signature, rng)),
           say("a step is a multiset of whole calls (name with arguments): the order "
               "of calls, of keys and the ids do not count, how often a call appears "
               "does", "一步里的调用是可重复的集合，每个调用是工具名连同参数："
               "调用的先后、键的先后和 id 都不算，一个调用出现几次要算"))
