"""Where sessions live: one small `Store` protocol, an embedded and a server store.

Introduced in notebook 09. Code that uses a store types it as `Store` (base.py, the
contract). `SqlStore` (sql.py) writes its queries once; `SqliteStore` (standard
library, one file, the default) and `PostgresStore` (psycopg 3, many processes on
many machines) are its two dialects. Both keep the same tables and the same rules,
so `SessionManager` works with either, and `open_store(url)` picks one from a URL:

- `sessions.db`, `sqlite:///sessions.db`, `:memory:` -> SqliteStore;
- `postgresql://user@host:5432/db` (or `postgres://`) -> PostgresStore.

Left out: MySQL, Redis and the other servers the same protocol would fit.
"""

from __future__ import annotations

import os

from ..lang import say
from .base import (
    SessionInfo,
    Store,
    StoreError,
    SummaryState,
    check_name,
)
from .postgres import PostgresStore, safe_url
from .sql import SqlStore
from .sqlite import SqliteStore

SERVER_SCHEMES = ("postgresql://", "postgres://")


def store_class(url: str | os.PathLike[str]) -> type[SqliteStore] | type[PostgresStore]:
    """Which store `open_store(url)` would open, without opening anything."""
    text = os.fspath(url)
    if text.startswith(SERVER_SCHEMES):
        return PostgresStore
    if "://" in text and not text.startswith("sqlite://"):
        scheme = text.split("://", 1)[0]
        raise StoreError(say(
            f"unknown database URL scheme {scheme!r} in {safe_url(text)!r}: use a file "
            "name such as sessions.db or postgresql://user@host/db",
            f"{safe_url(text)!r} 中的数据库 URL 协议 {scheme!r} 无法识别：请用文件名"
            "（如 sessions.db）或 postgresql://user@host/db"))
    return SqliteStore


def open_store(url: str | os.PathLike[str], create: bool = True
               ) -> SqliteStore | PostgresStore:
    """The store a URL names: a SQLite file by default, PostgreSQL for postgresql://.

    `create=False`: a SQLite file that does not exist is an error, not a new file.
    """
    text = os.fspath(url)
    if not text.strip():
        raise StoreError(say("the database URL is empty: give a file name such as "
                             "sessions.db or postgresql://user@host/db",
                             "数据库 URL 为空：请给出文件名（如 sessions.db）或 "
                             "postgresql://user@host/db"))
    if store_class(text) is PostgresStore:
        return PostgresStore(text)
    return SqliteStore(text.removeprefix("sqlite:///").removeprefix("sqlite://"),
                       create=create)


__all__ = ["PostgresStore", "SessionInfo", "SqlStore", "SqliteStore", "Store",
           "StoreError", "SummaryState", "check_name", "open_store", "safe_url",
           "store_class"]
