"""The SQLite file itself: created private, and checked to be ours before any write.

Used by SqliteStore (sqlite.py, notebook 09). A conversation is personal data, so a
new file is readable by its owner only. A file that exists is looked at first: an
empty one gets our three tables and our layout number (PRAGMA user_version); one of
our layout is used as it is; another application's `sessions.db`, or a file of a
newer layout, is refused before a table or an index is added to it. Left out:
migrating an older layout.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3

from ..lang import say
from ..redact import mask_path
from .base import StoreError

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
# A file written before the version check may hold a version twice: it still opens.
UNIQUE = "CREATE UNIQUE INDEX IF NOT EXISTS versions ON summaries(session_id, version)"
# Written into the file (PRAGMA user_version) when the tables are created: a file of a
# newer layout is refused rather than half-read, and never written to.
SCHEMA_VERSION = 1
COLUMNS = {"sessions": ["id", "name", "strategy", "created_at", "updated_at"],
           "messages": ["session_id", "seq", "message"],
           "summaries": ["id", "session_id", "text", "covered_up_to",
                         "compression_count", "version"]}


def create_private(path: str) -> None:
    """Create an empty file with mode 600 (conversations are personal data)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # another process was faster: fine
    except OSError as error:
        shown, folder = mask_path(path), os.path.dirname(os.path.abspath(path))
        why = (say("its folder does not exist: create it", "它的文件夹不存在：请先创建")
               if not os.path.isdir(folder) else
               say("its folder is not writable: choose another path",
                   "它的文件夹不可写：请换一个路径"))
        raise StoreError(say(
            f"cannot create the SQLite file {shown!r} ({error.strerror}): {why}",
            f"无法创建 SQLite 文件 {shown!r}（{error.strerror}）：{why}")) from None


def check_layout(conn: sqlite3.Connection, path: str) -> bool:
        """Whether the file holds our tables already. Another application's file, or
        one of a newer layout, is refused before anything is written to it."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        shown = mask_path(path)  # a secret written into the path is not shown
        if version > SCHEMA_VERSION:
            raise StoreError(say(
                f"the SQLite file {shown!r} was written by a newer TinyAgent (layout "
                f"{version}; this one reads {SCHEMA_VERSION}): upgrade tinyagent, or "
                "choose another file",
                f"SQLite 文件 {shown!r} 由更新版本的 TinyAgent 写入（格式 {version}；"
                f"本版本读取格式 {SCHEMA_VERSION}）：请升级 tinyagent，或换一个文件"))
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
            "'sqlite_%'")}
        if not tables:
            return False
        found = {t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")]
                 for t in COLUMNS if t in tables}
        if found != COLUMNS:
            raise StoreError(say(
                f"the SQLite file {shown!r} is not a TinyAgent session database (its "
                "tables are another application's): choose another file",
                f"SQLite 文件 {shown!r} 不是 TinyAgent 的会话数据库（其中的表属于别的"
                "应用）：请换一个文件"))
        return True


def prepare(conn: sqlite3.Connection, path: str) -> None:
    """Make an empty file ours; check that any other file is ours already."""
    if not check_layout(conn, path):
        conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = "
                           f"{SCHEMA_VERSION}; COMMIT;")
    with contextlib.suppress(sqlite3.IntegrityError):
        conn.execute(UNIQUE)
