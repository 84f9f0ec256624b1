"""CompactChatMemory: keep everything until a high-water mark, then compact once.

Introduced in notebook 06 ("What you pay: prompt caching"); it lives with the
production memories because what it optimises is the bill, not what is remembered.
A provider bills the start of a prompt it has seen before at a fraction of the
price, so what a memory costs depends on how its prompt changes, not only on how
long it is. A window
changes the prompt right after the system prompt every turn; summary 10/4 rewrites
its summary every few turns. This memory changes its prompt's start as rarely as
it can:

- between compactions it only appends, like keeping everything, and is cached
  almost whole;
- the marks are in tokens: once the memory holds `high_tokens`, the oldest whole
  turns are summarized in one step, until the verbatim turns and the earlier summary
  fit in `low_tokens`. Keep `low_tokens` big enough that the prompt stays above the
  provider's caching minimum (OpenAI caches nothing under 1,024 tokens);
- each compaction appends a new summary block after the earlier ones, which stay
  word for word in the cached prefix. Only when the blocks outgrow
  `max_summary_tokens` are they merged into one (a rare rewrite).

Summary 10/4 compresses often and rewrites; this one compresses rarely, in big
steps, and appends. And it asks for each summary by a fork (memory/fork.py): the
agent's last request as it was, its answer and one turn asking for the summary, so
the provider reads the whole prefix from its cache; `fork=False` sends notebook 04's
request of its own instead, billed in full. Left out: saving and restoring its
state (notebook 08's stores hold one summary), and a compaction in the background.
"""

from __future__ import annotations

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
from ..tokens import count_message_tokens
from .eviction import fit as ladder


class CompactChatMemory(BaseChatMemory):
    """Verbatim up to `high_tokens`; then one compaction down to `low_tokens`."""

    _repr_fields = ("high_tokens", "low_tokens", "compression_count")

    def __init__(self, llm: SupportsChat, high_tokens: int = 1800,
                 low_tokens: int = 500, *,
                 max_summary_tokens: int = 2 * DEFAULT_SUMMARY_TOKENS,
                 lang: str | None = None, fork: bool = True) -> None:
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
        # Notebook 04's summarizer (it checks the budget), fitted by notebook 07's
        # ladder (eviction.py).
        summarizer = ForkSummarizer if fork else Summarizer
        self.summarizer = summarizer(llm, max_summary_tokens, lang=lang, fit=ladder)
        # The fence's language, the summarizer's (compare sets the store's).
        self.fence_lang = self.summarizer.lang
        self._blocks: list[ChatMessage] = []  # fenced summaries, oldest first
        self._block_tokens = 0
        self.compression_count = 0

    @property
    def summary(self) -> str | None:
        """Every block's text, oldest first (None until the first compaction)."""
        return "\n".join(map(summary_text, self._blocks)) or None

    def see_request(self, messages: list[ChatMessage],
                    tools: list[dict[str, Any]] | None = None) -> None:
        """The agent's last request and answer, for the next compaction's fork."""
        if isinstance(self.summarizer, ForkSummarizer):
            self.summarizer.see(messages, tools)

    def _trim(self) -> None:
        if self.tokens < self.high_tokens:
            return
        # Oldest whole turns go until the rest and the blocks fit under the low mark;
        # the newest turn always stays verbatim.
        keep = self.low_tokens - self._block_tokens
        sizes, tokens, messages, count = [], self._tokens, list(self._messages), 0
        for size in turn_sizes(self._messages):
            if tokens <= keep:
                break
            sizes.append(size)
            tokens -= sum(map(count_message_tokens, messages[count:count + size]))
            count += size
        count = compression_cut(sizes, len(messages), 2)
        if not count:
            return
        span = messages[:count]
        if self._block_tokens + self._estimate(span) > self.max_summary_tokens:
            # The blocks are full: merge them with the span into one (a rewrite).
            text = self.summarizer.summarize(self.summary, span)
            self._blocks = [summary_message(text, self.fence_lang)]
        else:  # the usual case: the earlier blocks stay as they were, word for word
            text = self.summarizer.summarize(None, span)
            self._blocks.append(summary_message(text, self.fence_lang))
        self._pop_oldest(count)  # only now: a failed summary loses nothing
        self._block_tokens = sum(map(count_message_tokens, self._blocks))
        self.compression_count += 1

    def _estimate(self, span: list[ChatMessage]) -> int:
        """A new block's tokens, guessed before writing it: a third of the span."""
        return sum(map(count_message_tokens, span)) // 3

    def messages(self) -> list[ChatMessage]:
        return [*self._blocks, *self._messages]

    def clear(self) -> None:
        super().clear()
        self._blocks = []
        self._block_tokens = 0
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
