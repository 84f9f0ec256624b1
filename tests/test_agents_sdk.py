"""tinyagent's memories as OpenAI Agents SDK sessions (notebook 10): the item mapping,
the Session protocol's four methods over a memory, a store behind it, and the SDK's
own Runner playing the 20-turn planted dialog offline with no network."""

import asyncio
import json
import socket

import pytest
from fakes import FakeLlm
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("agents")
from agents import Runner, SessionSettings  # noqa: E402

from tinyagent.agents_sdk import (  # noqa: E402
    RUN_CONFIG,
    MemorySession,
    bitmall_agent,
    from_items,
    to_items,
)
from tinyagent.course.billing import RecordingClient  # noqa: E402
from tinyagent.course.memory_kit import recording_async_client  # noqa: E402
from tinyagent.course.planted import planted_dialog  # noqa: E402
from tinyagent.memory import (  # noqa: E402
    InMemoryChatMemory,
    SummaryChatMemory,
    UndoError,
)
from tinyagent.messages import ChatMessage, Role, ToolCall  # noqa: E402
from tinyagent.production import CompactChatMemory  # noqa: E402
from tinyagent.storage import SqliteStore  # noqa: E402

CALL = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
TURN = [ChatMessage.user("Where is 88231?"),
        ChatMessage.assistant("Looking it up.", [CALL]),
        ChatMessage.tool("call_1", '{"status": "delivered"}'),
        ChatMessage.assistant("Delivered on 2026-06-22.")]


def run(coroutine):
    return asyncio.run(coroutine)


def test_items_map_both_ways_and_a_reply_with_calls_stays_one_message():
    """to_items gives the words, then one function_call per call, then the output
    matched by call_id; from_items puts them back into the same messages."""
    items = to_items(TURN)
    assert [i.get("role") or i["type"] for i in items] == [
        "user", "assistant", "function_call", "function_call_output", "assistant"]
    assert items[2]["call_id"] == items[3]["call_id"] == "call_1"
    assert from_items(items) == TURN


def test_the_sdk_s_own_item_shapes_are_read():
    """An SDK assistant message (output_text parts, ids) and its calls become one
    assistant message; a summary is a system item, given back word for word."""
    sdk = [{"role": "user", "content": "hi"},
           {"id": "__fake_id__", "type": "message", "role": "assistant",
            "status": "completed", "content": [{"type": "output_text", "text": "A",
                                                "annotations": []}]},
           {"type": "function_call", "call_id": "c", "name": "queryOrder",
            "arguments": '{"order_id": "88231"}', "id": "__fake_id__"},
           {"type": "function_call_output", "call_id": "c", "output": "{}"}]
    messages = from_items(sdk)
    assert messages[1] == ChatMessage.assistant("A", [ToolCall("c", "queryOrder",
                                                               {"order_id": "88231"})])
    summary = ChatMessage.system("[Conversation summary …]\n- 88231")
    assert to_items([summary]) == [{"role": "system", "content": summary.content}]


def test_get_items_with_a_limit_never_splits_a_tool_step():
    """The newest N items, less an output whose call was cut: fewer, never split."""
    session = MemorySession(InMemoryChatMemory(), session_settings=SessionSettings(
        limit=2))
    run(session.add_items(to_items(TURN)))
    assert run(session.get_items()) == to_items(TURN)[-1:]  # the output lost its call
    assert run(session.get_items(limit=4)) == to_items(TURN)[1:]
    assert run(session.get_items(limit=0)) == []


def test_pop_item_undoes_the_newest_message_and_a_step_goes_whole():
    """pop_item returns the newest item; popping an output takes its call with it;
    an empty session gives None."""
    memory = InMemoryChatMemory()
    session = MemorySession(memory)
    run(session.add_items(to_items(TURN[:3])))
    assert run(session.pop_item()) == to_items(TURN)[3]
    assert memory.messages() == TURN[:1]
    assert run(session.pop_item()) == to_items(TURN)[0]
    assert run(session.pop_item()) is None


def test_on_a_summary_memory_pop_item_stops_at_the_summary_and_clear_forgets_it():
    """Verbatim messages pop; the summary cannot (UndoError, nothing changed);
    clear_session() forgets everything."""
    memory = SummaryChatMemory(FakeLlm(), threshold=4, keep_recent=2)
    session = MemorySession(memory)
    for i in range(4):
        run(session.add_items([{"role": "user", "content": f"q{i}"},
                               {"role": "assistant", "content": f"a{i}"}]))
    while len(memory.messages()) > 1:
        run(session.pop_item())
    with pytest.raises(UndoError):
        run(session.pop_item())
    assert memory.summary is not None
    run(session.clear_session())
    assert run(session.get_items()) == [] and memory.summary is None


def test_a_stored_session_survives_a_restart_and_so_does_an_undo(tmp_path):
    """With a store, a new MemorySession on the same id resumes the conversation,
    and a popped message does not come back."""
    path = tmp_path / "s.db"
    first = MemorySession(InMemoryChatMemory(), "alice", store=SqliteStore(path))
    run(first.add_items(to_items(TURN)))
    run(first.pop_item())
    again = MemorySession(InMemoryChatMemory(), "alice", store=SqliteStore(path))
    assert from_items(run(again.get_items())) == TURN[:3]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["turn", "step", "pop"]), max_size=30))
def test_random_adds_and_pop_items_leave_no_orphan(ops):
    """Over any add/pop_item sequence, the session's items never hold an output
    without its call before it nor a call without its output, and a pop never
    changes an item that stays."""
    session = MemorySession(InMemoryChatMemory())
    for i, op in enumerate(ops):
        before = run(session.get_items())
        if op == "pop":
            run(session.pop_item())
            after = run(session.get_items())
            assert after == before[:len(after)]
            continue
        call = ToolCall(f"c{i}", "queryOrder", {"order_id": "88231"})
        turn = [ChatMessage.user(f"q{i}"), ChatMessage.assistant("", [call]),
                ChatMessage.tool(f"c{i}", "{}")]
        run(session.add_items(to_items(turn if op == "step" else turn[:1])))
        items = run(session.get_items())
        calls = [x["call_id"] for x in items if x.get("type") == "function_call"]
        outputs = [x["call_id"] for x in items
                   if x.get("type") == "function_call_output"]
        assert calls == outputs


# -- the SDK's Runner over the bridge: one run per memory, shared. 20 turns: the
# shortest planted dialog that plants the customer's own words, and long enough for
# the summary and compact memories to compress (checked below)
MEMORIES = {"in-memory": lambda llm: InMemoryChatMemory(),
            "summary": lambda llm: SummaryChatMemory(llm),
            "compact": lambda llm: CompactChatMemory(llm)}


async def play(make):
    llm = RecordingClient()
    memory = make(llm)
    agent = bitmall_agent(llm, "en", client=recording_async_client(llm))
    session, dialog, turns = MemorySession(memory), planted_dialog(20), []
    for text in dialog.turns:
        before, sent = memory.messages(), len(llm.runs[-1])
        result = await Runner.run(agent, text, session=session, run_config=RUN_CONFIG)
        first = next(body for body, _ in llm.runs[-1][sent:] if "tools" in body)
        turns.append((before, first["messages"], str(result.final_output)))
    return dialog, turns, getattr(memory, "compression_count", None)


@pytest.fixture(scope="module")
def runs():
    return {name: run(play(make)) for name, make in MEMORIES.items()}


@pytest.mark.parametrize("name", MEMORIES)
def test_the_sdk_runner_recalls_every_planted_id_and_fact(runs, name):
    """The planted dialog through Runner.run(..., session=MemorySession): every id
    and every fact of the customer's is answered back, offline, by a summary or
    compact memory after it has compressed too."""
    dialog, turns, compressions = runs[name]
    assert compressions is None or compressions > 0
    for probe in (*dialog.probes, *dialog.fact_probes):
        assert probe.expected in turns[probe.turn - 1][2], probe


@pytest.mark.parametrize("name", MEMORIES)
def test_each_request_holds_the_memory_s_messages_and_nothing_else(runs, name):
    """The first request of every run is the agent's instructions, the memory's
    messages as they were before the run, and the new user message: no more."""
    def same(message):
        return {**message, "content": message.get("content") or ""}
    dialog, turns, _ = runs[name]
    for (before, sent, _), text in zip(turns, dialog.turns, strict=True):
        assert sent[0]["role"] == "system" and sent[-1] == {"role": "user",
                                                            "content": text}
        assert [same(m) for m in sent[1:-1]] == [same(m.to_dict()) for m in before]


def test_nothing_tries_the_network(monkeypatch):
    """With sockets refused, an SDK agent still answers a turn offline: no
    tracing export, no model call leaves the process."""
    def refuse(*args, **kwargs):
        raise AssertionError("the offline course opened a network connection")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    from tinyagent import LlmClient
    session = MemorySession(InMemoryChatMemory())
    result = run(Runner.run(bitmall_agent(LlmClient(offline=True)),
                            "Where is my order 88231?", session=session,
                            run_config=RUN_CONFIG))
    assert "SF1234567890" in result.final_output
    assert json.dumps(run(session.get_items())).count("function_call_output") == 2
    assert from_items(run(session.get_items()))[0].role is Role.USER
