"""Compact's two marks, read off the provider's cache rule: no tuning by hand.

Introduced in notebook 07 ("What you pay"), used by `CompactChatMemory.for_rule`.
Two questions decide what compact is billed, and the cache rule answers both:

- **How low?** After a compaction the prompt must still be cached: a prompt under
  the rule's minimum is billed in full on every call. So the low mark leaves the
  prompt at least the minimum plus one step: `low = minimum + step - fixed`, where
  `fixed` is what every request carries besides the memory (the system prompt,
  the tool schemas, the question: about 600 tokens for the course's agent).
- **How high?** Each compaction has a price: the prompt after it is read once at
  the full price (or written, at the premium) from where it changed, and the fork
  (memory/fork.py) reads the conversation at the cached price and adds an
  instruction and an answer. Between compactions, every token of history is read
  again on every call, at the cached price. Pay the price often and the history
  stays short; rarely, and you pay for a long history. The balance is the
  economic order quantity of stock-keeping: with the history growing by `growth`
  tokens a call and each held token costing `cached` a call, the cheapest gap
  between the marks is sqrt(2 x price x growth / cached).

A cheap read (DeepSeek's 3 %) pushes the high mark up; a dear one (gpt-4o-mini's
50 %) brings it down; a high minimum (Gemini's 2,048) lifts both. Left out: the
length of the dialog (the rule balances the cost per call, as if the dialog went on:
on a dialog about to end, no compaction pays), the summary's reply at the output
price (it would raise the marks: notebook 07 bills it apart), pauses (the cache's
expiry is compact's `cold_after`), and a hit that is only a chance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..offline.cache_rules import CacheRule, get_rule

FIXED_TOKENS = 600  # the course's agent: system prompt, tool schemas, a question
GROWTH_TOKENS = 30  # history a model call adds: a BitMall turn, ~60, over ~2 calls
BLOCK_TOKENS = 200  # a new summary block, about
FORK_TOKENS = 180  # what a fork adds to the conversation: the answer, the instruction
LOW_FLOOR = 200  # the newest turn and a summary, at the least


@dataclass(frozen=True)
class Marks:
    """Compact's marks under one rule, and the price of a compaction they came from."""

    rule: str
    high_tokens: int
    low_tokens: int
    price: float  # one compaction, in input-token equivalents (prices.py)

    def __str__(self) -> str:
        return (f"{self.rule}: high {self.high_tokens:,}, low {self.low_tokens:,} "
                f"(a compaction costs about {self.price:,.0f} input tokens)")


def compaction_price(rule: CacheRule, high: int, low: int,
                     fixed: int = FIXED_TOKENS) -> float:
    """One compaction, in input-token equivalents: the prompt after it read at full
    price (or written) from where it changed, and the fork's reads and new tokens."""
    cached = rule.cached_share if rule.caches else 1.0
    full = rule.write_share  # a token the cache misses: read in full, or written
    after = fixed + low + BLOCK_TOKENS
    # Where the prompt changed: after the earlier summaries (the new one is
    # appended to them, about a block), which only an "any prefix" rule can reuse,
    # and only above its minimum; other rules miss from the start.
    kept = fixed + BLOCK_TOKENS
    kept = kept if rule.unit == "prefix" and kept >= rule.min_tokens else 0
    return (full - cached) * (after - kept) + cached * (fixed + high) \
        + full * FORK_TOKENS


def marks_for(rule: str | CacheRule | None = None, fixed_tokens: int = FIXED_TOKENS,
              growth_tokens: int = GROWTH_TOKENS) -> Marks:
    """Compact's marks under `rule` (a name or a rule; None: the default provider's)
    for an agent whose requests carry `fixed_tokens` besides the memory."""
    rule = get_rule(rule)
    cached = rule.cached_share if rule.caches else 1.0
    low = max(LOW_FLOOR, rule.min_tokens + rule.step_tokens - fixed_tokens)
    gap = 1000.0  # the price depends a little on the high mark: settle both
    for _ in range(4):
        price = compaction_price(rule, round(low + gap), low, fixed_tokens)
        gap = math.sqrt(2 * price * growth_tokens / max(cached, 0.01))
    return Marks(rule.name, int(round(low + gap, -2)), low, price)
