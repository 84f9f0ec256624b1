"""Checkers for notebook 03 (sliding window): a window counted in rounds.

`03.rounds_window` takes a class `RoundsWindowMemory(max_rounds)` that keeps the
newest `max_rounds` turns, however many messages each turn holds (a window counted
in rounds, so that tool calls cannot shrink it). It must never start the history
with a tool result whose call is gone (`well_formed`, shared with the token window's
checker in nb03_token_window.py); a case runs it in a ReActAgent that remembers its
tool calls. What it stores is measured, not looked for in its attributes: with 3,000
messages added, it may hold no more bytes (tracemalloc) than after 100, however it
keeps them (a list, a UserList, a nested object, dicts, a long buffer behind it).
Last, 60 drawn dialogs of up to 80 turns, some of several tool steps, with windows
of 1 to 40 rounds: after every turn, what `messages()` gives back must be the newest
whole turns. Left out: token budgets (nb03_token_window.py) and summaries
(notebooks 04 and 05).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ...lang import get_lang, say
from ...memory.turns import drop_orphans, split_turns
from ...messages import ChatMessage, Role
from . import Case, Wrong, exercise, expect
from ._dialogs import ORDERS, dialog, roles
from ._drawn import drawn, size
from .nb00_remember import _turn
from .nb03_storage import stores_only_the_window

DRAWS, MOST_TURNS, MOST_ROUNDS = 60, 80, 40  # named: 8 turns, windows of 1 to 4

__all__ = ["well_formed"]


def well_formed(messages: list[ChatMessage]) -> bool:
    """Starts with a user message; every tool result has its call and vice versa."""
    return (not messages or messages[0].role is Role.USER) and \
        drop_orphans(messages) == messages


def _filled(memory_class: Any, max_rounds: int, messages: list[ChatMessage]) -> Any:
    memory = memory_class(max_rounds)
    for message in messages:
        memory.add(message)
    return memory


def _sizes_checked(memory_class: Any) -> bool:
    """0 and below raise ValueError; 1 and up are fine."""
    for bad in (0, -1, -5):
        try:
            memory_class(bad)
        except ValueError:
            continue
        raise Wrong(say(f"RoundsWindowMemory({bad}) was created without an error; "
                        "expected ValueError",
                        f"RoundsWindowMemory({bad})：得到一个记忆，没有报错；应为抛出 "
                        "ValueError"))
    for good in (1, 2):
        try:
            memory_class(good)
        except ValueError as exc:
            raise Wrong(say(f"RoundsWindowMemory({good}) raised ValueError({exc}); "
                            "expected a window", f"RoundsWindowMemory({good})：得到 "
                            f"ValueError（{str(exc)!r}）；应为一个窗口记忆"),
                        say("one round is the smallest window that makes sense",
                            "一轮是最小的、有意义的窗口")) from None
    return True


def _drawn_window(memory_class: Any, rng: random.Random) -> bool:
    """A drawn dialog, one turn at a time: after each, the newest whole turns."""
    max_rounds = size(rng, MOST_ROUNDS)
    turns = [_turn(n, rng.choice(ORDERS), size(rng, 6, 0) if rng.random() < 0.5
                   else 0) for n in range(1, size(rng, MOST_TURNS) + 1)]
    memory, sent = memory_class(max_rounds), []
    for number, turn in enumerate(turns, 1):
        for message in turn:
            memory.add(message)
        sent.append(turn)
        got = memory.messages()
        expected = [m for t in sent[-max_rounds:] for m in t]
        if got != expected:
            sizes = [len(t) for t in sent]
            raise Wrong(say(f"with max_rounds={max_rounds}, after {number} turns of "
                            f"{sizes} messages: kept {roles(got)}; expected the last "
                            f"{min(number, max_rounds)} turns, {roles(expected)}",
                            f"max_rounds={max_rounds}，{number} 轮（各轮 {sizes} "
                            f"条消息）之后：得到 {roles(got)}；应为最后 "
                            f"{min(number, max_rounds)} 轮 {roles(expected)}"))
        if rng.random() < 0.05:  # the caller's copy is the caller's
            got.clear()
    return True


def _keeps(memory_class: Any, max_rounds: int, sizes: str, seed: int) -> bool:
    messages = dialog(sizes, seed)
    kept = [m for turn in split_turns(messages)[-max_rounds:] for m in turn]
    got = _filled(memory_class, max_rounds, messages).messages()
    return expect(got, kept, say(f"with max_rounds={max_rounds} after {len(sizes)} "
                                 f"turns ({len(messages)} messages)",
                                 f"max_rounds={max_rounds}，{len(sizes)} 轮之后"
                                 f"（{len(messages)} 条消息）"), roles)


def _copy_is_safe(memory_class: Any) -> bool:
    memory = _filled(memory_class, 2, dialog("pp", 1))
    memory.messages().clear()
    return expect(memory.messages(), dialog("pp", 1), say(
        "after clearing the list messages() returned, the memory",
        "清空 messages() 返回的列表之后，记忆"), roles)


def _clear_then_add(memory_class: Any) -> bool:
    memory = _filled(memory_class, 2, dialog("ttt", 2))
    memory.clear()
    expect(memory.messages(), [], say("after clear()", "clear() 之后"), roles)
    for message in dialog("p", 3):
        memory.add(message)
    return expect(memory.messages(), dialog("p", 3),
                  say("after clear() then a turn", "clear() 之后再加一轮"), roles)


def _always_well_formed(memory_class: Any) -> bool:
    memory = memory_class(2)
    for n, message in enumerate(dialog("tptpt", 4), 1):
        memory.add(message)
        held = memory.messages()
        # The last turn may still be arriving: check the whole turns before it.
        complete = [m for turn in split_turns(held)[:-1] for m in turn]
        if not well_formed(complete) or held[0].role is not Role.USER:
            raise Wrong(say(f"with max_rounds=2, after add #{n}, the memory held "
                            f"{roles(held)}", f"max_rounds=2，第 {n} 次 `add()` 之后，"
                            f"记忆里是 {roles(held)}"))
    return True


def _in_agent(memory_class: Any) -> bool:
    """Tool calls remembered: turn 2 refunds 88231 and no request is rejected."""
    from ...agent import ReActAgent
    from ...tools import bitmall_tools
    from ._replies import Remembered

    agent = ReActAgent(Remembered(), bitmall_tools(lang=get_lang()),
                       memory=memory_class(1), verbose=False, remember_tool_calls=True)
    agent.run(say("Where is my order 88231?", "我的订单 88231 到哪了？"))
    agent.run(say("I want a refund, it won't go back to its dock",
                  "我要退款，它回不了充电座"))
    calls = agent.last_trace.tool_calls
    expect([(c.name, c.arguments.get("order_id")) for c in calls],
           [("applyRefund", "88231")], say("turn 2's tool calls", "第 2 轮的工具调用"))
    agent.run(say("How long until the refund arrives?", "退款多久能到账？"))
    return expect(len(split_turns(agent.memory.messages())), 1,
                  say("turns held after turn 3", "第 3 轮之后保留的轮数"))


@exercise("03.rounds_window")
def _rounds_window_cases(memory_class: Any) -> Iterator[Case]:
    whole = say("a round is a whole turn, however many messages it holds: the oldest "
                "turns go first, whole", "一轮就是完整的一轮，不管有几条消息：最早的"
                "轮次先走，整轮地走")
    yield (say("max_rounds=0 raises ValueError, and so does any size below 1",
               "max_rounds=0 抛出 ValueError，小于 1 的大小都一样"),
           lambda: _sizes_checked(memory_class),
           say("a window of no rounds, or fewer, would forget the question it is "
               "answering", "零轮或更少的窗口，会忘掉它正在回答的问题"))
    yield (say("a new memory is empty", "新建的记忆是空的"),
           lambda: expect(memory_class(3).messages(), [], "messages()", roles),
           say("start with an empty list", "从空列表开始"))
    yield (say("fewer turns than max_rounds: everything is kept",
               "轮数少于 max_rounds：全部保留"),
           lambda: _keeps(memory_class, 3, "pp", 5),
           say("a window forgets only when it holds more than it may",
               "超过 max_rounds 轮才裁剪"))
    yield (say("exactly max_rounds turns: everything is kept; one more drops the "
               "oldest", "恰好 max_rounds 轮：全部保留；再多一轮就丢掉最早的一轮"),
           lambda: _keeps(memory_class, 3, "ptp", 6) and _keeps(memory_class, 3, "ptpp",
                                                               6),
           say("a window of N rounds holds N rounds: the N-th still fits",
               "N 轮的窗口装得下 N 轮：第 N 轮也放得下"))
    yield (say("plain chat, max_rounds=3: the newest 6 messages (3 rounds)",
               "纯聊天，max_rounds=3：最新的 6 条消息（3 轮）"),
           lambda: _keeps(memory_class, 3, "ppppp", 7), whole)
    yield (say("with tool calls, a 4-message turn is still one round",
               "有工具调用时，4 条消息的一轮仍然只算一轮"),
           lambda: _keeps(memory_class, 2, "tttt", 8),
           say("count user messages (turns), not messages: a round = a whole turn",
               "数用户消息（轮），不是数消息：一轮就是完整的一轮对话"))
    yield (say("mixed turns, max_rounds=2 and 4: the last turns, whole",
               "长短不一的轮次，max_rounds=2 和 4：最后几轮，整轮保留"),
           lambda: _keeps(memory_class, 2, "tptp", 9)
           and _keeps(memory_class, 4, "pttpptpt", 10), whole)
    yield (say("never a tool result without its call (checked after every add)",
               "工具结果永远不能缺了它的调用（每次 `add()` 之后都检查）"),
           lambda: _always_well_formed(memory_class),
           say("a cut by message count can fall between a tool call and its result",
               "按消息条数切，可能正好切在工具调用和它的结果之间"))
    yield (say("it stores only the window: 3,000 messages in, no more held than "
               "after 100", "它只存窗口里的：加入 3,000 条消息，占的内存不比 100 条"
               "时多"),
           lambda: stores_only_the_window(memory_class), whole)
    yield (say("messages() returns a copy", "messages() 返回副本"),
           lambda: _copy_is_safe(memory_class),
           say("whoever holds the list messages() returned can change it; the memory "
               "must not change with it", "拿到 messages() 返回的列表的人可以改它；"
               "记忆不能跟着变"))
    yield (say("clear() empties it, and it works afterwards",
               "clear() 清空记忆，之后还能用"),
           lambda: _clear_then_add(memory_class),
           say("after clear() the memory is as new, and keeps working",
               "clear() 之后记忆就像新的一样，还能接着用"))
    yield (say("in a ReActAgent with tool calls remembered, max_rounds=1: turn 2 "
               "refunds 88231, no API error", "放进记住工具调用的 ReActAgent，"
               "max_rounds=1：第 2 轮给 88231 退款，没有 API 报错"),
           lambda: _in_agent(memory_class),
           say("the model needs each tool result right after its call",
               "模型要求每个工具结果紧跟在它的调用后面"))
    yield (say(f"{DRAWS} drawn dialogs of up to {MOST_TURNS} turns, windows of 1 to "
               f"{MOST_ROUNDS} rounds: after every turn, the newest whole turns",
               f"{DRAWS} 段抽取的对话（至多 {MOST_TURNS} 轮），窗口 1 到 {MOST_ROUNDS} "
               "轮：每一轮之后都是最新的几轮完整对话"), lambda: drawn(
        "03.rounds_window", DRAWS, lambda rng: _drawn_window(memory_class, rng)),
           whole)
