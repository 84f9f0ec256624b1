"""HybridChatMemory: a window of recent messages verbatim + an incremental summary.

Introduced in notebook 05. The newest `recent_size` messages always stay verbatim,
word for word, so "it" and "that order" resolve as well as with a window; whatever
overflows is not dropped but merged into a running summary. The merge is
incremental: the model sees the previous summary and only the newly overflowed
messages, never the whole history again, so a compression costs the same at turn 6
and at turn 600. `summary_threshold` batches the overflow: the summarizer runs when
`summary_threshold` messages are held verbatim, not on every add.

In code this is SummaryChatMemory seen from the window's side: same compression,
same summarizer and guards, named and checked as the TinyAgent design names them
(recent_size >= 2, summary_threshold > recent_size). The BitMall agent uses 6/12;
the six-turn demo uses 6/10. `threshold_tokens` and `max_summary_tokens` are
SummaryChatMemory's: a token trigger, and the summary's budget. Left out: batching
by turns, async refresh and persistence (notebook 07).
"""

from __future__ import annotations

from ..llm import SupportsChat
from .base import check_size
from .budget import DEFAULT_SUMMARY_TOKENS
from .summary import SummaryChatMemory


class HybridChatMemory(SummaryChatMemory):
    """The newest `recent_size` messages verbatim + a summary of everything older."""

    _repr_fields = ("recent_size", "summary_threshold", "compression_count")

    def __init__(self, llm: SupportsChat, recent_size: int = 6,
                 summary_threshold: int = 12, *,
                 max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 threshold_tokens: int | None = None) -> None:
        super().__init__(llm, threshold=summary_threshold, keep_recent=recent_size,
                         max_summary_tokens=max_summary_tokens,
                         threshold_tokens=threshold_tokens)

    @staticmethod
    def _check(threshold: int, keep_recent: int) -> None:
        """TinyAgent's rules for the hybrid, in its names: recent_size >= 2 and
        summary_threshold > recent_size."""
        check_size("recent_size", keep_recent, 2, "the last question and its answer")
        check_size("summary_threshold", threshold, 3, "more than recent_size")
        if threshold <= keep_recent:
            raise ValueError(f"summary_threshold must be > recent_size (got "
                             f"summary_threshold={threshold}, recent_size="
                             f"{keep_recent}): otherwise every add would call the "
                             "summarizer")

    # The same two sizes as SummaryChatMemory's, under the names the design uses.
    @property
    def recent_size(self) -> int:
        return self.keep_recent

    @property
    def summary_threshold(self) -> int:
        return self.threshold
