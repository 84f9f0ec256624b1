"""CompactChatMemory: verbatim to a high-water mark, one compaction to a low one."""

import pytest

from tinyagent import LlmClient
from tinyagent.messages import ChatMessage, Role
from tinyagent.production import CompactChatMemory
from tinyagent.tokens import count_message_tokens


def fill(memory, turns):
    for n in range(turns):
        memory.add(ChatMessage.user(f"Where is my order {88000 + n}? It is late."))
        memory.add(ChatMessage.assistant(f"Order {88000 + n} is in transit with "
                                         f"YTO Express, tracking YT55667788{n:02d}."))


@pytest.fixture
def llm():
    return LlmClient(offline=True)


def test_below_the_high_mark_it_only_appends(llm):
    """Until high_tokens are held nothing is compressed: each prompt is the last one
    plus the new turn, so a provider caches it whole."""
    memory = CompactChatMemory(llm, high_tokens=5000, low_tokens=400)
    fill(memory, 10)
    before = memory.messages()
    fill(memory, 1)
    assert memory.messages()[:len(before)] == before
    assert memory.compression_count == 0 and memory.summary is None


def test_one_compaction_goes_down_to_the_low_mark_and_keeps_every_id(llm):
    """Past high_tokens one compaction leaves at most low_tokens of verbatim turns
    (plus the new summary block); every order number is still in the memory."""
    memory = CompactChatMemory(llm, high_tokens=600, low_tokens=300)
    fill(memory, 20)  # about 39 tokens a turn
    assert memory.compression_count >= 1
    verbatim = [m for m in memory.messages() if m.role is not Role.SYSTEM]
    assert verbatim and verbatim[0].role is Role.USER  # whole turns only
    held = "\n".join(m.content for m in memory.messages())
    assert all(str(88000 + n) in held for n in range(20))
    assert memory.tokens < 600


def test_a_new_compaction_appends_a_block_and_leaves_the_older_one_as_it_was(llm):
    """The earlier summary block stays word for word in front (the cached prefix)."""
    memory = CompactChatMemory(llm, high_tokens=600, low_tokens=300)
    while memory.compression_count == 0:
        fill(memory, 1)
    first = memory.messages()[0]
    count = memory.compression_count
    while memory.compression_count == count:
        fill(memory, 1)
    assert memory.messages()[0] == first
    assert sum(m.role is Role.SYSTEM for m in memory.messages()) == 2


def test_blocks_past_their_budget_merge_into_one(llm):
    """When the blocks would outgrow max_summary_tokens they are merged: the memory
    stays bounded however long the chat."""
    memory = CompactChatMemory(llm, high_tokens=600, low_tokens=300,
                               max_summary_tokens=120)
    fill(memory, 60)
    assert memory.compression_count > 3
    assert memory.tokens < 600 + 200


def test_bad_marks_are_refused_with_the_fix():
    """high_tokens must exceed low_tokens; low_tokens holds at least one turn."""
    llm = LlmClient(offline=True)
    with pytest.raises(ValueError, match="high_tokens must be > low_tokens"):
        CompactChatMemory(llm, high_tokens=500, low_tokens=500)
    with pytest.raises(ValueError, match="low_tokens"):
        CompactChatMemory(llm, high_tokens=500, low_tokens=10)


def test_the_memory_contract_a_copy_and_clear(llm):
    """messages() is a copy the caller may change; clear() forgets the turns, the
    blocks and the counts."""
    memory = CompactChatMemory(llm, high_tokens=600, low_tokens=300)
    fill(memory, 20)
    held = memory.messages()
    held.clear()
    assert memory.messages() and memory.compression_count
    memory.clear()
    assert memory.messages() == [] and memory.tokens == 0
    assert memory.compression_count == 0 and memory.summary is None


def test_after_a_pause_longer_than_the_cache_it_compacts_before_the_next_request():
    """Past the middle of its marks, a memory whose cache went cold (a pause of
    `cold_after` seconds on the client's clock) compacts when the next request is
    built, once, by a summary request of its own (a fork's prefix is cold too);
    without the pause, or with a shorter one, it waits for the high mark."""
    from tinyagent import ReActAgent, bitmall_tools
    from tinyagent.course.billing import RecordingClient
    from tinyagent.course.catalogue import SIX_TURNS
    from tinyagent.offline.clock import Clock

    def played(pause):
        llm = RecordingClient()
        llm.clock = Clock()
        memory = CompactChatMemory(llm, 500, 150, cold_after=300)
        agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
        for text in SIX_TURNS["en"][:5]:
            agent.run(text)
        assert memory.compression_count == 0 and memory.tokens >= (500 + 150) / 2
        llm.clock.advance(pause)
        agent.run(SIX_TURNS["en"][5])
        return memory, llm.runs[0]

    memory, run = played(301)
    assert memory.compression_count == 1 and memory.summarizer.forks == 0
    summaries = [request for request, _ in run if not request.get("tools")]
    assert len(summaries) == 1  # its own request: no tools, its own prompt
    assert memory.messages() and memory.compression_count == 1  # once a pause
    for pause in (0, 299):
        assert played(pause)[0].compression_count == 0


@pytest.mark.parametrize("floor", [True, False])
def test_the_low_mark_is_a_floor_or_a_ceiling(llm, floor):
    """With low_is_floor (as for_rule sizes it) a compaction leaves at least
    low_tokens held, so a prompt sized above a provider's minimum stays above it;
    without, the verbatim turns left fit in low_tokens."""
    memory = CompactChatMemory(llm, high_tokens=900, low_tokens=500,
                               low_is_floor=floor)
    for _ in range(40):
        before = memory.compression_count
        fill(memory, 1)
        if memory.compression_count > before:
            # (the turn's answer came in after the compaction: left out)
            verbatim = sum(count_message_tokens(m) for m in memory.messages()[:-1]
                           if m.role is not Role.SYSTEM)
            assert memory.tokens >= 500 if floor else verbatim <= 500
    assert memory.compression_count >= 2
