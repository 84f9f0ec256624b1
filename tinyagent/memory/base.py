"""The memory contract: what the agent needs from a memory, and a base class.

Introduced in notebook 02. `ChatMemory` is a Protocol with three methods, so the agent
depends on the contract, not on a strategy, and strategies are swappable. Every
memory of this package also has `pop()`, the undo of notebook 10: it removes the
newest message and returns it (its whole tool step when it is a tool result), or
raises UndoError when a summary holds it already. The Protocol leaves it out
because the agent never calls it: a memory you write needs only the three methods.
A memory may offer two more, each its own small Protocol that the agent checks for
by name: `AddsTurns` (a stored session takes a whole turn in one transaction,
notebook 09) and `SeesRequests` (a memory that summarizes by forking the agent's
last request, fork.py). `BaseChatMemory` owns the message list; each strategy in
this package overrides one method, so the difference between strategies *is* the
lesson.

Every strategy keeps whole turns (turns.py): `add` refuses a tool result whose call
is not right before it, and the oldest whole turn is what a window drops. Left out
here: persistence and sessions (notebook 09), and drawing a memory: a notebook
shows it as a table that display.py, above memory, draws.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Protocol, runtime_checkable

from ..lang import say
from ..messages import ChatMessage, Role
from ..tokens import count_message_tokens
from .turns import call_before, orphan_error, step_size, turn_sizes


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


@runtime_checkable
class AddsTurns(Protocol):
    """A memory that stores a whole turn in one call: a session (notebook 09) writes
    it in one transaction, so a question never stays without its answer. The agent
    gives a turn this way to a memory that has `add_all`, one `add` a message to
    any other."""

    def add_all(self, messages: list[ChatMessage]) -> None: ...


@runtime_checkable
class SeesRequests(Protocol):
    """A memory that wants the agent's last request (its messages, the answer
    appended, and the tool schemas) when a turn ends: its summary can then fork the
    very prefix the provider has cached (fork.py)."""

    def see_request(self, messages: list[ChatMessage],
                    tools: list[dict[str, Any]] | None = None) -> None: ...


def add_turn(memory: ChatMemory, messages: list[ChatMessage]) -> None:
    """Store a turn's messages: in one call for a memory that `AddsTurns`, else one
    `add` a message, in order."""
    if isinstance(memory, AddsTurns):
        memory.add_all(messages)
    else:
        for message in messages:
            memory.add(message)


class UndoError(IndexError):
    """pop() may not undo the newest message: a summary holds it already."""


class BaseChatMemory:
    """Messages with a running token total. Strategies subclass it.

    `add` appends and then calls `_trim()`, the one hook a strategy overrides.
    """

    _repr_fields: tuple[str, ...] = ()  # attributes __repr__ shows: ("max_messages",)

    def __init__(self) -> None:
        # A deque: strategies drop from the left, and popleft is O(1) where a list's
        # del lst[0] moves every other element: a turn costs the same at 10 and at
        # 10,000 messages.
        self._messages: deque[ChatMessage] = deque()
        self._tokens = 0  # running total of the tokens in self._messages
        self.dropped = 0  # messages forgotten by _pop_oldest_turn: a window's price

    # -- the ChatMemory contract
    def add(self, message: ChatMessage) -> None:
        if not isinstance(message, ChatMessage):
            kind = type(message).__name__
            raise TypeError(say(f"add() takes a ChatMessage, got {kind}; build one "
                                "with ChatMessage.user(text)",
                                f"add() 只接受 ChatMessage，收到的是 {kind}；"
                                "用 ChatMessage.user(text) 构造一条"))
        if message.role is Role.TOOL and not call_before(self._messages, message):
            raise orphan_error(message)  # the next request would be rejected
        self._messages.append(message)
        self._tokens += count_message_tokens(message)
        self._trim()

    def messages(self) -> list[ChatMessage]:
        return list(self._messages)

    def pop(self) -> ChatMessage:
        """Undo: remove the newest message and return it.

        When it is a tool result, its whole step goes (the assistant message with
        the calls and every result): a call never stays without its result. A
        message that fell out of a window is gone for good; one folded into a
        summary cannot come back, so UndoError, and the memory stays as it was.
        """
        size = step_size(self._messages)
        if not size:
            raise self._undo_refused()
        popped = [self._messages.pop() for _ in range(size)]
        self._tokens -= sum(count_message_tokens(m) for m in popped)  # cached counts
        return popped[0]

    def _undo_refused(self) -> IndexError:
        if not self._messages and getattr(self, "summary", None) is None:
            return IndexError(say("pop() on an empty memory: there is nothing to undo",
                                  "pop()：记忆是空的，没有可以撤销的消息"))
        return UndoError(say(
            "the newest message is folded into the summary already, so it cannot be "
            "undone (the memory is unchanged); clear() starts the conversation over",
            "最新的消息已经并入摘要，无法撤销（记忆保持不变）；"
            "clear() 可以重新开始对话"))

    def clear(self) -> None:
        self._messages.clear()
        self._tokens = 0
        self.dropped = 0

    # -- the hook: unbounded by default
    def _trim(self) -> None:
        """Drop or compress old messages after an add. Base: keep everything."""

    # -- for strategies: they cost what they scan from the left (the old turns being
    # dropped), never len(self), so a turn costs the same at any length
    def _pop_oldest(self, count: int) -> list[ChatMessage]:
        """Remove the `count` oldest messages and return them; keeps the total right."""
        popped = [self._messages.popleft() for _ in range(count)]
        self._tokens -= sum(count_message_tokens(m) for m in popped)  # cached counts
        return popped

    def _pop_oldest_turn(self) -> list[ChatMessage]:
        """Remove the oldest whole turn; [] if it is the newest, which is never cut."""
        oldest = next(turn_sizes(self._messages), 0)
        if oldest == len(self._messages):
            return []
        self.dropped += oldest
        return self._pop_oldest(oldest)

    # -- looking inside
    def __len__(self) -> int:
        return len(self._messages)

    @property
    def tokens(self) -> int:
        """Tokens of the messages held (running total, never recounted)."""
        return self._tokens

    def stats(self) -> dict[str, Any]:
        return {"messages": len(self), "tokens": self.tokens, "dropped": self.dropped}

    def __repr__(self) -> str:
        fields = [f"{name}={getattr(self, name)!r}" for name in self._repr_fields]
        fields += [f"messages={len(self)}", f"tokens={self.tokens}"]
        return f"{type(self).__name__}({', '.join(fields)})"
