"""Sessions: one conversation per name, kept apart, saved, and resumed after a restart.

Introduced in notebook 09. A `Session` is a ChatMemory in front of a strategy (any
of them) and a store (tinyagent.storage: SQLite or PostgreSQL). Each message goes to
the store first, in a transaction of its own, and only then to the strategy:
whatever happens inside the strategy (a summarizer that fails, a process killed
mid-compression), the message is already safe. When the summary changes, a
snapshot of it (its record, persistent.py) is saved as well.

Many handles may write to one session: two requests in one process, several
processes, several servers. Appends never conflict. A handle that finds messages
from another writer before its own, or a newer summary than its own, reloads its
memory from the store (the newest snapshot and the messages after it) instead of
adding blindly. A summary is saved only if the snapshot it was built on is still
the newest; if another writer saved first, the handle drops its summary, reloads,
and plans again. So every message is
in the transcript and, after any interleaving, either in the newest summary or
still verbatim, and no version is saved twice.

`SessionManager` creates, lists, loads, deletes and expires sessions. Loading makes
no model call: a summary strategy gets the newest snapshot and the messages after
it; any other strategy replays the whole log (a window trims itself).
`rebuild_summary` compresses a session again from its full log. Left out: users
and authentication.
"""

from __future__ import annotations

import builtins
import contextlib
import threading
from collections.abc import Callable

from ..display import memory_table
from ..memory.base import ChatMemory
from ..memory.turns import call_before, orphan_error
from ..messages import ChatMessage, Role
from ..storage import SessionInfo, Store, StoreError, SummaryState, check_name
from .persistent import Persistent, recorded
from .restore import load_memory
from .undo import Undo

REBUILD_ATTEMPTS = 3  # then another writer is too busy: the rebuild gives up


class SessionDeletedError(StoreError):
    """The session was deleted (by another process, say) while this handle used it."""

    def __init__(self, name: str) -> None:
        super().__init__(f"session {name!r} was deleted while in use: its earlier "
                         "turns are gone and this one was not saved; start it again "
                         "to begin a new conversation")


class Session(Undo):
    """A stored conversation: use it as the agent's memory; `pop()` undoes (undo.py)."""

    def __init__(self, name: str, memory: ChatMemory, store: Store,
                 seen: int | None = None, *, record: Persistent | None = None
                 ) -> None:
        self.name, self.memory, self.store = name, memory, store
        self._lock = threading.RLock()  # summary saves come from pool threads too
        self._seen = store.count(name) if seen is None else seen  # in the memory
        self._newest = self._stored(self._seen)  # to notice another writer's undo
        self.conflicts = 0  # summaries dropped because another writer saved first
        # The summary's record (persistent.py), None for a memory without a summary;
        # `record`: one the caller built already (a rebuild, which knows its counts).
        self._record = record if record is not None else recorded(memory)
        # Messages go in through the record, so that it counts them.
        self._target: ChatMemory = memory if self._record is None else self._record
        self._saved_version = 0 if self._record is None else self._record.state.version
        if self._record is not None:
            self._record.on_apply = self._save_summary  # from pool threads too
            self._record.flight_key = (store.key, name)  # one compressor a session

    # -- the ChatMemory contract
    def add(self, message: ChatMessage) -> None:
        self.add_all([message])

    def add_all(self, messages: list[ChatMessage]) -> None:
        """Add a whole turn in one transaction: stored together, or not at all (a
        question never stays without its answer when the disk is full)."""
        bad = [m for m in messages if not isinstance(m, ChatMessage)]
        if bad or not messages:
            got = repr(bad[0] if bad else messages)
            raise TypeError(f"a session stores ChatMessages, got {got:.60}: use "
                            "ChatMessage.user(text) or ChatMessage.assistant(text)")
        self._check_calls(messages)
        try:
            number = self.store.append(self.name, messages)  # write-ahead
        except KeyError:  # the row is gone: another process deleted the session
            raise SessionDeletedError(self.name) from None
        first = number - len(messages) + 1
        # Someone else's summary is newer than ours: reload now rather than waste a
        # model call on a summary the store would refuse.
        newer = False
        if self._record is not None:
            stored = self.store.summary(self.name) or SummaryState()
            newer = stored.version != self._saved_version
        with self._lock:
            # Behind: another writer appended between our last message and these.
            behind = newer or first != self._seen + 1 or self._tail_moved(first)
            self._seen, self._newest = number, messages[-1]
        conflicts = self.conflicts
        if behind:  # another writer wrote first: take it all, our messages too
            self._reload()
        else:
            for message in messages:  # may compress: the messages are safe already
                self._target.add(message)
        if self.conflicts != conflicts and self._record is not None:
            self._record.compress_if_due()  # our summary lost: plan again from theirs

    def _check_calls(self, messages: list[ChatMessage]) -> None:
        """A tool result must follow its call (else every later request would be
        rejected with HTTP 400, for good): checked before anything is stored."""
        if any(m.role is Role.TOOL for m in messages):
            held = self.memory.messages()
            for message in messages:
                if message.role is Role.TOOL and not call_before(held, message):
                    raise orphan_error(message)
                held.append(message)

    def messages(self) -> list[ChatMessage]:
        return self.memory.messages()

    def clear(self) -> None:
        # The memory first, outside our lock: a background apply holds the memory's
        # lock while it saves through ours, so taking them the other way round
        # could deadlock. After this, a compression still in flight is stale.
        self._target.clear()
        with self._lock:
            self.store.clear_session(self.name)
            self._seen = self._saved_version = 0
            self._newest = None

    def _load(self) -> None:
        """Make the memory what the store holds now, without a model call."""
        record = self._record
        memory_lock = contextlib.nullcontext() if record is None else record.locked()
        # The memory's lock before ours, in the order a background apply takes them.
        with memory_lock, self._lock:
            self._seen = load_memory(self._target, self.store, self.name)
            self._newest = self._stored(self._seen)
            self._saved_version = 0 if record is None else record.state.version

    def _reload(self) -> None:
        """Make the memory what the store holds now; then compress if due."""
        self._load()
        if self._record is not None:
            self._record.compress_if_due()

    def _save_summary(self, state: SummaryState) -> None:
        with self._lock:
            if state.version == self._saved_version:
                return
            if self.store.save_summary(self.name, state, self._saved_version):
                self._saved_version = state.version
                return
            self.conflicts += 1  # someone saved a summary first: ours is stale
        self._reload()  # theirs, the messages after it, and plan again

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

    def _repr_html_(self) -> str:  # the memory's table, as a notebook shows it
        return memory_table(self.memory)


class SessionManager:
    """Sessions of one strategy in one store: `manager.open("alice")`."""

    def __init__(self, store: Store, memory_factory: Callable[[], ChatMemory],
                 strategy: str = "custom") -> None:
        self.store, self.memory_factory, self.strategy = store, memory_factory, strategy

    def create(self, name: str) -> Session:
        """A new, empty session; ValueError if the name is taken."""
        self.store.create_session(check_name(name), self.strategy)
        return Session(name, self.memory_factory(), self.store, seen=0)

    def load(self, name: str) -> Session:
        """The stored session with its memory rebuilt, without a model call."""
        session = Session(check_name(name), self.memory_factory(), self.store, seen=0)
        session._load()
        return session

    def open(self, name: str) -> Session:
        """Load the session if it exists, else create it."""
        if self.store.has_session(check_name(name)):
            return self.load(name)
        try:
            return self.create(name)
        except ValueError:  # another process created it since we looked: load it
            if not self.store.has_session(name):
                raise
            return self.load(name)

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
        not touched; the new summary is saved as the newest snapshot (if another
        writer saved one meanwhile, the rebuild starts over from the log, at most
        REBUILD_ATTEMPTS times: each attempt pays for its summary calls again).
        """
        for _attempt in range(REBUILD_ATTEMPTS):
            memory, log = self.memory_factory(), self.store.messages(name)
            old = self.store.summary(name) or SummaryState()
            record = recorded(memory)
            if record is None:  # a plain list: nothing to compress, nothing to save
                return self.load(name)
            record.rebuild(log, old)
            state = record.state
            if state.version == old.version:
                break  # nothing compressed: nothing to save
            if self.store.save_summary(name, state, old.version):
                break
        else:  # a chat saved a newer snapshot each time: do not chase it for ever
            raise StoreError(f"session {name!r} kept changing during the rebuild "
                             f"({REBUILD_ATTEMPTS} attempts): rebuild it when its "
                             "chat is idle")
        return Session(name, memory, self.store, seen=len(log), record=record)
