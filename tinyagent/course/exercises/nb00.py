"""Checkers for notebook 00 (setup and tour): what a memory keeps, and two guards.

`00.what_to_remember` takes the messages of finished turns (system prompt, questions,
tool calls, tool results, answers) and returns what the agent's memory keeps: the
user messages and the final answers, oldest first. `00.same_signature` is the
repeated-call guard's test that two steps made the same tool calls; `00.no_progress`
is the no-progress guard's test that the last three thoughts are pairwise alike
(Jaccard on character sets, the notebook's `jaccard`). Both are graded against the
agent's own tests, `guards.same_calls` and `guards.no_progress`: a learner's function
passes when it agrees with the guard the agent runs. Left out: the loop that calls
the guards, which the notebook runs on the agent, and memory objects (notebook 02).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ... import guards
from ...messages import ChatMessage, ToolCall
from . import Case, exercise, expect
from ._dialogs import ORDERS, roles

# Thoughts the offline model really writes (notebook 00 prints them).
DITHER = ("I am still not sure, let me look again (1).",
          "I am still not sure, let me look again (2).",
          "I am still not sure, let me look again (3).")
WORKING = ("The customer asks about order 88231; I'll look up the order first.",
           "Order 88231 has shipped (SF1234567890); I'll check the logistics.",
           "The customer wants a refund for order 88231; I'll apply for it.")
# Neighbours alike (0.82), first and last not (0.67): every pair must be compared.
DRIFT = ("abcdefghij", "bcdefghijk", "cdefghijkl")
# "abcdefgxy" vs "abcdefgz": 7 shared of 10 distinct characters, exactly 0.7.
EDGE = ("abcdefgxy", "abcdefgz", "abcdefgxy")
# Just under: "abcdefgxyw" vs "abcdefgz": 7 of 11, 0.64, so not alike.
UNDER = ("abcdefgxyw", "abcdefgz", "abcdefgxyw")


def _verdict(no_progress: Any, thoughts: tuple[str, ...], name: str) -> bool:
    """The learner's verdict must be the agent's own guard's verdict."""
    return expect(no_progress(list(thoughts)), guards.no_progress(thoughts),
                  f"with {name}")


@exercise("00.no_progress")
def _no_progress_cases(no_progress: Any) -> Iterator[Case]:
    every_pair = "compare every pair of the last three: (1, 2), (1, 3) and (2, 3)"
    blanks = "keep only thoughts whose .strip() is not empty, then take [-3:]"
    yield ("three dithering thoughts: no progress",
           lambda: _verdict(no_progress, DITHER, "three dithering thoughts"),
           "jaccard() of each pair is 0.9 here, at least 0.7")
    yield ("three working thoughts: progress",
           lambda: _verdict(no_progress, WORKING, "three working thoughts"),
           "two of their three pairs score below 0.7")
    yield ("fewer than three thoughts: too early to tell",
           lambda: _verdict(no_progress, DITHER[:2], "two dithering thoughts")
           and _verdict(no_progress, (), "no thoughts"),
           "return False below three")
    yield ("only the last three thoughts count",
           lambda: _verdict(no_progress, (WORKING[0], *DITHER),
                            "a working thought, then three dithering ones")
           and _verdict(no_progress, (*DITHER, WORKING[0]),
                        "three dithering thoughts, then a working one"),
           "take the last three, thoughts[-3:], not the first three")
    yield ("blank thoughts are skipped",
           lambda: _verdict(no_progress, (DITHER[0], "", DITHER[1], "   ", DITHER[2]),
                            "dithering thoughts with blanks between them")
           and _verdict(no_progress, (DITHER[0], DITHER[1], "", " "),
                        "two dithering thoughts, then two blank ones"), blanks)
    yield ("every pair must be alike, not only neighbours",
           lambda: _verdict(no_progress, DRIFT, f"{list(DRIFT)} (0.82, 0.67, "
                            "0.82)"), every_pair)
    yield ("exactly 0.7 counts as alike (>=), just under does not",
           lambda: _verdict(no_progress, EDGE, f"{list(EDGE)} (each pair "
                            "0.7 or 1.0)")
           and _verdict(no_progress, UNDER, f"{list(UNDER)} (0.64)"),
           "use >= 0.7, not > 0.7")


def _call(call_id: str, name: str, **arguments: Any) -> ToolCall:
    return ToolCall(call_id, name, arguments)


def _same(same_signature: Any, a: list[ToolCall], b: list[ToolCall]) -> bool:
    """The learner's verdict must be the repeated-call guard's own verdict."""
    def show(calls: list[ToolCall]) -> str:
        return "[" + ", ".join(f"{c.id}:{c.signature()}" for c in calls) + "]"
    return expect(same_signature(list(a), list(b)), guards.same_calls(a, b),
                  f"with {show(a)} and {show(b)}")


@exercise("00.same_signature")
def _same_signature_cases(same_signature: Any) -> Iterator[Case]:
    rng = random.Random(0)
    one, other = rng.sample(ORDERS, 2)  # not always 88231: nothing to hard-code
    order = _call("call_1", "queryOrder", order_id=one)
    logistics = _call("call_2", "queryLogistics", order_id=one)

    def again(call: ToolCall, call_id: str = "call_9") -> ToolCall:
        return ToolCall(call_id, call.name, dict(call.arguments))

    yield ("the same call with a new id is a repeat",
           lambda: _same(same_signature, [order], [again(order)]),
           "ids are new every step: compare name and arguments only")
    yield ("another order number is not a repeat",
           lambda: _same(same_signature, [order],
                         [_call("call_9", "queryOrder", order_id=other)]),
           "the arguments are part of the signature")
    yield ("another tool with the same arguments is not a repeat",
           lambda: _same(same_signature, [order], [logistics]),
           "the tool name is part of the signature")
    yield ("the calls of a step may come in any order",
           lambda: _same(same_signature, [order, logistics],
                         [again(logistics, "c8"), again(order)]),
           "sort the signatures before comparing")
    yield ("argument order does not matter",
           lambda: _same(same_signature,
                         [_call("a", "applyRefund", order_id=one, reason="dock")],
                         [_call("b", "applyRefund", reason="dock", order_id=one)]),
           "json.dumps(arguments, sort_keys=True), or ToolCall.signature()")
    yield ("one call is not the same as that call twice",
           lambda: _same(same_signature, [order], [again(order), again(order, "c8")])
           and _same(same_signature, [order, order], [again(order)]),
           "compare sorted lists, not sets: the count matters")
    yield ("a step with no calls repeats only another step with no calls",
           lambda: _same(same_signature, [], [])
           and _same(same_signature, [], [order]),
           "two empty lists of signatures are equal")


def _turn(n: int, order: str, steps: int) -> list[ChatMessage]:
    """A finished turn as the agent's loop holds it: `steps` tool calls, an answer."""
    messages = [ChatMessage.user(f"Q{n}: where is my order {order}?")]
    for step in range(steps):
        call = _call(f"call_{n}_{step}", ("queryOrder", "queryLogistics")[step % 2],
                     order_id=order)
        thought = f"I'll look order {order} up." if step == 0 else ""
        messages += [ChatMessage.assistant(thought, (call,)),
                     ChatMessage.tool(call.id, f'{{"order_id": "{order}"}}')]
    return messages + [ChatMessage.assistant(f"A{n}: order {order} was delivered.")]


def _remembered(what_to_remember: Any, steps: tuple[int, ...], seed: int) -> bool:
    rng = random.Random(seed)
    turns = [_turn(n, rng.choice(ORDERS), s) for n, s in enumerate(steps, 1)]
    system = ChatMessage.system("You are BitMall's customer-service assistant.")
    messages = [system] + [m for t in turns for m in t]
    expected = [m for t in turns for m in (t[0], t[-1])]
    got = what_to_remember(list(messages))
    return expect(list(got), expected, f"with {len(turns)} turn(s) of {list(steps)} "
                  f"tool steps, {roles(messages)}", roles) \
        and expect(got, expected, "the same roles, but other messages")


def _input_unchanged(what_to_remember: Any) -> bool:
    messages = _turn(1, "55107", 2)
    handed = list(messages)
    what_to_remember(handed)
    return expect(roles(handed), roles(messages), "your argument afterwards", str)


@exercise("00.what_to_remember")
def _what_to_remember_cases(what_to_remember: Any) -> Iterator[Case]:
    keep = "keep m if m.role is Role.USER, or an assistant message without tool_calls"
    yield ("a turn without tools: the question and the answer",
           lambda: _remembered(what_to_remember, (0,), 1), keep)
    yield ("a turn with tool calls: still only the question and the answer",
           lambda: _remembered(what_to_remember, (2,), 2),
           "tool calls and tool results are not remembered (TinyAgent saves tokens)")
    yield ("a thought that comes with a tool call is not an answer",
           lambda: _remembered(what_to_remember, (1,), 3),
           "an assistant message with tool_calls is a step, even if it has text")
    yield ("several turns: every question and answer, oldest first",
           lambda: _remembered(what_to_remember, (1, 0, 3, 2), 4),
           "walk the messages in order; don't sort or reverse them")
    yield ("the system prompt is not remembered",
           lambda: _remembered(what_to_remember, (0, 0), 5),
           "the agent adds the system prompt to every request itself")
    yield ("nothing to remember gives an empty list",
           lambda: expect(list(what_to_remember([])), [], "with []"),
           "an empty input has no turns")
    yield ("the list passed in is left unchanged",
           lambda: _input_unchanged(what_to_remember),
           "build a new list; don't remove from the argument")
