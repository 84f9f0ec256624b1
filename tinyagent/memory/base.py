"""The memory contract, and the one idea every strategy shares: turns.

Introduced in notebook 02. `ChatMemory` is a Protocol with three methods, so the agent
depends on the contract, not on a strategy, and strategies are swappable (the
TinyAgent design). `BaseChatMemory` owns the message list; each strategy in this
package overrides one method, so the difference between strategies *is* the lesson.

A *turn* is a user message and everything up to the next user message (tool calls,
tool results, the answer). Cutting anywhere else can leave a tool result without its
call, which providers reject; so every strategy trims whole turns (notebook 03).
Left out here: persistence and sessions (notebook 07).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..messages import ChatMessage, Role
from ..tokens import count_message_tokens


@runtime_checkable
class ChatMemory(Protocol):
    """What the agent needs from a memory: nothing more."""

    def add(self, message: ChatMessage) -> None:
        """Store one message at the end of the conversation."""
        ...

    def messages(self) -> list[ChatMessage]:
        """What the model should see, oldest first; a copy the caller may change."""
        ...

    def clear(self) -> None:
        """Forget everything (a new conversation)."""
        ...


def split_turns(messages: Sequence[ChatMessage]) -> list[list[ChatMessage]]:
    """Group messages into turns: each starts at a user message.

    Messages before the first user message (a summary, say) form a turn of their own.
    """
    turns: list[list[ChatMessage]] = []
    for message in messages:
        if message.role is Role.USER or not turns:
            turns.append([])
        turns[-1].append(message)
    return turns


def drop_orphans(messages: Iterable[ChatMessage]) -> list[ChatMessage]:
    """Remove tool results whose call is absent and calls whose results are absent.

    A safety net for hand-made lists: the strategies cut on turn boundaries and never
    create orphans, but a learner's list may, and the API would reject it.
    """
    messages = list(messages)
    answered = {m.tool_call_id for m in messages if m.role is Role.TOOL}
    called = {c.id for m in messages for c in m.tool_calls}
    kept = []
    for m in messages:
        if m.role is Role.TOOL and m.tool_call_id not in called:
            continue  # its call fell out of the window
        if m.tool_calls and not all(c.id in answered for c in m.tool_calls):
            continue  # a call without its result: the API wants both or neither
        kept.append(m)
    return kept


class BaseChatMemory:
    """A list of messages with a running token total. Strategies subclass it.

    `add` appends and then calls `_trim()`, the one hook a strategy overrides.
    """

    def __init__(self) -> None:
        self._messages: list[ChatMessage] = []
        self._tokens = 0  # running total of the tokens in self._messages

    # -- the ChatMemory contract
    def add(self, message: ChatMessage) -> None:
        if not isinstance(message, ChatMessage):
            raise TypeError(f"add() takes a ChatMessage, got {type(message).__name__}; "
                            "build one with ChatMessage.user(text)")
        self._messages.append(message)
        self._tokens += count_message_tokens(message)
        self._trim()

    def messages(self) -> list[ChatMessage]:
        return list(self._messages)

    def clear(self) -> None:
        self._messages.clear()
        self._tokens = 0

    # -- the hook: unbounded by default
    def _trim(self) -> None:
        """Drop or compress old messages after an add. Base: keep everything."""

    # -- looking inside
    def __len__(self) -> int:
        return len(self._messages)

    @property
    def tokens(self) -> int:
        """Tokens of the messages held (running total, never recounted)."""
        return self._tokens

    def stats(self) -> dict[str, Any]:
        return {"messages": len(self._messages), "tokens": self._tokens}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(messages={len(self)}, tokens={self.tokens})"
