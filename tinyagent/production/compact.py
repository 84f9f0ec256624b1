"""CompactChatMemory: keep everything until a high-water mark, then compact once.

Introduced in notebook 07 ("What you pay"); it lives with the production memories
because what it optimises is the bill, not what is remembered. A provider bills the
start of a prompt it has seen before at a fraction of the price, so what a memory
costs depends on how its prompt changes, not only on how long it is. A window
changes the prompt right after the system prompt every turn; summary 10/4 rewrites
its summary every few turns. This memory changes its prompt's start as rarely as
it can:

- between compactions it only appends, like keeping everything, and is cached
  almost whole;
- the marks are in tokens: once the memory holds `high_tokens`, the oldest whole
  turns are summarized in one step, until the verbatim turns and the earlier
  summaries fit in `low_tokens` (`low_is_floor=True`: as many as can go while they
  still hold it, so that a low mark sized for the provider's caching minimum keeps
  the prompt cached after a compaction);
- each compaction appends a new summary block after the earlier ones, which stay
  word for word in the cached prefix. Only when the blocks outgrow
  `max_summary_tokens` are they merged into one (a rare rewrite);
- it asks for each summary by a fork (memory/fork.py): the agent's last request as
  it was, its answer and one turn asking for the summary, so the provider reads the
  whole prefix from its cache; `fork=False` sends notebook 04's request instead;
- `cold_after`: after a pause that long (the rule's expiry) the provider's cache is
  cold whatever the memory sends, so, past the middle of its marks, it compacts
  then, before the next request, by a request of its own.

Summary 10/4 compresses often and rewrites; this one compresses rarely, in big
steps, and appends. And it asks for each summary by a fork (memory/fork.py): the
agent's last request as it was, its answer and one turn asking for the summary, so
the provider reads the whole prefix from its cache; `fork=False` sends notebook 04's
request of its own instead, billed in full.
`CompactChatMemory.for_rule(llm, rule)` reads the marks and `cold_after` off the
provider's cache rule (production/sizing.py), so nothing needs tuning by hand.
Left out: saving and restoring its state (notebook 09's stores hold one summary),
and a compaction in the background.

"""

from __future__ import annotations

import time
from itertools import islice
from typing import Any

from ..chat_model import SupportsChat
from ..checks import check_size
from ..lang import say
from ..memory.base import BaseChatMemory
from ..memory.budget import DEFAULT_SUMMARY_TOKENS
from ..memory.compressed import compression_cut
from ..memory.fence import summary_message, summary_text
from ..memory.fork import ForkSummarizer
from ..memory.summarizer import Summarizer
from ..memory.turns import turn_sizes
from ..messages import ChatMessage
from ..offline.cache_rules import CacheRule, get_rule
from ..tokens import count_message_tokens
from .eviction import fit as ladder
from .sizing import FIXED_TOKENS, marks_for

COLD_SHARE = 0.5  # after a long pause, compact once this far from low to high


class CompactChatMemory(BaseChatMemory):
    """Verbatim up to `high_tokens`; then one compaction down to `low_tokens`."""

    _repr_fields = ("high_tokens", "low_tokens", "compression_count")

    def __init__(self, llm: SupportsChat, high_tokens: int = 1800,
                 low_tokens: int = 500, *,
                 max_summary_tokens: int = 2 * DEFAULT_SUMMARY_TOKENS,
                 lang: str | None = None, fork: bool = True,
                 cold_after: float | None = None, low_is_floor: bool = False) -> None:
        check_size("low_tokens", low_tokens, 100, "a question and its answer",
                   why_zh="一问一答", lang=lang)
        if high_tokens <= low_tokens:
            got = f"high_tokens={high_tokens}, low_tokens={low_tokens}"
            raise ValueError(say(f"high_tokens must be > low_tokens (got {got}): "
                                 "otherwise every turn compacts",
                                 f"high_tokens 必须大于 low_tokens（当前 {got}）："
                                 "否则每一轮都要压缩", lang))
        super().__init__()
        self.high_tokens, self.low_tokens = high_tokens, low_tokens
        self.max_summary_tokens = max_summary_tokens
        # One block's budget is the whole budget: a merge must fit in one block too.
        # Notebook 04's summarizer (it checks the budget), fitted by notebook 08's
        # ladder (eviction.py).
        summarizer = ForkSummarizer if fork else Summarizer
        self.summarizer = summarizer(llm, max_summary_tokens, lang=lang, fit=ladder)
        # The fence's language, the summarizer's (compare sets the store's).
        self.fence_lang = self.summarizer.lang
        # Seconds of silence after which the provider's cache is cold (the rule's
        # expiry; None: never): the memory then compacts before the next request.
        self.cold_after = cold_after
        # True: a compaction leaves at least low_tokens (for_rule: the prompt must
        # stay above the provider's minimum); False: at most low_tokens
        self.low_is_floor = low_is_floor
        self.marks = None  # for_rule: the Marks they came from (production/sizing.py)
        self._blocks: list[ChatMessage] = []  # fenced summaries, oldest first
        self._block_tokens = 0
        self._seen_at: float | None = None  # the clock at the agent's last request
        self.compression_count = 0

    @classmethod
    def for_rule(cls, llm: SupportsChat, rule: str | CacheRule | None = None, *,
                 fixed_tokens: int = FIXED_TOKENS, lang: str | None = None,
                 fork: bool = True, cold: bool = True) -> CompactChatMemory:
        """Compact with its marks read off `rule` (a name or a rule; None: the
        client's, `llm.cache_rule`), production/sizing.py; `cold`: compact after a
        pause longer than the rule's expiry, when the cache is cold anyway."""
        rule = get_rule(rule if rule is not None else getattr(llm, "cache_rule", None))
        marks = marks_for(rule, fixed_tokens)
        # The summaries may not fill the gap between the marks: verbatim turns need
        # room under the high mark, or every turn would compact.
        budget = min(2 * DEFAULT_SUMMARY_TOKENS, marks.high_tokens - marks.low_tokens)
        memory = cls(llm, marks.high_tokens, marks.low_tokens, lang=lang, fork=fork,
                     max_summary_tokens=budget, low_is_floor=True,
                     cold_after=rule.expiry_seconds if cold else None)
        memory.marks = marks
        return memory

    @property
    def summary(self) -> str | None:
        """Every block's text, oldest first (None until the first compaction)."""
        return "\n".join(map(summary_text, self._blocks)) or None

    def see_request(self, messages: list[ChatMessage],
                    tools: list[dict[str, Any]] | None = None) -> None:
        """The agent's last request and answer, for the next compaction's fork."""
        if isinstance(self.summarizer, ForkSummarizer):
            self.summarizer.see(messages, tools)
        self._seen_at = self._now()

    def _now(self) -> float | None:
        """The client's clock: the offline model's (clock.py), a real client's
        monotonic time; None for an offline client that keeps no time."""
        llm = self.summarizer.llm
        clock = getattr(llm, "clock", None)
        if clock is not None:
            return clock.seconds
        return None if getattr(llm, "offline", True) else time.monotonic()

    def _cold(self) -> bool:
        """The provider has forgotten the prefix since the agent's last request, and
        the memory is past the middle of its marks (a compaction would take at
        least half of what it takes at the high mark)."""
        now = self._now()
        return (self.cold_after is not None and self._seen_at is not None
                and now is not None and now - self._seen_at >= self.cold_after
                and self.tokens >= self.low_tokens + COLD_SHARE * (
                    self.high_tokens - self.low_tokens))

    def _trim(self, cold: bool = False) -> None:
        if self.tokens < self.high_tokens and not cold:
            return
        # Oldest whole turns go until the rest and the blocks fit under the low mark
        # (or, with `low_is_floor`, as many as can go while they still hold it);
        # the newest turn always stays verbatim.
        count = self._cut(self.low_tokens - self._block_tokens)
        # The blocks are full: they and the span become one summary (a rewrite)
        merge = self._block_tokens + self._estimate(count) > self.max_summary_tokens
        if merge and self.low_is_floor:  # as short as about half the blocks: keep
            count = self._cut(self.low_tokens - self._block_tokens // 2)  # more
        if not count:
            return
        span = list(self._messages)[:count]
        text = self.summarizer.summarize(self.summary if merge else None, span)
        if merge:
            self._blocks = [summary_message(text, self.fence_lang)]
        else:  # the usual case: the earlier blocks stay as they were, word for word
            self._blocks.append(summary_message(text, self.fence_lang))
        self._pop_oldest(count)  # only now: a failed summary loses nothing
        self._block_tokens = sum(map(count_message_tokens, self._blocks))
        self.compression_count += 1

    def _cut(self, keep: int) -> int:
        """How many of the oldest messages go (whole turns) so that at most `keep`
        tokens stay verbatim or, with `low_is_floor`, at least `keep`; the newest
        turn always stays."""
        sizes, tokens, count = [], self._tokens, 0
        for size in turn_sizes(self._messages):
            size_tokens = sum(map(count_message_tokens,
                                  islice(self._messages, count, count + size)))
            if (tokens - size_tokens < keep) if self.low_is_floor else tokens <= keep:
                break
            sizes.append(size)
            tokens -= size_tokens
            count += size
        return compression_cut(sizes, len(self._messages), 2)

    def _estimate(self, count: int) -> int:
        """A new block's tokens, guessed before writing it: a third of what the
        oldest `count` messages hold."""
        return sum(map(count_message_tokens, islice(self._messages, count))) // 3

    def messages(self) -> list[ChatMessage]:
        """What the next request holds. After a pause longer than `cold_after`, the
        cache is cold whatever the memory sends: the cheapest moment to compact, by
        a summary request of its own (a fork's prefix would be cold too)."""
        if self._cold():
            if isinstance(self.summarizer, ForkSummarizer):
                self.summarizer.forget_request()
            self._trim(cold=True)
            self._seen_at = self._now()  # once per pause
        return [*self._blocks, *self._messages]

    def clear(self) -> None:
        super().clear()
        self._blocks = []
        self._block_tokens = 0
        self._seen_at = None
        self.compression_count = 0
        self.summarizer.clear()

    def __len__(self) -> int:
        return len(self._messages) + len(self._blocks)

    @property
    def tokens(self) -> int:
        return self._tokens + self._block_tokens

    def stats(self) -> dict[str, Any]:
        return {**super().stats(), "compressions": self.compression_count,
                "summarizer_calls": self.summarizer.calls,
                "summarizer_tokens": self.summarizer.tokens,
                "fallbacks": self.summarizer.fallbacks}
