"""Rules of tinyagent.messages: immutable messages and the Chat Completions format."""

import dataclasses

import pytest

from tinyagent.messages import ChatMessage, Role, ToolCall, parse_arguments


def test_factories_set_the_role():
    """Each factory builds a message with its own role."""
    assert ChatMessage.system("s").role is Role.SYSTEM
    assert ChatMessage.user("u").role is Role.USER
    assert ChatMessage.assistant("a").role is Role.ASSISTANT
    assert ChatMessage.tool("call_1", "r").role is Role.TOOL


def test_messages_are_immutable():
    """A message cannot be changed after it is made (memories hand them out)."""
    message = ChatMessage.user("hi")
    with pytest.raises(dataclasses.FrozenInstanceError):
        message.content = "changed"  # type: ignore[misc]


def test_role_accepts_plain_strings():
    """ChatMessage("user", ...) is the same as ChatMessage(Role.USER, ...)."""
    assert ChatMessage("user", "hi") == ChatMessage.user("hi")
    assert str(Role.USER) == "user"


def test_tool_message_needs_its_call_id():
    """A tool message without tool_call_id is rejected with a clear error."""
    with pytest.raises(ValueError, match="tool_call_id"):
        ChatMessage(Role.TOOL, "result")


def test_round_trip_with_tool_calls():
    """to_dict then from_dict gives back the same message, tool calls included."""
    call = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
    for message in [ChatMessage.assistant("Looking it up.", tool_calls=[call]),
                    ChatMessage.tool("call_1", '{"status": "delivered"}'),
                    ChatMessage.user("订单 88231")]:
        assert ChatMessage.from_dict(message.to_dict()) == message


def test_wire_format_of_a_tool_call():
    """Tool calls are sent as type=function with JSON-text arguments."""
    call = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
    wire = ChatMessage.assistant("", tool_calls=[call]).to_dict()
    assert wire["tool_calls"] == [{"id": "call_1", "type": "function", "function": {
        "name": "queryOrder", "arguments": '{"order_id": "88231"}'}}]


def test_bad_argument_json_is_kept_for_reporting():
    """Malformed arguments become {"__raw__": text} instead of raising."""
    assert parse_arguments('{"order_id": ') == {"__raw__": '{"order_id": '}
    assert parse_arguments("[1, 2]") == {"__raw__": "[1, 2]"}
    assert parse_arguments(None) == {}


def test_preview_cuts_at_width():
    """preview() is one line of at most `width` characters."""
    text = ChatMessage.user("word " * 40).preview(30)
    assert len(text) == 30 and text.endswith("…") and "\n" not in text


def test_repr_is_deterministic():
    """repr has no ids or addresses (notebooks print it), and no token cache."""
    assert repr(ChatMessage.user("hi")) == (
        "ChatMessage(role=<Role.USER: 'user'>, content='hi', tool_call_id=None, "
        "tool_calls=())")


# -- the Python API refuses, at once, what would break a conversation later


def test_tool_calls_must_be_tool_call_objects():
    """assistant(tool_calls=[dict]) and ToolCall(arguments="x") are TypeErrors at
    construction, not failures inside memory.add later."""
    with pytest.raises(TypeError, match="ToolCall objects"):
        ChatMessage.assistant("", tool_calls=[{"id": "c1", "name": "queryOrder"}])
    with pytest.raises(TypeError, match="arguments must be a dict"):
        ToolCall("c1", "queryOrder", "x")


def test_a_message_dict_without_a_role_is_a_value_error():
    """from_dict without a role (or with an unknown one): ValueError naming 'role',
    not KeyError('role')."""
    for bad in ({"content": "hi"}, {"role": "robot", "content": "hi"}, "hi"):
        with pytest.raises(ValueError, match="'role'"):
            ChatMessage.from_dict(bad)


def test_grounded_ids_are_kept_by_a_record_and_never_sent():
    """grounded_ids round-trip through to_record/from_dict; to_dict (what a model
    gets) never carries them; equality and the repr ignore them, so a message
    reloaded from a store equals the one stored and prints the same."""
    from tinyagent.messages import ChatMessage

    marked = ChatMessage.assistant("Order 88231 is delivered.", grounded_ids=["88231"])
    assert marked.grounded_ids == ("88231",)
    assert "grounded_ids" not in marked.to_dict()
    back = ChatMessage.from_dict(marked.to_record())
    assert back == marked and back.grounded_ids == ("88231",)
    plain = ChatMessage.assistant("Order 88231 is delivered.")
    assert plain == marked and repr(plain) == repr(marked)
    assert ChatMessage.from_dict(plain.to_record()).grounded_ids is None
