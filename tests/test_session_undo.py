"""Undo on a stored session (notebook 10 on notebook 09's stores): the store records
it, a restart does not bring it back, two writers stay safe; and an orphan tool
result left in an older file is dropped with a warning when the session loads."""

import json

import pytest
from fakes import FakeLlm

from tinyagent.memory import (
    HybridChatMemory,
    InMemoryChatMemory,
    SlidingWindowChatMemory,
    UndoError,
)
from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.production import SessionManager
from tinyagent.storage import SqliteStore, StoreError

CALL = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
TURN = [ChatMessage.user("Where is 88231?"), ChatMessage.assistant("", [CALL]),
        ChatMessage.tool("call_1", '{"status": "delivered"}'),
        ChatMessage.assistant("Delivered.")]


@pytest.fixture
def path(tmp_path):
    return tmp_path / "s.db"


@pytest.mark.parametrize("factory", [InMemoryChatMemory,
                                     lambda: SlidingWindowChatMemory(10),
                                     lambda: HybridChatMemory(FakeLlm(), 2, 4)])
def test_an_undo_is_recorded_and_a_restart_does_not_bring_it_back(path, factory):
    """pop() removes the message from the memory and the store: a new process
    loads the session without it; the next message takes its place."""
    manager = SessionManager(SqliteStore(path), factory)
    session = manager.create("alice")
    session.add_all(TURN)
    assert session.pop() == TURN[3]
    assert session.pop() == TURN[2]  # a result: its call goes with it
    again = SessionManager(SqliteStore(path), factory).load("alice")
    assert again.messages() == TURN[:1] == again.transcript()
    again.add(ChatMessage.assistant("Let me check."))
    assert [m.content for m in again.transcript()] == ["Where is 88231?",
                                                       "Let me check."]


def test_a_message_a_stored_summary_holds_cannot_be_undone(path):
    """Once the verbatim messages are popped, UndoError; store and memory unchanged."""
    session = SessionManager(SqliteStore(path),
                             lambda: HybridChatMemory(FakeLlm(), 2, 4)).create("a")
    for i in range(4):
        session.add_all([ChatMessage.user(f"q{i}"), ChatMessage.assistant(f"a{i}")])
    while len(session.messages()) > 1:
        session.pop()
    count = session.store.count("a")
    with pytest.raises(UndoError):
        session.pop()
    assert session.store.count("a") == count and session.summary


def test_an_undo_never_removes_another_writer_s_message(path):
    """A handle that missed another writer's append undoes nothing: the store keeps
    the other message, the handle reloads it, and the error says why."""
    manager = SessionManager(SqliteStore(path), InMemoryChatMemory)
    mine, theirs = manager.create("a"), None
    mine.add_all(TURN[:1])
    theirs = SessionManager(SqliteStore(path), InMemoryChatMemory).load("a")
    theirs.add(ChatMessage.assistant("Theirs."))
    with pytest.raises(StoreError, match="another writer"):
        mine.pop()
    assert [m.content for m in mine.messages()] == ["Where is 88231?", "Theirs."]
    assert mine.store.count("a") == 2


def test_another_writer_s_undo_and_new_message_is_noticed(path):
    """They undo the answer this handle saw and write another: at its next add,
    this handle reloads instead of keeping the undone answer."""
    manager = SessionManager(SqliteStore(path), InMemoryChatMemory)
    mine = manager.create("a")
    mine.add_all([ChatMessage.user("q"), ChatMessage.assistant("undone answer")])
    theirs = SessionManager(SqliteStore(path), InMemoryChatMemory).load("a")
    theirs.pop()
    theirs.add(ChatMessage.assistant("new answer"))
    mine.add(ChatMessage.user("next"))
    assert [m.content for m in mine.messages()] == ["q", "new answer", "next"]


def test_a_stored_orphan_is_dropped_with_a_warning_and_never_sent(path):
    """A file from an older version holds a tool result without its call: loading
    warns, names the message, and the memory never holds it."""
    store = SqliteStore(path)
    store.create_session("old", "inmemory")
    store.append("old", [ChatMessage.user("hi")])
    orphan = json.dumps(ChatMessage.tool("call_x", "{}").to_dict())
    with store.transaction() as db:
        db.execute("INSERT INTO messages (session_id, seq, message) VALUES "
                   "((SELECT id FROM sessions WHERE name = 'old'), 2, ?)", (orphan,))
    store.append("old", [ChatMessage.assistant("Hello!")])
    with pytest.warns(UserWarning, match=r"message 2 answers tool call 'call_x'"):
        session = SessionManager(store, InMemoryChatMemory).load("old")
    assert [m.role.value for m in session.messages()] == ["user", "assistant"]
    session.add(ChatMessage.user("next"))  # the log's numbering is kept
    assert store.count("old") == 4
