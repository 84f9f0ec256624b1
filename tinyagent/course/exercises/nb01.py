"""Checkers for notebook 01 (stateless failure): build the messages array yourself.

`01.build_messages` takes a system prompt, the earlier turns and the new question
and returns what the model should be sent; the last case sends it to the offline
model and expects the refund of the order that the stateless agent could not do, for
two orders, so that writing one order number into the array does not pass. Then
100 drawn histories of up to 100 messages (ten times the longest named one), plain
turns and tool turns mixed: the whole history, unchanged, between the system prompt
and the question. Left out: memory objects (notebook 02) and any trimming (notebook
03).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...lang import get_lang, say
from ...memory.turns import split_turns
from ...messages import ChatMessage
from . import Case, Wrong, exercise, expect
from ._dialogs import dialog, roles
from ._drawn import drawn, size

DRAWS, LONGEST = 100, 100  # messages: the longest named history holds 10

SYSTEM = "You are the customer-service assistant of BitMall, an online store."
DELIVERED = {"88231": ("BitMall S10 Pro Robot Vacuum", "2026-06-22"),
             "55107": ("BitMall BandPro Fitness Band", "2026-06-27")}
REFUND = "I want a refund, it won't go back to its dock"
# The same dialog in a Chinese report, over the Chinese store.
SYSTEM_ZH = "你是网上商城比特严选的客服助手。"
DELIVERED_ZH = {"88231": ("比特严选 S10 Pro 扫地机器人", "2026-06-22"),
                "55107": ("比特严选 BandPro 运动手环", "2026-06-27")}
REFUND_ZH = "我要退款，它回不了充电座"


def system() -> str:
    return say(SYSTEM, SYSTEM_ZH)


def refund() -> str:
    return say(REFUND, REFUND_ZH)


def turn_1(order: str) -> list[ChatMessage]:
    product, day = say(DELIVERED[order], DELIVERED_ZH[order])
    return [ChatMessage.user(say(f"Where is my order {order}?",
                                 f"我的订单 {order} 到哪了？")),
            ChatMessage.assistant(say(
                f"Your order {order} ({product}) was delivered and signed for on "
                f"{day}.", f"您的订单 {order}（{product}）已于 {day} 签收。"))]


def _model_refunds(build_messages: Any, order: str) -> bool:
    """Send the built array to the offline model: does it refund `order`?"""
    from ...tools import bitmall_tools
    from ._replies import Remembered

    request = build_messages(system(), turn_1(order), refund())
    reply = Remembered().chat(
        request, tools=bitmall_tools(lang=get_lang()).schemas())
    calls = [(c.name, c.arguments.get("order_id")) for c in reply.tool_calls]
    return expect(calls, [("applyRefund", order)],
                  say(f"with turn 1 about order {order}, the model's tool calls",
                      f"第 1 轮问的是订单 {order}，模型的工具调用"))


def _unchanged(build_messages: Any) -> bool:
    history = turn_1("88231")
    result = build_messages(system(), history, refund())
    expect(roles(history), roles(turn_1("88231")),
           say("the history list afterwards", "调用之后，`history` 列表"), str)
    if result is history:
        raise Wrong(say("it returned the history list itself, now changed",
                        "返回的就是 `history` 列表本身，它已被改动"))
    return True


def _expected(history: list[ChatMessage]) -> list[ChatMessage]:
    return [ChatMessage.system(system()), *history, ChatMessage.user(refund())]


def _built(build_messages: Any, history: list[ChatMessage], where: str) -> bool:
    got = build_messages(system(), list(history), refund())
    if not isinstance(got, list) or not all(isinstance(m, ChatMessage) for m in got):
        types = [type(m).__name__ for m in got][:4]
        raise Wrong(say(f"{where}: got {type(got).__name__} {types}; expected a list "
                        "of ChatMessage",
                        f"{where}：得到 {type(got).__name__} {types}；应为由 "
                        "ChatMessage 组成的列表"))
    expect(roles(got), roles(_expected(history)), where, str)
    return expect(got, _expected(history), say(f"{where}, the same roles but other "
                                               "text", f"{where}，角色都对但文字不对"))


def _drawn_history(build_messages: Any, rng: Any) -> bool:
    """A drawn history of up to LONGEST messages, sent whole, left unchanged."""
    wanted, history = size(rng, LONGEST, 0), []
    thanks = [ChatMessage.user(say("Thanks!", "谢谢！")),
              ChatMessage.assistant(say("You're welcome.", "不客气。"))]
    turns = split_turns(dialog("".join(rng.choice("pt") for _ in range(LONGEST)),
                               rng.randint(1, 10**6)))
    while len(history) < wanted:  # whole turns; the same words said again, at times
        history += thanks if rng.random() < 0.15 else turns.pop()
    given = list(history)
    got = build_messages(system(), given, refund())
    expect(roles(given), roles(history), say(
        f"with a {len(history)}-message history, the history list afterwards",
        f"历史有 {len(history)} 条消息时，调用之后的 `history` 列表"), str)
    where = say(f"with a {len(history)}-message history",
                f"历史有 {len(history)} 条消息时")
    if not isinstance(got, list):
        raise Wrong(say(f"{where}: got {type(got).__name__}; expected a list",
                        f"{where}：得到 {type(got).__name__}；应为列表"))
    expected = _expected(history)
    if len(got) != len(expected):
        raise Wrong(say(f"{where}: got {len(got)} messages; expected {len(expected)} "
                        "(system, every history message, the question)",
                        f"{where}：得到 {len(got)} 条消息；应为 {len(expected)} 条"
                        "（system、全部历史消息、问题）"))
    return expect(got, expected, where, roles)


@exercise("01.build_messages")
def _build_messages_cases(build_messages: Any) -> Iterator[Case]:
    yield (say("it returns a list of ChatMessage", "返回由 ChatMessage 组成的列表"),
           lambda: _built(build_messages, turn_1("88231"),
                          say("with turn 1 as history", "以第 1 轮为历史")),
           say("the agent and the model client speak ChatMessage, the course's message "
               "type, not plain dicts", "智能体和模型客户端用的是课程的消息类型 "
               "ChatMessage，不是普通字典"))
    yield (say("no history gives [system, user]", "没有历史时得到 [system, user]"),
           lambda: _built(build_messages, [], say("with no history", "没有历史时")),
           say("the stateless array: system prompt, then the question",
               "无状态的数组：系统提示词，然后是问题"))
    yield (say("the system prompt comes first", "系统提示词在最前面"),
           lambda: expect(build_messages(system(), turn_1("55107"), refund())[0],
                          ChatMessage.system(system()),
                          say("the first message", "第一条消息")),
           say("providers expect the system message at the start",
               "各家模型服务都要求 system 消息放在开头"))
    yield (say("the whole history follows, oldest first (three turns with tool "
               "calls)", "接着是全部历史，最早的在前（三轮，带工具调用）"),
           lambda: _built(build_messages, dialog("tpt", seed=1),
                          say("with a 10-message history", "历史有 10 条消息时")),
           say("put every history message between the system prompt and the "
               "question", "把每条历史消息放在系统提示词和问题之间"))
    yield (say("the new question comes last", "新问题在最后"),
           lambda: expect(build_messages(system(), dialog("pp", seed=2),
                                         refund())[-1],
                          ChatMessage.user(refund()),
                          say("the last message", "最后一条消息")),
           say("the model answers the last user message",
               "模型回答的是最后一条用户消息"))
    yield (say("the history list passed in is left unchanged",
               "传入的 `history` 列表保持不变"),
           lambda: _unchanged(build_messages),
           say("the history belongs to the caller: what you add to it stays there, "
               "and the next call sends it twice",
               "`history` 属于调用方：你往里加的东西会留在那里，下一次调用就发了两遍"))
    yield (say("with turn 1 in the history, the model refunds that order",
               "历史里有第 1 轮，模型就给那个订单退款"),
           lambda: _model_refunds(build_messages, "88231")
           and _model_refunds(build_messages, "55107"),
           say("the model only knows what the array holds: include the history",
               "模型只知道数组里有什么：把历史放进去"))
    yield (say(f"{DRAWS} drawn histories of up to {LONGEST} messages: all of each "
               "is sent, in order", f"{DRAWS} 段抽取的历史（至多 {LONGEST} 条消息）："
               "每段都完整、按顺序发送"),
           lambda: drawn("01.build_messages", DRAWS,
                         lambda rng: _drawn_history(build_messages, rng)),
           say("a memory holds as many messages as the conversation had: send them "
               "all, however many", "对话有多少条消息，记忆里就有多少条："
               "不管多少，全部发送"))
