"""The memory contract, and the one idea every strategy shares: turns.

Introduced in notebook 02. `ChatMemory` is a Protocol with three methods, so the agent
depends on the contract, not on a strategy, and strategies are swappable. Every
memory of this package also has `pop()`, the undo of notebook 09: it removes the
newest message and returns it (its whole tool step when it is a tool result), or
raises UndoError when a summary holds it already. The Protocol leaves it out
because the agent never calls it: a memory you write needs only the three methods.
`BaseChatMemory` owns the message list; each strategy in this
package overrides one method, so the difference between strategies *is* the lesson.

A *turn* is a user message and everything up to the next user message (tool calls,
tool results, the answer). Cutting anywhere else can leave a tool result without its
call, which providers reject; so every strategy trims whole turns (notebook 03), and
`add` refuses a tool result whose call is not right before it. Left out here:
persistence and sessions (notebook 08), and drawing a memory: a notebook shows it
as a table that display.py, above memory, draws.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

from ..lang import say
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


class UndoError(IndexError):
    """pop() may not undo the newest message: a summary holds it already."""


def call_before(held: Sequence[ChatMessage], message: ChatMessage) -> bool:
    """Whether tool result `message` answers a call of the assistant message right
    before it (only other results of that step in between): the providers' rule.

    >>> from tinyagent.messages import ToolCall
    >>> step = [ChatMessage.user("Track 88231"),
    ...         ChatMessage.assistant("", [ToolCall("call_1", "queryOrder")])]
    >>> call_before(step, ChatMessage.tool("call_1", "{}"))
    True
    >>> call_before(step[:1], ChatMessage.tool("call_1", "{}"))
    False
    """
    for earlier in reversed(held):  # back over the step's other results only
        if earlier.role is not Role.TOOL:
            return any(c.id == message.tool_call_id for c in earlier.tool_calls)
    return False


def orphan_error(message: ChatMessage) -> ValueError:
    """The error for a tool result whose call is not right before it."""
    call = message.tool_call_id
    return ValueError(say(
        f"a tool message answers call {call!r}, which is not right before it: add "
        f"the assistant message with that call first (ChatMessage.assistant('', "
        f"[ToolCall({call!r}, name, arguments)])); providers reject a tool result "
        "without its call",
        f"这条工具消息回答的调用 {call!r} 不在它之前：请先添加带有这个调用的助手消息"
        f"（ChatMessage.assistant('', [ToolCall({call!r}, name, arguments)])）；"
        "没有调用的工具结果会被模型服务商拒绝"))


def step_size(held: Sequence[ChatMessage]) -> int:
    """How many of the newest messages an undo removes: one, or the whole tool
    step (the call and all its results) when the newest is a tool result, so that
    no call is left without its result. 0: the step's call is not held."""
    size = 0
    for earlier in reversed(held):
        size += 1
        if earlier.role is not Role.TOOL:
            return size if size == 1 or earlier.tool_calls else 0
    return 0


def split_turns(messages: Sequence[ChatMessage]) -> list[list[ChatMessage]]:
    """Group messages into turns: each starts at a user message.

    Messages before the first user message (a summary, say) form a turn of their own.

    >>> from tinyagent.messages import ChatMessage
    >>> said = [ChatMessage.system("- summary"), ChatMessage.user("Where is 88231?"),
    ...         ChatMessage.assistant("In transit."), ChatMessage.user("Thanks!")]
    >>> [[m.role.value for m in turn] for turn in split_turns(said)]
    [['system'], ['user', 'assistant'], ['user']]
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
    # First the calls missing a result (the API wants every result or none)...
    answered = {m.tool_call_id for m in messages if m.role is Role.TOOL}
    messages = [m for m in messages
                if all(c.id in answered for c in m.tool_calls)]
    # ...then the results whose call is gone: out of the window, or dropped just now.
    called = {c.id for m in messages for c in m.tool_calls}
    return [m for m in messages
            if m.role is not Role.TOOL or m.tool_call_id in called]


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

    # -- turn helpers for strategies: they cost what they scan from the left (the old
    # turns being dropped), never len(self), so a turn costs the same at any length
    def _turn_sizes(self) -> Iterator[int]:
        """Sizes of the turns held, oldest first, computed lazily."""
        size = 0
        for message in self._messages:
            if message.role is Role.USER and size:
                yield size
                size = 0
            size += 1
        if size:
            yield size

    def _pop_oldest(self, count: int) -> list[ChatMessage]:
        """Remove the `count` oldest messages and return them; keeps the total right."""
        popped = [self._messages.popleft() for _ in range(count)]
        self._tokens -= sum(count_message_tokens(m) for m in popped)  # cached counts
        return popped

    def _pop_oldest_turn(self) -> list[ChatMessage]:
        """Remove the oldest whole turn; [] if it is the newest, which is never cut."""
        oldest = next(self._turn_sizes(), 0)
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
