"""Checkers for notebook 02 (in-memory memory): write a ChatMemory yourself.

`02.my_memory` takes a class (not an instance) with add / messages / clear, checks the
contract of `tinyagent.memory.base.ChatMemory` case by case, on short and long
dialogs (an unbounded memory keeps all 40 messages of a 20-turn dialog, not the
last few), then plugs a fresh one into a ReActAgent: turn 2 must refund the order
of turn 1 without looking it up again. Left out: bounds and summaries (notebooks
03–05).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...memory.base import ChatMemory
from ...messages import ChatMessage
from . import Case, Wrong, exercise, expect
from ._dialogs import dialog, roles


def _filled(memory_class: Any, messages: list[ChatMessage]) -> Any:
    memory = memory_class()
    for message in messages:
        memory.add(message)
    return memory


def _keeps(memory_class: Any, sizes: str, seed: int) -> bool:
    messages = dialog(sizes, seed)
    got = _filled(memory_class, messages).messages()
    where = f"after adding {len(messages)} messages, messages()"
    if len(got) != len(messages):
        raise Wrong(f"{where} held {len(got)}; expected all {len(messages)}")
    return expect(got, messages, where, roles)


def _copy_is_safe(memory_class: Any) -> bool:
    messages = dialog("pp", 3)
    memory = _filled(memory_class, messages)
    handed_out = memory.messages()
    handed_out.append(ChatMessage.user("injected"))
    memory.messages().clear()
    return expect(len(memory.messages()), len(messages), "after appending to and "
                  "clearing the lists messages() returned, the memory's length")


def _clear_then_add(memory_class: Any) -> bool:
    memory = _filled(memory_class, dialog("tpp", 4))
    memory.clear()
    expect(memory.messages(), [], "after clear(), messages()", roles)
    again = dialog("p", 5)
    for message in again:
        memory.add(message)
    return expect(memory.messages(), again, "after clear() then 2 adds", roles)


def _not_shared(memory_class: Any) -> bool:
    _filled(memory_class, dialog("pp", 6))
    return expect(memory_class().messages(), [], "a new memory, made after another "
                  "was filled", roles)


def _refunds_in_agent(memory_class: Any, order: str) -> bool:
    from ...agent import ReActAgent
    from ...llm import LlmClient
    from ...tools import bitmall_tools

    agent = ReActAgent(LlmClient(offline=True), bitmall_tools(),
                       memory=memory_class(), verbose=False)
    agent.run(f"Where is my order {order}?")
    agent.run("I want a refund, it won't go back to its dock")
    calls = [(c.name, c.arguments.get("order_id")) for c in agent.last_trace.tool_calls]
    return expect(calls, [("applyRefund", order)], f"turn 1 asked about order {order};"
                  " turn 2's tool calls")


@exercise("02.my_memory")
def _my_memory_cases(memory_class: Any) -> Iterator[Case]:
    yield ("a new memory is empty",
           lambda: expect(memory_class().messages(), [], "messages()", roles),
           "start with an empty list in __init__")
    yield ("messages() gives back what add() stored, oldest first",
           lambda: _keeps(memory_class, "ptp", 1),
           "append in add(), return the list in messages()")
    yield ("it is unbounded: all 40 messages of a 20-turn dialog are kept",
           lambda: _keeps(memory_class, "p" * 20, 2),
           "no limit here: bounds come in notebook 03")
    yield ("messages() returns a copy: changing it leaves the memory as it was",
           lambda: _copy_is_safe(memory_class), "return list(self._messages)")
    yield ("clear() empties it, and it still works afterwards",
           lambda: _clear_then_add(memory_class), "empty the list in clear()")
    yield ("two memories don't share messages", lambda: _not_shared(memory_class),
           "create the list in __init__ (self._messages = []), not in the class body")
    yield ("it satisfies the ChatMemory protocol",
           lambda: isinstance(memory_class(), ChatMemory),
           "define all three methods: add, messages, clear")
    yield ("in a ReActAgent, turn 2 refunds the order of turn 1 without looking it up",
           lambda: _refunds_in_agent(memory_class, "88231")
           and _refunds_in_agent(memory_class, "55107"),
           "ReActAgent(llm, bitmall_tools(), memory=MyMemory()) must see turn 1")
