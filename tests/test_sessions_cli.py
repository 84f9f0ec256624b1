"""`tinyagent sessions ...` and `chat --session` over every store (offline)."""

import io

import pytest
from _stores import STORES, store_url

from tinyagent import LlmClient
from tinyagent.course.cli import main
from tinyagent.course.sessions_cli import open_session
from tinyagent.messages import ChatMessage
from tinyagent.production import IncrementalSummaryMemory, SessionManager
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
        manager = SessionManager(store, lambda: IncrementalSummaryMemory(
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
    assert cli(["sessions", "delete", "alice", "--db", db], capsys)[0] == 0
    status, out, err = cli(["sessions", "show", "alice", "--db", db], capsys)
    assert status == 1 and err == "error: no session named 'alice': create it " \
        "first (SessionManager.create) or check the name\n"


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
