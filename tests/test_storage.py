"""The store contract, on every store: SQLite always, PostgreSQL when a server is
given (see tests/_stores.py for how). Plus choosing a store from a URL."""

import os
import threading
import time

import pytest
from _stores import STORES, open_test_store, store_url
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tinyagent import LlmClient
from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.production import IncrementalSummaryChatMemory, SessionManager
from tinyagent.settings import mask_url
from tinyagent.storage import (
    PostgresStore,
    SqliteStore,
    SqlStore,
    Store,
    StoreError,
    SummaryState,
    open_store,
    safe_url,
    store_class,
)

OFFLINE = LlmClient(offline=True)
CALL = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
MESSAGES = [ChatMessage.user("帮我查一下订单 88231 的物流到哪了"),
            ChatMessage.assistant("", [CALL]),
            ChatMessage.tool("call_1", '{"order_id": "88231", "status": "delivered"}'),
            ChatMessage.assistant("您的订单 88231 已签收。")]


@pytest.fixture(params=STORES)
def store(request, tmp_path):
    with open_test_store(request.param, tmp_path) as store:
        store.create_session("alice", "incremental")
        yield store


def test_every_store_follows_the_protocol(store):
    """Both stores are `Store`s, with a key that says which database they use."""
    assert isinstance(store, Store) and store.key
    assert isinstance(store, SqlStore)


# Each method of the protocol, called with the protocol's own parameter names, and
# what it must give back on a session "alice" that holds MESSAGES and no snapshot.
PROTOCOL_CALLS = {
    "has_session": ({"name": "alice"}, True),
    "session": ({"name": "alice"}, lambda info: info.messages == len(MESSAGES)),
    "sessions": ({}, lambda rows: [r.name for r in rows] == ["alice"]),
    "messages": ({"name": "alice", "after": 2}, MESSAGES[2:]),
    "count": ({"name": "alice"}, len(MESSAGES)),
    "summaries": ({"name": "alice", "newest_only": True}, []),
    "summary": ({"name": "alice"}, None),
    "save_summary": ({"name": "alice", "state": SummaryState("- a", 4, 1, 1),
                      "base_version": 0}, True),
    "pop_messages": ({"name": "alice", "messages": MESSAGES[3:], "number": 4},
                     False),  # covered by the snapshot just saved: refused
    "append": ({"name": "alice", "messages": MESSAGES[:1]}, len(MESSAGES) + 1),
    "clear_session": ({"name": "alice"}, None),
    "create_session": ({"name": "bob", "strategy": "window"}, None),
    "delete_session": ({"name": "bob"}, None),
    "close": ({}, None),
}


def test_code_typed_against_the_protocol_can_call_every_store(store):
    """Every method the `Store` protocol promises answers on every store, called by
    the protocol's own parameter names, with the result the protocol describes."""
    protocol = {name for name, value in vars(Store).items()
                if callable(value) and not name.startswith("_")}
    assert set(PROTOCOL_CALLS) == protocol  # a new promise needs its call here
    store.append("alice", MESSAGES)
    for method, (arguments, expected) in PROTOCOL_CALLS.items():
        result = getattr(store, method)(**arguments)
        assert expected(result) if callable(expected) else result == expected, method


def test_a_dialect_missing_a_hook_cannot_be_made():
    """An SqlStore subclass without, say, `reading` is refused at construction,
    naming the missing method, not at its first call."""
    class Forgetful(SqlStore):
        def transaction(self):
            raise AssertionError

        def close(self):
            pass

    with pytest.raises(TypeError, match="reading"):
        Forgetful()


def test_a_password_in_the_url_is_masked():
    """The key and the messages show the URL with its password replaced; a user
    part without a password may be a token, so it is hidden whole; safe_url is the
    package's one URL mask."""
    assert safe_url("postgresql://u:hunter2@h/db") == "postgresql://u:***@h/db"
    assert safe_url("postgresql://tok3n@h/db") == "postgresql://***@h/db"
    assert safe_url is mask_url


def test_messages_come_back_as_they_went_in(store):
    """Roles, tool calls, tool ids and Chinese text survive, in order, numbered."""
    assert store.append("alice", MESSAGES[:1]) == 1
    assert store.append("alice", MESSAGES[1:]) == 4
    assert store.messages("alice") == MESSAGES
    assert store.messages("alice", after=2) == MESSAGES[2:]
    assert store.count("alice") == 4
    assert store.session("alice").messages == 4
    assert store.session("alice").strategy == "incremental"


def test_a_snapshot_is_saved_only_on_the_newest_version(store):
    """save_summary is a compare-and-swap: built on version 1 while 1 is newest, it
    is saved; a second writer also built on version 1 is refused, nothing written."""
    assert store.save_summary("alice", SummaryState("- a", 2, 1, 1))
    assert store.save_summary("alice", SummaryState("- b", 4, 2, 2))
    assert not store.save_summary("alice", SummaryState("- c", 4, 2, 2))
    assert not store.save_summary("alice", SummaryState("- d", 6, 3, 3), 1)
    assert [s.text for s in store.summaries("alice")] == ["- a", "- b"]
    assert store.summary("alice") == SummaryState("- b", 4, 2, 2)


@pytest.mark.parametrize("version", [0, 1, 2])
def test_a_snapshot_no_newer_than_its_base_is_refused(store, version):
    """A snapshot whose version is not above the one it was built on is refused,
    even when that base is still the newest: nothing written, the newest kept."""
    assert store.save_summary("alice", SummaryState("- a", 2, 1, 1))
    assert store.save_summary("alice", SummaryState("- b", 4, 2, 2))
    assert not store.save_summary("alice", SummaryState("- old", 6, 3, version), 2)
    assert [s.version for s in store.summaries("alice")] == [1, 2]
    assert store.summary("alice") == SummaryState("- b", 4, 2, 2)


def test_a_first_snapshot_must_have_a_version_above_zero(store):
    """On a session without snapshots (base 0), version 0 is refused: it would
    claim to be the state before any compression."""
    assert not store.save_summary("alice", SummaryState("- a", 2, 1, 0), 0)
    assert store.summaries("alice") == []


def test_an_undo_takes_back_only_the_newest_messages_meant(store):
    """pop_messages is a compare-and-swap: it removes the newest messages only if
    they are the ones given, end at the number given and no snapshot covers them."""
    store.append("alice", MESSAGES)
    assert not store.pop_messages("alice", MESSAGES[3:], 3)  # not where the log ends
    assert not store.pop_messages("alice", [ChatMessage.assistant("other")], 4)
    assert store.pop_messages("alice", MESSAGES[2:], 4)
    assert store.messages("alice") == MESSAGES[:2]
    assert store.append("alice", MESSAGES[2:]) == 4  # the numbers are free again
    store.save_summary("alice", SummaryState("- a", 4, 1, 1))
    assert not store.pop_messages("alice", MESSAGES[3:], 4)  # the summary holds it
    assert store.count("alice") == 4


def test_names_deletion_and_clearing(store):
    """A taken or blank name is refused; deleting and clearing touch one session."""
    with pytest.raises(ValueError, match="'alice' already exists"):
        store.create_session("alice", "window")
    with pytest.raises(ValueError, match="non-empty"):
        store.create_session(" ", "window")
    with pytest.raises(KeyError, match="no session named 'bob'"):
        store.append("bob", MESSAGES)
    store.create_session("bob", "window")
    for name in ("alice", "bob"):
        store.append(name, MESSAGES)
        store.save_summary(name, SummaryState("- x", 2, 1, 1))
    store.clear_session("bob")
    assert store.has_session("bob") and store.messages("bob") == []
    assert store.summary("bob") is None
    store.delete_session("alice")
    assert [s.name for s in store.sessions()] == ["bob"]


def test_concurrent_appends_never_collide(store):
    """Four threads append 10 messages each: 40 numbers, none twice, none lost."""
    def write(n):
        for i in range(10):
            store.append("alice", [ChatMessage.user(f"{n}-{i}")])

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    texts = [m.content for m in store.messages("alice")]
    assert sorted(texts) == sorted(f"{n}-{i}" for n in range(4) for i in range(10))


@pytest.mark.parametrize("kind", STORES)
def test_two_handles_on_one_session_lose_nothing(kind, tmp_path):
    """Two handles each add three turns with their own order numbers: after a
    reload every number is in memory, and no version was saved twice."""
    with store_url(kind, tmp_path) as url, open_store(url) as store:
        manager = SessionManager(store, lambda: IncrementalSummaryChatMemory(
            OFFLINE, keep_recent_turns=1))
        a = manager.create("alice")
        b = manager.load("alice")
        ids = {a: [57101, 57102, 57103], b: [68201, 68202, 68203]}
        for i in range(3):
            for handle in (a, b):
                handle.add(ChatMessage.user(f"Where is my order {ids[handle][i]}?"))
                handle.add(ChatMessage.assistant(f"{ids[handle][i]} ships today."))
        memory = "\n".join(m.content for m in manager.load("alice").messages())
        versions = [s.version for s in store.summaries("alice")]
        assert [n for n in ids[a] + ids[b] if str(n) not in memory] == []
        assert len(versions) == len(set(versions)) and versions == sorted(versions)
        assert store.count("alice") == 12


@pytest.mark.parametrize("url, expected", [
    ("sessions.db", SqliteStore), ("sqlite:///sessions.db", SqliteStore),
    (":memory:", SqliteStore), ("postgresql://u@db.example:5432/chats", PostgresStore),
    ("postgres://u:pw@db.example/chats", PostgresStore)])
def test_the_url_chooses_the_store(url, expected):
    """A file name is SQLite; postgresql:// and postgres:// are PostgreSQL."""
    assert store_class(url) is expected


def test_an_unknown_scheme_or_an_empty_url_is_a_clear_error():
    """mysql://... and "" name the problem and the accepted forms; no password."""
    with pytest.raises(StoreError, match="'mysql'.*postgresql://") as error:
        open_store("mysql://root:hunter2@db/chats")
    assert "hunter2" not in str(error.value)
    with pytest.raises(StoreError, match="empty"):
        open_store("  ")


def test_an_unreachable_server_is_one_line_without_the_password():
    """Nothing listens on port 9 of 127.0.0.1: a StoreError, the password masked."""
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError, match="cannot connect") as error:
        PostgresStore("postgresql://u:hunter2@127.0.0.1:9/db", connect_timeout=2)
    assert "hunter2" not in str(error.value) and "\n" not in str(error.value)


def test_sqlite_url_opens_the_file(tmp_path):
    """open_store("sqlite:///path") and open_store("path") open the same file."""
    path = tmp_path / "chats.db"
    with open_store(f"sqlite:///{path}") as store:
        store.create_session("alice", "window")
    with open_store(str(path)) as again:
        assert again.has_session("alice")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 8)), max_size=12))
@example([(0, 2), (2, 2)])  # the base is the newest, the version not above it
@example([(0, 3), (3, 1)])  # ... or below it
@example([(0, 0)])  # a first snapshot claiming version 0
def test_saved_versions_only_ever_grow_from_the_newest(attempts):
    """Any sequence of saves with any base: a save succeeds exactly when its base
    is the newest saved version and it is higher; the saved versions increase."""
    with SqliteStore() as store:
        store.create_session("alice", "structured")
        newest = 0
        for base, version in attempts:
            state = SummaryState("- x", 0, 0, version)
            saved = store.save_summary("alice", state, base)
            assert saved == (base == newest and version > base)
            newest = version if saved else newest
        versions = [s.version for s in store.summaries("alice")]
        assert versions == sorted(set(versions)) and (versions or [0])[-1] == newest


# -- hardening: what a restarted server, a full disk or a foreign file must not do


def admin():
    """A connection of our own to the test server (skips without one)."""
    from _stores import HOW, POSTGRES_ENV

    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(HOW)
    import psycopg

    return psycopg.connect(url, autocommit=True)


def test_a_dropped_server_connection_is_reconnected(tmp_path):
    """The server ends our connection (as a restart does): the next append and
    every one after it are saved, none is lost."""
    with store_url("postgres", tmp_path) as url, open_store(url) as store, \
            admin() as db:
        store.create_session("alice", "window")
        store.append("alice", MESSAGES[:1])
        for turn in range(3):
            db.execute("SELECT pg_terminate_backend(%s)",
                       (store._conn.info.backend_pid,))
            assert store.append("alice", [ChatMessage.user(f"turn {turn}")]) == turn + 2
        assert store.count("alice") == 4


def test_a_row_lock_held_elsewhere_is_waited_for_a_bounded_time(tmp_path,
                                                                monkeypatch):
    """Another transaction holds the session's row: append gives up after the lock
    wait (1 s here) with a one-line StoreError, instead of waiting for ever."""
    monkeypatch.setattr("tinyagent.storage.postgres.LOCK_WAIT", 1)
    with store_url("postgres", tmp_path) as url, open_store(url) as store, \
            admin() as db:
        store.create_session("alice", "window")
        schema = url.rsplit("%3D", 1)[1]
        with db.transaction():
            db.execute(f"SELECT * FROM {schema}.tinyagent_sessions FOR UPDATE")
            started = time.monotonic()
            with pytest.raises(StoreError, match="gave up waiting.*try again"):
                store.append("alice", MESSAGES[:1])
            assert time.monotonic() - started < 5
        assert store.append("alice", MESSAGES[:1]) == 1  # and then it works again


def test_a_writer_that_waited_for_a_deleted_session_finds_it_missing(tmp_path):
    """Another transaction holds the session's row, then deletes the session: the
    append that waited for it says the session is missing (a KeyError, which
    sessions.py turns into SessionDeletedError), never a raw database error."""
    with store_url("postgres", tmp_path) as url, open_store(url) as store, \
            admin() as db, admin() as watcher:
        store.create_session("alice", "window")
        schema, pid = url.rsplit("%3D", 1)[1], store._conn.info.backend_pid
        outcome = []

        def append():
            try:
                outcome.append(store.append("alice", MESSAGES[:1]))
            except Exception as error:  # noqa: BLE001 - the test reads which one
                outcome.append(error)

        with db.transaction():
            db.execute(f"SELECT 1 FROM {schema}.tinyagent_sessions FOR UPDATE")
            writer = threading.Thread(target=append)
            writer.start()
            while watcher.execute("SELECT wait_event_type FROM pg_stat_activity "
                                  "WHERE pid = %s", (pid,)).fetchone()[0] != "Lock":
                assert writer.is_alive(), outcome  # it must wait for the row
                time.sleep(0.01)
            db.execute(f"DELETE FROM {schema}.tinyagent_sessions")
        writer.join()
        assert isinstance(outcome[0], KeyError), outcome
        assert "no session named 'alice'" in str(outcome[0])


def test_a_role_that_may_only_read_and_write_can_open_the_store(tmp_path):
    """Tables an admin created; a role with SELECT/INSERT/UPDATE/DELETE on them
    only (no CREATE) opens the store and chats."""
    with store_url("postgres", tmp_path) as url, admin() as db:
        open_store(url).close()  # the admin creates the tables
        schema = url.rsplit("%3D", 1)[1]
        role = f"dml_{schema}"
        db.execute(f"CREATE ROLE {role} LOGIN")
        try:
            db.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
            db.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "
                       f"{schema} TO {role}")
            db.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role}")
            with open_store(url.replace("postgres@", f"{role}@", 1)) as store:
                store.create_session("alice", "window")
                assert store.append("alice", MESSAGES) == 4
        finally:
            db.execute(f"DROP OWNED BY {role}")
            db.execute(f"DROP ROLE {role}")


@pytest.mark.parametrize("kind", STORES)
def test_a_nul_byte_in_a_name_is_a_clear_error(kind, tmp_path):
    """A NUL byte (or another control character) in a session name: ValueError
    naming the rule, never a raw database error."""
    with open_test_store(kind, tmp_path) as store:
        with pytest.raises(ValueError, match="control characters"):
            SessionManager(store, lambda: IncrementalSummaryChatMemory(OFFLINE)).open(
                "al\x00ice")


@pytest.mark.parametrize("url, secret", [
    ("postgresql://u:pa#ss9@127.0.0.1:1/db", "pa#ss9"),
    ("postgresql://u@127.0.0.1:1/db?password=hunter2", "hunter2"),
    ("postgresql://u:pa%zzss9@127.0.0.1:1/db", "pa%zzss9"),
])
def test_postgres_passwords_are_never_printed(url, secret):
    """An unencoded "#", ?password= and a bad percent-escape: safe_url and the
    connection error show none of the password."""
    pytest.importorskip("psycopg")
    assert secret not in safe_url(url) and "ss9" not in safe_url(url)
    with pytest.raises(StoreError) as info:
        PostgresStore(url, connect_timeout=2)
    assert secret not in str(info.value) and "hunter2" not in str(info.value)
    assert "ss9" not in str(info.value) and "\n" not in str(info.value)


def test_a_full_disk_is_named_and_a_turn_is_stored_whole_or_not_at_all(tmp_path):
    """SQLite cannot grow (a full disk): the error says so, not "cannot rollback";
    a turn's question is never stored without its answer; delete says it too."""
    with SqliteStore(tmp_path / "full.db") as store:
        store.create_session("alice", "window")
        manager = SessionManager(store, lambda: IncrementalSummaryChatMemory(OFFLINE))
        session = manager.load("alice")
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages}")
        big = "x" * 50_000
        with pytest.raises(StoreError, match="full.*free some disk space") as info:
            session.add_all([ChatMessage.user(big), ChatMessage.assistant(big)])
        assert "rollback" not in str(info.value)
        assert store.count("alice") == 0  # neither message, not the question alone
        store.append("alice", [ChatMessage.user("short")])  # a page may be free
        try:  # delete needs room for its journal: it works, or says the disk is full
            store.delete_session("alice")
        except StoreError as error:
            assert "full" in str(error) and "rollback" not in str(error)


def test_another_applications_database_is_refused_untouched(tmp_path):
    """A `sessions.db` of another application: refused in one line, and not one
    table or index is added to it."""
    import sqlite3

    path = tmp_path / "sessions.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE sessions (token TEXT, user_id INTEGER)")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a TinyAgent session database"):
        SqliteStore(path)
    assert path.read_bytes() == before


def test_a_newer_layout_is_refused_untouched(tmp_path):
    """A file written by a newer TinyAgent (a higher user_version): refused, asking
    for an upgrade, with nothing written."""
    import sqlite3

    path = tmp_path / "sessions.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 7")
        db.execute("DROP INDEX versions")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer TinyAgent.*upgrade"):
        SqliteStore(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("kind", STORES)
def test_a_row_this_version_cannot_read_is_a_store_error(kind, tmp_path):
    """A stored message in a shape this version does not know (content as a list,
    no role): a one-line StoreError naming the message, not a TypeError."""
    with open_test_store(kind, tmp_path) as store:
        store.create_session("alice", "window")
        store.append("alice", MESSAGES[:1])
        table = "messages" if kind == "sqlite" else "tinyagent_messages"
        with store.transaction() as db:
            db.execute(f"UPDATE {table} SET message = '{{\"content\": [1]}}'")
        with pytest.raises(StoreError, match="message 1 of session 'alice' cannot be "
                           "read"):
            store.messages("alice")


def test_looking_at_a_missing_file_does_not_create_it(tmp_path):
    """open_store(path, create=False) on a missing file: StoreError, no file."""
    with pytest.raises(StoreError, match="does not exist"):
        open_store(tmp_path / "none.db", create=False)
    assert not (tmp_path / "none.db").exists()
