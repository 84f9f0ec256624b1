"""Checkers for notebook 03 (sliding window): two windows that cut between turns.

`03.rounds_window` takes a class `RoundsWindowMemory(max_rounds)` that keeps the
newest `max_rounds` turns, however many messages each turn holds (a window counted
in rounds, so that tool calls cannot shrink it). `03.token_window` takes a
function `token_window(messages, max_tokens)` that returns the newest whole turns
that fit in a token budget, as `TokenWindowChatMemory` holds them; its budgets land
exactly on the boundaries (a turn that fits to the token, and one token less), on
dialogs drawn from seeds. Both must never start the history with a tool result whose
call is gone. Left out: summaries (notebooks 04 and 05).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from ...memory.base import drop_orphans, split_turns
from ...memory.token_window import TokenWindowChatMemory
from ...messages import ChatMessage, Role
from . import Case, Wrong, exercise, expect
from ._dialogs import dialog, roles, size, tokens

__all__ = ["dialog", "reference_token_window", "well_formed"]  # nb04 uses dialog


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
    raise Wrong("RoundsWindowMemory(0) was created without an error")


def _keeps(memory_class: Any, max_rounds: int, sizes: str, seed: int) -> bool:
    messages = dialog(sizes, seed)
    kept = [m for turn in split_turns(messages)[-max_rounds:] for m in turn]
    got = _filled(memory_class, max_rounds, messages).messages()
    return expect(got, kept, f"with max_rounds={max_rounds} after {len(sizes)} turns "
                  f"({len(messages)} messages)", roles)


def _copy_is_safe(memory_class: Any) -> bool:
    memory = _filled(memory_class, 2, dialog("pp", 1))
    memory.messages().clear()
    return expect(memory.messages(), dialog("pp", 1), "after clearing the list "
                  "messages() returned, the memory", roles)


def _clear_then_add(memory_class: Any) -> bool:
    memory = _filled(memory_class, 2, dialog("ttt", 2))
    memory.clear()
    expect(memory.messages(), [], "after clear()", roles)
    for message in dialog("p", 3):
        memory.add(message)
    return expect(memory.messages(), dialog("p", 3), "after clear() then a turn", roles)


def _always_well_formed(memory_class: Any) -> bool:
    memory = memory_class(2)
    for n, message in enumerate(dialog("tptpt", 4), 1):
        memory.add(message)
        held = memory.messages()
        # The last turn may still be arriving: check the whole turns before it.
        complete = [m for turn in split_turns(held)[:-1] for m in turn]
        if not well_formed(complete) or held[0].role is not Role.USER:
            raise Wrong(f"with max_rounds=2, after add #{n}, the memory held "
                        f"{roles(held)}")
    return True


def _in_agent(memory_class: Any) -> bool:
    """Tool calls remembered: turn 2 refunds 88231 and no request is rejected."""
    from ...agent import ReActAgent
    from ...llm import LlmClient
    from ...tools import bitmall_tools

    agent = ReActAgent(LlmClient(offline=True), bitmall_tools(),
                       memory=memory_class(1), verbose=False, remember_tool_calls=True)
    agent.run("Where is my order 88231?")
    agent.run("I want a refund, it won't go back to its dock")
    calls = agent.last_trace.tool_calls
    expect([(c.name, c.arguments.get("order_id")) for c in calls],
           [("applyRefund", "88231")], "turn 2's tool calls")
    agent.run("How long until the refund arrives?")
    return expect(len(split_turns(agent.memory.messages())), 1,
                  "turns held after turn 3")


@exercise("03.rounds_window")
def _rounds_window_cases(memory_class: Any) -> Iterator[Case]:
    whole = "drop whole turns from the front: split_turns(messages) groups them"
    yield ("max_rounds=0 raises ValueError",
           lambda: _raises_value_error(lambda: memory_class(0)),
           "check max_rounds >= 1 in __init__ and raise ValueError naming the value")
    yield ("a new memory is empty",
           lambda: expect(memory_class(3).messages(), [], "messages()", roles),
           "start with an empty list")
    yield ("fewer turns than max_rounds: everything is kept",
           lambda: _keeps(memory_class, 3, "pp", 5),
           "only trim when there are more than max_rounds turns")
    yield ("exactly max_rounds turns: everything is kept; one more drops the oldest",
           lambda: _keeps(memory_class, 3, "ptp", 6) and _keeps(memory_class, 3, "ptpp",
                                                               6),
           "keep while len(turns) <= max_rounds ('<=', not '<')")
    yield ("plain chat, max_rounds=3: the newest 6 messages (3 rounds)",
           lambda: _keeps(memory_class, 3, "ppppp", 7), whole)
    yield ("with tool calls, a 4-message turn is still one round",
           lambda: _keeps(memory_class, 2, "tttt", 8),
           "count user messages (turns), not messages: a round = a whole turn")
    yield ("mixed turns, max_rounds=2 and 4: the last turns, whole",
           lambda: _keeps(memory_class, 2, "tptp", 9)
           and _keeps(memory_class, 4, "pttpptpt", 10), whole)
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


def boundaries(messages: list[ChatMessage]) -> list[int]:
    """The cost of the newest 1, 2, 3… turns: budgets that fit them to the token."""
    return list(accumulate(tokens(t) for t in reversed(split_turns(messages))))


def _windows(token_window: Any, sizes: str, seed: int, budgets: Any) -> bool:
    """The learner's window agrees with the reference at each budget."""
    for budget in budgets(dialog(sizes, seed)):
        got = token_window(dialog(sizes, seed), budget)  # fresh input every call
        expected = reference_token_window(dialog(sizes, seed), budget)
        if got != expected:
            raise Wrong(f"with max_tokens={budget} on a {len(sizes)}-turn dialog "
                        f"{roles(dialog(sizes, seed))}: kept {size(got)}; expected "
                        f"{size(expected)}")
    return True


def _fits(token_window: Any, sizes: str, seed: int) -> bool:
    messages = dialog(sizes, seed)
    for budget in range(boundaries(messages)[0], tokens(messages) + 1, 7):
        got = token_window(dialog(sizes, seed), budget)
        if tokens(got) > budget:
            raise Wrong(f"with max_tokens={budget}: kept {size(got)}, over budget")
        newest = dialog(sizes, seed)[len(messages) - len(got):]
        if not well_formed(got) or newest != got:
            raise Wrong(f"with max_tokens={budget}: kept {roles(got)}, not the newest "
                        "whole turns")
    return True


def _unchanged(token_window: Any) -> bool:
    messages = dialog("tptp", 11)
    token_window(messages, boundaries(messages)[1])
    return expect(roles(messages), roles(dialog("tptp", 11)), "your argument "
                  "afterwards", str)


@exercise("03.token_window")
def _token_window_cases(token_window: Any) -> Iterator[Case]:
    def exactly(messages: list[ChatMessage]) -> list[int]:
        return boundaries(messages)

    def one_less(messages: list[ChatMessage]) -> list[int]:
        return [b - 1 for b in boundaries(messages)[1:]]

    yield ("a budget that fits everything returns every message",
           lambda: _windows(token_window, "tptpt", 1,
                            lambda m: [tokens(m) + 500, tokens(m)]),
           "nothing to drop when the total fits (the total itself fits: '<=')")
    yield ("the result fits in max_tokens, newest whole turns (budgets every 7 tokens)",
           lambda: _fits(token_window, "tptpt", 2) and _fits(token_window, "ttpp", 3),
           "walk split_turns(messages) from the newest, adding up "
           "count_message_tokens(m)")
    yield ("a budget that fits the newest turns to the token keeps them all",
           lambda: _windows(token_window, "tptpt", 4, exactly)
           and _windows(token_window, "pttptp", 5, exactly),
           "a turn fits when used + its tokens <= max_tokens ('<=', not '<')")
    yield ("one token less drops the oldest of those turns",
           lambda: _windows(token_window, "tptpt", 6, one_less)
           and _windows(token_window, "pttptp", 7, one_less),
           "stop at the first turn (going back in time) that does not fit")
    yield ("a newest turn bigger than the budget is kept alone, whole",
           lambda: _windows(token_window, "pt", 8, lambda m: [10, 1])
           and _windows(token_window, "t", 9, lambda m: [5]),
           "the newest turn is always kept, as TokenWindowChatMemory does")
    yield ("an empty list gives an empty list",
           lambda: expect(token_window([], 100), [], "with [] and max_tokens=100",
                          roles),
           "no turns, nothing to keep")
    yield ("the list passed in is left unchanged", lambda: _unchanged(token_window),
           "build a new list; don't pop from the input")
