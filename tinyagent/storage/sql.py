"""SqlStore: every query of a session store, written once for SQLite and PostgreSQL.

Introduced in notebook 09. Three tables:

- sessions: a name, the strategy it was created with, when it was last used;
- messages: every message of a session, numbered 1, 2, ... in the order added, as
  Chat Completions JSON. Append-only: a summary never deletes what it covers, so a
  crash in the middle of a compression loses nothing and a summary can be rebuilt;
- summaries: one snapshot per summary change (a `SummaryState`), newest last, at
  most one per version.

The queries are written here in the SQL both databases speak, with `?` for a value
and `{messages}` for a table's name. A subclass is a database's dialect: it says how
those are written there, and supplies what cannot be shared, because the two
drivers and servers differ in kind, not in spelling:

- the placeholder (`?` for sqlite3, `%s` for psycopg) and the tables' names (a
  server's database is shared with other applications: PostgreSQL's are prefixed);
- how writers take turns: SQLite's `BEGIN IMMEDIATE` locks the whole file, a server
  locks the session's row (`lock`), so writers of two sessions do not wait;
- the connection, the column types (`SCHEMA`), and the driver's errors: sqlite3
  tells what went wrong only in its message text, psycopg by the exception's class;
  each dialect turns them into one-line StoreErrors that show no secret.

The methods' contract is the `Store` protocol's (base.py), written there once;
`help()` shows its docstrings here. This class is how SQL keeps it; a store of
another kind (Redis, a dict) would implement the protocol directly. Python refuses
to make a dialect that forgot a hook. Left out: migrations, users, retention.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from ..lang import say
from ..messages import ChatMessage
from .base import (
    SessionInfo,
    Store,
    SummaryState,
    check_name,
    decode,
    missing,
)

S = TypeVar("S", bound="SqlStore")


class SqlStore(Store):
    """The queries; a subclass sets the dialect's words and writes its three hooks."""

    # The dialect's words, which each subclass sets:
    mark: str  # how the driver writes a value's place in a query
    prefix: str  # before every table's name
    lock: str  # after the SELECT of a session that a transaction will change
    tiebreak: str  # after `version`, what orders the snapshots of a session

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Any]:
        """A connection whose statements commit together or not at all; two
        writers of one session take turns."""

    @abstractmethod
    def reading(self) -> AbstractContextManager[Any]:
        """A connection to read from."""

    @abstractmethod
    def close(self) -> None: ...

    def run(self, db: Any, query: str, values: Sequence[object] = ()) -> Any:
        """`query`, written with `?` and `{table}` names, sent in this dialect."""
        names = {table: self.prefix + table
                 for table in ("sessions", "messages", "summaries")}
        return db.execute(query.format_map(names).replace("?", self.mark), values)

    def _id(self, db: Any, name: str, write: bool = False) -> int:
        """The session's id. Before a write: its other writers wait until we commit
        (the dialect's `lock`; a writer that waited for a session deleted meanwhile
        finds it missing), and it is marked used now."""
        row = self.run(db, "SELECT id FROM {sessions} WHERE name = ?" + self.lock
                       * write, (name,)).fetchone()
        if row is None:
            raise missing(name)
        if write:
            self.run(db, "UPDATE {sessions} SET updated_at = ? WHERE id = ?",
                     (self.clock(), row[0]))
        return int(row[0])

    # -- sessions
    def create_session(self, name: str, strategy: str) -> None:
        check_name(name)
        now = self.clock()
        # Two creators at once: one row, and the other told so. Both databases speak
        # this upsert (SQLite since 3.24); on a server, SELECT-then-INSERT would race.
        with self.transaction() as db:
            added = self.run(db, "INSERT INTO {sessions} (name, strategy, created_at, "
                             "updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO "
                             "NOTHING", (name, strategy, now, now)).rowcount
        if added != 1:
            raise ValueError(say(f"session {name!r} already exists: load it instead",
                                 f"会话 {name!r} 已存在：请直接加载它"))

    def has_session(self, name: str) -> bool:
        with self.reading() as db:
            return self.run(db, "SELECT 1 FROM {sessions} WHERE name = ?",
                            (name,)).fetchone() is not None

    def _rows(self, name: str | None = None) -> list[SessionInfo]:
        """Every session's row by name, or only the row of the one called `name`."""
        where = "" if name is None else "WHERE name = ? "
        with self.reading() as db:
            rows = self.run(db, "SELECT name, strategy, (SELECT COUNT(*) FROM "
                            "{messages} m WHERE m.session_id = s.id), updated_at FROM "
                            "{sessions} s " + where + "ORDER BY name",
                            () if name is None else (name,)).fetchall()
        return [SessionInfo(n, s, int(c), float(u)) for n, s, c, u in rows]

    def sessions(self) -> list[SessionInfo]:
        return self._rows()

    def session(self, name: str) -> SessionInfo:
        for found in self._rows(name):
            return found
        raise missing(name)

    def delete_session(self, name: str) -> None:
        with self.transaction() as db:  # its messages and summaries go with it
            self.run(db, "DELETE FROM {sessions} WHERE id = ?",
                     (self._id(db, name, write=True),))

    def clear_session(self, name: str) -> None:
        with self.transaction() as db:
            session = self._id(db, name, write=True)
            self.run(db, "DELETE FROM {messages} WHERE session_id = ?", (session,))
            self.run(db, "DELETE FROM {summaries} WHERE session_id = ?", (session,))

    # -- messages
    def append(self, name: str, messages: Sequence[ChatMessage]) -> int:
        with self.transaction() as db:
            session = self._id(db, name, write=True)
            last = self.run(db, "SELECT COALESCE(MAX(seq), 0) FROM {messages} WHERE "
                            "session_id = ?", (session,)).fetchone()[0]
            for number, message in enumerate(messages, last + 1):
                self.run(db, "INSERT INTO {messages} (session_id, seq, message) "
                         "VALUES (?, ?, ?)", (session, number, json.dumps(
                             message.to_record(), ensure_ascii=False)))
            return int(last + len(messages))

    def messages(self, name: str, after: int = 0) -> list[ChatMessage]:
        with self.reading() as db:
            rows = self.run(db, "SELECT seq, message FROM {messages} WHERE session_id "
                            "= ? AND seq > ? ORDER BY seq", (self._id(db, name), after))
            return [decode(name, seq, text) for seq, text in rows.fetchall()]

    def count(self, name: str) -> int:
        with self.reading() as db:
            return int(self.run(db, "SELECT COUNT(*) FROM {messages} WHERE session_id "
                                "= ?", (self._id(db, name),)).fetchone()[0])

    def pop_messages(self, name: str, messages: Sequence[ChatMessage],
                     number: int) -> bool:
        # An undo is the one way a message leaves the log (notebook 10's /undo),
        # a compare-and-swap like save_summary's: checked and done in one transaction.
        first = number - len(messages) + 1
        with self.transaction() as db:
            session = self._id(db, name, write=True)
            newest = self.run(db, "SELECT COALESCE(MAX(seq), 0) FROM {messages} WHERE "
                              "session_id = ?", (session,)).fetchone()[0]
            covered = self.run(db, "SELECT COALESCE(MAX(covered_up_to), 0) FROM "
                               "{summaries} WHERE session_id = ?",
                               (session,)).fetchone()[0]
            if not messages or first < 1 or newest != number or covered >= first:
                return False  # someone appended or summarized first: nothing to undo
            rows = self.run(db, "SELECT seq, message FROM {messages} WHERE session_id "
                            "= ? AND seq >= ? ORDER BY seq", (session, first))
            if [decode(name, seq, text) for seq, text in rows.fetchall()] != list(
                    messages):
                return False  # another writer undid these and wrote others instead
            self.run(db, "DELETE FROM {messages} WHERE session_id = ? AND seq >= ?",
                     (session, first))
            return True

    # -- summary snapshots
    def save_summary(self, name: str, state: SummaryState,
                     base_version: int | None = None) -> bool:
        base = state.version - 1 if base_version is None else base_version
        with self.transaction() as db:  # the check and the insert: one transaction
            session = self._id(db, name, write=True)
            newest = self.run(db, "SELECT COALESCE(MAX(version), 0) FROM {summaries} "
                              "WHERE session_id = ?", (session,)).fetchone()[0]
            if newest != base or state.version <= base:
                return False  # another writer saved first, or not a newer version
            self.run(db, "INSERT INTO {summaries} (session_id, version, text, "
                     "covered_up_to, compression_count) VALUES (?, ?, ?, ?, ?)",
                     (session, state.version, state.text, state.covered_up_to,
                      state.compression_count))
            return True

    def summaries(self, name: str, newest_only: bool = False
                  ) -> list[SummaryState]:
        order = "DESC" if newest_only else "ASC"
        with self.reading() as db:
            rows = self.run(db, "SELECT text, covered_up_to, compression_count, "
                            "version FROM {summaries} WHERE session_id = ? ORDER BY "
                            f"version {order}, {self.tiebreak} {order}"
                            + " LIMIT 1" * newest_only, (self._id(db, name),))
            return [SummaryState(*row) for row in rows.fetchall()]

    def summary(self, name: str) -> SummaryState | None:
        return next(iter(self.summaries(name, newest_only=True)), None)

    def __enter__(self: S) -> S:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:  # no path, no URL: a URL may hold a password
        return f"{type(self).__name__}(sessions={len(self.sessions())})"
