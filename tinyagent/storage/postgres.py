"""PostgresStore: the SQL store on a PostgreSQL server, for many processes and machines.

Introduced in notebook 09, for when one SQLite file stops being enough: several
machines serve the same customers, or many processes write at once (the peers use
a server too: Nexus Agent MySQL, LangGraph `PostgresSaver`). The queries are
SqlStore's (sql.py); this is PostgreSQL's dialect of them (psycopg 3: `pip install
-e ".[postgres]"`):

- `%s` for a value, and tables prefixed `tinyagent_`: the server's database is
  shared with other applications, which may have a `sessions` table of their own;
- each write locks its session's row (`SELECT ... FOR UPDATE`), so writers of one
  session take turns and writers of different sessions do not wait for each other;
- each connection bounds its waits: a lock held elsewhere for LOCK_WAIT seconds, or
  a statement running STATEMENT_TIMEOUT seconds, ends in a one-line StoreError;
- the tables are created only where missing, one creator at a time (an advisory
  lock), so a role that may only read and write them (no CREATE right) can use it;
- psycopg tells what went wrong by the exception's class; no message shows the
  password. People type it unencoded (`postgresql://bitmall:p@ss@db/x`), and libpq
  splits the URL at the first `@`, then quotes the piece it took for a host; so
  libpq is given the URL with its user part percent-encoded (redact.py's rule: the
  last `@` ends it), and every piece of the password is masked in what it says.

One connection per store, shared by the threads of a process under a lock; if the
server drops it (a restart), the next transaction connects again. Left out:
connection pools, TLS settings, schemas other than the default, migrations.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..lang import say
from ..redact import encoded_password_url, mask_url, scrub, url_secrets
from .base import StoreError
from .sql import SqlStore

__all__ = ["PostgresStore", "safe_url"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tinyagent_sessions (
    id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, strategy TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS tinyagent_messages (
    session_id BIGINT NOT NULL REFERENCES tinyagent_sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (session_id, seq));
CREATE TABLE IF NOT EXISTS tinyagent_summaries (
    session_id BIGINT NOT NULL REFERENCES tinyagent_sessions(id) ON DELETE CASCADE,
    version INTEGER NOT NULL, text TEXT, covered_up_to INTEGER NOT NULL,
    compression_count INTEGER NOT NULL, PRIMARY KEY (session_id, version));
"""
# A writer waits this long for another's row lock, a statement runs at most this
# long: then a one-line StoreError, not a wait without end (SQLite's lock_wait).
LOCK_WAIT, STATEMENT_TIMEOUT = 10, 30
CREATING = 7411  # the advisory lock that one creator of the tables holds

# The storage layer's name for the one URL mask (notebook 09 imports it): the password
# hidden, in the user part (even holding an unencoded "#", "/" or "@") and in
# `?password=`; see mask_url for the whole rule.
safe_url = mask_url


class PostgresStore(SqlStore):
    """`PostgresStore("postgresql://user@host:5432/db")`."""

    mark = "%s"  # psycopg's placeholder
    prefix = "tinyagent_"  # a shared database: our tables say whose they are
    lock = " FOR UPDATE"  # a write locks its session's row, not the whole database
    tiebreak = "version"  # none needed: the primary key holds each version once

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
        with self.transaction() as db:  # ours, created if any is missing
            found = db.execute("SELECT " + ", ".join(
                f"to_regclass('{self.prefix}{table}') IS NOT NULL"
                for table in ("sessions", "messages", "summaries"))).fetchone()
            if not all(found):
                db.execute(f"SELECT pg_advisory_xact_lock({CREATING})")
                db.execute(SCHEMA)

    def _why(self, error: Exception) -> str:
        """The first line of what the driver said, the URL's secrets masked."""
        text = str(error).strip()
        return scrub(text.splitlines()[0] if text else "", self._secrets)

    def _connect(self) -> Any:
        """A new autocommit connection with bounded lock and statement waits."""
        psycopg = self._psycopg
        try:
            conn = psycopg.connect(encoded_password_url(self._url), autocommit=True,
                                   connect_timeout=self._connect_timeout)
            conn.execute(f"SET lock_timeout = '{LOCK_WAIT}s'")
            conn.execute(f"SET statement_timeout = '{STATEMENT_TIMEOUT}s'")
            return conn
        except psycopg.Error as error:
            why = self._why(error)
            raise StoreError(say(
                f"cannot connect to {self.key} ({why}): is the server running, and "
                "are the URL's user and database right?",
                f"无法连接 {self.key}（{why}）：服务器在运行吗？"
                "URL 中的用户名和数据库名对吗？")) from None

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
                why = self._why(error)
                raise StoreError(say(
                    f"the PostgreSQL server at {self.key} gave up waiting ({why}): "
                    "another process held the session too long; try again when it is "
                    "done", f"{self.key} 的 PostgreSQL 服务器放弃了等待（{why}）："
                    "另一个进程占用会话太久；请等它结束后重试")) from None
            except psycopg.OperationalError as error:
                why = self._why(error)
                raise StoreError(say(
                    f"the PostgreSQL server at {self.key} failed ({why}): try again "
                    "(the store reconnects)", f"{self.key} 的 PostgreSQL 服务器出错"
                    f"（{why}）：请重试（存储会重新连接）")) from None
            except psycopg.DataError as error:
                why = self._why(error)
                raise StoreError(say(
                    f"the PostgreSQL server at {self.key} refused a value ({why}): "
                    "remove NUL bytes and control characters from names",
                    f"{self.key} 的 PostgreSQL 服务器拒绝了一个值（{why}）："
                    "请去掉名字中的 NUL 字节和控制字符")) from None

    def reading(self) -> contextlib.AbstractContextManager[Any]:
        return self.transaction()  # a read reconnects after a restart, as a write

    def close(self) -> None:
        with self._lock:
            self._conn.close()
