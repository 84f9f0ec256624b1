"""SummaryChatMemory: compress the old part of the conversation instead of dropping it.

Introduced in notebook 04. A window forgets; this memory has the model write down what
matters first. Once `threshold` messages are held, everything but the newest
`keep_recent` is compressed into one summary, the old summary going back in with
those messages, so a
fact from turn 1 can survive to turn 50. The price: a model call per compression
(`stats()` counts calls and tokens), and a summary can lose facts (the entity guard in
summarizer.py keeps the numbers). `messages()` starts with the summary, a system
message fenced as reference data, then the recent messages verbatim; only those count
toward `threshold`. Cuts fall between turns: the newest turns holding at least
`keep_recent` messages stay verbatim. `threshold_tokens` adds a second trigger (off
by default): compress as soon as the messages held reach that many tokens, the
budget that Nexus uses. The summary itself never exceeds `max_summary_tokens`
(budget.py), so the memory stays bounded however long the chat. Left out: structured
summaries and compressing in the background (notebook 07)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from typing import Any

from ..llm import SupportsChat
from ..messages import ChatMessage
from ..tokens import count_message_tokens
from .base import BaseChatMemory, check_size
from .budget import DEFAULT_SUMMARY_TOKENS
from .summarizer import Summarizer, summary_message


def compression_cut(turn_sizes: Iterable[int], held: int, keep_recent: int) -> int:
    """How many of the oldest messages to compress: whole turns, oldest first,
    while the rest still holds at least `keep_recent` messages."""
    cut = 0
    for size in turn_sizes:
        if held - cut - size < keep_recent:
            break
        cut += size
    return cut


class SummaryChatMemory(BaseChatMemory):
    """A summary of the old turns + the newest `keep_recent` messages verbatim."""

    _repr_fields = ("threshold", "keep_recent", "compression_count")

    def __init__(self, llm: SupportsChat, threshold: int = 10, keep_recent: int = 4,
                 *, max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 threshold_tokens: int | None = None) -> None:
        self._check(threshold, keep_recent)
        if threshold_tokens is not None:
            check_size("threshold_tokens", threshold_tokens, 100,
                       "a question and its answer take about that")
        super().__init__()
        self.summarizer = Summarizer(llm, max_summary_tokens)
        self.threshold, self.keep_recent = threshold, keep_recent
        self.threshold_tokens = threshold_tokens
        self._start_over()

    @staticmethod
    def _check(threshold: int, keep_recent: int) -> None:
        """The two sizes' rules, in this class's names (HybridChatMemory: its own)."""
        check_size("threshold", threshold, 4, "keep_recent >= 2, plus 2 to compress")
        check_size("keep_recent", keep_recent, 2, "the last question and its answer")
        if keep_recent >= threshold:
            raise ValueError(f"keep_recent must be < threshold (got keep_recent="
                             f"{keep_recent}, threshold={threshold}): otherwise "
                             "compression never fires")

    def _start_over(self) -> None:
        self._summary: ChatMessage | None = None  # fenced message, tokens cached on it
        self._summary_text: str | None = None
        self.compression_count = 0
        self.summarized_tokens = 0  # tokens of every message the summary stands for
        self.summarizer.reset()

    @property
    def summary(self) -> str | None:
        """The current summary (None until the first compression)."""
        return self._summary_text

    def _trim(self) -> None:
        # ">=": the agent commits a turn when it ends, so memory holding `threshold`
        # messages means the next request would be past it (TinyAgent adds the user
        # message first and compresses at threshold + 1: the same moment).
        if len(self._messages) >= self.threshold or (
                self.threshold_tokens is not None
                and self._tokens >= self.threshold_tokens):
            self._compress()

    def _compress(self) -> None:
        cut = compression_cut(self._turn_sizes(), len(self._messages),
                              self.keep_recent)
        if not cut:  # one long turn: nothing is old enough to compress yet
            return
        span = list(islice(self._messages, cut))
        summary = self.summarizer.summarize(self.summary, span)  # falls back, no raise
        self._pop_oldest(cut)  # only now: an interrupted call loses nothing
        self.summarized_tokens += sum(count_message_tokens(m) for m in span)
        self._summary_text, self._summary = summary, summary_message(summary)
        self.compression_count += 1

    # -- the contract: the summary first, then the verbatim messages
    def messages(self) -> list[ChatMessage]:
        head = [self._summary] if self._summary else []
        return head + list(self._messages)

    def clear(self) -> None:
        super().clear()
        self._start_over()

    # -- looking inside: len and tokens describe what messages() returns
    def __len__(self) -> int:
        return len(self._messages) + (self._summary is not None)

    @property
    def tokens(self) -> int:
        summary = count_message_tokens(self._summary) if self._summary else 0
        return self._tokens + summary

    def stats(self) -> dict[str, Any]:
        return {**super().stats(), "compressions": self.compression_count,
                "summarizer_calls": self.summarizer.calls,
                "summarizer_tokens": self.summarizer.tokens,
                "fallbacks": self.summarizer.fallbacks,
                "evicted": self.summarizer.evicted}
