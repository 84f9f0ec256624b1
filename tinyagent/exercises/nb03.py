"""Checkers for notebook 03 (sliding window): two windows that cut between turns.

`03.rounds_window` takes a class `RoundsWindowMemory(max_rounds)` that keeps the
newest `max_rounds` turns, however many messages each turn holds (the Nexus "rounds",
counted so that tool calls cannot shrink the window). `03.token_window` takes a
function `token_window(messages, max_tokens)` that returns the newest whole turns
that fit in a token budget, as `TokenWindowChatMemory` holds them. Both must never
start the history with a tool result whose call is gone. Left out: summaries
(notebooks 04 and 05).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..memory.base import drop_orphans, split_turns
from ..memory.token_window import TokenWindowChatMemory
from ..messages import ChatMessage, Role, ToolCall
from ..tokens import count_message_tokens
from . import Case, exercise


def _turn(n: int, tools: bool) -> list[ChatMessage]:
    """Turn n of a made-up dialog: 2 messages, or 4 with a tool call and its result."""
    user = ChatMessage.user(f"Question {n}: where is my order {88230 + n}?")
    answer = ChatMessage.assistant(f"Answer {n}: order {88230 + n} was delivered.")
    if not tools:
        return [user, answer]
    call = ToolCall(f"call_{n}", "queryOrder", {"order_id": str(88230 + n)})
    result = ChatMessage.tool(f"call_{n}", f'{{"order_id": "{88230 + n}", "status": '
                              '"delivered", "carrier": "SF Express"}')
    return [user, ChatMessage.assistant("", (call,)), result, answer]


def dialog(sizes: str) -> list[ChatMessage]:
    """"pt" -> a plain turn then a turn with a tool call: [user, answer, user, ...]."""
    return [m for n, kind in enumerate(sizes, 1) for m in _turn(n, kind == "t")]


def well_formed(messages: list[ChatMessage]) -> bool:
    """Starts with a user message; every tool result has its call and vice versa."""
    return (not messages or messages[0].role is Role.USER) and \
        drop_orphans(messages) == messages


def _filled(memory_class: Any, max_rounds: int, messages: list[ChatMessage]) -> Any:
    memory = memory_class(max_rounds)
    for message in messages:
        memory.add(message)
    return memory


def _raises_value_error(make: Any) -> bool:
    try:
        make()
    except ValueError:
        return True
    return False


def _copy_is_safe(memory_class: Any) -> bool:
    memory = _filled(memory_class, 2, dialog("pp"))
    memory.messages().clear()
    return memory.messages() == dialog("pp")


def _clear_then_add(memory_class: Any) -> bool:
    memory = _filled(memory_class, 2, dialog("ttt"))
    memory.clear()
    empty = memory.messages() == []
    for message in dialog("p"):
        memory.add(message)
    return empty and memory.messages() == dialog("p")


def _always_well_formed(memory_class: Any) -> bool:
    memory, seen = memory_class(2), []
    for message in dialog("tptpt"):
        memory.add(message)
        seen.append(message)
        held = memory.messages()
        # The last turn may still be arriving: check the whole turns before it.
        complete = [m for turn in split_turns(held)[:-1] for m in turn]
        if not well_formed(complete) or held[0].role is not Role.USER:
            return False
    return True


def _in_agent(memory_class: Any) -> bool:
    """Tool calls remembered: turn 2 refunds 88231 and no request is rejected."""
    from ..agent import ReActAgent
    from ..llm import LlmClient
    from ..tools import bitmall_tools

    agent = ReActAgent(LlmClient(offline=True), bitmall_tools(),
                       memory=memory_class(1), verbose=False, remember_tool_calls=True)
    agent.run("Where is my order 88231?")
    agent.run("I want a refund, it won't go back to its dock")
    calls = agent.last_trace.tool_calls
    refund = [(c.name, c.arguments.get("order_id")) for c in calls]
    agent.run("How long until the refund arrives?")
    turns = split_turns(agent.memory.messages())
    return refund == [("applyRefund", "88231")] and len(turns) == 1


@exercise("03.rounds_window")
def _rounds_window_cases(memory_class: Any) -> Iterator[Case]:
    whole = "drop whole turns from the front: split_turns(messages) groups them"
    yield ("max_rounds=0 raises ValueError",
           lambda: _raises_value_error(lambda: memory_class(0)),
           "check max_rounds >= 1 in __init__ and raise ValueError naming the value")
    yield ("a new memory is empty", lambda: memory_class(3).messages() == [],
           "start with an empty list")
    yield ("fewer turns than max_rounds: everything is kept",
           lambda: _filled(memory_class, 3, dialog("pp")).messages() == dialog("pp"),
           "only trim when there are more than max_rounds turns")
    yield ("plain chat, max_rounds=3: the newest 6 messages (3 rounds)",
           lambda: _filled(memory_class, 3, dialog("ppppp")).messages()
           == dialog("ppppp")[-6:], whole)
    yield ("with tool calls, a 4-message turn is still one round",
           lambda: _filled(memory_class, 2, dialog("tttt")).messages()
           == dialog("tttt")[-8:],
           "count user messages (turns), not messages: a round = a whole turn")
    yield ("mixed turns, max_rounds=2: the last two turns, whole",
           lambda: _filled(memory_class, 2, dialog("tptp")).messages()
           == dialog("tptp")[-6:], whole)
    yield ("never a tool result without its call (checked after every add)",
           lambda: _always_well_formed(memory_class),
           "cut only in front of a user message; never slice [-n:] by messages")
    yield ("messages() returns a copy", lambda: _copy_is_safe(memory_class),
           "return list(...), not the list itself")
    yield ("clear() empties it, and it works afterwards",
           lambda: _clear_then_add(memory_class), "reset the list in clear()")
    yield ("in a ReActAgent with tool calls remembered, max_rounds=1: turn 2 refunds "
           "88231, no API error", lambda: _in_agent(memory_class),
           "the model needs each tool result right after its call")


def reference_token_window(messages: list[ChatMessage],
                           max_tokens: int) -> list[ChatMessage]:
    """What the package's TokenWindowChatMemory(max_tokens) holds afterwards:
    the learner's function must agree with the real thing."""
    memory = TokenWindowChatMemory(max_tokens)
    for message in messages:
        memory.add(message)
    return memory.messages()


def _tokens(messages: list[ChatMessage]) -> int:
    return sum(count_message_tokens(m) for m in messages)


def _unchanged(token_window: Any) -> bool:
    messages = dialog("tptp")
    token_window(messages, 60)
    return messages == dialog("tptp")


@exercise("03.token_window")
def _token_window_cases(token_window: Any) -> Iterator[Case]:
    mixed = dialog("tptpt")
    budgets = (100, 150, 180, 250)  # the turns here cost 74, 31, 74, 31, 74 tokens
    sums = "add up count_message_tokens(m) over each turn"
    yield ("a budget that fits everything returns every message",
           lambda: token_window(mixed, 10_000) == mixed,
           "nothing to drop when the total fits")
    yield ("the result fits in max_tokens (budgets 100, 150, 180, 250)",
           lambda: all(_tokens(token_window(mixed, b)) <= b for b in budgets),
           sums)
    yield ("the newest messages are kept (the result ends where the input ends)",
           lambda: all(mixed[len(mixed) - len(token_window(mixed, b)):]
                       == token_window(mixed, b) for b in budgets),
           "walk the turns from the newest to the oldest")
    yield ("whole turns only: it starts with a user message, no orphan tool result",
           lambda: all(well_formed(token_window(mixed, b)) for b in budgets),
           "drop whole turns (split_turns), never single messages")
    yield ("as many turns as fit: nothing dropped that would have fit",
           lambda: all(token_window(mixed, b) == reference_token_window(mixed, b)
                       for b in budgets),
           "stop at the first turn (going back in time) that does not fit")
    yield ("a newest turn bigger than the budget is kept alone, whole",
           lambda: token_window(mixed, 10) == mixed[-4:],
           "the newest turn is always kept, as TokenWindowChatMemory does")
    yield ("an empty list gives an empty list", lambda: token_window([], 100) == [],
           "no turns, nothing to keep")
    yield ("the list passed in is left unchanged", lambda: _unchanged(token_window),
           "build a new list; don't pop from the input")
