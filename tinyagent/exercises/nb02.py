"""Checkers for notebook 02 (in-memory memory): write a ChatMemory yourself.

`02.my_memory` takes a class (not an instance) with add / messages / clear, checks the
contract of `tinyagent.memory.base.ChatMemory` case by case, then plugs a fresh one
into a ReActAgent: turn 2 must refund order 88231 without looking the order up again.
Left out: bounds and summaries (notebooks 03–05).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..memory.base import ChatMemory
from ..messages import ChatMessage
from . import Case, exercise

U1 = ChatMessage.user("Where is my order 88231?")
A1 = ChatMessage.assistant("Your order 88231 was delivered on 2026-06-22.")
U2 = ChatMessage.user("I want a refund, it won't go back to its dock")


def _filled(memory_class: Any) -> Any:
    memory = memory_class()
    for message in (U1, A1, U2):
        memory.add(message)
    return memory


def _copy_is_safe(memory_class: Any) -> bool:
    memory = _filled(memory_class)
    handed_out = memory.messages()
    handed_out.append(ChatMessage.user("injected"))
    memory.messages().clear()
    return memory.messages() == [U1, A1, U2]


def _clear_then_add(memory_class: Any) -> bool:
    memory = _filled(memory_class)
    memory.clear()
    empty = memory.messages() == []
    memory.add(U2)
    return empty and memory.messages() == [U2]


def _not_shared(memory_class: Any) -> bool:
    _filled(memory_class)
    return memory_class().messages() == []


def _refunds_in_agent(memory_class: Any) -> bool:
    from ..agent import ReActAgent
    from ..llm import LlmClient
    from ..tools import bitmall_tools

    agent = ReActAgent(LlmClient(offline=True), bitmall_tools(),
                       memory=memory_class(), verbose=False)
    agent.run(U1.content)
    agent.run(U2.content)
    return [(c.name, c.arguments.get("order_id"))
            for c in agent.last_trace.tool_calls] == [("applyRefund", "88231")]


@exercise("02.my_memory")
def _my_memory_cases(memory_class: Any) -> Iterator[Case]:
    yield ("a new memory is empty", lambda: memory_class().messages() == [],
           "start with an empty list in __init__")
    yield ("messages() gives back what add() stored, oldest first",
           lambda: _filled(memory_class).messages() == [U1, A1, U2],
           "append in add(), return the list in messages()")
    yield ("messages() returns a copy: changing it leaves the memory as it was",
           lambda: _copy_is_safe(memory_class), "return list(self._messages)")
    yield ("clear() empties it, and it still works afterwards",
           lambda: _clear_then_add(memory_class), "empty the list in clear()")
    yield ("two memories don't share messages", lambda: _not_shared(memory_class),
           "create the list in __init__ (self._messages = []), not in the class body")
    yield ("it satisfies the ChatMemory protocol",
           lambda: isinstance(memory_class(), ChatMemory),
           "define all three methods: add, messages, clear")
    yield ("in a ReActAgent, turn 2 refunds 88231 without calling queryOrder",
           lambda: _refunds_in_agent(memory_class),
           "ReActAgent(llm, bitmall_tools(), memory=MyMemory()) must see turn 1")
