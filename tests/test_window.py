"""Rules of SlidingWindowChatMemory (notebook 03): newest messages, whole turns."""

import pytest
from fakes import chat

from tinyagent.memory import SlidingWindowChatMemory
from tinyagent.messages import ChatMessage, Role, ToolCall


def tool_turn(i, calls=1):
    """A turn with `calls` tool calls, each followed by its result."""
    made = [ToolCall(f"call_{i}_{k}", "queryOrder", {"order_id": "88231"})
            for k in range(calls)]
    turn = [ChatMessage.user(f"track {i}")]
    for call in made:
        turn += [ChatMessage.assistant("", [call]), ChatMessage.tool(call.id, "{}")]
    return turn + [ChatMessage.assistant(f"delivered {i}")]


@pytest.mark.parametrize("size", [2, 4, 6, 10])
def test_a_plain_chat_keeps_exactly_the_newest_n_messages(size):
    """User/assistant only, even size: after each exchange, the newest `size`."""
    memory, added = SlidingWindowChatMemory(size), []
    for message in chat(12):
        memory.add(message)
        added.append(message)
        if message.role is Role.ASSISTANT:
            assert memory.messages() == added[-size:]


def test_from_rounds_counts_two_messages_a_round():
    """from_rounds(3) is a window of 6 messages (3 rounds = 6 messages)."""
    memory = SlidingWindowChatMemory.from_rounds(3)
    for message in chat(5):
        memory.add(message)
    assert memory.max_messages == 6 and memory.messages() == chat(5)[-6:]


def test_by_turn_4_turn_1_is_forgotten():
    """With 6 messages, the fourth exchange pushes the first one out."""
    memory = SlidingWindowChatMemory(6)
    for message in chat(4):
        memory.add(message)
    contents = [m.content for m in memory.messages()]
    assert "question 0" not in contents and "question 1" in contents
    assert memory.stats()["dropped"] == 2


def test_an_odd_size_keeps_whole_turns_only():
    """max_messages=5 in a plain chat holds 4 after each exchange: no half turns."""
    memory = SlidingWindowChatMemory(5)
    for message in chat(6):
        memory.add(message)
    assert memory.messages() == chat(6)[-4:]


def test_a_tool_result_never_outlives_its_call():
    """Whole turns are dropped: the window never starts with a tool or an answer."""
    memory = SlidingWindowChatMemory(4)
    for i in range(5):
        for message in tool_turn(i) + chat(1):
            memory.add(message)
            assert memory.messages()[0].role is Role.USER


def test_a_turn_longer_than_the_window_is_kept_whole_until_the_next():
    """A single oversize turn stays whole and alone; the next user message drops it."""
    memory = SlidingWindowChatMemory(2)
    big = tool_turn(1, calls=3)  # 8 messages
    for message in chat(1) + big:
        memory.add(message)
    assert memory.messages() == big
    memory.add(ChatMessage.user("thanks"))
    assert [m.content for m in memory.messages()] == ["thanks"]


def test_repr_names_the_setting():
    """The repr shows the window size and what it holds, nothing else."""
    memory = SlidingWindowChatMemory(4)
    memory.add(ChatMessage.user("hi"))
    assert repr(memory) == (
        "SlidingWindowChatMemory(max_messages=4, messages=1, tokens=5)")
