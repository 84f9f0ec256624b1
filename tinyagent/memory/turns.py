"""Turns: where a conversation may be cut, the one idea every strategy shares.

Introduced in notebook 03 (sliding window), where cutting in the middle of a tool
call breaks the API. A *turn* is a user message and everything up to the next user
message (tool calls, tool results, the answer). Cutting anywhere else can leave a
tool result without its call, which providers reject; so every strategy trims whole
turns (`turn_sizes`, the one rule), and `add` refuses a tool result whose call is
not right before it (`call_before`). `step_size` is how much an undo takes back
(notebook 10): a whole tool step. `drop_orphans` repairs a hand-made list. Left out:
cutting inside a long turn (a turn is kept whole, however long).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from ..lang import say
from ..messages import ChatMessage, Role


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


def turn_sizes(messages: Iterable[ChatMessage]) -> Iterator[int]:
    """The one turn rule: the sizes of the turns in `messages`, oldest first. Each
    turn starts at a user message; messages before the first user message (a
    summary, say) form a turn of their own. Lazy: a strategy that drops the oldest
    turn scans only that turn, so a turn costs the same at 10 messages and 10,000.

    >>> said = [ChatMessage.system("- summary"), ChatMessage.user("Where is 88231?"),
    ...         ChatMessage.assistant("In transit."), ChatMessage.user("Thanks!")]
    >>> list(turn_sizes(said))
    [1, 2, 1]
    """
    size = 0
    for message in messages:
        if message.role is Role.USER and size:
            yield size
            size = 0
        size += 1
    if size:
        yield size


def split_turns(messages: Sequence[ChatMessage]) -> list[list[ChatMessage]]:
    """Group messages into turns, by `turn_sizes`'s rule.

    >>> from tinyagent.messages import ChatMessage
    >>> said = [ChatMessage.system("- summary"), ChatMessage.user("Where is 88231?"),
    ...         ChatMessage.assistant("In transit."), ChatMessage.user("Thanks!")]
    >>> [[m.role.value for m in turn] for turn in split_turns(said)]
    [['system'], ['user', 'assistant'], ['user']]
    """
    messages, turns, start = list(messages), [], 0
    for size in turn_sizes(messages):
        turns.append(messages[start:start + size])
        start += size
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
