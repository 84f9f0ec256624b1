"""The provider's prompt cache, played offline: which start of a prompt was seen before.

Introduced in notebook 06 ("What you pay: prompt caching"). A provider reads a
request as one sequence of tokens and keeps it; a later request that starts with
the same tokens reuses them and is billed less for them. How a request becomes that
sequence is written down in one place, `request_tokens`:

    the tool schemas (their JSON, as tokens.py counts them), then
    each message in order: 3 framing tokens, its role, its text, its tool calls
    (name, arguments), its tool_call_id.

Its length is the prompt's token count less the 3 tokens that prime the reply. So a
change anywhere (a window dropping its oldest turn, a new summary) ends the shared
prefix there, and everything after it is read at full price.

`PrefixCache(rule)` holds one client's earlier requests; `hit(request)` is the
number of tokens billed as cached, by the rule (cache_rules.py), and `keep()`
remembers the request (and its reply, for DeepSeek's units). The answers never
depend on it: only the usage does, as with a real provider. Left out: expiry,
eviction, and a cache shared between clients.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate, chain
from typing import Any

from ..tokens import TOKENS_PER_MESSAGE, encoding
from .cache_rules import CacheRule, cached_tokens
from .reading import MessageKey, as_dict, message_key, read_message

FRAME = (-1,) * TOKENS_PER_MESSAGE  # a message's framing: the same for every message
Block = tuple[int, ...]  # the tokens of the tools, or of one message
WIDTH = 8  # bytes a token takes once packed ("q": a signed 64-bit integer)


@lru_cache(maxsize=16384)  # the history's texts come back every call
def _ids(text: str) -> Block:
    return tuple(encoding().encode(text, disallowed_special=())) if text else ()


def message_tokens(message: dict[str, Any]) -> Block:
    """One message's tokens, as many as `count_message_tokens` counts."""
    key = message_key(message)  # the history comes back every call: tokenize once
    return _read(message) if key is None else _message_tokens(key)


@lru_cache(maxsize=16384)
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


@lru_cache(maxsize=16384)  # the same blocks come back every call
def _packed(block: Block) -> bytes:
    """A block as bytes, WIDTH a token: bytes are sorted, compared and hashed all at
    once in C, a tuple of ints one item after the other."""
    return array("q", block).tobytes()


def _digest(blocks: list[Block]) -> list[bytes]:
    """The hash of the sequence up to the end of each block, in order."""
    running, ends = hashlib.blake2b(digest_size=16), []
    for block in blocks:
        running.update(_packed(block))
        ends.append(running.copy().digest())
    return ends


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


class PrefixCache:
    """One client's earlier requests, and the rule that prices a match with them."""

    def __init__(self, rule: CacheRule) -> None:
        self.rule = rule
        # Earlier prompts, packed and sorted: the longest match is a neighbour. Any
        # order of whole tokens keeps that true, so the bytes' own order will do.
        self._seen: list[bytes] = []
        self._units: set[bytes] = set()  # DeepSeek: hashes of whole earlier units
        self._last: tuple[tuple[Block, ...], Any] = ((), None)  # see _read

    def _read(self, blocks: list[Block]) -> Any:
        """The request as the rule compares it: the hashes of where its blocks end
        (DeepSeek's units), else its packed sequence. `hit` and then `keep` read the
        same request: the last one read is kept, not made twice."""
        key = tuple(blocks)  # equal blocks are mostly the same objects: a quick check
        if self._last[0] != key or self._last[1] is None:
            self._last = key, (_digest(blocks) if self.rule.whole_units
                               else b"".join(map(_packed, blocks)))
        return self._last[1]

    def matched(self, blocks: list[Block]) -> int:
        """Tokens at the start of this request that the cache holds, before the rule's
        minimum and step."""
        if self.rule.whole_units:  # the longest earlier unit that this request holds
            sizes = accumulate(map(len, blocks))
            return max((size for size, end in zip(sizes, self._read(blocks),
                                                   strict=True)
                        if end in self._units), default=0)
        sequence = self._read(blocks)
        at = bisect_left(self._seen, sequence)  # the longest match is a neighbour
        shared = max((common_prefix(sequence, self._seen[i], 256 * WIDTH)
                      for i in (at - 1, at) if 0 <= i < len(self._seen)), default=0)
        return shared // WIDTH  # a token differs in one of its bytes: whole tokens

    def hit(self, blocks: list[Block]) -> int:
        """Tokens billed as cached, for a request read by `request_tokens`."""
        return cached_tokens(self.rule, self.matched(blocks))

    def keep(self, blocks: list[Block], reply: dict[str, Any] | None = None) -> None:
        """Remember a request that was answered (and, for DeepSeek, its reply)."""
        if self.rule.whole_units:
            self._units.add(self._read(blocks)[-1])  # the unit that ends the input
            if reply is not None:  # and the one that ends the output: hashed whole,
                # as _digest would hash it block by block
                whole = b"".join(map(_packed, [*blocks, message_tokens(reply)]))
                self._units.add(hashlib.blake2b(whole, digest_size=16).digest())
        elif self.rule.name != "none":
            sequence = self._read(blocks)
            at = bisect_left(self._seen, sequence)
            if at == len(self._seen) or self._seen[at] != sequence:
                self._seen.insert(at, sequence)  # where insort would put it
