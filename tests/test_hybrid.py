"""Rules of HybridChatMemory (notebook 05): a verbatim window + incremental summary."""

import pytest
from fakes import FakeLlm, chat

from tinyagent.llm import LlmClient
from tinyagent.memory import SUMMARY_HEADER, HybridChatMemory, SummaryChatMemory
from tinyagent.memory.transcript import render
from tinyagent.messages import ChatMessage, Role


def test_the_newest_recent_size_messages_stay_verbatim():
    """After every add, the newest recent_size messages are exactly the last added."""
    memory, added = HybridChatMemory(FakeLlm(), recent_size=4, summary_threshold=6), []
    for message in chat(10):
        memory.add(message)
        added.append(message)
        assert memory.messages()[-4:] == added[-4:]


def test_the_summarizer_runs_only_at_summary_threshold():
    """No call while fewer than summary_threshold messages are held verbatim; the add
    that makes summary_threshold calls it once and leaves the newest recent_size."""
    llm = FakeLlm()
    memory = HybridChatMemory(llm, recent_size=2, summary_threshold=6)
    conversation = chat(3)
    for message in conversation[:5]:
        memory.add(message)
    assert llm.seen == [] and memory.summary is None
    memory.add(conversation[5])
    assert len(llm.seen) == 1 and memory.compression_count == 1
    assert memory.messages()[1:] == conversation[4:]


def test_the_merge_is_incremental():
    """Each call gets the previous summary and only the newly overflowed messages,
    never the whole history again."""
    llm = FakeLlm()
    memory = HybridChatMemory(llm, recent_size=2, summary_threshold=4)
    conversation = chat(6)
    for message in conversation:
        memory.add(message)
    assert len(llm.seen) == 5  # at 4, 6, 8, 10 and 12 messages: one turn each
    for i, transcript in enumerate(llm.seen):
        previous = "(none)" if i == 0 else f"- summary {i}"
        assert transcript == (f"Previous summary:\n{previous}\n\n"
                              f"New messages:\n{render(conversation[2 * i:2 * i + 2])}")


def test_what_the_model_sees_is_summary_then_window():
    """messages(): the fenced summary (system) first, then the verbatim window."""
    memory = HybridChatMemory(FakeLlm(), recent_size=2, summary_threshold=4)
    for message in chat(4):
        memory.add(message)
    roles = [m.role for m in memory.messages()]
    assert roles[0] is Role.SYSTEM and Role.SYSTEM not in roles[1:]
    assert memory.messages()[0].content.startswith(SUMMARY_HEADER)
    assert len(memory) == 1 + len(memory.messages()[1:]) == memory.stats()["messages"]


def test_repr_uses_the_hybrid_names():
    """The repr speaks of recent_size and summary_threshold, as the design does."""
    memory = HybridChatMemory(FakeLlm(), recent_size=6, summary_threshold=10)
    assert repr(memory) == ("HybridChatMemory(recent_size=6, summary_threshold=10, "
                            "compression_count=0, messages=0, tokens=0)")


def test_the_six_turn_demo_keeps_the_refund_number_in_the_summary():
    """Hybrid 6/10 over the six-turn demo with the offline summarizer: the refund
    number of turn 2 has left the window and is in the summary."""
    turns = [("Where is my order 88231?", "Order 88231 was delivered on 2026-06-22."),
             ("I want a refund, this vacuum won't go back to its dock",
              "Refund RF20260701001 for order 88231 is approved."),
             ("How long until the refund arrives?", "1-3 business days."),
             ("Do you have any new robot vacuums to recommend?", "The S20 Pro, ¥2499."),
             ("How much is the S20 Pro?", "¥2499, ¥200 off until 2026-07-15."),
             ("By the way, what was that refund number again?", "RF20260701001.")]
    memory = HybridChatMemory(LlmClient(offline=True), recent_size=6,
                              summary_threshold=10)
    for i, (question, answer) in enumerate(turns[:5]):
        assert memory.compression_count == 0, f"compressed before turn {i + 1}"
        memory.add(ChatMessage.user(question))
        memory.add(ChatMessage.assistant(answer))
    assert memory.compression_count == 1  # turn 5 made 10 held: turn 6 will see it
    memory.add(ChatMessage.user(turns[5][0]))  # turn 6 in: 7 held, no compression
    assert memory.compression_count == 1 and memory.stats()["fallbacks"] == 0
    assert "RF20260701001" in memory.summary
    window = " ".join(m.content for m in memory.messages()[1:])
    assert "RF20260701001" not in window and "How much is the S20 Pro?" in window


def test_the_token_trigger_and_the_budget_are_the_hybrids_too():
    """HybridChatMemory takes threshold_tokens and max_summary_tokens by name."""
    long = [ChatMessage.user("Where is my order 88231? " * 20),
            ChatMessage.assistant("It was delivered. " * 20)] * 2
    memory = HybridChatMemory(FakeLlm(), recent_size=2, summary_threshold=10,
                              threshold_tokens=300, max_summary_tokens=100)
    for message in long:
        memory.add(message)
    assert memory.compression_count == 1 and memory.summarizer.max_summary_tokens == 100


def test_a_chinese_hybrid_explains_a_bad_size_in_chinese():
    """lang="zh": the summary_threshold <= recent_size error names both, in Chinese."""
    with pytest.raises(ValueError, match=r"^recent_size 必须小于 summary_threshold"
                       r"（当前 recent_size=6, summary_threshold=6）"):
        HybridChatMemory(FakeLlm(), 6, 6, lang="zh")


@pytest.mark.parametrize("keep,threshold", [(2, 3), (4, 10), (6, 12)])
def test_hybrid_is_the_summary_memory_under_other_names(keep, threshold):
    """One rule and one algorithm: HybridChatMemory(llm, keep, threshold) accepts
    what SummaryChatMemory(llm, threshold, keep) accepts, and holds the same
    messages after every add."""
    summary = SummaryChatMemory(FakeLlm(), threshold, keep)
    hybrid = HybridChatMemory(FakeLlm(), keep, threshold)
    for message in chat(12):
        summary.add(message)
        hybrid.add(message)
        assert hybrid.messages() == summary.messages()
    assert hybrid.stats() == summary.stats()


@pytest.mark.parametrize("keep,threshold", [(1, 3), (3, 3), (4, 2)])
def test_both_names_refuse_the_same_sizes(keep, threshold):
    """What one refuses the other refuses: keep_recent >= 2 and below the threshold."""
    with pytest.raises(ValueError):
        SummaryChatMemory(FakeLlm(), threshold, keep)
    with pytest.raises(ValueError):
        HybridChatMemory(FakeLlm(), keep, threshold)
