"""How a request becomes the sequence of tokens a provider's prompt cache reads.

Introduced in notebook 07 ("What you pay"), used by prompt_cache.py. A provider
reads a request as one sequence of tokens; a later request that starts with the
same tokens can reuse them. The sequence, written down in one place:

    the tool schemas (their JSON, as tokens.py counts them), then
    each message in order: 3 framing tokens, its role, its text, its tool calls
    (name, arguments), its tool_call_id.

Its length is the prompt's token count less the 3 tokens that prime the reply, so a
change anywhere (a window dropping its oldest turn, a new summary) ends the shared
prefix there. Each message is tokenized once (the history comes back every call).
Left out: a provider's own tokenizer and chat template (cl100k stands in for all).
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from typing import Any

from ..tokens import TOKENS_PER_MESSAGE, encoding
from .reading import MessageKey, as_dict, message_key, read_message

FRAME = (-1,) * TOKENS_PER_MESSAGE  # a message's framing: the same for every message
Block = tuple[int, ...]  # the tokens of the tools, or of one message
WIDTH = 4  # bytes a packed token takes ("i": cl100k's ids and -1 fit in 32 bits)


# Bounded as the other offline caches are (tokens.py, reading.py): a conversation's
# history comes back every call, a few hundred texts; older ones are not asked again,
# and holding every text of a 10,000-turn chat grew the process (soak.py).
CACHED = 2048


@lru_cache(maxsize=CACHED)  # the history's texts come back every call
def _ids(text: str) -> Block:
    return tuple(encoding().encode(text, disallowed_special=())) if text else ()


def message_tokens(message: dict[str, Any]) -> Block:
    """One message's tokens, as many as `count_message_tokens` counts."""
    key = message_key(message)  # the history comes back every call: tokenize once
    return _read(message) if key is None else _message_tokens(key)


@lru_cache(maxsize=CACHED)
def _message_tokens(key: MessageKey) -> Block:
    return _read(as_dict(key))


def _read(message: dict[str, Any]) -> Block:
    m = read_message(message)
    tokens = FRAME + _ids(m.role.value) + _ids(m.content)
    for call in m.tool_calls:
        tokens += _ids(call.name) + _ids(json.dumps(call.arguments, ensure_ascii=False))
    return tokens + _ids(m.tool_call_id or "")


def request_tokens(request: dict[str, Any]) -> list[Block]:
    """The request as the cache reads it: the tools' block, then a block a message."""
    tools = request.get("tools") or []
    head = _ids(json.dumps(tools, ensure_ascii=False, sort_keys=True)) if tools else ()
    return [head, *(message_tokens(m) for m in request.get("messages") or [])]


def flat(blocks: list[Block]) -> Block:
    """The blocks as one sequence of tokens."""
    return tuple(chain.from_iterable(blocks))


@lru_cache(maxsize=CACHED)  # the same messages come back every call
def packed(block: Block) -> bytes:
    """Tokens as bytes, WIDTH a token: compared and hashed all at once, in C."""
    return array("i", block).tobytes()


def common_prefix(a: Sequence[int], b: Sequence[int], chunk: int = 256) -> int:
    """How many items `a` and `b` share from the start: whole chunks first, then a
    binary search in the first chunk that differs (slices compare in C)."""
    start, end = 0, min(len(a), len(b))
    while start + chunk <= end and a[start:start + chunk] == b[start:start + chunk]:
        start += chunk
    low, high = start, min(start + chunk, end)
    while low < high:
        middle = (low + high + 1) // 2
        if a[start:middle] == b[start:middle]:
            low = middle
        else:
            high = middle - 1
    return low
