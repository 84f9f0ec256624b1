"""The request's messages, read once each: the offline model's only shortcut.

Introduced in notebook 00, with the offline model. An agent sends its whole history
on every call, so the offline model sees the same message dicts again and again:
turn 50 repeats the 150 messages of turns 1-49. Parsing each into a `ChatMessage`
and tokenizing it anew on every call made the history, not the answer, the bulk of
an offline call's time. Here each distinct message is parsed (and, through
`ChatMessage`'s own cache, tokenized) a single time.

The cache is keyed by a copy of exactly the fields that `ChatMessage.from_dict`
reads, and a cached message is rebuilt from that key alone, so a hit returns what
parsing the dict would return: the answers and the usage cannot change, only their
cost. A dict with parts that cannot be a key (content as a list, arguments as a
dict) is parsed as it is, every time; a message that fails to parse raises the same
error it always did (errors are never cached). Left out: any cache of whole
requests (a window or a summary changes the history's start, and then only
per-message reuse still pays).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ..messages import ChatMessage
from ..tokens import count_messages_tokens

# Every field `ChatMessage.from_dict` reads: role, content, tool_call_id, and per
# tool call its id, function name and raw arguments.
MessageKey = tuple[Any, Any, Any, tuple[tuple[Any, Any, Any], ...]]


def message_key(message: Any) -> MessageKey | None:
    """A hashable copy of what parsing `message` reads, or None for odd parts."""
    try:
        calls = message.get("tool_calls") or ()  # as from_dict reads them
        key = (message.get("role"), message.get("content"), message.get("tool_call_id"),
               tuple((c["id"], c["function"]["name"], c["function"].get("arguments"))
                     for c in calls) if calls else ())
        hash(key)  # content as a list of parts, arguments as a dict: no key
    except (TypeError, KeyError, AttributeError):
        return None
    return key


def as_dict(key: MessageKey) -> dict[str, Any]:
    """The message dict a key was copied from, as far as parsing can tell."""
    role, content, call_id, calls = key
    return {"role": role, "content": content, "tool_call_id": call_id,
            "tool_calls": [{"id": i, "type": "function",
                            "function": {"name": name, "arguments": arguments}}
                           for i, name, arguments in calls]}


@lru_cache(maxsize=2048)  # a request re-reads its history: a few hundred messages;
# more would only grow the process over a long session (course/soak.py)
def _parsed(key: MessageKey) -> ChatMessage:
    return ChatMessage.from_dict(as_dict(key))


def read_message(message: dict[str, Any]) -> ChatMessage:
    """`ChatMessage.from_dict(message)`, parsed once per distinct message.

    The same `ChatMessage` comes back for an equal message: it is immutable, and the
    token count it keeps is the one counting it again would give.
    """
    key = message_key(message)
    return ChatMessage.from_dict(message) if key is None else _parsed(key)


def prompt_tokens(messages: Iterable[dict[str, Any]]) -> int:
    """The usage's prompt_tokens for `messages`, the reply's priming included (the
    tools are counted apart)."""
    return count_messages_tokens(read_message(m) for m in messages)
