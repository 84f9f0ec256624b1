"""tinyagent's memories as OpenAI Agents SDK sessions (notebook 10): the item mapping,
the Session protocol's four methods over a memory, a store behind it, and the SDK's
own Runner playing the planted dialog offline with no network.

The SDK takes a second or two to import, so it is imported by the `sdk` fixture,
not at the top: a test worker that runs none of these tests never pays for it."""

import asyncio
import json
import socket

import pytest
from fakes import FakeLlm
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyagent.course.billing import RecordingClient
from tinyagent.course.planted import planted_dialog
from tinyagent.memory import (
    InMemoryChatMemory,
    SummaryChatMemory,
    UndoError,
)
from tinyagent.messages import ChatMessage, Role, ToolCall
from tinyagent.production import CompactChatMemory
from tinyagent.storage import SqliteStore


@pytest.fixture(scope="module")
def sdk():
    """The bridge (tinyagent.agents_sdk), or a skip saying how to install the SDK."""
    pytest.importorskip("agents", reason="the OpenAI Agents SDK is not installed: "
                        "pip install openai-agents (it is in the test extra)")
    import tinyagent.agents_sdk as bridge
    return bridge


CALL = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
TURN = [ChatMessage.user("Where is 88231?"),
        ChatMessage.assistant("Looking it up.", [CALL]),
        ChatMessage.tool("call_1", '{"status": "delivered"}'),
        ChatMessage.assistant("Delivered on 2026-06-22.")]


def run(coroutine):
    return asyncio.run(coroutine)


def test_items_map_both_ways_and_a_reply_with_calls_stays_one_message(sdk):
    """sdk.to_items gives the words, then one function_call per call, then the output
    matched by call_id; sdk.from_items puts them back into the same messages."""
    items = sdk.to_items(TURN)
    assert [i.get("role") or i["type"] for i in items] == [
        "user", "assistant", "function_call", "function_call_output", "assistant"]
    assert items[2]["call_id"] == items[3]["call_id"] == "call_1"
    assert sdk.from_items(items) == TURN


def test_the_sdk_s_own_item_shapes_are_read(sdk):
    """An SDK assistant message (output_text parts, ids) and its calls become one
    assistant message; a summary is a system item, given back word for word."""
    shapes = [{"role": "user", "content": "hi"},
              {"id": "__fake_id__", "type": "message", "role": "assistant",
               "status": "completed", "content": [{"type": "output_text", "text": "A",
                                                   "annotations": []}]},
              {"type": "function_call", "call_id": "c", "name": "queryOrder",
               "arguments": '{"order_id": "88231"}', "id": "__fake_id__"},
              {"type": "function_call_output", "call_id": "c", "output": "{}"}]
    messages = sdk.from_items(shapes)
    assert messages[1] == ChatMessage.assistant("A", [ToolCall("c", "queryOrder",
                                                               {"order_id": "88231"})])
    summary = ChatMessage.system("[Conversation summary …]\n- 88231")
    assert sdk.to_items([summary]) == [{"role": "system", "content": summary.content}]


def test_get_items_with_a_limit_never_splits_a_tool_step(sdk):
    """The newest N items, less an output whose call was cut: fewer, never split."""
    from agents import SessionSettings
    session = sdk.MemorySession(InMemoryChatMemory(),
                                session_settings=SessionSettings(limit=2))
    run(session.add_items(sdk.to_items(TURN)))
    # the output lost its call:
    assert run(session.get_items()) == sdk.to_items(TURN)[-1:]
    assert run(session.get_items(limit=4)) == sdk.to_items(TURN)[1:]
    assert run(session.get_items(limit=0)) == []


def test_pop_item_undoes_the_newest_message_and_a_step_goes_whole(sdk):
    """pop_item returns the newest item; popping an output takes its call with it;
    an empty session gives None."""
    memory = InMemoryChatMemory()
    session = sdk.MemorySession(memory)
    run(session.add_items(sdk.to_items(TURN[:3])))
    assert run(session.pop_item()) == sdk.to_items(TURN)[3]
    assert memory.messages() == TURN[:1]
    assert run(session.pop_item()) == sdk.to_items(TURN)[0]
    assert run(session.pop_item()) is None


def test_on_a_summary_memory_pop_item_stops_at_the_summary_and_clear_forgets_it(
        sdk):
    """Verbatim messages pop; the summary cannot (UndoError, nothing changed);
    clear_session() forgets everything."""
    memory = SummaryChatMemory(FakeLlm(), threshold=4, keep_recent=2)
    session = sdk.MemorySession(memory)
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


def test_a_stored_session_survives_a_restart_and_so_does_an_undo(sdk, tmp_path):
    """With a store, a new sdk.MemorySession on the same id resumes the conversation,
    and a popped message does not come back."""
    path = tmp_path / "s.db"
    first = sdk.MemorySession(InMemoryChatMemory(), "alice", store=SqliteStore(path))
    run(first.add_items(sdk.to_items(TURN)))
    run(first.pop_item())
    again = sdk.MemorySession(InMemoryChatMemory(), "alice", store=SqliteStore(path))
    assert sdk.from_items(run(again.get_items())) == TURN[:3]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["turn", "step", "pop"]), max_size=30))
def test_random_adds_and_pop_items_leave_no_orphan(sdk, ops):
    """Over any add/pop_item sequence, the session's items never hold an output
    without its call before it nor a call without its output, and a pop never
    changes an item that stays."""
    session = sdk.MemorySession(InMemoryChatMemory())
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
        run(session.add_items(sdk.to_items(turn if op == "step" else turn[:1])))
        items = run(session.get_items())
        calls = [x["call_id"] for x in items if x.get("type") == "function_call"]
        outputs = [x["call_id"] for x in items
                   if x.get("type") == "function_call_output"]
        assert calls == outputs


# -- the SDK's Runner over the bridge: one run of the planted dialog per memory,
# shared. Each plays the shortest dialog that tests it (the full log's requests
# grow with every turn): 20 turns plant every fact; the summary memory compresses
# from turn 3 on, but the compact one first at turn 14, so it plays 30, where the
# probes (in the last 14 turns) all come after the planting turns left it.
MEMORIES = {"in-memory": (20, lambda llm: InMemoryChatMemory()),
            "summary": (20, lambda llm: SummaryChatMemory(llm)),
            "compact": (30, lambda llm: CompactChatMemory(llm))}


async def play(sdk, length, make):
    from agents import Runner

    from tinyagent.course.memory_kit import recording_async_client
    llm = RecordingClient()
    memory = make(llm)
    agent = sdk.bitmall_agent(llm, "en", client=recording_async_client(llm))
    session, dialog, turns = sdk.MemorySession(memory), planted_dialog(length), []
    for text in dialog.turns:
        before, sent = memory.messages(), len(llm.runs[-1])
        result = await Runner.run(agent, text, session=session,
                                  run_config=sdk.RUN_CONFIG)
        first = next(body for body, _ in llm.runs[-1][sent:] if "tools" in body)
        turns.append((before, first["messages"], str(result.final_output)))
    return dialog, turns


@pytest.fixture(scope="module")
def runs(sdk):
    return {name: run(play(sdk, *memory)) for name, memory in MEMORIES.items()}


@pytest.mark.parametrize("name", MEMORIES)
def test_the_sdk_runner_recalls_every_planted_id_and_fact(runs, name):
    """The planted dialog through Runner.run(..., session=MemorySession): every id
    and every fact of the customer's is answered back, offline; the compressing
    memories answer from their summary, no planting turn (1-8) verbatim by then."""
    dialog, turns = runs[name]
    for probe in (*dialog.probes, *dialog.fact_probes):
        before, _, answer = turns[probe.turn - 1]
        assert probe.expected in answer, probe
        held, planting = {m.content for m in before}, set(dialog.turns[:8])
        assert (planting <= held if name == "in-memory"
                else not planting & held), probe


@pytest.mark.parametrize("name", MEMORIES)
def test_each_request_holds_the_memory_s_messages_and_nothing_else(runs, name):
    """The first request of every run is the agent's instructions, the memory's
    messages as they were before the run, and the new user message: no more."""
    def same(message):
        return {**message, "content": message.get("content") or ""}
    dialog, turns = runs[name]
    for (before, sent, _), text in zip(turns, dialog.turns, strict=True):
        assert sent[0]["role"] == "system" and sent[-1] == {"role": "user",
                                                            "content": text}
        assert [same(m) for m in sent[1:-1]] == [same(m.to_dict()) for m in before]


def test_nothing_tries_the_network(sdk, monkeypatch):
    """With sockets refused, an SDK agent still answers a turn offline: no
    tracing export, no model call leaves the process."""
    def refuse(*args, **kwargs):
        raise AssertionError("the offline course opened a network connection")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    from agents import Runner

    from tinyagent import LlmClient
    session = sdk.MemorySession(InMemoryChatMemory())
    result = run(Runner.run(sdk.bitmall_agent(LlmClient(offline=True)),
                            "Where is my order 88231?", session=session,
                            run_config=sdk.RUN_CONFIG))
    assert "SF1234567890" in result.final_output
    assert json.dumps(run(session.get_items())).count("function_call_output") == 2
    assert sdk.from_items(run(session.get_items()))[0].role is Role.USER
