"""The provider's prompt cache, played offline: which start of a prompt it still holds.

Introduced in notebook 07 ("What you pay"). A provider keeps the requests it
answered, read as sequences of tokens (prompt_tokens.py); a later request that
starts with the same tokens reuses them and is billed less for them.

Like a provider, the cache stores a prompt in blocks of BLOCK tokens, each keyed by
a hash of everything up to its end, in a tree (a block's children are the blocks
that followed it in some prompt, kept sorted). A lookup follows the new prompt's
hashes down the tree, then compares tokens inside the one block where it parts
from every stored prompt: the longest shared start, exactly, at a cost that grows
with this prompt's length and not with the number of earlier ones. Whole units
(DeepSeek's) and breakpoints (Anthropic's, GPT-5.6's) are hashes of a request up to
the end of one of its messages, looked up from its end (or each marked breakpoint,
tinyagent/cache_marks.py) back.

`PrefixCache(rule, clock)` is one client's cache. `lookup(blocks)` says what the
rule bills as read and written (with the rule's chance of a hit), `keep(blocks,
reply)` stores the request. It is bounded as a provider's is: an entry unused for
the rule's `expiry_seconds` (on the clock, clock.py) is gone, and a client holds at
most `max_blocks` blocks and as many units (MAX_BLOCKS: about 262,000 tokens),
the least recently used going first. The answers never depend on it: only the
usage does. Left out: a cache shared between clients, and routing (a provider may
send a request to a machine that never saw the prefix: `hit_chance` stands in).
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_left, insort
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from .cache_rules import CacheRule, cached_tokens
from .clock import Clock
from .prompt_tokens import (
    WIDTH,
    Block,
    common_prefix,
    flat,
    message_tokens,
    packed,
    request_tokens,
)

BLOCK = 64  # tokens a cache block holds
Marks = Sequence[int] | None  # a request's breakpoints, as cache_marks.breakpoints
MAX_BLOCKS = 4_096  # blocks a client's cache holds at most (262,144 tokens)
ROOT = b""  # the key of the empty prefix


@dataclass(eq=False)
class _Node:
    """One stored block: its tokens, where it starts, what followed it."""

    parent: bytes  # the key of the block before it (ROOT for the first)
    block: bytes  # its tokens, packed (BLOCK of them, fewer at a prompt's end)
    start: int  # tokens before it
    used: float = 0.0  # clock seconds of its last write or read
    # the blocks that followed it, sorted: the one sharing the longest start with a new
    # block is a neighbour of where that block would go (so a lookup costs no more
    # when a block has been followed by thousands of different ones)
    heads: list[bytes] = field(default_factory=list)


@dataclass(frozen=True)
class Lookup:
    """What the rule bills for one request (tokens less the 3 that prime a reply)."""

    length: int  # the request's tokens
    matched: int  # of them, what the cache could reuse (before minimum and step)
    read: int  # billed as read from the cache
    written: int  # billed as written to it (at the rule's write premium)


def _chain(sequence: bytes) -> list[tuple[bytes, bytes]]:
    """(key, block) for each block of `sequence`: a block's key hashes its parent's
    key and its own tokens, so it stands for the whole prefix up to its end."""
    size, key, out = BLOCK * WIDTH, ROOT, []
    for at in range(0, len(sequence), size):
        block = sequence[at:at + size]
        key = hashlib.blake2b(key + block, digest_size=16).digest()
        out.append((key, block))
    return out


def _ends(blocks: list[Block]) -> list[tuple[int, bytes]]:
    """(length, hash) of the request up to the end of each of its blocks (tools,
    then each message): where a unit or a breakpoint can end."""
    running, out = hashlib.blake2b(digest_size=16), []
    for size, block in zip(accumulate(map(len, blocks)), blocks, strict=True):
        running.update(packed(block))
        out.append((size, running.copy().digest()))
    return out


class PrefixCache:
    """One client's earlier requests, and the rule that prices a match with them."""

    def __init__(self, rule: CacheRule, clock: Clock | None = None, *,
                 hit_chance: float = 1.0, seed: int = 0,
                 max_blocks: int = MAX_BLOCKS) -> None:
        if not 0 <= hit_chance <= 1 or max_blocks < 1:
            raise ValueError(f"hit_chance must be 0 to 1 and max_blocks >= 1 (got "
                             f"{hit_chance}, {max_blocks})")
        self.rule, self.clock, self.max_blocks = rule, clock, max_blocks
        self.hit_chance = 1.0 if rule.guaranteed else hit_chance
        self._draw = random.Random(seed).random  # the same draws on every run
        # Prefixes, in blocks (the "prefix" and "common-prefix" units), and units
        # (hash of the request up to a message end -> last used); least recent first
        self._nodes: OrderedDict[bytes, _Node] = OrderedDict()
        self._root = _Node(ROOT, b"", 0)
        self._units: OrderedDict[bytes, float] = OrderedDict()
        self._last: tuple[Any, Any] = ((), None)  # the request last read, see _read

    def __len__(self) -> int:
        """Blocks and units held."""
        return len(self._nodes) + len(self._units)

    def _now(self) -> float:
        return self.clock.seconds if self.clock is not None else 0.0

    def _read(self, blocks: list[Block]) -> tuple[list[Any], list[Any]]:
        """(its blocks' keys, its units' ends) of a request, as this rule needs
        them; `lookup` and then `keep` read the same request: it is read once."""
        key = tuple(blocks)  # equal blocks are mostly the same objects: a quick check
        if self._last[0] != key or self._last[1] is None:
            unit = self.rule.unit
            chained = (_chain(b"".join(map(packed, blocks)))
                       if unit in ("prefix", "common-prefix") else [])
            self._last = key, (chained, _ends(blocks) if unit != "prefix" else [])
        return self._last[1]

    def _forget_old(self) -> None:
        """Drop what expired and what is over the cap, least recently used first (a
        block is never used later than the one before it, so leaves go first)."""
        expiry = self.rule.expiry_seconds
        cutoff = self._now() - expiry if expiry is not None else None
        while self._nodes:
            key, node = next(iter(self._nodes.items()))
            if len(self._nodes) <= self.max_blocks and (cutoff is None
                                                        or node.used >= cutoff):
                break
            del self._nodes[key]
            parent = self._nodes.get(node.parent, self._root)
            del parent.heads[bisect_left(parent.heads, node.block)]
        while self._units:
            key, used = next(iter(self._units.items()))
            if len(self._units) <= self.max_blocks and (cutoff is None
                                                        or used >= cutoff):
                break
            del self._units[key]

    def _shared(self, chained: list[tuple[bytes, bytes]]) -> int:
        """Tokens this request shares with the stored prompts, from the start."""
        node = self._root
        for key, block in chained:
            child = self._nodes.get(key)
            if child is None:  # it parts from every stored prompt in this block
                heads, at = node.heads, bisect_left(node.heads, block)
                return node.start + len(node.block) // WIDTH + max(
                    (common_prefix(block, heads[i], BLOCK * WIDTH)
                     for i in (at - 1, at) if 0 <= i < len(heads)), default=0) // WIDTH
            node = child
        return node.start + len(node.block) // WIDTH

    def _unit(self, ends: list[tuple[int, bytes]], marks: Marks = None
              ) -> tuple[int, bytes | None]:
        """(length, key) of the longest stored unit this request holds whole, from
        each breakpoint (`marks`; None: its end) back the rule's lookback blocks."""
        back, best = self.rule.lookback_blocks or len(ends), (0, None)
        for mark in (marks if marks and self.rule.unit == "breakpoints"
                     else [len(ends) - 1]):
            for size, key in reversed(ends[max(0, mark + 1 - back):mark + 1]):
                if key in self._units:
                    best = max(best, (size, key), key=lambda found: found[0])
                    break
        return best

    def matched(self, blocks: list[Block], marks: Marks = None) -> int:
        """Tokens at the start of this request that the cache can reuse, before the
        rule's minimum and step: the longest shared prefix, or the longest whole
        unit the request holds (found from its breakpoints, `marks`)."""
        self._forget_old()
        chained, ends = self._read(blocks)
        return self._shared(chained) if self.rule.unit == "prefix" else \
            self._unit(ends, marks)[0]

    def hit(self, blocks: list[Block], marks: Marks = None) -> int:
        """Tokens billed as cached, for a request read by `request_tokens`."""
        return cached_tokens(self.rule, self.matched(blocks, marks))

    def lookup(self, blocks: list[Block], marks: Marks = None) -> Lookup:
        """What the rule bills for this request: read, written (a miss by chance
        reads nothing and writes the whole prompt, if it is long enough)."""
        length, matched = sum(map(len, blocks)), self.matched(blocks, marks)
        read = cached_tokens(self.rule, matched)
        if self.hit_chance < 1 and self._draw() >= self.hit_chance:
            read = 0
        written = length - read if length >= self.rule.min_tokens else 0
        return Lookup(length, matched, read, written if self.rule.caches else 0)

    def keep(self, blocks: list[Block], reply: dict[str, Any] | None = None,
             marks: Marks = None) -> None:
        """Remember a request that was answered (for whole units, its reply too;
        for breakpoints, a unit at each of `marks`)."""
        if not self.rule.caches:
            return
        self._forget_old()
        chained, ends = self._read(blocks)
        now, unit = self._now(), self.rule.unit
        if unit != "prefix":
            used = self._unit(ends, marks)[1]  # read: it lives on
            keys = [used] if used is not None else []
            if unit == "common-prefix":  # the start shared with an earlier one, cut
                # at its last whole message (a chat template closes each message)
                shared = self._shared(chained)
                keys += [key for size, key in ends if size <= shared][-1:]
            if reply is not None and self.rule.whole_units:  # where output ends
                keys.append(_ends([*blocks, message_tokens(reply)])[-1][1])
            at = marks if marks and unit == "breakpoints" else [len(ends) - 1]
            for key in [*keys, *(ends[m][1] for m in at)] if ends else keys:
                self._units[key] = now
                self._units.move_to_end(key)
        if chained:
            self._store(chained)
        self._forget_old()

    def _store(self, chained: list[tuple[bytes, bytes]]) -> None:
        """Add the request's blocks, all used now."""
        now, parent, start, path = self._now(), ROOT, 0, []
        for key, block in chained:
            node = self._nodes.get(key)
            if node is None:
                node = self._nodes[key] = _Node(parent, block, start)
                above = self._nodes.get(parent, self._root)
                insort(above.heads, block)
            node.used, parent = now, key
            start += len(block) // WIDTH
            path.append(key)
        for key in reversed(path):  # leaf first: a block never outlives its parent
            self._nodes.move_to_end(key)


__all__ = ["BLOCK", "MAX_BLOCKS", "Lookup", "PrefixCache", "common_prefix", "flat",
           "message_tokens", "request_tokens"]
