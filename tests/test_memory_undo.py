"""pop(), the undo, and the refusal of orphan tool results: one set of rules checked
over every memory of the package (notebooks 02-07's strategies and the production
memories), as the contract test checks add/messages/clear."""

from concurrent.futures import Executor, Future

import pytest
from fakes import FakeLlm
from hypothesis import example, given
from hypothesis import strategies as st

from tinyagent.memory import (
    HybridChatMemory,
    InMemoryChatMemory,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
    UndoError,
)
from tinyagent.messages import ChatMessage, Role, ToolCall
from tinyagent.production import (
    BackgroundSummaryChatMemory,
    CompactChatMemory,
    IncrementalSummaryChatMemory,
    Recorded,
)
from tinyagent.tokens import count_message_tokens


class Inline(Executor):
    """Runs a background compression at once: the test sees its result."""

    def submit(self, fn, /, *args, **kwargs):
        future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


EVERY_MEMORY = {
    "in-memory": InMemoryChatMemory,
    "window": lambda: SlidingWindowChatMemory(4),
    "token window": lambda: TokenWindowChatMemory(120),
    "summary": lambda: SummaryChatMemory(FakeLlm(), threshold=4, keep_recent=2),
    "hybrid": lambda: HybridChatMemory(FakeLlm(), recent_size=2, summary_threshold=4),
    "compact": lambda: CompactChatMemory(FakeLlm(), high_tokens=200, low_tokens=100),
    "incremental": lambda: IncrementalSummaryChatMemory(FakeLlm(),
                                                        keep_recent_turns=1),
    "background": lambda: BackgroundSummaryChatMemory(FakeLlm(), keep_recent_turns=1,
                                                      executor=Inline()),
    "recorded summary": lambda: Recorded(SummaryChatMemory(FakeLlm(), 4, 2)),
}
SUMMARIZING = {"summary", "hybrid", "compact", "incremental", "background",
               "recorded summary"}


@pytest.fixture(params=EVERY_MEMORY, ids=list(EVERY_MEMORY))
def name(request):
    return request.param


def tool_turn(i):
    call = ToolCall(f"call_{i}", "queryOrder", {"order_id": "88231"})
    return [ChatMessage.user(f"Track 8823{i % 10}"),
            ChatMessage.assistant("Looking it up.", [call]),
            ChatMessage.tool(f"call_{i}", '{"status": "delivered"}'),
            ChatMessage.assistant(f"Order 8823{i % 10} was delivered.")]


def test_pop_returns_the_newest_message_and_removes_only_it(name):
    """After a plain turn, pop() gives the answer back and the question stays."""
    memory = EVERY_MEMORY[name]()
    question = ChatMessage.user("Where is 88231?")
    answer = ChatMessage.assistant("Here.")
    memory.add(question)
    memory.add(answer)
    assert memory.pop() == answer
    assert memory.messages()[-1] == question
    assert memory.pop() == question


def test_popping_a_tool_result_takes_its_whole_step(name):
    """The newest message is a tool result: its call and the step go too, so the
    memory never holds a call without its result."""
    memory = EVERY_MEMORY[name]()
    turn = tool_turn(1)
    for message in turn[:3]:
        memory.add(message)
    assert memory.pop() == turn[2]
    assert memory.messages()[-1] == turn[0]


def test_an_empty_memory_has_nothing_to_undo(name):
    """pop() on an empty memory is an IndexError that says so."""
    with pytest.raises(IndexError, match="nothing to undo"):
        EVERY_MEMORY[name]().pop()


def test_a_message_folded_into_a_summary_cannot_be_popped(name):
    """Once only the summary is left, pop() is an UndoError and nothing changes."""
    if name not in SUMMARIZING:
        pytest.skip("no summary")
    memory = EVERY_MEMORY[name]()
    for i in range(8):
        for message in tool_turn(i):
            memory.add(message)
    while True:
        held = memory.messages()
        if all(m.role is Role.SYSTEM for m in held):
            break
        memory.pop()
    with pytest.raises(UndoError, match="folded into the summary"):
        memory.pop()
    assert memory.messages() == held and held


def test_add_refuses_a_tool_result_whose_call_is_not_right_before_it(name):
    """An orphan tool result is refused with an error naming the call and the fix;
    the memory is unchanged."""
    memory = EVERY_MEMORY[name]()
    memory.add(ChatMessage.user("Track 88231"))
    with pytest.raises(ValueError, match=r"call 'call_9'.*add the assistant message"):
        memory.add(ChatMessage.tool("call_9", "{}"))
    assert [m.role for m in memory.messages()] == [Role.USER]


OPS = st.lists(st.sampled_from(["turn", "tool turn", "half step", "pop"]),
               max_size=40)


@given(ops=OPS)
@example(ops=["pop"])  # on an empty memory
@example(ops=["half step", "pop", "pop"])  # a step without its results, undone
@example(ops=["tool turn"] * 6 + ["pop"] * 30)  # back into what a summary holds
def test_random_adds_and_pops_leave_no_orphan_and_change_no_message(ops):
    """Over any sequence of adds and pops, on every memory: every tool result has
    its call right before it, every call is answered once its step ends, a pop
    removes only from the end (what stays says what it said), and len and tokens
    agree with messages()."""
    for make in EVERY_MEMORY.values():
        memory = make()
        for i, op in enumerate(ops):
            before = memory.messages()
            if op == "pop":
                try:
                    memory.pop()
                except IndexError:
                    assert memory.messages() == before
                    continue
                after = memory.messages()
                assert after == before[:len(after)] and len(after) < len(before)
            else:
                turn = tool_turn(i) if op != "turn" else tool_turn(i)[::3]
                for message in (turn[:3] if op == "half step" else turn):
                    memory.add(message)
            held = memory.messages()
            for j, message in enumerate(held):
                if message.role is Role.TOOL:
                    step = held[:j]
                    while step and step[-1].role is Role.TOOL:
                        step.pop()
                    assert step and message.tool_call_id in {
                        c.id for c in step[-1].tool_calls}
            assert len(memory) == len(held) if hasattr(memory, "__len__") else True
            if hasattr(memory, "tokens"):
                assert memory.tokens == sum(map(count_message_tokens, held))
