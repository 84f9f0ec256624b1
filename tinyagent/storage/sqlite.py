"""SqliteStore: sessions, their messages and summary snapshots in one SQLite file.

Introduced in notebook 09 (Nexus Agent saves summary snapshots to MySQL; the
standard library's sqlite3 shows the same idea). Three tables:

- sessions: a name, the strategy it was created with, when it was last used;
- messages: every message of a session, numbered 1, 2, ... in the order added, as
  Chat Completions JSON. Append-only: a summary never deletes what it covers, so a
  crash in the middle of a compression loses nothing and a summary can be rebuilt;
- summaries: one snapshot per summary change (a `SummaryState`), newest last, at
  most one per version.

Every write is one transaction (`BEGIN IMMEDIATE` ... `COMMIT`, or `ROLLBACK` on an
error): a process killed mid-write leaves the file as it was, and two processes
writing to one file take turns, each waiting up to `lock_wait` seconds for the
other. `save_summary` checks the newest version inside that transaction (base.py).
The file is created readable by its owner only. `":memory:"` gives a private
database. One connection, shared by the threads of a process under a lock. Left out:
schema migrations, WAL mode, connection pools.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from ..lang import say
from ..messages import ChatMessage
from ..redact import mask_path
from .base import (
    SessionInfo,
    StoreError,
    SummaryState,
    check_name,
    decode,
    missing,
)
from .sqlite_file import SCHEMA, create_private, prepare
from .store_base import StoreBase
from .undo import pop_rows

__all__ = ["SCHEMA", "LOCK_WAIT", "SqliteStore"]  # SCHEMA: for production.sqlite_store

LOCK_WAIT = 10.0  # seconds a writer waits for another process's transaction
DOING_ZH = {"open": "打开", "write to": "写入", "read": "读取"}  # _guard's verbs
class SqliteStore(StoreBase):
    """`SqliteStore("chats.db")` or `SqliteStore()` (in memory)."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:", *,
                 clock: Callable[[], float] = time.time,
                 lock_wait: float = LOCK_WAIT, create: bool = True) -> None:
        self.path, self.clock, self.lock_wait = os.fspath(path), clock, lock_wait
        self.shown = mask_path(self.path)  # what errors print: no secret written in it
        if self.path == ":memory:":
            self.key = f"sqlite::memory:{id(self)}"  # private to this object
        else:
            if os.path.isdir(self.path):
                raise StoreError(say(f"the SQLite path {self.shown!r} is a folder: "
                                     "give a file name inside it, e.g. sessions.db",
                                     f"SQLite 路径 {self.shown!r} 是一个文件夹：请给出"
                                     "其中的文件名，例如 sessions.db"))
            if not os.path.exists(self.path):
                if not create:  # e.g. `sessions list`: looking must not create it
                    raise StoreError(say(
                        f"the SQLite file {self.shown!r} does not exist: check the "
                        "path (chat --session creates it)",
                        f"SQLite 文件 {self.shown!r} 不存在：请检查路径"
                        "（chat --session 会创建它）"))
                create_private(self.path)
            self.key = "sqlite:" + os.path.realpath(self.path)
        self._lock = threading.RLock()
        # isolation_level=None: no implicit transactions, ours are written out below
        with self._guard("open"):
            self._conn = sqlite3.connect(self.path, timeout=lock_wait,
                                         isolation_level=None, check_same_thread=False)
        with self._guard("open"):
            self._conn.execute("PRAGMA foreign_keys = ON")  # deleting cascades
            prepare(self._conn, self.path)  # ours, or made ours if empty

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """sqlite3's errors as one-line StoreErrors that say what to do."""
        try:
            yield
        except sqlite3.Error as error:
            text = str(error)
            if "locked" in text or "busy" in text:
                fix = say(f"another process held it for more than "
                          f"{self.lock_wait:g} s; try again when it is done",
                          f"另一个进程占用它超过 {self.lock_wait:g} 秒；"
                          "请等它结束后重试")
            elif "not a database" in text or "malformed" in text:
                fix = say("the file is not an intact SQLite database: move it away",
                          "这个文件不是完好的 SQLite 数据库：请把它移走")
            elif "readonly" in text or "unable to open" in text:
                fix = say("check that the file and its folder are writable",
                          "请检查文件及其文件夹是否可写")
            elif "full" in text or "disk I/O" in text:
                fix = say("free some disk space, then try again; nothing was written",
                          "请腾出磁盘空间后重试；没有写入任何内容")
            else:
                raise
            raise StoreError(say(
                f"cannot {doing} the SQLite file {self.shown!r} ({text}): {fix}",
                f"无法{DOING_ZH[doing]} SQLite 文件 {self.shown!r}（{text}）：{fix}")
                ) from None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All the statements inside commit together, or none does."""
        with self._lock, self._guard("write to"):
            self._conn.execute("BEGIN IMMEDIATE")  # waits for other writers
            try:
                yield self._conn
                self._conn.execute("COMMIT")  # may fail too (e.g. busy): roll back
            except BaseException:
                # SQLite has already rolled back after some errors (a full disk):
                # a second ROLLBACK would fail and hide the real cause.
                if self._conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._conn.execute("ROLLBACK")
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._guard("read"):
            yield self._conn

    def _id(self, db: sqlite3.Connection, name: str, touch: bool = False) -> int:
        row = db.execute("SELECT id FROM sessions WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise missing(name)
        if touch:
            db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?",
                       (self.clock(), row[0]))
        return int(row[0])

    # -- sessions
    def create_session(self, name: str, strategy: str) -> None:
        check_name(name)
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM sessions WHERE name = ?", (name,)).fetchone():
                raise ValueError(say(f"session {name!r} already exists: load it "
                                     "instead", f"会话 {name!r} 已存在：请直接加载它"))
            now = self.clock()
            db.execute("INSERT INTO sessions (name, strategy, created_at, updated_at)"
                       " VALUES (?, ?, ?, ?)", (name, strategy, now, now))

    def has_session(self, name: str) -> bool:
        with self._read() as db:
            return db.execute("SELECT 1 FROM sessions WHERE name = ?",
                              (name,)).fetchone() is not None

    def select_sessions(self, name: str | None = None) -> list[SessionInfo]:
        """Every session, by name (or just the one called `name`)."""
        where = "" if name is None else "WHERE name = ? "
        with self._read() as db:
            rows = db.execute(
                "SELECT name, strategy, (SELECT COUNT(*) FROM messages m WHERE "
                f"m.session_id = s.id), updated_at FROM sessions s {where}ORDER BY "
                "name", () if name is None else (name,))
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
                [(session, last + i, json.dumps(m.to_record(), ensure_ascii=False))
                 for i, m in enumerate(messages, 1)])
            return int(last + len(messages))

    def messages(self, name: str, after: int = 0) -> list[ChatMessage]:
        """A session's messages numbered above `after`, oldest first."""
        with self._read() as db:
            rows = db.execute("SELECT seq, message FROM messages WHERE session_id = ? "
                              "AND seq > ? ORDER BY seq", (self._id(db, name), after))
            return [decode(name, seq, text) for seq, text in rows]

    def count(self, name: str) -> int:
        with self._read() as db:
            return int(db.execute("SELECT COUNT(*) FROM messages WHERE session_id = ?",
                                  (self._id(db, name),)).fetchone()[0])

    def pop_messages(self, name: str, messages: Sequence[ChatMessage],
                     number: int) -> bool:
        """Undo: remove the newest messages if they are still `messages`, numbered
        up to `number`, and no snapshot covers them (undo.py); else False."""
        with self.transaction() as db:
            return pop_rows(db, self._id(db, name, touch=True), name, messages,
                            number, ("messages", "summaries"), "?")

    # -- summary snapshots
    def save_summary(self, name: str, state: SummaryState,
                     base_version: int | None = None) -> bool:
        """Save `state` if the newest saved version is `base_version`; else False."""
        base = state.version - 1 if base_version is None else base_version
        with self.transaction() as db:  # the check and the insert: one transaction
            session = self._id(db, name, touch=True)
            newest = db.execute("SELECT COALESCE(MAX(version), 0) FROM summaries "
                                "WHERE session_id = ?", (session,)).fetchone()[0]
            if newest != base or state.version <= base:
                return False  # another writer saved first: reload and plan again
            db.execute("INSERT INTO summaries (session_id, text, covered_up_to, "
                       "compression_count, version) VALUES (?, ?, ?, ?, ?)",
                       (session, state.text, state.covered_up_to,
                        state.compression_count, state.version))
            return True

    def summaries(self, name: str, newest_only: bool = False) -> list[SummaryState]:
        """A session's snapshots, oldest first (or just the newest)."""
        order = "DESC" if newest_only else "ASC"
        with self._read() as db:
            rows = db.execute(
                "SELECT text, covered_up_to, compression_count, version FROM summaries"
                f" WHERE session_id = ? ORDER BY version {order}, id {order}"
                + " LIMIT 1" * newest_only, (self._id(db, name),))
            return [SummaryState(*row) for row in rows.fetchall()]

    def close(self) -> None:
        with self._lock:
            self._conn.close()
