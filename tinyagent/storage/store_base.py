"""What a new kind of session store implements: the `StoreBase` abstract class.

Introduced in notebook 09, next to the `Store` protocol (base.py) it fulfils. The
protocol is what code that *uses* a store relies on; this class is what a store's
*author* subclasses, as `SqliteStore` and `PostgresStore` do. Its abstract methods
are the queries only a database can answer, each in one transaction; the rest is
derived from them once, here: one session's row, the newest snapshot, `with`
closing the store, and a repr that shows no path or URL (a URL may hold a password;
notebooks print the repr). Python refuses to instantiate a subclass that forgot a
query. Left out: an async variant, and a store kept only in memory for tests
(`SqliteStore(":memory:")` is one).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TypeVar

from ..messages import ChatMessage
from .base import SessionInfo, SummaryState, missing

S = TypeVar("S", bound="StoreBase")


class StoreBase(ABC):
    """A `Store`: subclass it, set `clock` and `key`, write the abstract queries."""

    clock: Callable[[], float]  # seconds since the epoch: `updated_at`, expiry
    key: str  # which database, without secrets: handles with one key share sessions

    @abstractmethod
    def create_session(self, name: str, strategy: str) -> None:
        """A new, empty session; ValueError if the name is blank or taken."""

    @abstractmethod
    def has_session(self, name: str) -> bool:
        """Whether a session of that name exists."""

    @abstractmethod
    def select_sessions(self, name: str | None = None) -> list[SessionInfo]:
        """Every session's row by name, or only the row of the one called `name`."""

    @abstractmethod
    def delete_session(self, name: str) -> None:
        """The session, its messages and its snapshots, gone."""

    @abstractmethod
    def clear_session(self, name: str) -> None:
        """Its messages and snapshots gone; the session (and its strategy) kept."""

    @abstractmethod
    def append(self, name: str, messages: Sequence[ChatMessage]) -> int:
        """Add messages at the end of a session; the number of the last one."""

    @abstractmethod
    def messages(self, name: str, after: int = 0) -> list[ChatMessage]:
        """The messages numbered above `after`, oldest first."""

    @abstractmethod
    def count(self, name: str) -> int:
        """How many messages the session holds."""

    @abstractmethod
    def pop_messages(self, name: str, messages: Sequence[ChatMessage],
                     number: int) -> bool:
        """Undo: remove the newest messages if they are still `messages`, numbered
        up to `number`, and no snapshot covers them, in one transaction. False,
        and nothing removed, when another writer changed the session first."""

    @abstractmethod
    def save_summary(self, name: str, state: SummaryState,
                     base_version: int | None = None) -> bool:
        """Save `state` if the newest saved version is `base_version` (0: none),
        in one transaction. False, and nothing saved, when another writer saved a
        snapshot first. `base_version=None` means `state.version - 1`."""

    @abstractmethod
    def summaries(self, name: str, newest_only: bool = False) -> list[SummaryState]:
        """The snapshots, oldest first (or just the newest)."""

    @abstractmethod
    def close(self) -> None:
        """Release the file or the connection."""

    # -- derived once for every store

    def sessions(self) -> list[SessionInfo]:
        """Every session, by name."""
        return self.select_sessions()

    def session(self, name: str) -> SessionInfo:
        """One session's row; KeyError if there is none."""
        for found in self.select_sessions(name):
            return found
        raise missing(name)

    def summary(self, name: str) -> SummaryState | None:
        """The newest snapshot, or None before the first compression."""
        return next(iter(self.summaries(name, newest_only=True)), None)

    def __enter__(self: S) -> S:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(sessions={len(self.sessions())})"
