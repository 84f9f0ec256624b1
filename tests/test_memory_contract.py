"""The ChatMemory contract, checked the same way for every strategy.

One parametrized file (as minbpe tests every tokenizer): add / messages (a copy) /
clear / len / tokens / stats / reprs, and the constructor checks, whose errors name
the bad parameter and the rule.
"""

import pytest
from fakes import FakeLlm

import tinyagent.tokens
from tinyagent.display import memory_table
from tinyagent.memory import (
    ChatMemory,
    HybridChatMemory,
    InMemoryChatMemory,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
)
from tinyagent.messages import ChatMessage, ToolCall
from tinyagent.tokens import count_message_tokens

STRATEGIES = {
    "in-memory": InMemoryChatMemory,
    "window": lambda: SlidingWindowChatMemory(4),
    "token window": lambda: TokenWindowChatMemory(120),
    "summary": lambda: SummaryChatMemory(FakeLlm(), threshold=4, keep_recent=2),
    "hybrid": lambda: HybridChatMemory(FakeLlm(), recent_size=2, summary_threshold=4),
}


@pytest.fixture(params=STRATEGIES.values(), ids=STRATEGIES.keys())
def make(request):
    return request.param


def exchange(i):
    """One plain turn: a question and its answer."""
    return [ChatMessage.user(f"Where is my order 8823{i % 10}?"),
            ChatMessage.assistant(f"Order 8823{i % 10} was delivered.")]


def tool_exchange(i):
    """One turn with a tool call and its result."""
    call = ToolCall(f"call_{i}", "queryOrder", {"order_id": "88231"})
    return [ChatMessage.user("Track 88231"), ChatMessage.assistant("", [call]),
            ChatMessage.tool(f"call_{i}", '{"status": "delivered"}'),
            ChatMessage.assistant("Delivered on 2026-06-22.")]


def fill(memory, turns=12):
    for i in range(turns):
        for message in (tool_exchange(i) if i % 3 == 0 else exchange(i)):
            memory.add(message)


def test_every_strategy_satisfies_the_protocol(make):
    """Every strategy is a ChatMemory: add, messages and clear."""
    assert isinstance(make(), ChatMemory)


def test_a_new_memory_is_empty(make):
    """Before any add: no messages, len 0, tokens 0."""
    memory = make()
    assert memory.messages() == [] and len(memory) == 0 and memory.tokens == 0


def test_the_last_message_added_is_the_last_returned(make):
    """After an exchange, messages() ends with it, in order."""
    memory = make()
    fill(memory)
    last = exchange(99)
    for message in last:
        memory.add(message)
    assert memory.messages()[-2:] == last


def test_messages_returns_a_copy(make):
    """Changing the list messages() returned never changes the memory."""
    memory = make()
    fill(memory)
    before = memory.messages()
    returned = memory.messages()
    returned.clear()
    assert memory.messages() == before and before


def test_clear_forgets_everything(make):
    """clear() empties messages, len, tokens and the compression counters."""
    memory = make()
    fill(memory)
    memory.clear()
    assert memory.messages() == [] and len(memory) == 0 and memory.tokens == 0
    assert all(v == 0 for v in memory.stats().values())
    fill(memory, 1)  # and the memory is usable again
    assert len(memory) == len(memory.messages()) > 0


def test_len_tokens_and_stats_describe_what_messages_returns(make):
    """len, tokens and stats() agree with messages() after every add."""
    memory = make()
    for i in range(12):
        for message in (tool_exchange(i) if i % 3 == 0 else exchange(i)):
            memory.add(message)
            held = memory.messages()
            assert len(memory) == len(held) == memory.stats()["messages"]
            assert memory.tokens == sum(count_message_tokens(m) for m in held)
            assert memory.stats()["tokens"] == memory.tokens


def test_add_rejects_what_is_not_a_chat_message(make):
    """add() takes a ChatMessage; a str gets a TypeError saying how to build one."""
    with pytest.raises(TypeError, match=r"ChatMessage\.user"):
        make().add("hello")


def test_an_add_tokenizes_only_the_new_messages(make, monkeypatch):
    """A turn costs the same tokenizer work with 40 or 400 messages held: the
    running total is never recounted (notebook 03)."""
    def tokenizer_calls(turns):
        memory = make()
        fill(memory, turns)
        calls = []
        real = tinyagent.tokens.count_tokens
        monkeypatch.setattr(tinyagent.tokens, "count_tokens",
                            lambda text: calls.append(text) or real(text))
        for message in exchange(7):  # fresh objects: their counts are not cached yet
            memory.add(message)
        monkeypatch.setattr(tinyagent.tokens, "count_tokens", real)
        return len(calls)

    assert tokenizer_calls(12) == tokenizer_calls(120) <= 8


def test_reprs_are_deterministic(make):
    """repr and the HTML table carry no address: two equal memories print the same."""
    a, b = make(), make()
    fill(a)
    fill(b)
    html = memory_table(a)
    assert repr(a) == repr(b) and html == memory_table(b)
    assert "0x" not in repr(a) + html
    assert html.count("<tr>") + html.count("<tr ") == len(a) + 1


# -- constructor checks: the error names the parameter, the rule and the value
def llm():
    return FakeLlm()


BAD_SETTINGS = [
    (lambda: SlidingWindowChatMemory(1), ValueError,
     "max_messages must be >= 2 (one user + one assistant), got 1"),
    (lambda: SlidingWindowChatMemory.from_rounds(0), ValueError,
     "rounds must be >= 1 (one round = one user + one assistant message), got 0"),
    (lambda: SlidingWindowChatMemory("6"), ValueError, "max_messages must be an int"),
    (lambda: TokenWindowChatMemory(0), ValueError,
     "max_tokens must be >= 1 (a budget of prompt tokens), got 0"),
    (lambda: SummaryChatMemory(llm(), threshold=2, keep_recent=2), ValueError,
     "threshold must be >= 3 (more than keep_recent), got 2"),
    (lambda: SummaryChatMemory(llm(), threshold=8, keep_recent=1), ValueError,
     "keep_recent must be >= 2"),
    (lambda: SummaryChatMemory(llm(), threshold=8, keep_recent=10), ValueError,
     "keep_recent must be < threshold (got keep_recent=10, threshold=8): "
     "otherwise compression never fires"),
    (lambda: SummaryChatMemory(llm(), threshold=8, keep_recent=8), ValueError,
     "keep_recent must be < threshold"),
    (lambda: SummaryChatMemory("qwen-plus"), TypeError, "llm must have a chat"),
    (lambda: SummaryChatMemory(llm(), max_summary_tokens=10), ValueError,
     "max_summary_tokens must be >= 50"),
    (lambda: HybridChatMemory(llm(), recent_size=1, summary_threshold=4), ValueError,
     "recent_size must be >= 2"),
    (lambda: HybridChatMemory(llm(), recent_size=6, summary_threshold=6), ValueError,
     "recent_size must be < summary_threshold (got recent_size=6, "
     "summary_threshold=6): otherwise compression never fires"),
    (lambda: HybridChatMemory(None), TypeError, "llm must have a chat"),
]


@pytest.mark.parametrize("build,error,text", BAD_SETTINGS)
def test_bad_settings_name_the_parameter_and_the_rule(build, error, text):
    """Each bad setting raises at construction with the parameter, rule and value."""
    with pytest.raises(error) as caught:
        build()
    assert text in str(caught.value)


@pytest.mark.parametrize("build", [
    lambda: SlidingWindowChatMemory(2), lambda: SlidingWindowChatMemory.from_rounds(1),
    lambda: TokenWindowChatMemory(1),
    lambda: SummaryChatMemory(llm(), threshold=4, keep_recent=3),
    lambda: HybridChatMemory(llm(), recent_size=2, summary_threshold=3),
])
def test_the_smallest_valid_settings_are_accepted(build):
    """The limits are inclusive where the rule says >= and strict where it says >."""
    assert len(build()) == 0


def test_the_benchmark_times_every_strategy(capsys):
    """`tinyagent bench` reports a per-add cost for each strategy of this contract."""
    from tinyagent.course import bench

    results = bench.run(sizes=(10, 100), adds=50, repeats=1)
    assert set(results) == set(STRATEGIES)
    assert all(len(costs) == 2 and min(costs) > 0 for costs in results.values())
    table = bench.report(results, (10, 100))
    assert table.splitlines()[0].split()[-1] == "100/10"
    assert len(table.splitlines()) == 1 + len(STRATEGIES)
