"""Rules of incremental compression: whole, complete turns in batches, oldest
first, and a record (covered_up_to, compression_count, version) that adds up."""

import pytest
from fakes import FakeLlm

from tinyagent import LlmClient, ReActAgent, bitmall_tools
from tinyagent.course.catalogue import SIX_TURNS
from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.production import IncrementalSummaryChatMemory
from tinyagent.production.incremental import plan_batch

CALL = ToolCall("c1", "queryOrder", {"order_id": "88231"})


def turn(n, answered=True):
    messages = [ChatMessage.user(f"question {n}"), ChatMessage.assistant("", [CALL]),
                ChatMessage.tool("c1", '{"order_id": "88231"}')]
    return messages + [ChatMessage.assistant(f"answer {n}")] if answered else messages


def turns(*numbers):
    return [m for n in numbers for m in turn(n)]


def test_nothing_is_due_while_only_recent_turns_are_held():
    """With keep_recent_turns=2, two complete turns are never compressed."""
    assert plan_batch(turns(1, 2), keep_recent_turns=2, batch_turns=6) == 0


def test_the_oldest_turns_are_due_whole():
    """Due messages are whole turns, oldest first (4 messages a turn here)."""
    assert plan_batch(turns(1, 2, 3, 4), keep_recent_turns=2, batch_turns=6) == 8


def test_a_batch_takes_at_most_batch_turns():
    """Ten due turns with batch_turns=3: three of them this time."""
    assert plan_batch(turns(*range(12)), keep_recent_turns=2, batch_turns=3) == 12


def test_a_turn_in_progress_is_never_compressed_nor_counted_as_recent():
    """The newest turn, still waiting for its answer, stays; the recent ones are
    the complete turns before it."""
    held = turns(1, 2, 3) + turn(4, answered=False)
    assert plan_batch(held, keep_recent_turns=2, batch_turns=6) == 4


@pytest.mark.parametrize("bad", [{"keep_recent_turns": 0}, {"batch_turns": 0}])
def test_sizes_below_one_are_rejected(bad):
    """keep_recent_turns and batch_turns must be >= 1, named in the error."""
    with pytest.raises(ValueError, match=next(iter(bad))):
        IncrementalSummaryChatMemory(FakeLlm(), **bad)


def test_the_record_adds_up_after_each_compression():
    """covered_up_to counts the messages the summary holds; compression_count and
    version go up by one a compression; verbatim + covered = all messages."""
    memory = IncrementalSummaryChatMemory(FakeLlm("- order 88231"), keep_recent_turns=1,
                                      batch_turns=1)
    added = 0
    for n in range(5):
        for message in turn(n):
            memory.add(message)
            added += 1
        state = memory.state
        verbatim = len(memory.messages()) - (state.text is not None)
        assert state.covered_up_to + verbatim == added
        assert state.compression_count == state.version == n
    assert memory.state.covered_up_to == 16  # turns 0-3, four messages each


def test_restore_puts_back_the_record_and_the_messages_after_it():
    """restore(state, after) gives the same messages and record as before."""
    memory = IncrementalSummaryChatMemory(FakeLlm("- order 88231"), keep_recent_turns=1,
                                      batch_turns=1)
    for message in turns(1, 2, 3):
        memory.add(message)
    state, held = memory.state, memory.messages()
    again = IncrementalSummaryChatMemory(FakeLlm(), keep_recent_turns=1, batch_turns=1)
    again.restore(state, held[1:])  # held[0] is the summary message
    assert again.state == state and again.messages() == held


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_six_turns_compress_alike_and_the_refund_comes_back_in_both_languages(
        lang):
    """Notebook 09's table holds in either edition: from turn 3 one compression a
    turn, and turn 6's refund number is answered from the summary."""
    llm = LlmClient(offline=True)
    memory = IncrementalSummaryChatMemory(llm, keep_recent_turns=2, lang=lang)
    agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=memory, verbose=False)
    counts = []
    for text in SIX_TURNS[lang][:5]:
        agent.run(text)
        counts.append(memory.compression_count)
    verbatim = " ".join(m.content for m in memory.messages()[1:])
    assert counts == [0, 0, 1, 2, 3]
    assert "RF20260701001" in memory.summary and "RF20260701001" not in verbatim
    assert "RF20260701001" in agent.run(SIX_TURNS[lang][5])


def test_construction_does_not_depend_on_an_overridable_clear():
    """Building a production memory sets its state in __init__: a subclass whose
    clear() needs more than the base has is not called half-built."""
    from tinyagent.production import IncrementalSummaryChatMemory

    calls = []

    class Counting(IncrementalSummaryChatMemory):
        def clear(self):
            calls.append(self._generation)  # would fail if called before __init__ ends
            super().clear()

    memory = Counting(FakeLlm())
    assert calls == [] and memory.state.version == 0
    memory.clear()
    assert calls == [0]
