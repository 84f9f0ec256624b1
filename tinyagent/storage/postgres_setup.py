"""A PostgreSQL connection as PostgresStore needs it (postgres.py, notebook 09).

Each connection bounds its waits: a lock held elsewhere for LOCK_WAIT seconds, or a
statement running STATEMENT_TIMEOUT seconds, ends in a one-line StoreError instead
of a wait without end. The tables are created only where missing, so a role that
may only read and write them (no CREATE right) can use the store. Errors never show
the password. People type it unencoded (`postgresql://bitmall:p@ss@db/x`), and libpq
splits the URL at the first `@`, then quotes the piece it took for a host
(`failed to resolve host 'ss@db'`); so libpq is given the URL with its user part
percent-encoded (read by redact.py's rule: the last `@` ends it), and every piece
of the password is masked in what the driver says. Left out: TLS settings and pools.
"""

from __future__ import annotations

from typing import Any

from ..lang import say
from ..redact import encoded_password_url, mask_url, scrub
from .base import StoreError

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


TABLES = ("tinyagent_sessions", "tinyagent_messages", "tinyagent_summaries")
# A writer waits this long for another's row lock, a statement runs at most this
# long: then a one-line StoreError, not a wait without end (SQLite's lock_wait).
LOCK_WAIT, STATEMENT_TIMEOUT = 10, 30


# The storage layer's name for the one URL mask (notebook 09 imports it): the password
# hidden, in the user part (even holding an unencoded "#", "/" or "@") and in
# `?password=`; see mask_url for the whole rule.
safe_url = mask_url


def first_line(error: Exception, secrets: list[str]) -> str:
    """The first line of a driver error, with the URL's secrets masked."""
    text = str(error).strip()
    return scrub(text.splitlines()[0] if text else "", secrets)


def connect(psycopg: Any, url: str, timeout: int, key: str, secrets: list[str]) -> Any:
    """A new autocommit connection with bounded lock and statement waits."""
    try:
        conn = psycopg.connect(encoded_password_url(url), autocommit=True,
                               connect_timeout=timeout)
        conn.execute(f"SET lock_timeout = '{LOCK_WAIT}s'")
        conn.execute(f"SET statement_timeout = '{STATEMENT_TIMEOUT}s'")
        return conn
    except psycopg.Error as error:
        why = first_line(error, secrets)
        raise StoreError(say(f"cannot connect to {key} ({why}): is the server running, "
                             "and are the URL's user and database right?",
                             f"无法连接 {key}（{why}）：服务器在运行吗？"
                             "URL 中的用户名和数据库名对吗？")) from None


def create_missing(db: Any) -> None:
    """Our tables, created if any is missing (one creator at a time)."""
    found = db.execute("SELECT " + ", ".join(
        f"to_regclass('{t}') IS NOT NULL" for t in TABLES)).fetchone()
    if not all(found):
        db.execute("SELECT pg_advisory_xact_lock(7411)")
        db.execute(SCHEMA)
