"""The summary request as a fork: the agent's last request + its answer + one turn."""

import pytest
from fakes import FakeLlm, chat

from tinyagent import (
    HybridChatMemory,
    LlmClient,
    ReActAgent,
    SummaryChatMemory,
    bitmall_tools,
)
from tinyagent.chat_model import LlmError
from tinyagent.course.billing import RecordingClient, tally
from tinyagent.course.catalogue import SIX_TURNS
from tinyagent.memory.fork import ForkSummarizer, fork_request
from tinyagent.messages import ChatMessage, Role
from tinyagent.offline.cache_rules import cached_tokens, get_rule
from tinyagent.offline.prompt_cache import PrefixCache, flat, request_tokens
from tinyagent.production import CompactChatMemory

# Small marks, so that the six-turn demo compacts (twice in English).
SMALL = {"high_tokens": 300, "low_tokens": 150}


def play(llm, memory, lang="en", turns=None):
    agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=memory, verbose=False,
                       lang=lang)
    for text in turns or SIX_TURNS[lang]:
        agent.run(text)
    return memory


def is_fork(body):
    last = body["messages"][-1]
    return last["role"] == "user" and bool(body.get("tools")) and (
        "first" in last["content"] and "turns" in last["content"]
        or "轮" in last["content"])


@pytest.fixture(scope="module")
def recorded():
    """The six-turn demo, twice, through compact (forking), every request recorded;
    marks high enough that a fork's prefix passes OpenAI's 1,024-token minimum."""
    llm = RecordingClient()
    memory = play(llm, CompactChatMemory(llm, 600, 300), turns=SIX_TURNS["en"] * 2)
    assert memory.compression_count >= 1 and memory.summarizer.forks >= 1
    return llm.runs[0]


def test_a_fork_starts_with_the_agents_previous_request_token_for_token(recorded):
    """The fork's tokens begin with every token of the request sent just before it
    (the tools, the system prompt, the history, in order), then the answer."""
    forks = [i for i, (body, _) in enumerate(recorded) if is_fork(body)]
    assert forks
    for i in forks:
        (before, reply), (fork, _) = recorded[i - 1], recorded[i]
        old, new = flat(request_tokens(before)), flat(request_tokens(fork))
        assert new[:len(old)] == old
        assert fork["tools"] == before["tools"]
        assert fork["messages"][len(before["messages"])]["content"] == reply["content"]


@pytest.mark.parametrize("rule", ["openai", "deepseek", "qwen"])
def test_a_fork_is_billed_as_cached_for_that_prefix(recorded, rule):
    """Under each rule the fork's cache hit covers the whole earlier request (to the
    rule's step), where notebook 04's request of its own hits nothing."""
    cache, hits, previous = PrefixCache(get_rule(rule)), [], []
    for body, reply in recorded:
        blocks = request_tokens(body)
        if is_fork(body):
            hits.append((cache.hit(blocks), len(flat(previous))))
        cache.keep(blocks, reply)
        previous = blocks
    assert hits and all(hit >= cached_tokens(get_rule(rule), size) > 0
                        for hit, size in hits)
    # The same through the bill: what the fork adds to the run's cached tokens is
    # at least the earlier request, to the rule's step and minimum.
    at = next(i for i, (body, _) in enumerate(recorded) if is_fork(body))
    added = (tally(recorded[:at + 1], rule).cached - tally(recorded[:at], rule).cached)
    before = flat(request_tokens(recorded[at - 1][0]))
    assert added >= cached_tokens(get_rule(rule), len(before)) > 0


@pytest.mark.parametrize("rule", ["openai", "deepseek", "qwen"])
def test_a_summary_request_of_its_own_is_billed_in_full(rule):
    """The same dialog without the fork: the summarizer's request shares nothing
    with the agent's, so not one of its tokens is cached."""
    llm = RecordingClient()
    play(llm, CompactChatMemory(llm, **SMALL, fork=False))
    cache, hits = PrefixCache(get_rule(rule)), []
    for body, reply in llm.runs[0]:
        blocks = request_tokens(body)
        if not body.get("tools"):
            hits.append(cache.hit(blocks))
        cache.keep(blocks, reply)
    assert hits and not any(hits)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("make", [
    lambda llm, fork: CompactChatMemory(llm, **SMALL, fork=fork),
    lambda llm, fork: SummaryChatMemory(llm, 4, 2, fork=fork),
    lambda llm, fork: HybridChatMemory(llm, 2, 4, fork=fork)],
    ids=["compact", "summary", "hybrid"])
def test_a_forked_summary_is_the_summary_of_the_same_turns(make, lang):
    """Offline, the fork and notebook 04's request give the same summary, merged or
    appended, in both languages: the model reads which turns from the request."""
    llm = LlmClient(offline=True)
    forked, own = (play(llm, make(llm, fork), lang) for fork in (True, False))
    assert forked.summarizer.forks == forked.summarizer.calls >= 1
    assert forked.summary == own.summary and forked.summary


def test_summary_and_hybrid_do_not_fork_unless_asked():
    """fork=False is the default of summary and hybrid: notebook 04's request."""
    llm = LlmClient(offline=True)
    memory = play(llm, SummaryChatMemory(llm, 4, 2))
    assert memory.compression_count and not hasattr(memory.summarizer, "forks")


def test_the_guard_and_the_budget_apply_to_a_forked_summary():
    """A forked reply that drops an id and makes one up: the id comes back on the
    ids line, the made-up line goes."""
    llm = FakeLlm("- refund done\n- order 99999 shipped")
    memory = CompactChatMemory(llm, **SMALL)
    play(LlmClient(offline=True), memory)  # the agent's model; the memory's is fake
    assert memory.summarizer.forks >= 1 and llm.requests[0][1]  # forked: tools sent
    assert "99999" not in memory.summary and "88231" in memory.summary


def test_a_failed_fork_falls_back_and_loses_nothing():
    """The forked call fails: the rule-based merge writes the summary instead."""
    memory = CompactChatMemory(FakeLlm(LlmError("down")), **SMALL)
    play(LlmClient(offline=True), memory)
    assert memory.summarizer.fallbacks == memory.compression_count >= 1
    assert "88231" in memory.summary


def test_without_a_request_seen_the_summary_has_its_own_request():
    """Fed by add() alone (no agent), a forking memory asks as notebook 04 does."""
    llm = FakeLlm()
    memory = CompactChatMemory(llm, **SMALL)
    for i in range(20):
        memory.add(ChatMessage.user(f"Where is my order {88000 + i}?"))
        memory.add(ChatMessage.assistant(f"Order {88000 + i} is in transit."))
    assert memory.compression_count and memory.summarizer.forks == 0
    assert all(tools is None for _, tools in llm.requests)


def test_a_request_is_forked_once_then_forgotten():
    """A second compaction in the same turn must not fork the stale request."""
    summarizer = ForkSummarizer(FakeLlm())
    seen = [ChatMessage.system("s"), *chat(2, 1)]
    summarizer.see(seen, [{"type": "function"}])
    summarizer.summarize(None, seen[1:3])
    summarizer.summarize(None, seen[1:3])
    assert summarizer.forks == 1


@pytest.mark.parametrize("span, ok", [(2, True), (4, True), (1, False), (3, False)])
def test_the_span_must_open_the_history_in_whole_turns(span, ok):
    """Only the first messages of the history, cut before a customer message, can
    be named as "the first N turns"; anything else is no fork."""
    seen = [ChatMessage.system("s"), *chat(3, 1)]
    fork = fork_request(seen, seen[1:1 + span], merge=False)
    assert (fork is not None) is ok
    if ok:
        assert fork[:-1] == seen and fork[-1].role is Role.USER
        assert f"first {span // 2} turns" in fork[-1].content
    assert fork_request(seen, seen[3:5], merge=False) is None  # not the opening
