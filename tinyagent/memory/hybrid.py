"""HybridChatMemory: a window of recent messages verbatim + an incremental summary.

Introduced in notebook 05. The newest `recent_size` messages always stay verbatim,
word for word, so "it" and "that order" resolve as well as with a window; whatever
overflows is not dropped but merged into a running summary. The merge is
incremental: the model sees the previous summary and only the newly overflowed
messages, never the whole history again, so a compression costs the same at turn 6
and at turn 600. `summary_threshold` batches the overflow: the summarizer runs when
`summary_threshold` messages are held verbatim, not on every add.

The rules: recent_size >= 2 (a question and its answer), summary_threshold >
recent_size (otherwise every add would call the summarizer). The BitMall agent uses
6/12; the six-turn demo uses 6/10. `threshold_tokens` is a second trigger on the
tokens held, `max_summary_tokens` the summary's budget and `lang` its language, as
in summary.py; the summarizer and its guards are summarizer.py's, holding the
summary is compressed.py's. Left out: batching by turns, async refresh and
persistence (notebook 07).
"""

from __future__ import annotations

from ..llm import SupportsChat
from .base import check_size
from .budget import DEFAULT_SUMMARY_TOKENS
from .compressed import CompressedMemory, compression_cut, plain_summarizer


class HybridChatMemory(CompressedMemory):
    """The newest `recent_size` messages verbatim + a summary of everything older."""

    _repr_fields = ("recent_size", "summary_threshold", "compression_count")

    def __init__(self, llm: SupportsChat, recent_size: int = 6,
                 summary_threshold: int = 12, *,
                 max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 threshold_tokens: int | None = None, lang: str = "en") -> None:
        check_size("recent_size", recent_size, 2, "the last question and its answer")
        check_size("summary_threshold", summary_threshold, 3, "more than recent_size")
        if summary_threshold <= recent_size:
            got = f"summary_threshold={summary_threshold}, recent_size={recent_size}"
            raise ValueError(f"summary_threshold 必须大于 recent_size（当前 {got}）："
                             "否则每次 add 都会调用摘要器" if lang == "zh" else
                             f"summary_threshold must be > recent_size (got {got}): "
                             "otherwise every add would call the summarizer")
        super().__init__(plain_summarizer(llm, max_summary_tokens, lang),
                         threshold_tokens=threshold_tokens)
        self.recent_size, self.summary_threshold = recent_size, summary_threshold

    def _trim(self) -> None:
        # The window overflowed by a batch: merge everything but the newest
        # `recent_size` messages (whole turns) into the summary, the previous summary
        # going in with them. Until then the window just grows.
        if self._held_past(self.summary_threshold):
            overflow = compression_cut(self._turn_sizes(), len(self._messages),
                                       self.recent_size)
            self._compress_oldest(overflow)
