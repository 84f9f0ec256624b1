"""PostgresStore: the same sessions, messages and snapshots on a PostgreSQL server.

Introduced in notebook 09, for when one SQLite file stops being enough: several
machines serve the same customers, or many processes write at once (the peers use
a server too: Nexus Agent MySQL, LangGraph `PostgresSaver`). The three tables and
the rules are SqliteStore's (sqlite.py, base.py): an append-only log, one snapshot
per version, and a summary saved only if the one it was built on is still the
newest. Here each write locks its session's row (`SELECT ... FOR UPDATE`), so
writers of one session take turns and writers of different sessions do not wait
for each other. Needs psycopg 3: `pip install -e ".[postgres]"`.

One connection per store, shared by the threads of a process under a lock; if the
server drops it (a restart), the next transaction connects again. Bounded waits and
tables created only where missing: postgres_setup.py. Left out: connection pools,
schemas other than the default, migrations.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..lang import say
from ..messages import ChatMessage
from ..redact import url_secrets
from .base import (
    SessionInfo,
    StoreError,
    SummaryState,
    check_name,
    decode,
    missing,
)
from .postgres_setup import connect, create_missing, first_line, safe_url
from .store_base import StoreBase
from .undo import pop_rows

__all__ = ["PostgresStore", "safe_url"]
TABLES = ("tinyagent_messages", "tinyagent_summaries")  # what an undo reads

class PostgresStore(StoreBase):
    """`PostgresStore("postgresql://user@host:5432/db")`."""

    def __init__(self, url: str, *, clock: Callable[[], float] = time.time,
                 connect_timeout: int = 10) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError(say("the PostgreSQL store needs psycopg 3: ",
                                 "PostgreSQL 存储需要 psycopg 3：")
                             + "pip install -e \".[postgres]\"") from None
        self._psycopg, self.clock = psycopg, clock
        self._url, self._connect_timeout = url, connect_timeout
        self.key, self._secrets = safe_url(url), url_secrets(url)
        self._lock = threading.RLock()
        self._conn: Any = self._connect()
        with self.transaction() as db:
            create_missing(db)

    def _connect(self) -> Any:
        return connect(self._psycopg, self._url, self._connect_timeout, self.key,
                       self._secrets)

    def _first_line(self, error: Exception) -> str:
        return first_line(error, self._secrets)

    def _begin(self) -> Any:
        """BEGIN, on a new connection if the server dropped ours (a restart).

        Safe to retry: nothing of the transaction has been sent yet.
        """
        for attempt in (1, 2):
            if self._conn.closed or getattr(self._conn, "broken", False):
                self._conn = self._connect()
            tx = self._conn.transaction()
            try:
                tx.__enter__()
                return tx
            except self._psycopg.OperationalError:
                if attempt == 2:
                    raise
                with contextlib.suppress(Exception):
                    self._conn.close()
        raise AssertionError("unreachable")

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """All the statements inside commit together, or none does."""
        psycopg = self._psycopg
        with self._lock:
            try:
                tx = self._begin()
                try:
                    yield self._conn
                except BaseException as error:
                    tx.__exit__(type(error), error, error.__traceback__)
                    raise
                tx.__exit__(None, None, None)
            except (psycopg.errors.LockNotAvailable,
                    psycopg.errors.QueryCanceled) as error:
                why = self._first_line(error)
                raise StoreError(say(
                    f"the PostgreSQL server at {self.key} gave up waiting ({why}): "
                    "another process held the session too long; try again when it is "
                    "done", f"{self.key} 的 PostgreSQL 服务器放弃了等待（{why}）："
                    "另一个进程占用会话太久；请等它结束后重试")) from None
            except psycopg.OperationalError as error:
                why = self._first_line(error)
                raise StoreError(say(
                    f"the PostgreSQL server at {self.key} failed ({why}): try again "
                    "(the store reconnects)", f"{self.key} 的 PostgreSQL 服务器出错"
                    f"（{why}）：请重试（存储会重新连接）")) from None
            except psycopg.DataError as error:
                why = self._first_line(error)
                raise StoreError(say(
                    f"the PostgreSQL server at {self.key} refused a value ({why}): "
                    "remove NUL bytes and control characters from names",
                    f"{self.key} 的 PostgreSQL 服务器拒绝了一个值（{why}）："
                    "请去掉名字中的 NUL 字节和控制字符")) from None

    def _id(self, db: Any, name: str, lock: bool = False, touch: bool = False) -> int:
        """The session's id; `lock` makes its writers wait until we commit."""
        row = db.execute("SELECT id FROM tinyagent_sessions WHERE name = %s"
                         + " FOR UPDATE" * lock, (name,)).fetchone()
        if row is None:
            raise missing(name)
        if touch:
            db.execute("UPDATE tinyagent_sessions SET updated_at = %s WHERE id = %s",
                       (self.clock(), row[0]))
        return int(row[0])

    # -- sessions
    def create_session(self, name: str, strategy: str) -> None:
        check_name(name)
        now = self.clock()
        with self.transaction() as db:
            row = db.execute(
                "INSERT INTO tinyagent_sessions (name, strategy, created_at, "
                "updated_at) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (name) DO NOTHING RETURNING id",
                (name, strategy, now, now)).fetchone()
        if row is None:
            raise ValueError(say(f"session {name!r} already exists: load it instead",
                                 f"会话 {name!r} 已存在：请直接加载它"))

    def has_session(self, name: str) -> bool:
        with self.transaction() as db:
            return db.execute("SELECT 1 FROM tinyagent_sessions WHERE name = %s",
                              (name,)).fetchone() is not None

    def select_sessions(self, name: str | None = None) -> list[SessionInfo]:
        """Every session, by name (or just the one called `name`)."""
        where = "" if name is None else "WHERE name = %s "
        with self.transaction() as db:
            rows = db.execute(
                "SELECT name, strategy, (SELECT COUNT(*) FROM tinyagent_messages m "
                "WHERE m.session_id = s.id), updated_at FROM tinyagent_sessions s "
                f"{where}ORDER BY name", () if name is None else (name,)).fetchall()
        return [SessionInfo(n, s, int(c), float(u)) for n, s, c, u in rows]

    def delete_session(self, name: str) -> None:
        with self.transaction() as db:  # its messages and summaries go with it
            db.execute("DELETE FROM tinyagent_sessions WHERE id = %s",
                       (self._id(db, name, lock=True),))

    def clear_session(self, name: str) -> None:
        """Forget a session's messages and summaries; keep the session."""
        with self.transaction() as db:
            session = self._id(db, name, lock=True, touch=True)
            for table in ("tinyagent_messages", "tinyagent_summaries"):
                db.execute(f"DELETE FROM {table} WHERE session_id = %s", (session,))

    # -- messages
    def append(self, name: str, messages: Sequence[ChatMessage]) -> int:
        """Add messages at the end of a session; the number of the last one."""
        with self.transaction() as db:
            session = self._id(db, name, lock=True, touch=True)
            last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM tinyagent_messages "
                              "WHERE session_id = %s", (session,)).fetchone()[0]
            with db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO tinyagent_messages (session_id, seq, message) "
                    "VALUES (%s, %s, %s)",
                    [(session, last + i, json.dumps(m.to_record(), ensure_ascii=False))
                     for i, m in enumerate(messages, 1)])
            return int(last + len(messages))

    def messages(self, name: str, after: int = 0) -> list[ChatMessage]:
        """A session's messages numbered above `after`, oldest first."""
        with self.transaction() as db:
            rows = db.execute("SELECT seq, message FROM tinyagent_messages WHERE "
                              "session_id = %s AND seq > %s ORDER BY seq",
                              (self._id(db, name), after)).fetchall()
        return [decode(name, seq, text) for seq, text in rows]

    def count(self, name: str) -> int:
        with self.transaction() as db:
            return int(db.execute("SELECT COUNT(*) FROM tinyagent_messages WHERE "
                                  "session_id = %s", (self._id(db, name),)
                                  ).fetchone()[0])

    def pop_messages(self, name: str, messages: Sequence[ChatMessage],
                     number: int) -> bool:
        """Undo the newest messages if they are still `messages` (undo.py)."""
        with self.transaction() as db:  # the row lock: writers wait, as for append
            return pop_rows(db, self._id(db, name, lock=True, touch=True), name,
                            messages, number, TABLES, "%s")

    # -- summary snapshots
    def save_summary(self, name: str, state: SummaryState,
                     base_version: int | None = None) -> bool:
        """Save `state` if the newest saved version is `base_version`; else False."""
        base = state.version - 1 if base_version is None else base_version
        with self.transaction() as db:  # the row lock makes check + insert atomic
            session = self._id(db, name, lock=True, touch=True)
            newest = db.execute("SELECT COALESCE(MAX(version), 0) FROM "
                                "tinyagent_summaries WHERE session_id = %s",
                                (session,)).fetchone()[0]
            if newest != base or state.version <= base:
                return False  # another writer saved first: reload and plan again
            db.execute("INSERT INTO tinyagent_summaries (session_id, version, text, "
                       "covered_up_to, compression_count) VALUES (%s, %s, %s, %s, %s)",
                       (session, state.version, state.text, state.covered_up_to,
                        state.compression_count))
            return True

    def summaries(self, name: str, newest_only: bool = False) -> list[SummaryState]:
        """A session's snapshots, oldest first (or just the newest)."""
        order = "DESC LIMIT 1" if newest_only else "ASC"
        with self.transaction() as db:
            rows = db.execute(
                "SELECT text, covered_up_to, compression_count, version FROM "
                f"tinyagent_summaries WHERE session_id = %s ORDER BY version {order}",
                (self._id(db, name),)).fetchall()
        return [SummaryState(*row) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._conn.close()
