"""The offline prompt cache: how a request becomes tokens, and what it matches."""

import pytest

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
