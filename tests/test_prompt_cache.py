"""The offline prompt cache: how a request becomes tokens, and what it matches."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyagent import LlmClient, ReActAgent, bitmall_tools
from tinyagent.memory import InMemoryChatMemory, SlidingWindowChatMemory
from tinyagent.messages import ChatMessage
from tinyagent.offline import complete
from tinyagent.offline.cache_rules import RULES
from tinyagent.offline.prompt_cache import PrefixCache, flat, request_tokens
from tinyagent.tools import bitmall_tools as tools

SCHEMAS = tools().schemas()


def request(*texts, with_tools=True):
    messages = [{"role": "system", "content": "You are BitMall's clerk. " * 60}]
    messages += [{"role": "user" if i % 2 == 0 else "assistant", "content": t}
                 for i, t in enumerate(texts)]
    return {"model": "bitmall-offline", "messages": messages,
            **({"tools": SCHEMAS} if with_tools else {})}


def test_the_sequence_is_the_tools_then_each_message_as_many_as_the_prompt():
    """Tools first, then a block a message; together they are the prompt's tokens
    less the 3 that prime the reply."""
    body = request("Where is my order 88231?", "It was delivered.", "Refund it")
    blocks = request_tokens(body)
    assert len(blocks) == 1 + len(body["messages"])
    prompt = complete(body)["usage"]["prompt_tokens"]
    assert len(flat(blocks)) == prompt - 3


def test_an_exact_prefix_is_matched_and_a_change_ends_it():
    """The match runs to the first token that differs, and never past it."""
    cache = PrefixCache(RULES["qwen"])
    first = request("Where is my order 88231?")
    cache.keep(request_tokens(first))
    longer = request_tokens(request("Where is my order 88231?", "Delivered.", "ok"))
    assert cache.matched(longer) == len(flat(request_tokens(first)))
    changed = request_tokens(request("Where is my order 90417?"))
    assert cache.matched(changed) < len(flat(request_tokens(first)))
    assert cache.matched(request_tokens(request("x", with_tools=False))) == 0


def test_deepseek_hits_only_a_whole_earlier_unit():
    """DeepSeek: a request that holds an earlier request (or it and its reply) whole
    hits it; one that shares only part of it hits nothing."""
    cache = PrefixCache(RULES["deepseek"])
    first = request("Where is my order 88231?")
    reply = {"role": "assistant", "content": "Delivered."}
    cache.keep(request_tokens(first), reply)
    unit = len(flat(request_tokens(first)))
    after_reply = request_tokens(request("Where is my order 88231?", "Delivered.",
                                         "ok"))
    assert cache.hit(after_reply) > unit  # the unit that ends with the output
    other = request_tokens(request("Where is my order 88231? Also 90417"))
    assert cache.hit(other) == 0  # the system prompt is shared, but no whole unit


def test_the_usage_reports_the_cache_and_the_answer_stays_the_same():
    """Through the SDK a second identical call is cached; its answer is byte for
    byte the first's, since only the usage depends on earlier requests."""
    llm = LlmClient(offline=True)
    messages = [ChatMessage.system("You are BitMall's clerk. " * 60),
                ChatMessage.user("Where is my order 88231?")]
    first, second = llm.chat(messages, SCHEMAS), llm.chat(messages, SCHEMAS)
    assert first.usage.cached_tokens == 0 < second.usage.cached_tokens
    assert (first.content, first.tool_calls) == (second.content, second.tool_calls)
    llm.forget_prompt_cache()
    assert llm.chat(messages, SCHEMAS).usage.cached_tokens == 0


@pytest.mark.parametrize("rule", ["qwen", "deepseek"])
def test_on_turn_2_a_window_caches_only_the_fixed_prefix(rule):
    """With one earlier exchange held, turn 2 of a full window starts differently
    right after the system prompt, so only tools + system prompt are cached; the
    in-memory prompt holds turn 1's whole prompt, so its history is cached too."""
    cached = {}
    for memory in (InMemoryChatMemory(), SlidingWindowChatMemory(2)):
        memory.add(ChatMessage.user("Hello"))
        memory.add(ChatMessage.assistant("Hello! How can I help?"))
        llm = LlmClient(offline=True)
        llm.cache_rule = rule
        agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
        agent.run("Where is my order 88231?")
        agent.run("How much is the S20 Pro?")
        cached[type(memory).__name__] = agent.last_trace.cached_tokens[0]
    fixed = len(flat(request_tokens({"tools": SCHEMAS, "messages": [
        {"role": "system", "content": agent.build_messages("x")[0].content}]})))
    window, full = cached["SlidingWindowChatMemory"], cached["InMemoryChatMemory"]
    assert window <= fixed + 4  # the next message's framing may match as well
    assert full > fixed + 20  # "Hello", its answer and turn 1 are cached too


def bodies(*turns, system="You are BitMall's clerk. " * 200):
    """Requests of a conversation that grows by one user message a turn."""
    messages = [{"role": "system", "content": system}]
    out = []
    for text in turns:
        messages = messages + [{"role": "user", "content": text}]
        out.append(request_tokens({"messages": messages}))
    return out


def test_the_cache_is_bounded_by_its_cap_and_still_finds_the_newest():
    """However many prompts are kept, a cache holds at most max_blocks blocks, and
    the prompt kept last is still matched whole."""
    from tinyagent.offline.prompt_cache import BLOCK

    cache = PrefixCache(RULES["qwen"], max_blocks=40)
    for n in range(200):
        blocks = [tuple(range(n * 1000, n * 1000 + 5 * BLOCK + 7))]
        cache.keep(blocks)
        assert len(cache) <= 40
    assert cache.matched(blocks) == len(flat(blocks))
    assert cache.matched([tuple(range(0, 5 * BLOCK))]) == 0  # the oldest went first


def test_an_entry_unused_past_the_rules_expiry_is_gone():
    """Anthropic's cache lives 5 minutes from its last use: a prompt sent 4 minutes
    after the last one reads it, one sent 6 minutes after reads nothing; each use
    renews it."""
    from tinyagent.offline.clock import Clock

    clock = Clock()
    cache = PrefixCache(RULES["anthropic"], clock)
    first, second, third = bodies("Hello", "Where is 88231?", "And 90417?")
    cache.keep(first)
    clock.advance(240)
    assert cache.lookup(second).read == len(flat(first))
    cache.keep(second)
    clock.advance(360)
    assert cache.lookup(third).read == 0


def test_breakpoints_read_the_last_request_and_write_the_rest():
    """A breakpoint rule reads the longest earlier request this one holds whole,
    writes the rest at the premium, and neither reads nor writes below its
    minimum."""
    cache = PrefixCache(RULES["anthropic"])
    first, second = bodies("Hello", "Where is 88231?")
    found = cache.lookup(first)
    assert (found.read, found.written) == (0, len(flat(first)))
    cache.keep(first)
    found = cache.lookup(second)
    assert found.read == len(flat(first))
    assert found.read + found.written == len(flat(second))
    short = PrefixCache(RULES["anthropic"])
    tiny = bodies("Hi", system="Be brief.")[0]
    assert short.lookup(tiny).written == 0


def test_deepseek_persists_the_start_two_requests_shared():
    """DeepSeek's common-prefix rule: after A+B and A+C, the start A is a unit of
    its own, so A+D hits it; the plain rule leaves A+D cold."""
    system = [{"role": "system", "content": "You are BitMall's clerk. " * 60}]
    def ask(text):
        return request_tokens({"messages": [*system, {"role": "user",
                                                      "content": text}]})
    a_b, a_c, a_d = ask("Where is 88231?"), ask("Refund 90417"), ask("S20 price?")
    for name, expected in [("deepseek", 0), ("deepseek-prefix", len(a_b[1]))]:
        cache = PrefixCache(RULES[name])
        cache.keep(a_b)
        assert cache.hit(a_c) == 0  # A+C does not hold A+B whole
        cache.keep(a_c)
        assert cache.hit(a_d) == expected


def test_a_hit_by_chance_is_seeded_and_a_guaranteed_one_always_hits():
    """With hit_chance below 1, the same seed draws the same hits and misses (so a
    run's usage repeats), 0 never reads; a guaranteed rule ignores the chance."""
    first, second = bodies("Hello", "Where is 88231?")

    def reads(rule, chance, seed, n=20):
        cache, out = PrefixCache(RULES[rule], hit_chance=chance, seed=seed), []
        cache.keep(first)
        for _ in range(n):
            out.append(cache.lookup(second).read)
        return out

    assert reads("qwen", 0.5, 1) == reads("qwen", 0.5, 1)
    assert 0 < reads("qwen", 0.5, 1).count(0) < 20
    assert set(reads("qwen", 0.0, 1)) == {0}
    assert 0 not in reads("anthropic", 0.0, 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 3), min_size=0, max_size=300), min_size=1,
                max_size=12), st.integers(1, 12))
def test_the_match_is_the_longest_shared_start_within_the_cap(prompts, cap):
    """Whatever the prompts and the cap: matched never claims more than the longest
    start shared with a prompt kept before, always finds all of the prompt kept
    last, and with room for everything is exactly the longest shared start."""
    def shared(a, b):
        pairs = zip(a, b, strict=False)
        return next((i for i, (x, y) in enumerate(pairs) if x != y),
                    min(len(a), len(b)))

    small, large = (PrefixCache(RULES["qwen"], max_blocks=cap),
                    PrefixCache(RULES["qwen"]))
    kept: list[tuple[int, ...]] = []
    for prompt in map(tuple, prompts):
        best = max((shared(prompt, old) for old in kept), default=0)
        assert large.matched([prompt]) == best
        assert small.matched([prompt]) <= best
        if kept:
            assert small.matched([kept[-1]]) == len(kept[-1]) or len(
                kept[-1]) > cap * 64
        for cache in (small, large):
            cache.keep([prompt])
        kept.append(prompt)
