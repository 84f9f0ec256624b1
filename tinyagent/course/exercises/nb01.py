"""Checkers for notebook 01 (stateless failure): build the messages array yourself.

`01.build_messages` takes a system prompt, the earlier turns and the new question
and returns what the model should be sent; the last case sends it to the offline
model and expects the refund of the order that the stateless agent could not do, for
two orders, so that writing one order number into the array does not pass.
Left out: memory objects (notebook 02) and any trimming (notebook 03).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...messages import ChatMessage
from . import Case, Wrong, exercise, expect
from ._dialogs import dialog, roles

SYSTEM = "You are the customer-service assistant of BitMall, an online store."
DELIVERED = {"88231": ("BitMall S10 Pro Robot Vacuum", "2026-06-22"),
             "55107": ("BitMall BandPro Fitness Band", "2026-06-27")}
REFUND = "I want a refund, it won't go back to its dock"


def turn_1(order: str) -> list[ChatMessage]:
    product, day = DELIVERED[order]
    return [ChatMessage.user(f"Where is my order {order}?"),
            ChatMessage.assistant(f"Your order {order} ({product}) was delivered and "
                                  f"signed for on {day}.")]


def _model_refunds(build_messages: Any, order: str) -> bool:
    """Send the built array to the offline model: does it refund `order`?"""
    from ...llm import LlmClient
    from ...tools import bitmall_tools

    reply = LlmClient(offline=True).chat(build_messages(SYSTEM, turn_1(order), REFUND),
                                         tools=bitmall_tools().schemas())
    calls = [(c.name, c.arguments.get("order_id")) for c in reply.tool_calls]
    return expect(calls, [("applyRefund", order)],
                  f"with turn 1 about order {order}, the model's tool calls")


def _unchanged(build_messages: Any) -> bool:
    history = turn_1("88231")
    result = build_messages(SYSTEM, history, REFUND)
    expect(roles(history), roles(turn_1("88231")), "the history list afterwards",
           str)
    if result is history:
        raise Wrong("it returned the history list itself, now changed")
    return True


def _expected(history: list[ChatMessage]) -> list[ChatMessage]:
    return [ChatMessage.system(SYSTEM), *history, ChatMessage.user(REFUND)]


def _built(build_messages: Any, history: list[ChatMessage], where: str) -> bool:
    got = build_messages(SYSTEM, list(history), REFUND)
    if not isinstance(got, list) or not all(isinstance(m, ChatMessage) for m in got):
        raise Wrong(f"{where}: got {type(got).__name__} "
                    f"{[type(m).__name__ for m in got][:4]}; expected a list of "
                    "ChatMessage")
    expect(roles(got), roles(_expected(history)), where, str)
    return expect(got, _expected(history), f"{where}, the same roles but other text")


@exercise("01.build_messages")
def _build_messages_cases(build_messages: Any) -> Iterator[Case]:
    yield ("it returns a list of ChatMessage",
           lambda: _built(build_messages, turn_1("88231"), "with turn 1 as history"),
           "use ChatMessage.system(...) and ChatMessage.user(...), not dicts")
    yield ("no history gives [system, user]",
           lambda: _built(build_messages, [], "with no history"),
           "the stateless array: system prompt, then the question")
    yield ("the system prompt comes first",
           lambda: expect(build_messages(SYSTEM, turn_1("55107"), REFUND)[0],
                          ChatMessage.system(SYSTEM), "the first message"),
           "providers expect the system message at the start")
    yield ("the whole history follows, oldest first (three turns with tool calls)",
           lambda: _built(build_messages, dialog("tpt", seed=1),
                          "with a 10-message history"),
           "put every history message between the system prompt and the question")
    yield ("the new question comes last",
           lambda: expect(build_messages(SYSTEM, dialog("pp", seed=2), REFUND)[-1],
                          ChatMessage.user(REFUND), "the last message"),
           "the model answers the last user message")
    yield ("the history list passed in is left unchanged",
           lambda: _unchanged(build_messages),
           "build a new list ([system, *history, user]); don't append to history")
    yield ("with turn 1 in the history, the model refunds that order",
           lambda: _model_refunds(build_messages, "88231")
           and _model_refunds(build_messages, "55107"),
           "the model only knows what the array holds: include the history")
