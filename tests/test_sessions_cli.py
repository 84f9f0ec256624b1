"""`tinyagent sessions ...` and `chat --session` over every store (offline)."""

import io

import pytest
from _stores import STORES, store_url

from tinyagent import LlmClient
from tinyagent.course.cli import main
from tinyagent.course.sessions_cli import open_session
from tinyagent.messages import ChatMessage
from tinyagent.production import IncrementalSummaryChatMemory, SessionManager
from tinyagent.storage import StoreError, open_store

OFFLINE = LlmClient(offline=True)


@pytest.fixture(params=STORES)
def db(request, tmp_path):
    with store_url(request.param, tmp_path) as url:
        yield url


def cli(argv, capsys, stdin=None, monkeypatch=None):
    """main(argv): (exit status, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{s}\n" for s in stdin)))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def structured_session(url, turns=3):
    """A stored "structured" session whose oldest turns are summarized."""
    with open_store(url) as store:
        manager = SessionManager(store, lambda: IncrementalSummaryChatMemory(
            OFFLINE, keep_recent_turns=1), "structured")
        session = manager.create("alice")
        for n in range(turns):
            session.add(ChatMessage.user(f"Where is my order {57101 + n}?"))
            session.add(ChatMessage.assistant(f"Order {57101 + n} ships today."))


def test_chat_saves_and_list_shows_the_session(db, capsys, monkeypatch):
    """chat --memory structured --session saves both turns; list shows the name,
    the strategy and the message count."""
    status, _, _ = cli(["chat", "--memory", "structured", "--session", "bob", "--db",
                        db], capsys, ["Where is my order 88231?", "Thanks"],
                       monkeypatch)
    assert status == 0
    status, out, _ = cli(["sessions", "list", "--db", db], capsys)
    assert status == 0 and "1 session in" in out
    assert out.split("\n")[1].split()[:3] == ["bob", "structured", "4"]


def test_show_prints_the_summary_its_version_its_cover_and_the_tail(db, capsys):
    """show: the summary text, "version N, covers messages 1-k", then messages
    k+1.. verbatim, numbered as in the store."""
    structured_session(db)
    status, out, _ = cli(["sessions", "show", "alice", "--db", db], capsys)
    assert status == 0
    assert "Summary: version 2, covers messages 1-4" in out and "57101" in out
    assert "Verbatim tail: messages 5-6" in out
    assert "   5. [user] Where is my order 57103?" in out


def test_a_reopened_session_keeps_its_strategy_and_says_so(db, capsys, monkeypatch):
    """A session made with window, reopened with --memory hybrid: it stays a window
    session, and the user is told, not switched silently."""
    cli(["chat", "--memory", "window", "--session", "carol", "--db", db], capsys,
        ["Where is my order 88231?"], monkeypatch)
    status, _, err = cli(["chat", "--memory", "hybrid", "--session", "carol", "--db",
                          db], capsys, ["And the refund?"], monkeypatch)
    assert status == 0
    assert "created with --memory window: using window, not hybrid" in err
    with open_store(db) as store:
        assert store.session("carol").strategy == "window"


def test_rebuild_and_delete(db, capsys):
    """rebuild writes a newer snapshot over the same messages; delete removes the
    session; afterwards show names the missing session in one line, status 1."""
    structured_session(db, turns=6)  # versions 1-5; the command keeps 2 turns
    status, out, _ = cli(["sessions", "rebuild", "alice", "--db", db], capsys)
    assert status == 0 and "summary rebuilt, version 6, covers messages 1-8" in out
    assert cli(["sessions", "delete", "alice", "--db", db, "--force"], capsys)[0] == 0
    status, out, err = cli(["sessions", "show", "alice", "--db", db], capsys)
    assert status == 1 and err == "error: no session named 'alice': check the name " \
        "(it may have been deleted), or create the session first\n"


@pytest.mark.parametrize("argv, message", [
    (["sessions", "list", "--db", "{tmp}"], "is a folder"),
    (["sessions", "list", "--db", "{tmp}/no/such/folder/x.db"], "does not exist"),
    (["sessions", "list", "--db", "mysql://db/x"], "unknown database URL scheme"),
    (["sessions", "show", " ", "--db", "{tmp}/x.db"], "needs a session name")])
def test_bad_databases_and_names_are_one_line(argv, message, tmp_path, capsys):
    """A folder, a missing folder, an unknown scheme, a blank name: one line on
    stderr naming the problem, a non-zero status, no traceback."""
    status, _, err = cli([a.format(tmp=tmp_path) for a in argv], capsys)
    assert status != 0 and message in err and err.count("\n") == 1


def test_a_blank_session_name_for_chat_is_a_store_error(tmp_path):
    """open_session (what chat --session uses) refuses "  " with a StoreError the
    command line can print as one line."""
    with open_store(tmp_path / "x.db") as store, pytest.raises(
            StoreError, match="session name is empty"):
        open_session(store, "  ", "window", {"window": lambda: None})


# -- hardening: what an operator's terminal must never see or suffer


def test_list_prints_no_terminal_escapes(tmp_path, capsys):
    """A stored name holding ESC and BEL (written by another program): list shows
    them as escapes, never as the raw bytes."""
    import sqlite3

    path = tmp_path / "s.db"
    open_store(path).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO sessions (name, strategy, created_at, updated_at) "
                   "VALUES ('evil\x1b]0;pwned\x07', 'window', 0, 0)")
    status, out, _ = cli(["sessions", "list", "--db", str(path)], capsys)
    assert status == 0 and "\x1b" not in out and "\x07" not in out
    assert "evil\\x1b]0;pwned\\x07" in out


def test_looking_creates_no_database(tmp_path, capsys, monkeypatch):
    """sessions list (or show) where no database is: one line, and no file made."""
    monkeypatch.chdir(tmp_path)
    for argv in (["sessions", "list"], ["sessions", "show", "bob"]):
        status, _, err = cli(argv, capsys)
        assert status == 1 and "does not exist" in err and err.count("\n") == 1
    assert not (tmp_path / "tinyagent.db").exists()


def test_show_of_a_long_window_session_prints_only_the_newest_messages(tmp_path,
                                                                       capsys):
    """A window session of 5,000 messages: show prints the newest 20 of its tail
    and says how many it left out, not all of them."""
    path = str(tmp_path / "s.db")
    with open_store(path) as store:
        store.create_session("w", "window")
        store.append("w", [ChatMessage.user(f"line {n}") for n in range(5_000)])
    status, out, _ = cli(["sessions", "show", "w", "--db", path], capsys)
    assert status == 0 and len(out.splitlines()) < 30
    assert "4,980 older messages of the tail not shown" in out and "line 4999" in out


def test_delete_refuses_a_session_in_use_and_chat_says_it_was_deleted(
        db, capsys, monkeypatch):
    """delete of a session used seconds ago is refused (a chat may hold it) unless
    --force; a chat whose session was deleted says so and stops, never "earlier
    ones are kept", and no Python call is suggested."""
    import tinyagent.course.sessions_cli as sessions_cli
    from tinyagent.production.sessions import SessionManager as Manager

    cli(["chat", "--memory", "window", "--session", "bob", "--db", db], capsys,
        ["Where is my order 88231?"], monkeypatch)
    status, _, err = cli(["sessions", "delete", "bob", "--db", db], capsys)
    assert status == 1 and "may be open in a chat" in err and "--force" in err
    real_open = Manager.open

    def open_then_deleted(self, name):  # another process deletes it mid-chat
        session = real_open(self, name)
        with open_store(db) as other:
            other.delete_session(name)
        return session

    monkeypatch.setattr(Manager, "open", open_then_deleted)
    status, _, err = cli(["chat", "--memory", "window", "--session", "bob", "--db",
                          db], capsys, ["Thanks", "And the refund?"], monkeypatch)
    assert status == 1 and "'bob' was deleted while in use" in err
    assert "earlier ones are kept" not in err and "SessionManager" not in err
    assert sessions_cli.IN_USE_SECONDS > 0
