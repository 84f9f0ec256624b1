"""Made-up dialogs the checkers feed to learner code, and how they describe them.

Used by the checkers of notebooks 00 to 05. A dialog is a new list on every call, of
immutable messages (each tool call's arguments a new dict), so code that changes its
argument cannot spoil the next case; its orders come from a seed, so an answer that
hard-codes one order number or one dialog does not pass.
In a Chinese report (`check(..., lang="zh")`) the dialogs and the role names are
Chinese, so that the evidence a case prints reads as Chinese.
Left out: real model calls (the checkers that need one use the offline model).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from ...lang import get_lang, say
from ...messages import ChatMessage, Role, ToolCall
from ...tokens import count_message_tokens

ORDERS = ("88231", "90417", "55107", "73820", "61554", "40213", "19876", "30542")


def turn(n: int, tools: bool, order: str | None = None) -> list[ChatMessage]:
    """Turn n: 2 messages, or 4 with a tool call and its result."""
    order = order or str(88230 + n)
    user, answer, result = _said(n, order, get_lang())
    if not tools:
        return [user, answer]
    call = ToolCall(f"call_{n}", "queryOrder", {"order_id": order})  # a dict: fresh
    return [user, ChatMessage.assistant("", (call,)), result, answer]


@lru_cache(maxsize=4096)  # immutable messages: a new list of them is a fresh dialog
def _said(n: int, order: str, lang: str) -> tuple[ChatMessage, ...]:
    """Turn n's question, answer and tool result, in `lang` (the cache's key, so
    read from it, never from the setting)."""
    status = say("delivered", "已签收", lang)
    carrier = say("SF Express", "顺丰速运", lang)
    return (ChatMessage.user(say(f"Question {n}: where is my order {order}?",
                                 f"问题 {n}：我的订单 {order} 到哪了？", lang)),
            ChatMessage.assistant(say(f"Answer {n}: order {order} was delivered.",
                                      f"回答 {n}：订单 {order} 已签收。", lang)),
            ChatMessage.tool(f"call_{n}", f'{{"order_id": "{order}", "status": '
                             f'"{status}", "carrier": "{carrier}"}}'))


def dialog(sizes: str, seed: int | None = None) -> list[ChatMessage]:
    """"pt" -> a plain turn then a turn with a tool call. With a seed, the orders
    are drawn from ORDERS instead of numbered 88231, 88232, …"""
    rng = random.Random(seed)
    return [m for n, kind in enumerate(sizes, 1)
            for m in turn(n, kind == "t", rng.choice(ORDERS) if seed else None)]


def tokens(messages: Sequence[ChatMessage]) -> int:
    return sum(count_message_tokens(m) for m in messages)


# A role's name in a Chinese report: "[user, assistant, user]" would read as English.
ROLES_ZH = {"system": "系统", "user": "用户", "assistant": "助手", "tool": "工具"}


def label(message: ChatMessage) -> str:
    """"user", "tool", "assistant", or "assistant→queryOrder" for a tool call."""
    role = message.role.value
    role = say(role, ROLES_ZH.get(role, role))
    calls = "+".join(c.name for c in message.tool_calls)
    return f"{role}→{calls}" if calls else role


def roles(messages: Sequence[ChatMessage]) -> str:
    """A list of messages as the roles it holds: [user, assistant→queryOrder, …]."""
    return "[" + ", ".join(label(m) for m in messages) + "]"


def size(messages: Sequence[ChatMessage]) -> str:
    """"4 messages (118 tokens)"."""
    return say(f"{len(messages)} messages ({tokens(messages)} tokens)",
               f"{len(messages)} 条消息（{tokens(messages)} 个 token）")


def stored(memory: object) -> int:
    """How many messages an object holds in its attributes (lists, tuples, deques,
    dicts, two levels deep): what a memory stores, whatever messages() returns."""
    def count(value: object, depth: int) -> int:
        if isinstance(value, ChatMessage):
            return 1
        if depth == 0 or isinstance(value, (str, bytes)):
            return 0
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, (list, tuple, set)) or type(value).__name__ == "deque":
            return sum(count(v, depth - 1) for v in value)
        return 0
    return sum(count(v, 3) for v in getattr(memory, "__dict__", {}).values())


def fresh_list(got: object, given: object, where: str) -> bool:
    """A helper's result must be a new list: not a one-shot generator, not the
    caller's own list (which the caller may change, or has just seen changed)."""
    from . import Wrong

    if got is given:
        raise Wrong(say(f"{where}: got back the very list passed in; expected a new "
                        "list", f"{where}：得到传入的那个列表本身；应为一个新列表"),
                    say("a result the caller shares with its argument changes when "
                        "either does", "结果和参数是同一个列表，改一个另一个也跟着变"))
    if not isinstance(got, list):
        raise Wrong(say(f"{where}: got a {type(got).__name__}; expected a list",
                        f"{where}：得到的是 `{type(got).__name__}`；应为列表"),
                    say("a generator can be read only once, and has no len()",
                        "生成器只能读一遍，也没有 len()"))
    return True


def starts_with_user(messages: Sequence[ChatMessage]) -> bool:
    return not messages or messages[0].role is Role.USER
