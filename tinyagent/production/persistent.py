"""A summary memory that a store can save and a restart can load: its record.

Introduced in notebook 09. Notebooks 04 and 05 compress and hold a summary; to keep
it across restarts a session also needs to know how far the summary reaches
(`covered_up_to`: it includes messages 1..n of the conversation) and which version
it is, so that a store refuses a snapshot built on an old one. That record is a
`SummaryState`, and `Persistent` is what a session asks of whatever keeps it: the
record now, a snapshot restored without a model call, a whole log compressed
again (`rebuild`, written once here), every compression reported to `on_apply`.
Two ways to have one:

- `PersistentChatMemory`, the base of the production memories: it keeps the record
  itself and reports every change, from whichever thread applied it;
- `Recorded`, which a session puts in front of a summary memory of notebooks 04-05
  (`tinyagent chat --memory hybrid --session NAME`): the same record, kept beside
  the memory, which stays the class the learner built.

`recorded(memory)` gives whichever fits, or None for a memory without a summary.
Left out: the stores themselves (tinyagent.storage) and the sessions (sessions.py).
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from ..memory.base import ChatMemory
from ..memory.compressed import CompressedChatMemory
from ..memory.summarizer import Summarizer
from ..messages import ChatMessage
from ..storage.base import SummaryState

OnApply = Callable[[SummaryState], None]


class Persistent(ABC):
    """A summary memory's record, as a session saves and reloads it."""

    # Called with the new state after each compression: a session saves it there.
    on_apply: OnApply | None = None
    # Which conversation this is (a session sets it): one compression at a time
    # runs per conversation (incremental.py).
    flight_key: Hashable | None = None

    @property
    @abstractmethod
    def state(self) -> SummaryState:
        """The summary, how many messages of the conversation it covers, its counts."""

    @abstractmethod
    def add(self, message: ChatMessage) -> None:
        """Add a message to the memory, counted, as ChatMemory.add."""

    @abstractmethod
    def restore(self, state: SummaryState, messages: Sequence[ChatMessage]) -> None:
        """Load a snapshot and the messages after it, without a model call."""

    @abstractmethod
    def compress_if_due(self) -> None:
        """Compress now if one is due (after a reload, say), as add() would."""

    def locked(self) -> AbstractContextManager[Any]:
        """Hold this to see no compression half applied; a memory that compresses
        on another thread (background.py) returns its lock."""
        return contextlib.nullcontext()

    def rebuild(self, log: Sequence[ChatMessage], previous: SummaryState) -> None:
        """Compress a whole conversation again, continuing the counts of `previous`:
        the log is added again as it was played, so the same compressions run."""
        self.restore(SummaryState(compression_count=previous.compression_count,
                                  version=previous.version), [])
        for message in log:
            self.add(message)


class PersistentChatMemory(CompressedChatMemory, Persistent):
    """A CompressedChatMemory that keeps its record itself."""

    def __init__(self, summarizer: Summarizer, *,
                 threshold_tokens: int | None = None) -> None:
        super().__init__(summarizer, threshold_tokens=threshold_tokens)
        self.covered_up_to = 0  # the summary includes messages 1..covered_up_to
        self.version = 0  # +1 each time the summary changes

    def _replace_oldest(self, count: int, summary: str) -> None:
        super()._replace_oldest(count, summary)
        self.covered_up_to += count
        self.version += 1
        if self.on_apply is not None:
            self.on_apply(self.state)

    def clear(self) -> None:
        super().clear()
        self.covered_up_to = self.version = 0

    @property
    def state(self) -> SummaryState:
        with self.locked():
            return SummaryState(self.summary, self.covered_up_to,
                                self.compression_count, self.version)

    def restore(self, state: SummaryState, messages: Sequence[ChatMessage]) -> None:
        with self.locked():
            self.hold(state.text, messages, state.compression_count)
            self.covered_up_to, self.version = state.covered_up_to, state.version

    def compress_if_due(self) -> None:
        with self.locked():
            self._trim()


class Recorded(Persistent):
    """The record of a notebook 04-05 summary memory, kept beside it.

    A ChatMemory itself: messages go in through it, so it knows how many the memory
    has seen; a compression is noticed by the memory's count and reported to
    `on_apply`, as PersistentChatMemory does. Compressions run inside add(), on the
    caller's thread: `locked()` needs no lock.
    """

    def __init__(self, memory: CompressedChatMemory) -> None:
        self.memory = memory
        self._seen = len(memory.messages()) - (memory.summary is not None)
        self._start = SummaryState(compression_count=memory.compression_count)

    # -- the ChatMemory contract, counted
    def add(self, message: ChatMessage) -> None:
        before = self.memory.compression_count
        self.memory.add(message)
        self._seen += 1
        if self.memory.compression_count != before and self.on_apply is not None:
            self.on_apply(self.state)

    def messages(self) -> list[ChatMessage]:
        return self.memory.messages()

    def clear(self) -> None:
        self.memory.clear()
        self._seen, self._start = 0, SummaryState()

    def pop(self) -> ChatMessage:
        """The memory's undo, counted: the messages it removed were never seen."""
        held = len(self.memory.messages())
        message = self.memory.pop()  # type: ignore[attr-defined]
        self._seen -= held - len(self.memory.messages())
        return message

    # -- the record
    @property
    def state(self) -> SummaryState:
        memory = self.memory
        verbatim = len(memory.messages()) - (memory.summary is not None)
        done = memory.compression_count - self._start.compression_count
        return SummaryState(memory.summary, self._seen - verbatim,
                            memory.compression_count, self._start.version + done)

    def restore(self, state: SummaryState, messages: Sequence[ChatMessage]) -> None:
        self.memory.hold(state.text, messages, state.compression_count)
        self._seen, self._start = state.covered_up_to + len(messages), state

    def compress_if_due(self) -> None:
        # The strategy's own trigger, which add() runs: these memories compress
        # only there, so after a reload it is run once by hand.
        self.memory._trim()


def recorded(memory: ChatMemory) -> Persistent | None:
    """`memory`'s record: itself for a production memory, a Recorded in front of a
    notebook 04-05 summary memory, None for a memory without a summary."""
    if isinstance(memory, PersistentChatMemory):
        return memory
    if isinstance(memory, CompressedChatMemory):
        return Recorded(memory)
    return None
