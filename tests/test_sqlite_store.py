"""Rules of the SQLite store only: its file, its transactions, its errors. The rules
every store keeps (messages, names, compare-and-swap) are in test_storage.py."""

import sqlite3
import threading

import pytest

from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.storage import SqliteStore, StoreError, SummaryState
from tinyagent.storage.sqlite import SCHEMA

CALL = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
MESSAGES = [ChatMessage.user("帮我查一下订单 88231 的物流到哪了"),
            ChatMessage.assistant("", [CALL]),
            ChatMessage.tool("call_1", '{"order_id": "88231", "status": "delivered"}'),
            ChatMessage.assistant("您的订单 88231 已签收。")]


@pytest.fixture
def store():
    with SqliteStore() as store:
        store.create_session("alice", "hybrid")
        yield store


def test_the_newest_snapshot_is_the_summary(store):
    """No snapshot before a compression; afterwards the newest one, history kept."""
    assert store.summary("alice") is None
    first, second = SummaryState("- a", 2, 1, 1), SummaryState("- b", 4, 2, 2)
    store.save_summary("alice", first)
    store.save_summary("alice", second)
    assert store.summary("alice") == second
    assert store.summaries("alice") == [first, second]


def test_deleting_a_session_deletes_its_rows_and_only_its_rows(store):
    """Messages and snapshots go with their session; another session is untouched."""
    store.create_session("bob", "window")
    for name in ("alice", "bob"):
        store.append(name, MESSAGES)
        store.save_summary(name, SummaryState("- x", 2, 1, 1))
    store.delete_session("alice")
    assert [s.name for s in store.sessions()] == ["bob"]
    assert store.messages("bob") == MESSAGES and store.summary("bob") is not None
    rows = store._conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    assert rows == len(MESSAGES)


def test_a_failed_transaction_writes_nothing(store):
    """An error inside transaction() rolls back every statement of it."""
    with pytest.raises(RuntimeError), store.transaction() as db:
        db.execute("INSERT INTO sessions (name, strategy, created_at, updated_at) "
                   "VALUES ('carol', 'window', 0, 0)")
        raise RuntimeError("crash in the middle")
    assert not store.has_session("carol")


def test_a_file_store_survives_closing_and_memory_stores_are_private(tmp_path):
    """Reopening the same file finds the data; two ":memory:" stores share nothing."""
    path = tmp_path / "chats.db"
    with SqliteStore(path) as store:
        store.create_session("alice", "hybrid")
        store.append("alice", MESSAGES)
    with SqliteStore(str(path)) as again:
        assert again.messages("alice") == MESSAGES
    with SqliteStore() as one, SqliteStore() as two:
        one.create_session("alice", "hybrid")
        assert two.sessions() == []


def test_sessions_list_counts_and_times_by_the_store_clock():
    """sessions() gives name, strategy, message count and last use, by name."""
    now = [100.0]
    with SqliteStore(clock=lambda: now[0]) as store:
        store.create_session("bob", "window")
        store.create_session("alice", "hybrid")
        now[0] = 160.0
        store.append("alice", MESSAGES)
        info = store.sessions()
    assert [(s.name, s.strategy, s.messages, s.updated_at) for s in info] == [
        ("alice", "hybrid", 4, 160.0), ("bob", "window", 0, 100.0)]


def test_the_repr_names_no_path(tmp_path):
    """Notebooks print the store: no file path, no address."""
    with SqliteStore(tmp_path / "x.db") as store:
        assert repr(store) == "SqliteStore(sessions=0)"


def test_a_file_in_a_missing_folder_is_a_clear_error(tmp_path):
    """The error names the path and the likely fix."""
    with pytest.raises(StoreError, match="folder does not exist: create it"):
        SqliteStore(tmp_path / "missing" / "chats.db")


def _broken(tmp_path, how):
    """A database file damaged in one of the ways a user's disk can damage it."""
    path = tmp_path / "chats.db"
    if how == "text":
        path.write_text("order 88231, refund R-1\n" * 50)
        return path
    with SqliteStore(path) as store:
        store.create_session("alice", "window")
        store.append("alice", MESSAGES * 200)
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[:5000])
    else:  # the 100-byte header zeroed, the pages left
        path.write_bytes(bytes(100) + data[100:])
    return path


@pytest.mark.parametrize("how", ["text", "truncated", "zeroed header"])
def test_a_damaged_file_is_one_clear_error(tmp_path, how):
    """A text file, a truncated database, a zeroed header: StoreError, one line,
    naming the file and saying to move it away; never a sqlite3 traceback."""
    path = _broken(tmp_path, how)
    with pytest.raises(StoreError, match="not an intact SQLite database") as error:
        with SqliteStore(path) as store:
            store.messages("alice")
    assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_a_folder_as_the_path_is_one_clear_error(tmp_path):
    """The path is a directory: the error says so and suggests a file name."""
    with pytest.raises(StoreError, match="is a folder: give a file name"):
        SqliteStore(tmp_path)


def test_a_folder_that_cannot_be_written_is_one_clear_error():
    """/proc takes no new files, even for root: the error says to choose a path."""
    with pytest.raises(StoreError, match="folder is not writable"):
        SqliteStore("/proc/tinyagent-chats.db")


def test_the_file_is_created_readable_by_its_owner_only(tmp_path):
    """Conversations are personal: a new database file has mode 600."""
    path = tmp_path / "chats.db"
    SqliteStore(path).close()
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_lock_held_at_start_up_is_waited_for_then_a_clear_error(tmp_path):
    """Another connection holds an exclusive lock: opening waits `lock_wait`
    seconds and then says how long it waited; released in time, it opens."""
    path = tmp_path / "chats.db"
    SqliteStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreError, match=r"more than 0\.1 s; try again"):
        SqliteStore(path, lock_wait=0.1)
    threading.Timer(0.1, holder.execute, ["COMMIT"]).start()
    with SqliteStore(path, lock_wait=5) as store:
        assert store.sessions() == []
    holder.close()


def test_a_file_with_a_version_saved_twice_still_opens(tmp_path):
    """Files written before the version check may hold version 1 twice: they open,
    the later one is the newest, and the next save goes on from there."""
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(SCHEMA)
    old.execute("INSERT INTO sessions VALUES (1, 'alice', 'structured', 0, 0)")
    old.executemany("INSERT INTO summaries (session_id, text, covered_up_to, "
                    "compression_count, version) VALUES (1, ?, 2, 1, 1)",
                    [("a",), ("b",)])
    old.commit()
    old.close()
    with SqliteStore(path) as store:
        assert store.summary("alice").text == "b"
        assert store.save_summary("alice", SummaryState("c", 4, 2, 2))
        assert [s.text for s in store.summaries("alice")] == ["a", "b", "c"]
