"""Cache breakpoints: the client marks them under Anthropic's rule, the cache reads
them, and a fork reads the agent's."""

import pytest

from tinyagent import ReActAgent, bitmall_tools
from tinyagent.cache_marks import breakpoints, mark_breakpoints
from tinyagent.course.billing import RecordingClient
from tinyagent.course.catalogue import SIX_TURNS
from tinyagent.offline.cache_rules import RULES, get_rule
from tinyagent.offline.prompt_cache import PrefixCache, flat, request_tokens
from tinyagent.production import CompactChatMemory

SYSTEM = {"role": "system", "content": "You are BitMall's clerk. " * 120}


def body(*texts, **extra):
    messages = [SYSTEM, *({"role": "user" if i % 2 == 0 else "assistant",
                           "content": t} for i, t in enumerate(texts))]
    return {"model": "bitmall-offline", "messages": messages, **extra}


@pytest.mark.parametrize("name", list(RULES))
def test_only_anthropics_rules_are_marked_by_the_client(name):
    """Under Anthropic's rules the request gets automatic caching (a top-level
    cache_control, the 1-hour one asked for by name); every other rule leaves the
    request as it was, and so does a name that is no rule."""
    request = mark_breakpoints(body("Where is 88231?"), RULES[name])
    if name.startswith("anthropic"):
        ttl = {"ttl": "1h"} if name == "anthropic-1h" else {}
        assert request["cache_control"] == {"type": "ephemeral", **ttl}
        assert breakpoints(request) == [len(request["messages"])]
    else:
        assert "cache_control" not in request and breakpoints(request) is None
    assert mark_breakpoints(body("x"), None) == body("x")


def test_a_client_of_a_provider_the_course_does_not_list_marks_nothing():
    """A real client's own provider name is no rule of the course's: it finds its
    prefix itself, and the client marks nothing."""
    from tinyagent import LlmClient

    llm = LlmClient(offline=True)
    llm.cache_rule = "my-own-provider"
    assert llm._marking_rule() is None
    llm.cache_rule = "anthropic"
    assert llm._marking_rule() is RULES["anthropic"]


def test_breakpoints_are_read_from_the_tools_the_parts_and_the_top():
    """A marked last tool is block 0, a message whose parts carry a mark is its own
    block, the top-level mark is the last block; nothing marked: None."""
    request = body("Hi", "Hello", cache_control={"type": "ephemeral"},
                   tools=[{"type": "function", "function": {"name": "a"},
                           "cache_control": {"type": "ephemeral"}}])
    request["messages"][1] = {"role": "user", "content": [
        {"type": "text", "text": "Hi", "cache_control": {"type": "ephemeral"}}]}
    assert breakpoints(request) == [0, 2, 3]
    assert breakpoints(body("Hi")) is None


def test_a_mark_searches_back_twenty_blocks_and_no_further():
    """From a breakpoint the cache reads the longest stored prefix at most 20
    blocks back: one 21 blocks back is not found from the end, but is from a mark
    placed at it."""
    rule = RULES["anthropic"]
    turns = [f"Question {n} about order {88000 + n}, please." for n in range(30)]
    first = request_tokens(body(*turns[:8]))
    later = body(*turns[:29])
    cache = PrefixCache(rule)
    cache.keep(first, marks=[len(first) - 1])
    assert cache.matched(request_tokens(later)) == 0  # 21 blocks from the end
    marks = [len(first) - 1, len(later["messages"])]  # where the first one ended
    assert cache.matched(request_tokens(later), marks) == len(flat(first))


def test_a_fork_reads_the_agents_breakpoint_under_anthropic():
    """Under Anthropic's rule every request, the fork's too, is marked; replayed,
    each fork reads the whole request the agent sent just before it (its
    breakpoint is two blocks back from the fork's)."""
    llm = RecordingClient()
    llm.cache_rule = "anthropic"
    memory = CompactChatMemory(llm, 600, 300)
    agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    for text in SIX_TURNS["en"] * 2:
        agent.run(text)
    run = llm.runs[0]
    forks = [i for i, (request, _) in enumerate(run)
             if str(request["messages"][-1]["content"]).startswith("Do not answer")]
    assert forks and memory.summarizer.forks == len(forks)
    found = run.matches(get_rule("anthropic"))
    for i in forks:
        assert run[i][0]["cache_control"] == {"type": "ephemeral"}
        assert found[i][1] == len(flat(request_tokens(run[i - 1][0]))) >= 1024
