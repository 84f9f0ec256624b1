"""HybridChatMemory: a window of recent messages verbatim + an incremental summary.

Introduced in notebook 05. The newest `recent_size` messages always stay verbatim,
word for word, so "it" and "that order" resolve as well as with a window; whatever
overflows is not dropped but merged into a running summary. The merge is
incremental: the model sees the previous summary and only the newly overflowed
messages, never the whole history again, so a compression costs the same at turn 6
and at turn 600. `summary_threshold` batches the overflow: the summarizer runs when
`summary_threshold` messages are held verbatim, not on every add.

The rules, SummaryChatMemory's: recent_size >= 2 (a question and its answer),
summary_threshold > recent_size (otherwise compression never fires). The BitMall
agent uses 6/12; the six-turn demo uses 6/10. `threshold_tokens` is a second
trigger on the tokens held, `max_summary_tokens` the summary's budget, `lang` its
language, as in summary.py; the summarizer and its guards are summarizer.py's,
holding the summary is compressed.py's. `fork=True` (summary.py, fork.py) sends the
whole conversation instead, as the agent last sent it, so that the provider bills it
as cached: more tokens, most of them at the cached price. Left out: batching by
turns, async refresh and persistence (notebook 09).
"""

from __future__ import annotations

from typing import Literal

from ..chat_model import SupportsChat
from ..lang import Lang
from .budget import DEFAULT_SUMMARY_TOKENS
from .summary import SummaryChatMemory


class HybridChatMemory(SummaryChatMemory):
    """The newest `recent_size` messages verbatim + a summary of everything older.

    SummaryChatMemory under notebook 05's names: `recent_size` is its keep_recent,
    `summary_threshold` its threshold; the trigger, the cut and the rules are its.
    """

    _repr_fields = ("recent_size", "summary_threshold", "compression_count")
    _size_names = ("summary_threshold", "recent_size")

    def __init__(self, llm: SupportsChat, recent_size: int = 6,
                 summary_threshold: int = 12, *,
                 max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 threshold_tokens: int | None = None,
                 lang: Lang | Literal["auto"] | None = None,
                 fork: bool = False) -> None:
        super().__init__(llm, summary_threshold, recent_size,
                         max_summary_tokens=max_summary_tokens,
                         threshold_tokens=threshold_tokens, lang=lang, fork=fork)

    @property
    def recent_size(self) -> int:
        """The newest messages kept verbatim (whole turns, at least this many)."""
        return self.keep_recent

    @property
    def summary_threshold(self) -> int:
        """Messages held verbatim when the overflow is merged into the summary."""
        return self.threshold
