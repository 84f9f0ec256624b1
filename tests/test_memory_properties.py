"""Properties of every strategy over random conversations with tool calls (hypothesis).

Each conversation is a list of turns: a user message, maybe tool calls with their
results, an answer; order, tracking and refund numbers are sprinkled in the text.
"""

import re

from fakes import FakeLlm
from hypothesis import example, given
from hypothesis import strategies as st

from tinyagent.chat_model import LlmError
from tinyagent.memory import (
    HybridChatMemory,
    InMemoryChatMemory,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
    split_turns,
)
from tinyagent.memory.fence import SUMMARY_FOOTER
from tinyagent.messages import ChatMessage, Role, ToolCall
from tinyagent.tokens import count_message_tokens

# The profile's 100 examples a property (tests/conftest.py), the known edges first
# as @example: 20 already catch each planted bug we tried (a window that keeps one
# message too few or cuts a turn, a token total not kept right, the newest turn cut,
# a compression that cuts one turn too many or mid-turn, a summary without its ids
# guard or without the previous summary's ids).

ids = st.one_of(st.integers(10000, 99999).map(str),
                st.integers(0, 10**10 - 1).map(lambda n: f"SF{n:010d}"),
                st.integers(0, 10**11 - 1).map(lambda n: f"RF{n:011d}"))
words = st.sampled_from(["refund", "where", "thanks", "退款", "物流", "ok", "¥1999"])
turn_specs = st.tuples(st.lists(st.one_of(ids, words), max_size=3),  # user text
                       st.integers(0, 2),  # tool calls in the turn
                       st.lists(st.one_of(ids, words), max_size=3))  # answer text


def build(specs):
    """Messages from turn specs; tool-call ids are unique in the conversation."""
    messages = []
    for t, (asked, calls, answered) in enumerate(specs):
        messages.append(ChatMessage.user("q " + " ".join(asked)))
        made = [ToolCall(f"call_{t}_{k}", "queryOrder", {"order_id": "88231"})
                for k in range(calls)]
        if made:
            messages.append(ChatMessage.assistant("", made))
            messages += [ChatMessage.tool(c.id, '{"ok": true}') for c in made]
        messages.append(ChatMessage.assistant("a " + " ".join(answered)))
    return messages


conversations = st.lists(turn_specs, min_size=1, max_size=20).map(build)
# The edges: a turn longer than any window (two tool calls), tool turns back to
# back, one plain exchange.
LONG_TURNS = build([(["88231"], 2, ["SF1234567890"]), (["退款"], 2, []),
                    (["RF20260701001"], 0, ["ok"])])
PLAIN = build([(["where"], 0, ["88231"])])


# Summarizers that behave per mode: ok, raise, empty, or drop every id.
SUMMARIZERS = {
    "ok": lambda: FakeLlm(
        lambda messages: "- " + messages[1].content[-300:].replace("\n", "\n- ")),
    "raise": lambda: FakeLlm(LlmError("model call failed: HTTP 500")),
    "empty": lambda: FakeLlm("  "),
    "drops ids": lambda: FakeLlm(f"- all fine\n{SUMMARY_FOOTER}"),
}


def every_strategy(llm, budget=350):
    """`budget`: the summaries' max_summary_tokens (past it, old ids are evicted)."""
    return [InMemoryChatMemory(), SlidingWindowChatMemory(3),
            SlidingWindowChatMemory(6), TokenWindowChatMemory(60),
            SummaryChatMemory(llm, threshold=4, keep_recent=2,
                              max_summary_tokens=budget),
            SummaryChatMemory(llm, threshold=7, keep_recent=3,
                              max_summary_tokens=budget),
            HybridChatMemory(llm, recent_size=2, summary_threshold=3,
                             max_summary_tokens=budget),
            HybridChatMemory(llm, recent_size=5, summary_threshold=8,
                             max_summary_tokens=budget)]


def tool_results_have_their_calls(held):
    """No tool message before (or without) the call it answers; none first."""
    called = set()
    for m in held:
        called.update(c.id for c in m.tool_calls)
        if m.role is Role.TOOL and m.tool_call_id not in called:
            return False
    return not held or held[0].role is not Role.TOOL


def calls_have_their_results(held):
    answered = {m.tool_call_id for m in held if m.role is Role.TOOL}
    return all(c.id in answered for m in held for c in m.tool_calls)


def newest_turns_within(added, fits):
    """The reference window: newest whole turns while `fits(kept)`; at least one."""
    kept = []
    for turn in reversed(split_turns(added)):
        if kept and not fits(turn + kept):
            break
        kept = turn + kept
    return kept


@given(conversations, st.sampled_from(["ok", "raise", "empty", "drops ids"]))
@example(LONG_TURNS, "ok")
@example(LONG_TURNS, "raise")
def test_no_strategy_ever_returns_an_orphan(conversation, mode):
    """After every add no tool result lacks its call and nothing starts with a tool;
    after every complete turn no call lacks its results."""
    memories = every_strategy(SUMMARIZERS[mode]())
    ends = {len(sum(split_turns(conversation)[:i + 1], []))
            for i in range(len(split_turns(conversation)))}
    for n, message in enumerate(conversation, 1):
        for memory in memories:
            memory.add(message)
            held = memory.messages()
            assert tool_results_have_their_calls(held), memory
            assert n not in ends or calls_have_their_results(held), memory


@given(conversations, st.integers(2, 12))
@example(LONG_TURNS, 2)  # each turn alone is over the window
@example(PLAIN, 2)  # exactly full
def test_the_window_holds_the_newest_whole_turns_that_fit(conversation, size):
    """After every add, the window equals the newest whole turns within max_messages
    (a lone oversize newest turn included): never more, never a cut turn."""
    memory, added = SlidingWindowChatMemory(size), []
    for message in conversation:
        memory.add(message)
        added.append(message)
        expected = newest_turns_within(added, lambda kept: len(kept) <= size)
        assert memory.messages() == expected
        assert len(memory) <= size or len(split_turns(expected)) == 1


@given(conversations, st.integers(1, 200))
@example(LONG_TURNS, 1)  # every turn alone is over the budget
@example(PLAIN, sum(count_message_tokens(m) for m in PLAIN))  # exactly full
def test_the_token_window_holds_the_newest_whole_turns_that_fit(conversation, budget):
    """After every add, the token window equals the newest whole turns within
    max_tokens, and its running total equals a recount."""
    memory, added = TokenWindowChatMemory(budget), []
    tokens = lambda kept: sum(count_message_tokens(m) for m in kept)  # noqa: E731
    for message in conversation:
        memory.add(message)
        added.append(message)
        assert memory.messages() == newest_turns_within(
            added, lambda kept: tokens(kept) <= budget)
        assert memory.tokens == tokens(memory.messages())


@given(conversations, st.integers(2, 8), st.integers(1, 6),
       st.sampled_from(["ok", "raise"]))
@example(LONG_TURNS, 2, 1, "ok")  # the smallest sizes, long turns
def test_hybrid_keeps_the_newest_recent_size_verbatim(conversation, recent, extra,
                                                      mode):
    """After every add, the last recent_size messages are exactly the last added,
    and the verbatim part starts on a turn boundary."""
    memory = HybridChatMemory(SUMMARIZERS[mode](), recent_size=recent,
                              summary_threshold=recent + extra)
    for n, message in enumerate(conversation, 1):
        memory.add(message)
        held = memory.messages()
        assert held[-recent:] == conversation[max(0, n - recent):n]
        verbatim = held[1:] if memory.summary is not None else held
        assert verbatim[0].role is Role.USER


@given(st.lists(st.tuples(st.lists(ids, min_size=1, max_size=3), st.integers(0, 2),
                          st.lists(ids, max_size=2)), min_size=1, max_size=20),
       st.sampled_from(["raise", "empty", "drops ids"]))
@example([(["88231", "SF1234567890"], 2, ["RF20260701001"])] * 6, "drops ids")
def test_a_failing_summarizer_loses_no_id(specs, mode):
    """Whatever the summarizer does wrong, every order, tracking and refund number
    ever added is still in messages() (the summary included), while the summary
    budget has room for them all."""
    conversation = build(specs)
    added = {i for asked, _, answered in specs for i in asked + answered}
    roomy = every_strategy(SUMMARIZERS[mode](), budget=4000)
    for memory in roomy[4:]:  # the summary memories
        for message in conversation:
            memory.add(message)
        text = "\n".join(m.content for m in memory.messages())
        missing = {i for i in added if not re.search(rf"(?<![\dA-Z]){i}(?!\d)", text)}
        assert not missing, (memory, missing)


def test_property_tests_are_reproducible_and_draw_enough():
    """Hypothesis is derandomized for every test run (tests/conftest.py), so the
    same examples are tried on every machine, and draws the profile's 100 a
    property; the properties above keep it (none asks for fewer)."""
    from hypothesis import settings

    from conftest import EXAMPLES
    assert settings.default.derandomize is True
    assert settings.default.max_examples == EXAMPLES >= 100
    properties = [test for test in globals().values()
                  if getattr(test, "is_hypothesis_test", False)]
    assert len(properties) == 5 and all(
        test._hypothesis_internal_use_settings.max_examples == EXAMPLES
        and test.hypothesis_explicit_examples for test in properties)
