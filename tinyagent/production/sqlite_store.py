"""SqliteStore: sessions, their messages and summary snapshots in one SQLite file.

Introduced in notebook 07 (Nexus Agent saves summary snapshots to MySQL, SPEC §7;
the standard library's sqlite3 shows the same idea). Three tables:

- sessions: a name, the strategy it was created with, when it was last used;
- messages: every message of a session, numbered 1, 2, ... in the order added, as
  Chat Completions JSON. Append-only: a summary never deletes what it covers, so a
  crash in the middle of a compression loses nothing and a summary can be rebuilt;
- summaries: one snapshot per summary change (a `SummaryState`), newest last.

Every write is one transaction (`BEGIN IMMEDIATE` ... `COMMIT`, or `ROLLBACK` on an
error), so a process killed mid-write leaves the file as it was before. `":memory:"`
gives a private in-process database. One connection, shared by the threads of a
process under a lock. Left out: schema migrations, connection pools, a server.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ..messages import ChatMessage
from .incremental import SummaryState

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, strategy TEXT NOT NULL,
    created_at REAL NOT NULL, updated_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (session_id, seq));
CREATE TABLE IF NOT EXISTS summaries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    text TEXT, covered_up_to INTEGER NOT NULL, compression_count INTEGER NOT NULL,
    version INTEGER NOT NULL);
"""


@dataclass(frozen=True)
class SessionInfo:
    """One row of `SqliteStore.sessions()`."""

    name: str
    strategy: str
    messages: int
    updated_at: float  # seconds since the epoch, from the store's clock


class SqliteStore:
    """`SqliteStore("chats.db")` or `SqliteStore()` (in memory)."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:", *,
                 clock: Callable[[], float] = time.time) -> None:
        # isolation_level=None: no implicit transactions, ours are written out below
        try:
            self._conn = sqlite3.connect(os.fspath(path), isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.OperationalError as error:
            raise ValueError(f"cannot open the SQLite file {os.fspath(path)!r} "
                             f"({error}): does its folder exist?") from None
        self._conn.execute("PRAGMA foreign_keys = ON")  # deleting cascades
        self._conn.executescript(SCHEMA)
        self._lock = threading.RLock()
        self.clock = clock

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All the statements inside commit together, or none does."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")  # may fail too (e.g. busy): roll back
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def _id(self, db: sqlite3.Connection, name: str, touch: bool = False) -> int:
        row = db.execute("SELECT id FROM sessions WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise KeyError(f"no session named {name!r}: create it first "
                           "(SessionManager.create) or check the name")
        if touch:
            db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?",
                       (self.clock(), row[0]))
        return int(row[0])

    # -- sessions
    def create_session(self, name: str, strategy: str) -> None:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"a session name must be non-empty text, got {name!r}")
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM sessions WHERE name = ?", (name,)).fetchone():
                raise ValueError(f"session {name!r} already exists: load it instead")
            now = self.clock()
            db.execute("INSERT INTO sessions (name, strategy, created_at, updated_at)"
                       " VALUES (?, ?, ?, ?)", (name, strategy, now, now))

    def has_session(self, name: str) -> bool:
        with self._lock:
            return self._conn.execute("SELECT 1 FROM sessions WHERE name = ?",
                                      (name,)).fetchone() is not None

    def sessions(self) -> list[SessionInfo]:
        """Every session, by name."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT name, strategy, (SELECT COUNT(*) FROM messages m WHERE "
                "m.session_id = s.id), updated_at FROM sessions s ORDER BY name")
            return [SessionInfo(*row) for row in rows.fetchall()]

    def delete_session(self, name: str) -> None:
        with self.transaction() as db:  # its messages and summaries go with it
            db.execute("DELETE FROM sessions WHERE id = ?", (self._id(db, name),))

    def clear_session(self, name: str) -> None:
        """Forget a session's messages and summaries; keep the session."""
        with self.transaction() as db:
            session = self._id(db, name, touch=True)
            db.execute("DELETE FROM messages WHERE session_id = ?", (session,))
            db.execute("DELETE FROM summaries WHERE session_id = ?", (session,))

    # -- messages
    def append(self, name: str, messages: Sequence[ChatMessage]) -> int:
        """Add messages at the end of a session; the number of the last one."""
        with self.transaction() as db:
            session = self._id(db, name, touch=True)
            last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM messages WHERE "
                              "session_id = ?", (session,)).fetchone()[0]
            db.executemany(
                "INSERT INTO messages (session_id, seq, message) VALUES (?, ?, ?)",
                [(session, last + i, json.dumps(m.to_dict(), ensure_ascii=False))
                 for i, m in enumerate(messages, 1)])
            return int(last + len(messages))

    def messages(self, name: str, after: int = 0) -> list[ChatMessage]:
        """A session's messages numbered above `after`, oldest first."""
        with self._lock:
            session = self._id(self._conn, name)
            rows = self._conn.execute("SELECT message FROM messages WHERE session_id ="
                                      " ? AND seq > ? ORDER BY seq", (session, after))
            return [ChatMessage.from_dict(json.loads(row[0])) for row in rows]

    def count(self, name: str) -> int:
        with self._lock:
            session = self._id(self._conn, name)
            return int(self._conn.execute("SELECT COUNT(*) FROM messages WHERE "
                                          "session_id = ?", (session,)).fetchone()[0])

    # -- summary snapshots
    def save_summary(self, name: str, state: SummaryState) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO summaries (session_id, text, covered_up_to, "
                       "compression_count, version) VALUES (?, ?, ?, ?, ?)",
                       (self._id(db, name, touch=True), state.text,
                        state.covered_up_to, state.compression_count, state.version))

    def summaries(self, name: str, newest_only: bool = False) -> list[SummaryState]:
        """A session's snapshots, oldest first (or just the newest)."""
        order = "DESC LIMIT 1" if newest_only else "ASC"
        with self._lock:
            session = self._id(self._conn, name)
            rows = self._conn.execute(
                "SELECT text, covered_up_to, compression_count, version FROM summaries"
                f" WHERE session_id = ? ORDER BY id {order}", (session,))
            return [SummaryState(*row) for row in rows.fetchall()]

    def summary(self, name: str) -> SummaryState | None:
        """The newest snapshot, or None before the first compression."""
        newest = self.summaries(name, newest_only=True)
        return newest[0] if newest else None

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:  # no path: notebooks print it
        return f"SqliteStore(sessions={len(self.sessions())})"
