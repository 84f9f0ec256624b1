"""Checkers for notebook 01 (stateless failure): build the messages array yourself.

`01.build_messages` takes a system prompt, the earlier turns and the new question
and returns what the model should be sent; the last case sends it to the offline
model and expects the refund of order 88231 that the stateless agent could not do.
Left out: memory objects (notebook 02) and any trimming (notebook 03).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..messages import ChatMessage
from . import Case, exercise

SYSTEM = "You are the customer-service assistant of BitMall, an online store."
TURN_1 = [ChatMessage.user("Where is my order 88231?"),
          ChatMessage.assistant("Your order 88231 (BitMall S10 Pro Robot Vacuum) was "
                                "delivered and signed for on 2026-06-22.")]
REFUND = "I want a refund, it won't go back to its dock"


def _model_refunds(build_messages: Any) -> bool:
    """Send the built array to the offline model: does it refund order 88231?"""
    from ..llm import LlmClient
    from ..tools import bitmall_tools

    reply = LlmClient(offline=True).chat(build_messages(SYSTEM, list(TURN_1), REFUND),
                                         tools=bitmall_tools().schemas())
    return [(c.name, c.arguments.get("order_id")) for c in reply.tool_calls] == [
        ("applyRefund", "88231")]


def _unchanged(build_messages: Any) -> bool:
    history = list(TURN_1)
    result = build_messages(SYSTEM, history, REFUND)
    return history == TURN_1 and result is not history


@exercise("01.build_messages")
def _build_messages_cases(build_messages: Any) -> Iterator[Case]:
    def built(history: list[ChatMessage]) -> Any:
        return build_messages(SYSTEM, list(history), REFUND)

    yield ("it returns a list of ChatMessage",
           lambda: isinstance(built(TURN_1), list)
           and all(isinstance(m, ChatMessage) for m in built(TURN_1)),
           "use ChatMessage.system(...) and ChatMessage.user(...), not dicts")
    yield ("no history gives [system, user]",
           lambda: built([]) == [ChatMessage.system(SYSTEM), ChatMessage.user(REFUND)],
           "the stateless array: system prompt, then the question")
    yield ("the system prompt comes first",
           lambda: built(TURN_1)[0] == ChatMessage.system(SYSTEM),
           "providers expect the system message at the start")
    yield ("the history follows, oldest first",
           lambda: built(TURN_1)[1:-1] == TURN_1,
           "put the history between the system prompt and the question, in order")
    yield ("the new question comes last",
           lambda: built(TURN_1)[-1] == ChatMessage.user(REFUND),
           "the model answers the last user message")
    yield ("the history list passed in is left unchanged",
           lambda: _unchanged(build_messages),
           "build a new list ([system, *history, user]); don't append to history")
    yield ("with turn 1 in the history, the model refunds order 88231",
           lambda: _model_refunds(build_messages),
           "the model only knows what the array holds: include the history")

