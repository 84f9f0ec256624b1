"""Sessions: one conversation per name, kept apart, saved, and resumed after a restart.

Introduced in notebook 07. A `Session` is a ChatMemory in front of a strategy (any
of them) and a SqliteStore. Each message goes to the store first, in a transaction
of its own, and only then to the strategy: whatever happens inside the strategy (a
summarizer that fails, a process killed mid-compression), the message is already
safe. When the summary changes, a snapshot of it is saved as well.

`SessionManager` creates, lists, loads, deletes and expires sessions. Each session
gets its own memory object and its own rows, so nothing one customer says reaches
another. Loading makes no model call: a summary strategy gets the newest snapshot
and the messages after it; any other strategy replays the whole log (a window trims
itself). `rebuild_summary` compresses a session again from its full log. Left out:
users and authentication, and two processes writing to one session at once.
"""

from __future__ import annotations

import builtins
import threading
from collections.abc import Callable
from typing import Any

from ..memory.base import ChatMemory
from ..memory.summary import SummaryChatMemory
from ..messages import ChatMessage
from .incremental import IncrementalSummaryMemory, SummaryState, restore_summary
from .sqlite_store import SessionInfo, SqliteStore


def snapshot(memory: ChatMemory, total: int) -> SummaryState | None:
    """The summary record of `memory`, which has seen `total` messages; None if none.

    Plain summary memories (notebooks 04-05) keep no record: it is worked out here,
    and their compression count serves as the version.
    """
    if isinstance(memory, IncrementalSummaryMemory):
        return memory.state
    if isinstance(memory, SummaryChatMemory):
        verbatim = len(memory) - (memory.summary is not None)
        return SummaryState(memory.summary, total - verbatim,
                            memory.compression_count, memory.compression_count)
    return None


class Session:
    """A stored conversation: use it as the agent's memory."""

    def __init__(self, name: str, memory: ChatMemory, store: SqliteStore) -> None:
        self.name, self.memory, self.store = name, memory, store
        self._lock = threading.Lock()  # summary saves come from pool threads too
        self._total = store.count(name)  # messages this session holds in the store
        state = snapshot(memory, self._total)
        self._saved_version = state.version if state else 0
        if isinstance(memory, IncrementalSummaryMemory):
            memory.on_apply = self._save_summary  # background results are saved too

    # -- the ChatMemory contract
    def add(self, message: ChatMessage) -> None:
        self._total = self.store.append(self.name, [message])  # write-ahead
        self.memory.add(message)  # may compress: the message is safe already
        if not isinstance(self.memory, IncrementalSummaryMemory):
            state = snapshot(self.memory, self._total)
            if state is not None:
                self._save_summary(state)

    def messages(self) -> list[ChatMessage]:
        return self.memory.messages()

    def clear(self) -> None:
        # The memory first, outside our lock: a background apply holds the memory's
        # lock while it saves through ours, so taking them the other way round
        # could deadlock. After this, a compression still in flight is stale.
        self.memory.clear()
        with self._lock:
            self.store.clear_session(self.name)
            self._total = self._saved_version = 0

    def _save_summary(self, state: SummaryState) -> None:
        with self._lock:
            if state.version != self._saved_version:
                self.store.save_summary(self.name, state)
                self._saved_version = state.version

    # -- looking inside
    @property
    def summary(self) -> str | None:
        return getattr(self.memory, "summary", None)

    def transcript(self) -> list[ChatMessage]:
        """Every message of the session, from the store (summarized ones too)."""
        return self.store.messages(self.name)

    def __len__(self) -> int:
        return len(self.memory.messages())

    def __repr__(self) -> str:
        return f"Session({self.name!r}, {self.memory!r})"

    def _repr_html_(self) -> Any:
        return getattr(self.memory, "_repr_html_", lambda: None)()


class SessionManager:
    """Sessions of one strategy in one store: `manager.open("alice")`."""

    def __init__(self, store: SqliteStore, memory_factory: Callable[[], ChatMemory],
                 strategy: str = "custom") -> None:
        self.store, self.memory_factory, self.strategy = store, memory_factory, strategy

    def create(self, name: str) -> Session:
        """A new, empty session; ValueError if the name is taken."""
        self.store.create_session(name, self.strategy)
        return Session(name, self.memory_factory(), self.store)

    def load(self, name: str) -> Session:
        """The stored session with its memory rebuilt, without a model call."""
        memory, state = self.memory_factory(), self.store.summary(name)
        if isinstance(memory, SummaryChatMemory):
            state = state or SummaryState()
            after = self.store.messages(name, after=state.covered_up_to)
            if isinstance(memory, IncrementalSummaryMemory):
                memory.restore(state, after)
            else:
                restore_summary(memory, state, after)
        else:  # a window or a plain list: replay the log, it trims itself
            for message in self.store.messages(name):
                memory.add(message)
        return Session(name, memory, self.store)

    def open(self, name: str) -> Session:
        """Load the session if it exists, else create it."""
        return self.load(name) if self.store.has_session(name) else self.create(name)

    def list(self) -> list[SessionInfo]:
        return self.store.sessions()

    def delete(self, name: str) -> None:
        self.store.delete_session(name)

    def expire(self, max_idle_seconds: float) -> builtins.list[str]:  # list(): ours
        """Delete sessions unused for longer than `max_idle_seconds`; their names."""
        if max_idle_seconds < 0:
            raise ValueError(f"max_idle_seconds must be >= 0, got {max_idle_seconds}")
        cutoff = self.store.clock() - max_idle_seconds
        idle = [s.name for s in self.store.sessions() if s.updated_at < cutoff]
        for name in idle:
            self.store.delete_session(name)
        return idle

    def rebuild_summary(self, name: str) -> Session:
        """Compress the session again from its full log; the session, rebuilt.

        For a summary that went wrong, or after changing the summarizer. The log is
        not touched; the new summary is saved as the newest snapshot.
        """
        memory, log = self.memory_factory(), self.store.messages(name)
        old = self.store.summary(name) or SummaryState()
        if isinstance(memory, IncrementalSummaryMemory):
            memory.restore(SummaryState(version=old.version), log)
            memory.compress_all()  # batches of whole turns, oldest first
        else:
            for message in log:
                memory.add(message)
        state = snapshot(memory, len(log))
        if state is not None:
            self.store.save_summary(name, state)
        return Session(name, memory, self.store)
