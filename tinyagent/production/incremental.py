"""Incremental compression: batches of whole turns, and a record of what they cover.

Introduced in notebook 09. The newest `keep_recent_turns` turns stay verbatim;
older turns are compressed oldest first, at most `batch_turns` of them per model
call, and only complete ones (a turn waiting for its answer stays), into the
structured summary of structured.py. The summary's record, `SummaryState` (how far
it covers, how many compressions ran, its version), is kept by the base class,
persistent.py: it is what a store saves and a restart reloads.

A compression is three steps: `plan` takes a batch, `summarize` makes the slow model
call and touches no state, `apply` swaps the batch for the new summary atomically,
under a lock, unless the memory changed meanwhile. Here they run one after the other;
background.py runs the middle one on a thread pool. Left out: triggers on tokens
rather than turns, and summarizing tool calls differently from answers.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ..chat_model import SupportsChat
from ..checks import check_size
from ..memory.budget import DEFAULT_SUMMARY_TOKENS
from ..memory.turns import turn_sizes
from ..messages import ChatMessage, Role
from ..storage.base import SummaryState
from .persistent import PersistentChatMemory
from .structured import MAX_RENDER_CHARS, StructuredSummarizer


class InFlight:
    """The sessions being compressed in this process: one compressor each.

    Two handles on one session (two requests, say) would otherwise both summarize
    the same turns; the second one skips, and its turns stay verbatim until a
    later turn finds the slot free. Across processes the store's version check
    does the same job.
    """

    def __init__(self) -> None:
        self._keys: set[Hashable] = set()
        self._lock = threading.Lock()

    def claim(self, key: Hashable | None) -> bool:
        """True if nobody compresses `key` now (it is then ours); None: always."""
        if key is None:
            return True
        with self._lock:
            if key in self._keys:
                return False
            self._keys.add(key)
            return True

    def release(self, key: Hashable | None) -> None:
        with self._lock:
            self._keys.discard(key)


IN_FLIGHT = InFlight()


@dataclass(frozen=True)
class Batch:
    """One compression's input, planned under the lock and summarized outside it."""

    previous: str | None
    messages: tuple[ChatMessage, ...]
    generation: int  # the memory's state when planned: apply() refuses a stale batch


def is_complete(turn: Sequence[ChatMessage]) -> bool:
    """A turn is complete once it ends with an answer (not with a tool call)."""
    return turn[-1].role is Role.ASSISTANT and not turn[-1].tool_calls


def plan_batch(messages: Sequence[ChatMessage], keep_recent_turns: int,
               batch_turns: int) -> int:
    """How many of the oldest messages to compress next: 0 when nothing is due.

    Whole turns, oldest first, at most `batch_turns` of them. The newest
    `keep_recent_turns` complete turns stay, and so does a turn still in progress
    (the newest one, until its answer arrives). Older turns are over: a newer one
    started, so they are complete even if a crash left one without an answer.

    Two answered turns and a question still waiting for its answer (5 messages):

    >>> said = [ChatMessage.user("q1"), ChatMessage.assistant("a1"),
    ...         ChatMessage.user("q2"), ChatMessage.assistant("a2"),
    ...         ChatMessage.user("q3")]
    >>> plan_batch(said, keep_recent_turns=1, batch_turns=6)  # turn 1 is due
    2
    >>> plan_batch(said, keep_recent_turns=2, batch_turns=6)  # both stay verbatim
    0
    >>> plan_batch(said, keep_recent_turns=0, batch_turns=1)  # one turn a batch
    2
    """
    # From the newest end, the turns that stay: a turn in progress, then the newest
    # complete ones. Only they are read, and the due turns from the oldest end, so
    # a memory far behind (background.py) plans as fast as one that is not.
    stay = keep_recent_turns + (bool(messages) and not is_complete([messages[-1]]))
    tail = size = 0
    for message in reversed(messages):
        if not stay:
            break
        size += 1
        if message.role is Role.USER:  # the first message of a turn that stays
            tail, size, stay = tail + size, 0, stay - 1
    if stay:
        return 0  # fewer turns than stay: nothing is due
    due = 0
    for n, turn in enumerate(turn_sizes(messages)):
        if n == batch_turns or due + turn > len(messages) - tail:
            break
        due += turn
    return due


class IncrementalSummaryChatMemory(PersistentChatMemory):
    """The newest `keep_recent_turns` turns verbatim + a structured summary.

    `lang="zh"`: the summary is asked for, headed and fenced in Chinese.
    """

    _repr_fields = ("keep_recent_turns", "batch_turns", "compression_count")

    def __init__(self, llm: SupportsChat, keep_recent_turns: int = 4,
                 batch_turns: int = 6, *,
                 max_summary_chars: int = MAX_RENDER_CHARS,
                 max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 lang: str | None = None) -> None:
        check_size("keep_recent_turns", keep_recent_turns, 1, "the last question and "
                   "its answer stay verbatim", why_zh="最后一问和它的回答保留原文",
                   lang=lang)
        check_size("batch_turns", batch_turns, 1, "a compression takes a turn or more",
                   why_zh="一次压缩至少一轮", lang=lang)
        check_size("max_summary_chars", max_summary_chars, 200, "room for a few facts",
                   why_zh="要装得下几条事实", lang=lang)
        # the fence follows the summarizer's language (CompressedChatMemory)
        super().__init__(StructuredSummarizer(llm, max_summary_chars, lang=lang,
                                              max_summary_tokens=max_summary_tokens))
        self.keep_recent_turns, self.batch_turns = keep_recent_turns, batch_turns
        self._lock = threading.RLock()  # add, messages, apply: one at a time
        self._generation = 0  # +1 on every change of the summary or a clear

    def locked(self) -> AbstractContextManager[Any]:
        """The memory's lock: a compression is applied from a pool thread."""
        return self._lock

    # -- the contract, under the lock: a reader never sees half an apply
    def add(self, message: ChatMessage) -> None:
        with self._lock:
            super().add(message)

    def messages(self) -> list[ChatMessage]:
        with self._lock:
            return super().messages()

    def clear(self) -> None:
        with self._lock:
            super().clear()
            self._generation += 1  # a compression planned before this is now stale

    def pop(self) -> ChatMessage:
        with self._lock:  # a compression planned before the undo may hold it: stale
            message = super().pop()
            self._generation += 1
            return message

    # -- compression in three steps
    def _trim(self) -> None:
        if not IN_FLIGHT.claim(self.flight_key):
            return  # another handle compresses this session: keep the turns for now
        try:
            batch = self.plan()
            if batch is not None:
                self.apply(batch, self.summarize(batch))
        finally:
            IN_FLIGHT.release(self.flight_key)

    def plan(self) -> Batch | None:
        """The oldest due turns and the summary they will be merged into."""
        with self._lock:
            size = plan_batch(self._messages, self.keep_recent_turns, self.batch_turns)
            if not size:
                return None
            return Batch(self.summary, tuple(islice(self._messages, size)),
                         self._generation)

    def summarize(self, batch: Batch) -> str:
        """The slow step, one model call; never raises (the summarizer falls back)."""
        return self.summarizer.summarize(batch.previous, batch.messages)

    def apply(self, batch: Batch, text: str) -> bool:
        """Swap the batch for the new summary in one step; False if it is stale."""
        with self._lock:
            if batch.generation != self._generation:
                return False  # cleared, restored or compressed meanwhile
            self._generation += 1
            self._replace_oldest(len(batch.messages), text)  # then saved: on_apply
        return True

    def compress_all(self) -> int:
        """Compress every due batch now, one after another; how many ran."""
        count = 0
        while (batch := self.plan()) is not None:
            count += self.apply(batch, self.summarize(batch))
        return count

    def rebuild(self, log: Sequence[ChatMessage], previous: SummaryState) -> None:
        """Compress the whole log again in the fewest full batches, now (replaying
        add() would compress a turn a batch, in background.py on the pool); the
        version continues from `previous`, the count starts over."""
        self.restore(SummaryState(version=previous.version), log)
        self.compress_all()

