"""CompressedChatMemory: a summary in front of the newest messages, kept verbatim.

What SummaryChatMemory (notebook 04), HybridChatMemory (notebook 05) and the
production memories (notebook 08) share. A compression is four steps:

- trigger (`_held_past`): `limit` messages, or `threshold_tokens` tokens, are held;
  each strategy's `_trim` picks the limit;
- cut (`compression_cut`): how many of the oldest messages go, whole turns only;
- summarize (`_compress_oldest`): the summarizer merges them into the summary;
- hold (`_replace_oldest`): they give way to the new summary, written in one place
  (`_set_summary`); `hold` puts a saved summary back.

`messages()` starts with the summary, a system message fenced as reference data
(fence.py), then the verbatim messages; `len` and `tokens` describe that list.
`pop()` (undo, notebook 10) takes back verbatim messages only: once they are all
popped, the summary is what is left, and popping it is an UndoError (the memory
unchanged; no pre-summary state is kept to go back to).
Left out: saving the summary and the record a store keeps of it (notebook 09:
tinyagent.production and tinyagent.storage).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any

from ..checks import check_size
from ..lang import Lang
from ..messages import ChatMessage
from ..tokens import count_message_tokens
from .base import BaseChatMemory
from .fence import summary_message, summary_text
from .summarizer import Summarizer


def compression_cut(turn_sizes: Iterable[int], held: int, keep_recent: int) -> int:
    """How many of the oldest messages to compress: whole turns, oldest first,
    while the rest still holds at least `keep_recent` messages.

    Three turns of 2, 4 and 2 messages (8 held), keeping at least 4: the first two
    turns would leave only 2, so only the first goes; keeping 2, both go.

    >>> compression_cut([2, 4, 2], held=8, keep_recent=4)
    2
    >>> compression_cut([2, 4, 2], held=8, keep_recent=2)
    6
    >>> compression_cut([8], held=8, keep_recent=2)  # one long turn: nothing to cut
    0
    """
    cut = 0
    for size in turn_sizes:
        if held - cut - size < keep_recent:
            break
        cut += size
    return cut


class CompressedChatMemory(BaseChatMemory):
    """A summary of the old messages + the newer ones verbatim; no trigger of its own.

    `summarizer` is a `Summarizer` or a subclass (the structured one of notebook 08).
    The summary's fence speaks the summarizer's language (`lang`: for "auto", the
    summary's own words), unless `fence_lang` says otherwise.
    """

    def __init__(self, summarizer: Summarizer, *,
                 threshold_tokens: int | None = None) -> None:
        if threshold_tokens is not None:
            check_size("threshold_tokens", threshold_tokens, 100,
                       "a question and its answer take about that",
                       why_zh="一问一答大约就占这么多", lang=summarizer.lang)
        super().__init__()
        self.summarizer = summarizer
        # A second trigger, off by default: compress once the messages held reach
        # this many tokens, for conversations whose messages are long.
        self.threshold_tokens = threshold_tokens
        self._summary: ChatMessage | None = None  # fenced message, tokens cached on it
        self.compression_count = 0
        self.summarized_tokens = 0  # tokens of every message the summary stands for
        self.fence_lang: Lang | None = None  # None: the summarizer's language

    @property
    def summary(self) -> str | None:
        """The current summary (None until the first compression)."""
        return summary_text(self._summary) if self._summary else None

    def _set_summary(self, text: str | None) -> None:
        """The one place the summary is written."""
        if not text:
            self._summary = None
            return
        self._summary = summary_message(text, self.fence_lang or self.summarizer.lang)

    def _held_past(self, limit: int) -> bool:
        """Whether `limit` messages, or `threshold_tokens` tokens, are held."""
        return len(self._messages) >= limit or (
            self.threshold_tokens is not None
            and self._tokens >= self.threshold_tokens)

    # -- compressing: the `count` oldest messages give way to a summary of them
    def _compress_oldest(self, count: int) -> None:
        """Summarize the `count` oldest messages, then swap them for the summary.

        0 does nothing: one long turn, say, with nothing old enough to compress.
        """
        if not count:
            return
        span = list(islice(self._messages, count))
        summary = self.summarizer.summarize(self.summary, span)  # falls back, no raise
        self._replace_oldest(count, summary)  # only now: an interruption loses nothing

    def _replace_oldest(self, count: int, summary: str) -> None:
        """Swap the `count` oldest messages for `summary`, and count the change."""
        span = self._pop_oldest(count)
        self.summarized_tokens += sum(count_message_tokens(m) for m in span)
        self._set_summary(summary)
        self.compression_count += 1

    def hold(self, summary: str | None, messages: Sequence[ChatMessage],
             compression_count: int = 0) -> None:
        """Start over holding `summary` in front of `messages`, as if
        `compression_count` compressions had left them there.

        No model call and no compression: the next add() compresses if one is due.
        Loading a saved conversation does this (notebook 09).
        """
        self.clear()
        self._set_summary(summary)
        self.compression_count = compression_count
        self._messages.extend(messages)
        self._tokens = sum(count_message_tokens(m) for m in messages)

    # -- the contract: the summary first, then the verbatim messages
    def messages(self) -> list[ChatMessage]:
        head = [self._summary] if self._summary else []
        return head + list(self._messages)

    def clear(self) -> None:
        super().clear()
        self._set_summary(None)
        self.compression_count = 0
        self.summarized_tokens = 0
        self.summarizer.clear()

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
