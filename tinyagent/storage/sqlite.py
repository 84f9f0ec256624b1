"""SqliteStore: the SQL store in one SQLite file, standard library only.

Introduced in notebook 09 (Nexus Agent saves summary snapshots to MySQL; the
standard library's sqlite3 shows the same idea). The queries are SqlStore's
(sql.py); this is SQLite's dialect of them, and the file they live in:

- every write is one transaction (`BEGIN IMMEDIATE` ... `COMMIT`, or `ROLLBACK` on
  an error), which locks the whole file: a process killed mid-write leaves the file
  as it was, and two processes writing to one file take turns, each waiting up to
  `lock_wait` seconds for the other;
- a conversation is personal data, so a new file is readable by its owner only;
- a file that exists is looked at before anything is written to it: an empty one
  gets our tables and our layout number (PRAGMA user_version); another
  application's `sessions.db`, or a file of a newer layout, is refused untouched;
- sqlite3 says what went wrong only in its message: `_guard` reads it and says what
  to do, in one line, with any secret written in the path masked.

`":memory:"` gives a private database. One connection, shared by the threads of a
process under a lock. Left out: migrating an older layout, WAL mode, pools.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..lang import say
from ..redact import mask_path
from .base import StoreError
from .sql import SqlStore

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
# Written into the file when the tables are created: a file of a newer layout is
# refused rather than half-read, and never written to.
SCHEMA_VERSION = 1
COLUMNS = {"sessions": ["id", "name", "strategy", "created_at", "updated_at"],
           "messages": ["session_id", "seq", "message"],
           "summaries": ["id", "session_id", "text", "covered_up_to",
                         "compression_count", "version"]}
LOCK_WAIT = 10.0  # seconds a writer waits for another process's transaction
DOING_ZH = {"open": "打开", "write to": "写入", "read": "读取"}  # _guard's verbs


class SqliteStore(SqlStore):
    """`SqliteStore("chats.db")` or `SqliteStore()` (in memory)."""

    mark = "?"  # sqlite3's placeholder
    prefix = ""  # the file is ours alone
    lock = ""  # none needed: BEGIN IMMEDIATE holds the whole file
    # A file written before the version check may hold a version twice: the later
    # row (the higher id) is the newer snapshot.
    tiebreak = "id"

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
                self._create_private()
            self.key = "sqlite:" + os.path.realpath(self.path)
        self._lock = threading.RLock()
        with self._guard("open"):
            # isolation_level=None: no implicit transactions, ours are written out
            self._conn = sqlite3.connect(self.path, timeout=lock_wait,
                                         isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA foreign_keys = ON")  # deleting cascades
            if not self._ours():
                self._conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA "
                                         f"user_version = {SCHEMA_VERSION}; COMMIT;")
            with contextlib.suppress(sqlite3.IntegrityError):
                self._conn.execute(UNIQUE)

    def _create_private(self) -> None:
        """An empty file with mode 600 (conversations are personal data)."""
        try:
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass  # another process was faster: fine
        except OSError as error:
            folder = os.path.dirname(os.path.abspath(self.path))
            why = (say("its folder does not exist: create it",
                       "它的文件夹不存在：请先创建") if not os.path.isdir(folder) else
                   say("its folder is not writable: choose another path",
                       "它的文件夹不可写：请换一个路径"))
            raise StoreError(say(
                f"cannot create the SQLite file {self.shown!r} ({error.strerror}): "
                f"{why}", f"无法创建 SQLite 文件 {self.shown!r}（{error.strerror}）："
                f"{why}")) from None

    def _ours(self) -> bool:
        """Whether the file holds our tables already (False: it is empty). Another
        application's file, or one of a newer layout, is refused untouched."""
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(say(
                f"the SQLite file {self.shown!r} was written by a newer TinyAgent "
                f"(layout {version}; this one reads {SCHEMA_VERSION}): upgrade "
                "tinyagent, or choose another file",
                f"SQLite 文件 {self.shown!r} 由更新版本的 TinyAgent 写入（格式 "
                f"{version}；本版本读取格式 {SCHEMA_VERSION}）：请升级 tinyagent，"
                "或换一个文件"))
        tables = {row[0] for row in self._conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
            "'sqlite_%'")}
        found = {t: [c[1] for c in self._conn.execute(f"PRAGMA table_info({t})")]
                 for t in COLUMNS if t in tables}
        if tables and found != COLUMNS:
            raise StoreError(say(
                f"the SQLite file {self.shown!r} is not a TinyAgent session database "
                "(its tables are another application's): choose another file",
                f"SQLite 文件 {self.shown!r} 不是 TinyAgent 的会话数据库（其中的表属于"
                "别的应用）：请换一个文件"))
        return bool(tables)

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """sqlite3's errors, told only by their text, as one-line StoreErrors."""
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
    def reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._guard("read"):
            yield self._conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()
