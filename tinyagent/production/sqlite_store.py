"""The SQLite store, now in tinyagent.storage (next to the PostgreSQL one).

Kept so that `from tinyagent.production.sqlite_store import SqliteStore` still works.
"""

from ..storage.base import SessionInfo, StoreError
from ..storage.sqlite import SCHEMA, SqliteStore

__all__ = ["SCHEMA", "SessionInfo", "SqliteStore", "StoreError"]
