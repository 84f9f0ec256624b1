"""Rules of sessions: saved as they go, isolated, restored, rebuilt, expired."""

import subprocess
import sys
import textwrap
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyagent import (
    HybridChatMemory,
    InMemoryChatMemory,
    LlmClient,
    ReActAgent,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
    bitmall_tools,
)
from tinyagent.messages import ChatMessage
from tinyagent.production import (
    BackgroundSummaryChatMemory,
    IncrementalSummaryChatMemory,
    SessionManager,
)
from tinyagent.storage import SqliteStore, SummaryState

OFFLINE = LlmClient(offline=True)
FAILING = LlmClient(offline=True, model="bitmall-offline+error")
QUESTIONS = ["Where is my order 88231?",
             "I want a refund, it won't go back to its dock"]


class CountingLlm:
    """The offline model, counting its calls."""

    def __init__(self, llm=OFFLINE):
        self.llm, self.calls = llm, 0

    def chat(self, messages, tools=None):
        self.calls += 1
        return self.llm.chat(messages, tools)


def turns(n):
    """n scripted turns: a question with an order number, and an answer."""
    return [m for i in range(n) for m in (
        ChatMessage.user(f"Where is my order {88231 + i}?"),
        ChatMessage.assistant(f"Order {88231 + i} is in transit, tracking "
                              f"SF{1234567890 + i}."))]


def chat(session, questions):
    agent = ReActAgent(OFFLINE, bitmall_tools(), memory=session, verbose=False)
    return [agent.run(q) for q in questions]


def test_every_message_is_in_the_store_when_the_turn_ends():
    """The agent's question and answer are both saved by the end of the turn."""
    store = SqliteStore()
    session = SessionManager(store, InMemoryChatMemory).create("alice")
    chat(session, QUESTIONS[:1])
    assert store.messages("alice") == session.messages()
    assert [m.role.value for m in store.messages("alice")] == ["user", "assistant"]


def test_two_sessions_never_see_each_other():
    """Alice's refund number is not in Bob's memory, his answer, or his rows."""
    manager = SessionManager(SqliteStore(), InMemoryChatMemory)
    alice, bob = manager.create("alice"), manager.create("bob")
    chat(alice, QUESTIONS[:2])
    chat(bob, ["Where is my order 90417?"])
    alice_answer, = chat(alice, ["What was my refund number again?"])
    bob_answer, = chat(bob, ["What was my refund number again?"])
    assert "RF20260701001" in alice_answer and "RF20260701001" not in bob_answer
    assert not any("88231" in m.content for m in manager.store.messages("bob"))
    manager.delete("alice")
    assert [s.name for s in manager.list()] == ["bob"]
    assert len(manager.load("bob").messages()) == 4


FACTORIES = {
    "in-memory": InMemoryChatMemory,
    "window": lambda: SlidingWindowChatMemory(4),
    "tokens": lambda: TokenWindowChatMemory(120),
    "summary": lambda: SummaryChatMemory(OFFLINE, threshold=6, keep_recent=2),
    "hybrid": lambda: HybridChatMemory(OFFLINE, recent_size=4, summary_threshold=6),
    "structured": lambda: IncrementalSummaryChatMemory(OFFLINE, keep_recent_turns=2),
}


@pytest.mark.parametrize("name", FACTORIES)
def test_any_strategy_comes_back_the_same_after_a_restart(name, tmp_path):
    """A new store object on the same file loads what the memory held, exactly."""
    path = tmp_path / "chats.db"
    session = SessionManager(SqliteStore(path), FACTORIES[name]).create("alice")
    for message in turns(5):
        session.add(message)
    loaded = SessionManager(SqliteStore(path), FACTORIES[name]).load("alice")
    assert loaded.messages() == session.messages()
    assert loaded.summary == session.summary


def test_loading_makes_no_model_call_even_when_a_compression_is_due(tmp_path):
    """The snapshot and the messages after it come back as they are; the next add
    compresses the backlog in one batch."""
    path, llm = tmp_path / "chats.db", CountingLlm()
    session = SessionManager(SqliteStore(path), lambda: IncrementalSummaryChatMemory(
        FAILING, keep_recent_turns=2)).create("alice")
    for message in turns(4):
        session.add(message)
    store = SqliteStore(path)
    store.append("alice", turns(6)[8:])  # a turn saved, its compression never ran
    loaded = SessionManager(store, lambda: IncrementalSummaryChatMemory(
        llm, keep_recent_turns=2)).load("alice")
    assert llm.calls == 0 and len(loaded.messages()) == 1 + 8
    loaded.add(ChatMessage.user("And order 88231?"))  # the backlog: one batch
    assert llm.calls == 1 and loaded.memory.state.covered_up_to == 4 + 4


def test_rebuild_summary_recompresses_from_the_full_log(tmp_path):
    """A summary built by the fallback is rebuilt by the model: batches of whole
    turns, the same coverage, a higher version, saved as the newest snapshot."""
    store = SqliteStore(tmp_path / "chats.db")
    broken = SessionManager(store, lambda: IncrementalSummaryChatMemory(
        FAILING, keep_recent_turns=2, batch_turns=1))
    session = broken.create("alice")
    for message in turns(6):
        session.add(message)
    before = store.summary("alice")
    assert before.compression_count == 4 and session.memory.summarizer.fallbacks == 4
    manager = SessionManager(store, lambda: IncrementalSummaryChatMemory(
        OFFLINE, keep_recent_turns=2, batch_turns=6))
    rebuilt = manager.rebuild_summary("alice")
    after = store.summary("alice")
    assert rebuilt.memory.summarizer.fallbacks == 0 and after.compression_count == 1
    assert after.covered_up_to == before.covered_up_to == 8
    assert after.version == before.version + 1
    assert all(f"{88231 + i}" in after.text for i in range(4))
    assert rebuilt.messages()[1:] == session.messages()[1:]


def test_a_background_compression_is_saved_when_it_is_applied():
    """The snapshot is written from the pool thread, once the result is applied."""
    with ThreadPoolExecutor(1) as pool:
        manager = SessionManager(SqliteStore(), lambda: BackgroundSummaryChatMemory(
            OFFLINE, keep_recent_turns=1, executor=pool))
        session = manager.create("alice")
        for message in turns(3):
            session.add(message)
        state = session.memory.wait()
    assert manager.store.summary("alice") == state and state.covered_up_to == 4


def test_clearing_during_a_background_compression_saves_nothing_stale():
    """clear() while a compression runs: its late result is neither applied nor
    saved, and the store holds no message and no snapshot."""
    go = threading.Event()

    class Gated:
        def chat(self, messages, tools=None):
            assert go.wait(5)
            return OFFLINE.chat(messages, tools)

    with ThreadPoolExecutor(1) as pool:
        manager = SessionManager(SqliteStore(), lambda: BackgroundSummaryChatMemory(
            Gated(), keep_recent_turns=1, executor=pool))
        session = manager.create("alice")
        for message in turns(2):
            session.add(message)
        future = session.memory.in_flight
        session.clear()
        go.set()
        assert future.result(5) is False
    assert manager.store.summaries("alice") == [] and manager.store.count("alice") == 0


def test_list_expire_and_clear():
    """list() names every session; expire() deletes the idle ones; clear() empties
    a session in memory and in the store."""
    now = [1000.0]
    manager = SessionManager(SqliteStore(clock=lambda: now[0]), InMemoryChatMemory,
                             strategy="in-memory")
    manager.create("old")
    new = manager.create("new")
    now[0] += 3600
    new.add(ChatMessage.user("Where is my order 88231?"))
    assert [(s.name, s.strategy) for s in manager.list()] == [
        ("new", "in-memory"), ("old", "in-memory")]
    assert manager.expire(max_idle_seconds=1800) == ["old"]
    new.clear()
    assert new.messages() == [] and manager.store.messages("new") == []
    with pytest.raises(ValueError, match="already exists"):
        manager.create("new")
    with pytest.raises(KeyError, match="no session named 'old'"):
        manager.load("old")


CHILD = textwrap.dedent("""
    import os, sys, threading
    from tinyagent.messages import ChatMessage
    from tinyagent.production import (
        BackgroundSummaryChatMemory, IncrementalSummaryChatMemory, SessionManager)
    from tinyagent.storage import SqliteStore

    path, kind = sys.argv[1], sys.argv[2]
    all_added = threading.Event()

    class DiesMidCompression:
        def chat(self, messages, tools=None):
            all_added.wait(5)
            os._exit(7)  # killed in the middle of the summarizer call

    memory_class = {"sync": IncrementalSummaryChatMemory,
                    "background": BackgroundSummaryChatMemory}[kind]
    manager = SessionManager(SqliteStore(path), lambda: memory_class(
        DiesMidCompression(), keep_recent_turns=2))
    session = manager.create("alice")
    all_added.set() if kind == "sync" else None
    for i in range(3):
        session.add(ChatMessage.user(f"Where is my order {88231 + i}?"))
        session.add(ChatMessage.assistant(f"Order {88231 + i} is in transit, "
                                          f"tracking SF{1234567890 + i}."))
    all_added.set()
    session.memory.wait()
    print("the compression finished: it should have been killed")
""")


@pytest.mark.parametrize("kind", ["sync", "background"])
def test_a_process_killed_mid_compression_loses_nothing(kind, tmp_path):
    """Another process is killed inside the summarizer call: a new one loads every
    message it saved, and the next compression keeps the numbers of turn 1."""
    path = tmp_path / "chats.db"
    child = subprocess.run([sys.executable, "-c", CHILD, str(path), kind],
                           capture_output=True, text=True, timeout=30)
    assert child.returncode == 7, child.stderr
    manager = SessionManager(SqliteStore(path), lambda: IncrementalSummaryChatMemory(
        OFFLINE, keep_recent_turns=2))
    session = manager.load("alice")
    assert session.messages() == turns(3) and session.summary is None
    session.add(ChatMessage.user("And the refund?"))
    session.add(ChatMessage.assistant("Which order?"))
    assert session.memory.state.covered_up_to == 4
    assert "88231" in session.summary and "SF1234567890" in session.summary


def incremental_manager(store, llm=OFFLINE, memory_class=IncrementalSummaryChatMemory,
                        **sizes):
    return SessionManager(store, lambda: memory_class(
        llm, keep_recent_turns=sizes.get("keep", 1), **sizes.get("extra", {})))


def recalled(manager, name, numbers):
    """The order numbers the reloaded memory (summary + verbatim) does not hold."""
    memory = " ".join(m.content for m in manager.load(name).messages())
    return [n for n in numbers if str(n) not in memory]


def test_a_summary_built_on_an_old_version_is_refused_and_the_handle_reloads():
    """Another writer saves version 1 while this handle is summarizing: this
    handle's own version 1 is not saved; it counts a conflict and continues from
    the other writer's summary."""
    store = SqliteStore()

    class RacedModel:
        def chat(self, messages, tools=None):  # the other writer wins the race
            store.save_summary("alice", SummaryState("- order 57101 (another "
                                                     "writer)", 2, 1, 1))
            return OFFLINE.chat(messages, tools)

    session = incremental_manager(store, RacedModel()).create("alice")
    for message in turns(2):  # the first turn is due: compressed, then refused
        session.add(message)
    assert session.conflicts == 1
    assert [s.text for s in store.summaries("alice")] == [
        "- order 57101 (another writer)"]
    assert "57101" in session.summary and session.memory.state.version == 1
    assert session.messages()[1:] == turns(2)[2:]


def test_a_newer_summary_in_the_store_is_loaded_before_compressing():
    """Another writer saved a summary since this handle's last message: the next
    add() reloads it first, so no model call is spent on a refused summary."""
    store, model = SqliteStore(), CountingLlm()
    session = incremental_manager(store, model).create("alice")
    for message in turns(1):
        session.add(message)
    store.save_summary("alice", SummaryState("- order 57101 (another writer)", 2, 1, 1))
    for message in turns(2)[2:]:
        session.add(message)
    assert session.conflicts == 0 and model.calls == 0
    assert "57101" in session.summary


@settings(max_examples=25, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=10))
def test_any_interleaving_of_two_handles_keeps_every_message(writers):
    """Two handles add turns in any order: the transcript holds every message, the
    newest summary plus the verbatim tail cover it, versions are unique, and every
    order number is in the reloaded memory."""
    store = SqliteStore()
    manager = incremental_manager(store)
    handles = [manager.create("alice"), manager.load("alice")]
    numbers = []
    for n, writer in enumerate(writers):
        numbers.append(57100 + n)
        handles[writer].add(ChatMessage.user(f"Where is order {numbers[-1]}?"))
        handles[writer].add(ChatMessage.assistant(f"{numbers[-1]} ships today."))
    versions = [s.version for s in store.summaries("alice")]
    newest = store.summary("alice")
    covered = newest.covered_up_to if newest else 0
    assert store.count("alice") == 2 * len(writers)
    assert len(manager.load("alice").messages()) - (newest is not None) == (
        2 * len(writers) - covered)
    assert versions == sorted(set(versions))
    assert recalled(manager, "alice", numbers) == []


def test_threads_with_their_own_connections_on_one_file_lose_nothing(tmp_path):
    """Four threads, each with its own store object on one file, add 8 turns each
    to one session: all 64 messages are stored and every number recalled."""
    path = tmp_path / "chats.db"
    incremental_manager(SqliteStore(path)).create("alice")

    def write(worker):
        session = incremental_manager(SqliteStore(path)).load("alice")
        for turn in range(8):
            number = 50000 + 100 * worker + turn
            session.add(ChatMessage.user(f"Where is order {number}?"))
            session.add(ChatMessage.assistant(f"{number} ships today."))

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(write, range(4)))
    store = SqliteStore(path)
    versions = [s.version for s in store.summaries("alice")]
    assert store.count("alice") == 64 and versions == sorted(set(versions))
    numbers = [50000 + 100 * w + t for w in range(4) for t in range(8)]
    assert recalled(incremental_manager(store), "alice", numbers) == []


class GatedModel:
    """The offline model, held at each call until the test releases it."""

    def __init__(self):
        self.release, self.calls = threading.Event(), 0

    def chat(self, messages, tools=None):
        self.calls += 1
        assert self.release.wait(5), "the test never released the model"
        return OFFLINE.chat(messages, tools)


def test_a_second_handle_does_not_compress_a_session_already_in_flight():
    """Handle a compresses in the background; handle b, same session and process,
    has a batch due too but starts nothing; once a's result is saved, b's next
    turn picks it up. One model call at a time for the session."""
    model, pool = GatedModel(), ThreadPoolExecutor(2)
    manager = incremental_manager(SqliteStore(), model, BackgroundSummaryChatMemory,
                                  extra={"executor": pool})
    a, b = manager.create("alice"), manager.load("alice")
    for message in turns(2):
        a.add(message)
    assert a.memory.in_flight is not None
    for message in turns(4)[4:]:
        b.add(message)  # b reloads (a wrote first): the backlog is due, a holds it
    assert b.memory.in_flight is None and model.calls == 1
    model.release.set()
    a.memory.wait()
    assert a.store.summary("alice").version == 1
    pool.shutdown(wait=True)


# -- hardening: sessions under other writers, odd input and huge messages


def test_a_session_created_by_another_process_since_we_looked_is_loaded(tmp_path):
    """open() that finds no session, then loses the race to create it (another
    process was first): it loads that session instead of failing."""
    store = SqliteStore(tmp_path / "s.db")
    store.create_session("alice", "window")
    store.append("alice", turns(1))
    looked = []
    real = store.has_session

    def has_session(name):  # the first look happens before the other's create
        looked.append(name)
        return real(name) and len(looked) > 1

    store.has_session = has_session
    session = SessionManager(store, InMemoryChatMemory).open("alice")
    assert session.messages() == turns(1)


def test_a_deleted_session_says_so_instead_of_saving_into_nothing(tmp_path):
    """Another process deletes the session while it is in use: the next add raises
    a StoreError saying it was deleted, with no Python call in the message."""
    from tinyagent.storage import StoreError

    store = SqliteStore(tmp_path / "s.db")
    session = SessionManager(store, InMemoryChatMemory).create("alice")
    session.add_all(turns(1))
    store.delete_session("alice")
    with pytest.raises(StoreError, match="'alice' was deleted while in use") as info:
        session.add(ChatMessage.user("hello"))
    assert "SessionManager" not in str(info.value)


@pytest.mark.parametrize("bad", ["hello", {"role": "user", "content": "hi"}, None])
def test_a_session_refuses_what_is_not_a_message_before_storing_it(tmp_path, bad):
    """Session.add("hello") (or a dict, or None): TypeError at once, nothing stored."""
    store = SqliteStore(tmp_path / "s.db")
    session = SessionManager(store, InMemoryChatMemory).create("alice")
    with pytest.raises(TypeError, match="ChatMessage"):
        session.add(bad)
    assert store.count("alice") == 0


def test_rebuild_gives_up_when_another_writer_always_saves_first(tmp_path):
    """A chat saves a newer snapshot during every rebuild attempt: the rebuild
    stops after a few attempts with a StoreError, its model calls bounded."""
    from tinyagent.storage import StoreError

    store = SqliteStore(tmp_path / "s.db")
    llm = CountingLlm()
    manager = SessionManager(store, lambda: IncrementalSummaryChatMemory(
        llm, keep_recent_turns=1, batch_turns=1))
    manager.create("alice").add_all(turns(4))
    store.save_summary = lambda *args, **kwargs: False  # someone always saved first
    calls = llm.calls
    with pytest.raises(StoreError, match="kept changing during the rebuild"):
        manager.rebuild_summary("alice")
    assert llm.calls - calls <= 3 * 3


def test_a_huge_stored_message_is_loaded_cut_and_kept_whole(tmp_path):
    """A 1.5 MB message in the log: loading the session puts a cut copy in the
    memory (so opening stays cheap); the transcript keeps it whole."""
    store = SqliteStore(tmp_path / "s.db")
    manager = SessionManager(store, InMemoryChatMemory)
    manager.create("alice")
    store.append("alice", [ChatMessage.user("word " * 300_000)])
    loaded = manager.load("alice")
    assert len(loaded.messages()[0].content) < 200_000
    assert len(loaded.transcript()[0].content) == 1_500_000


def test_a_tool_result_without_its_call_is_refused_before_it_is_stored(tmp_path):
    """Session.add of a tool message whose call the session does not hold:
    ValueError naming the call, nothing stored (stored, it would make the provider
    reject every later turn of the session). With its call, it is accepted."""
    from tinyagent.messages import ToolCall

    store = SqliteStore(tmp_path / "s.db")
    session = SessionManager(store, InMemoryChatMemory).create("alice")
    with pytest.raises(ValueError, match="'call_gone'"):
        session.add(ChatMessage.tool("call_gone", '{"status": "delivered"}'))
    assert store.count("alice") == 0
    call = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
    session.add(ChatMessage.assistant("", [call]))
    session.add(ChatMessage.tool("call_1", '{"status": "delivered"}'))
    assert store.count("alice") == 2


def test_a_failing_summarizer_loses_no_id_of_an_open_request(tmp_path):
    """A hybrid session whose summarizer always fails (HTTP 500: the fallback
    merges): after 16 refund requests and a reload, every order id is still in
    the memory: open requests go last, and shrink to their ids before they go."""
    store = SqliteStore(tmp_path / "s.db")
    manager = SessionManager(store, lambda: HybridChatMemory(
        FAILING, recent_size=4, summary_threshold=8), "hybrid")
    session = manager.create("alice")
    ids = [str(57100 + n) for n in range(16)]
    for order in ids:
        session.add_all([
            ChatMessage.user(f"I want a refund for order {order}, it arrived broken "
                             "and the box was crushed"),
            ChatMessage.assistant(f"Refund for order {order} noted. Pickup code "
                                  f"SF{order}00000, refund number RF2026{order}00.")])
    memory = "\n".join(m.content for m in manager.load("alice").messages())
    assert [order for order in ids if order not in memory] == []


@pytest.mark.parametrize("name", ["summary", "hybrid"])
def test_a_notebook_summary_memory_is_saved_with_its_record(name, tmp_path):
    """A notebook 04-05 memory keeps its class in a session, and the session keeps
    its record: each compression saved as the next version, covering exactly the
    messages no longer verbatim; a restart continues from it."""
    path = tmp_path / "chats.db"
    session = SessionManager(SqliteStore(path), FACTORIES[name]).create("alice")
    for message in turns(5):
        session.add(message)
    store = SqliteStore(path)
    saved = store.summaries("alice")
    assert type(session.memory) is type(FACTORIES[name]())
    assert [s.version for s in saved] == list(range(1, len(saved) + 1)) and saved
    verbatim = len(session.messages()) - 1
    assert saved[-1].covered_up_to == 10 - verbatim
    assert saved[-1].text == session.summary
    loaded = SessionManager(store, FACTORIES[name]).load("alice")
    for message in turns(8)[10:]:
        loaded.add(message)
    newest = store.summary("alice")
    assert newest.version > saved[-1].version
    assert newest.covered_up_to == 16 - (len(loaded.messages()) - 1)
