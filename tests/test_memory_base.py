"""Rules of memory/base.py's helpers: turns, and the orphan safety net."""

import pytest
from fakes import FakeLlm

from tinyagent.memory import (
    HybridChatMemory,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
    drop_orphans,
    split_turns,
)
from tinyagent.messages import ChatMessage, ToolCall

C1 = ToolCall("c1", "queryOrder", {"order_id": "88231"})
C2 = ToolCall("c2", "queryLogistics", {"order_id": "88231"})
USER = ChatMessage.user("Where is my order 88231?")
BOTH = ChatMessage.assistant("", [C1, C2])
R1, R2 = ChatMessage.tool("c1", "{}"), ChatMessage.tool("c2", "{}")
ANSWER = ChatMessage.assistant("Delivered.")


def test_a_turn_starts_at_each_user_message():
    """split_turns cuts before every user message; a leading summary is its own turn."""
    summary = ChatMessage.system("[Conversation summary] order 88231")
    turns = split_turns([summary, USER, BOTH, R1, R2, ANSWER, USER, ANSWER])
    assert [len(t) for t in turns] == [1, 5, 2]


def test_complete_pairs_are_kept():
    """A call with all its results is left alone."""
    messages = [USER, BOTH, R1, R2, ANSWER]
    assert drop_orphans(messages) == messages


def test_a_result_without_its_call_is_dropped():
    """A tool result whose call fell out of the window goes."""
    assert drop_orphans([R1, R2, ANSWER]) == [ANSWER]


def test_a_partly_answered_call_goes_with_its_results():
    """A call missing one result goes, and so do the results it did get: none of
    them may be left behind as orphans."""
    assert drop_orphans([USER, BOTH, R1, ANSWER]) == [USER, ANSWER]


@pytest.mark.parametrize("build,name", [
    (lambda v: SlidingWindowChatMemory(v), "max_messages"),
    (lambda v: TokenWindowChatMemory(v), "max_tokens"),
    (lambda v: SummaryChatMemory(FakeLlm(), threshold=v), "threshold"),
    (lambda v: SummaryChatMemory(FakeLlm(), keep_recent=v), "keep_recent"),
    (lambda v: HybridChatMemory(FakeLlm(), recent_size=v), "recent_size"),
    (lambda v: HybridChatMemory(FakeLlm(), summary_threshold=v), "summary_threshold"),
])
@pytest.mark.parametrize("value", [True, 7.5, "8", None])
def test_a_size_that_is_not_a_whole_number_is_rejected_by_name(build, name, value):
    """Every size parameter refuses bools, floats, strings and None with a
    ValueError that names the parameter and the value."""
    with pytest.raises(ValueError, match=rf"^{name} must be an int.*got {value!r}"):
        build(value)
