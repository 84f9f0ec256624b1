"""Checkers for notebook 00 (setup and tour): what a memory keeps of a turn.

`00.what_to_remember` takes the messages of finished turns (system prompt, questions,
tool calls, tool results, answers) and returns what the agent's memory keeps: the
user messages and the final answers, oldest first, in a new list. Thoughts and
answers come in several phrasings, so that only a message's tool calls, never its
words, can tell a step from an answer. Then 100 drawn dialogs of up to 40 turns and
up to 30 tool steps a turn, with or without a system prompt or a summary before
them, some answers empty. Left out: memory objects (notebook 02).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ...lang import say
from ...messages import ChatMessage
from . import Case, Wrong, exercise, expect
from ._dialogs import ORDERS, fresh_list, label, roles
from ._drawn import drawn, first_difference, size
from .nb00_signature import call

# Thoughts and answers in several phrasings: what makes a message a step or an answer
# is its tool calls, never its words (an answer may say "I'll", a thought may not).
THOUGHTS = (("I'll look order {o} up.", "我先查一下订单 {o}。"),
            ("Checking order {o} in the system.", "查询订单 {o} 的状态。"),
            ("", ""),
            ("Asking the order system about {o}.", "答复之前，先查订单 {o}。"),
            ("Let me see where {o} is.", "看看订单 {o} 到哪了。"))
ANSWERS = (("Order {o} was delivered.", "订单 {o} 已签收。"),
           ("I'll refund order {o} today.", "我先为订单 {o} 办理退款。"),
           ("Answer: order {o} is on its way; I'll keep an eye on it.",
            "答：订单 {o} 在路上，我先帮您盯着。"),
           ("Your order {o} is with the courier.", "您的订单 {o} 在快递员手上。"))


DRAWS, MOST_TURNS, MOST_STEPS = 100, 40, 30  # named: at most 4 turns, 3 steps a turn


def _turn(n: int, order: str, steps: int, empty: bool = False) -> list[ChatMessage]:
    """A finished turn as the agent's loop holds it: `steps` tool calls, an answer
    (`empty`: an answer with no words, still the turn's answer)."""
    messages = [ChatMessage.user(say(f"Q{n}: where is my order {order}?",
                                     f"问{n}：我的订单 {order} 到哪了？"))]
    for step in range(steps):
        tool = call(f"call_{n}_{step}", ("queryOrder", "queryLogistics")[step % 2],
                    order_id=order)
        thought = say(*THOUGHTS[(n + step) % len(THOUGHTS)]).format(o=order)
        messages += [ChatMessage.assistant(thought, (tool,)),
                     ChatMessage.tool(tool.id, f'{{"order_id": "{order}"}}')]
    answer = "" if empty else say(*ANSWERS[n % len(ANSWERS)]).format(o=order)
    return messages + [ChatMessage.assistant(answer)]


def _remembered(what_to_remember: Any, steps: tuple[int, ...], seed: int) -> bool:
    rng = random.Random(seed)
    turns = [_turn(n, rng.choice(ORDERS), s) for n, s in enumerate(steps, 1)]
    system = ChatMessage.system(say("You are BitMall's customer-service assistant.",
                                    "你是比特严选的客服助手。"))
    messages = [system] + [m for t in turns for m in t]
    expected = [m for t in turns for m in (t[0], t[-1])]
    handed = list(messages)
    got = what_to_remember(handed)
    where = say("the result", "结果")
    fresh_list(got, handed, where)
    expect(roles(handed), roles(messages), say("your argument afterwards",
                                               "调用之后，你的参数"), str)
    return expect(list(got), expected, say(
        f"with {len(turns)} turn(s) of {list(steps)} tool steps, {roles(messages)}",
        f"输入为 {len(turns)} 轮、工具步数 {list(steps)} 的对话 {roles(messages)}"),
        roles) and expect(got, expected, say("the same roles, but other messages",
                                             "角色都对，但消息不对"))


def _drawn_dialog(what_to_remember: Any, rng: random.Random) -> bool:
    """A drawn dialog: the result must be its questions and answers, in order."""
    steps = [size(rng, MOST_STEPS, 0) for _ in range(size(rng, MOST_TURNS))]
    turns = [_turn(n, rng.choice(ORDERS), s, rng.random() < 0.05)
             for n, s in enumerate(steps, 1)]
    start = [ChatMessage.system(say("You are BitMall's customer-service assistant.",
                                    "你是比特严选的客服助手。")),
             ChatMessage.system(say("[Conversation summary] - order 88231 delivered",
                                    "[对话摘要] - 订单 88231 已签收"))][
        :rng.choice((0, 1, 1, 2))]
    messages = start + [m for t in turns for m in t]
    expected = [m for t in turns for m in (t[0], t[-1])]
    handed = list(messages)
    got = what_to_remember(handed)
    where = say(f"with {len(turns)} turns of {steps} tool steps, after "
                f"{len(start)} system message(s)",
                f"输入为 {len(turns)} 轮、工具步数 {steps} 的对话，前面有 {len(start)} "
                "条 system 消息")
    fresh_list(got, handed, where)
    expect(roles(handed), roles(messages), say(f"{where}, your argument afterwards",
                                               f"{where}，调用之后你的参数"), str)
    if got == expected:
        return True
    at = first_difference(got, expected)
    def shown(items: list[ChatMessage]) -> str:
        return f"{label(items[at])} {items[at].content[:50]!r}" if at < len(items) \
            else say("nothing", "没有")
    raise Wrong(say(f"{where}: got {len(got)} messages, expected {len(expected)}; "
                    f"the first difference, at position {at + 1}: got {shown(got)}; "
                    f"expected {shown(expected)}",
                    f"{where}：得到 {len(got)} 条消息，应为 {len(expected)} 条；第一处"
                    f"不同在第 {at + 1} 条：得到 {shown(got)}；应为 {shown(expected)}"))


def _nothing(what_to_remember: Any) -> bool:
    given: list[ChatMessage] = []
    got = what_to_remember(given)
    where = say("with []", "输入为 []")
    return fresh_list(got, given, where) and expect(got, [], where)


def _input_unchanged(what_to_remember: Any) -> bool:
    messages = _turn(1, "55107", 2)
    handed = list(messages)
    what_to_remember(handed)
    return expect(roles(handed), roles(messages), say("your argument afterwards",
                                                      "调用之后，你的参数"), str)


@exercise("00.what_to_remember")
def _what_to_remember_cases(what_to_remember: Any) -> Iterator[Case]:
    keep = say("memory keeps what the customer asked and what the agent finally "
               "answered, nothing the loop did in between",
               "记忆只留顾客问了什么、智能体最后答了什么，不留循环中间做的事")
    yield (say("a turn without tools: the question and the answer",
               "没有调用工具的一轮：问题和回答"),
           lambda: _remembered(what_to_remember, (0,), 1), keep)
    yield (say("a turn with tool calls: still only the question and the answer",
               "调用了工具的一轮：仍然只有问题和回答"),
           lambda: _remembered(what_to_remember, (2,), 2),
           say("tool calls and tool results are not remembered (TinyAgent saves "
               "tokens)", "工具调用和工具结果不进记忆（TinyAgent 借此省 token）"))
    yield (say("a thought that comes with a tool call is not an answer",
               "跟着工具调用的思考不是回答"),
           lambda: _remembered(what_to_remember, (1,), 3),
           say("an assistant message with tool_calls is a step, even if it has text",
               "带 tool_calls 的助手消息是一个步骤，哪怕它有文字"))
    yield (say("what a message says does not make it a step or an answer",
               "一条消息说了什么，不决定它是步骤还是回答"),
           lambda: _remembered(what_to_remember, (2, 1, 3), 6)
           and _remembered(what_to_remember, (3, 0, 2, 1), 7),
           say("an answer may promise \"I'll…\"; a step may have no words at all: "
               "only its tool calls make a message a step",
               "回答里也可能说“我先……”，步骤也可能一个字都没有：只有工具调用才让"
               "一条消息成为步骤"))
    yield (say("several turns: every question and answer, oldest first",
               "多轮对话：每个问题和回答都在，最早的在前"),
           lambda: _remembered(what_to_remember, (1, 0, 3, 2), 4),
           say("walk the messages in order; don't sort or reverse them",
               "按顺序遍历消息，不要排序或反转"))
    yield (say("the system prompt is not remembered", "系统提示词不进记忆"),
           lambda: _remembered(what_to_remember, (0, 0), 5),
           say("the agent adds the system prompt to every request itself",
               "智能体每次请求都会自己加上系统提示词"))
    yield (say("nothing to remember gives an empty list", "没有可记的内容：返回空列表"),
           lambda: _nothing(what_to_remember),
           say("an empty input has no turns", "空输入里没有任何一轮"))
    yield (say("the list passed in is left unchanged", "传入的列表保持不变"),
           lambda: _input_unchanged(what_to_remember),
           say("build a new list; don't remove from the argument",
               "新建一个列表，不要从参数里删除"))
    yield (say(f"{DRAWS} drawn dialogs of up to {MOST_TURNS} turns and {MOST_STEPS} "
               "tool steps a turn: every question and final answer, nothing else",
               f"{DRAWS} 段抽取的对话（至多 {MOST_TURNS} 轮，每轮至多 {MOST_STEPS} "
               "个工具步骤）：每个问题和最终回答都在，别的都不要"),
           lambda: drawn("00.what_to_remember", DRAWS,
                         lambda rng: _drawn_dialog(what_to_remember, rng)), keep)
