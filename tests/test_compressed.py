"""Rules of CompressedChatMemory, the part the summary memories share: one summary,
and the record a session keeps of it (production.Recorded: state, restore, rebuild)."""

import pytest
from fakes import FakeLlm, chat, fed
from hypothesis import given
from hypothesis import strategies as st

from tinyagent.memory import HybridChatMemory, SummaryChatMemory
from tinyagent.memory.fence import summary_message, summary_text
from tinyagent.messages import ChatMessage
from tinyagent.production import Recorded
from tinyagent.storage import SummaryState


def memories(llm):
    """The notebook 04 and 05 memories, each with the record a session keeps."""
    return [Recorded(SummaryChatMemory(llm, threshold=4, keep_recent=2)),
            Recorded(HybridChatMemory(llm, recent_size=2, summary_threshold=4))]


@given(st.text())
def test_the_summary_text_comes_back_out_of_its_fence(text):
    """summary_text undoes summary_message, for any text."""
    assert summary_text(summary_message(text)) == text


@pytest.mark.parametrize("turns", [1, 2, 5, 9])
def test_the_state_covers_exactly_what_is_no_longer_verbatim(turns):
    """covered_up_to + the messages held verbatim = every message added; the
    version and the count go up by one a compression."""
    for memory in memories(FakeLlm()):
        fed(memory, chat(turns))
        state = memory.state
        assert state.covered_up_to + len(memory.messages()) - (
            state.text is not None) == 2 * turns
        assert state.version == state.compression_count == (
            memory.memory.compression_count)
        assert state.text == memory.memory.summary


def test_restore_brings_back_the_same_memory_without_a_model_call():
    """A snapshot and the messages after it rebuild the same messages and state,
    and the summarizer is not called."""
    for original in memories(FakeLlm()):
        fed(original, chat(5))
        llm = FakeLlm()
        copy = memories(llm)[type(original.memory) is HybridChatMemory]
        verbatim = original.messages()[1:]
        copy.restore(original.state, verbatim)
        assert copy.messages() == original.messages() and copy.state == original.state
        assert copy.memory.tokens == original.memory.tokens and llm.requests == []


def test_after_a_restore_the_counts_go_on_from_the_snapshot():
    """The next compression after a restore is version + 1 and covers the
    snapshot's messages plus the newly compressed ones."""
    memory = memories(FakeLlm())[0]
    memory.restore(SummaryState("- earlier", covered_up_to=10, compression_count=3,
                                version=7), [])
    fed(memory, chat(2))
    assert memory.state == SummaryState(memory.memory.summary, 12, 4, 8)


def test_rebuild_replays_the_log_and_continues_the_counts():
    """rebuild() compresses the whole log again; its count and version continue
    from the previous snapshot's."""
    memory = memories(FakeLlm())[0]
    memory.rebuild(chat(3), SummaryState("- old", 4, 5, 5))
    replayed = fed(SummaryChatMemory(FakeLlm(), threshold=4, keep_recent=2), chat(3))
    assert memory.messages()[1:] == replayed.messages()[1:]
    assert memory.state.version == 5 + replayed.compression_count


def test_clear_forgets_the_summary_the_record_and_the_summarizer_counts():
    """One reset: clear() empties the messages, the summary, the record and the
    summarizer's counters."""
    for memory in memories(FakeLlm()):
        fed(memory, chat(4))
        memory.clear()
        assert memory.messages() == [] and memory.memory.summary is None
        assert memory.state == SummaryState()
        stats = memory.memory.stats()
        assert stats["summarizer_calls"] == memory.memory.summarizer.tokens == 0


def test_every_compression_reports_its_state_to_on_apply():
    """on_apply gets the new state after each compression (a session saves it)."""
    for memory in memories(FakeLlm()):
        seen = []
        memory.on_apply = seen.append
        fed(memory, chat(4))
        assert seen and seen[-1] == memory.state
        assert [s.version for s in seen] == list(range(1, len(seen) + 1))


def long_turns(turns):
    """Turns long enough that two of them pass the 100-token floor of the trigger."""
    return [m for i in range(turns)
            for m in (ChatMessage.user(f"question {i}: " + "where is it " * 12),
                      ChatMessage.assistant(f"answer {i}: " + "on its way " * 12))]


def test_the_token_trigger_fires_when_the_tokens_held_reach_it_exactly():
    """threshold_tokens is reached, not passed: holding exactly that many tokens
    compresses (one token more would be one add too late)."""
    said = long_turns(2)
    exactly = fed(SummaryChatMemory(FakeLlm(), 100, 2), said).tokens
    assert exactly >= 100  # a valid trigger
    memory = fed(SummaryChatMemory(FakeLlm(), 100, 2, threshold_tokens=exactly), said)
    assert memory.compression_count == 1
    later = fed(SummaryChatMemory(FakeLlm(), 100, 2, threshold_tokens=exactly + 1),
                said)
    assert later.compression_count == 0
