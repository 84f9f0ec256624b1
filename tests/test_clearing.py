"""ToolClearingChatMemory: old tool results cleared past a trigger (Anthropic's
knobs: trigger, keep, clear_at_least, exclude_tools)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyagent.memory.entities import find_ids
from tinyagent.messages import ChatMessage, Role, ToolCall
from tinyagent.offline.model import check_messages
from tinyagent.production import ToolClearingChatMemory
from tinyagent.production.clearing import CLEARED, placeholder
from tinyagent.tokens import count_message_tokens

TOOLS = ("queryOrder", "queryLogistics", "searchKnowledge")


def turn(n, tool="queryOrder", filler=40):
    """A turn with one tool call whose result holds an order and a tracking id."""
    call = ToolCall(f"call_{n}", tool, {"order_id": str(70000 + n)})
    result = json.dumps({"order_id": str(70000 + n), "tracking_number":
                         f"SF{1000000000 + n}", "note": "lorem ipsum " * filler})
    return [ChatMessage.user(f"Where is order {70000 + n}?"),
            ChatMessage.assistant("", [call]), ChatMessage.tool(call.id, result),
            ChatMessage.assistant(f"Order {70000 + n} is on its way.")]


def fed(memory, turns, **kwargs):
    for n in range(turns):
        for message in turn(n, **kwargs):
            memory.add(message)
    return memory


def results(memory):
    return [m for m in memory.messages() if m.role is Role.TOOL]


def is_cleared(message):
    return message.content.startswith(tuple(CLEARED.values()))


def test_below_the_trigger_nothing_is_cleared():
    """Under `trigger` tokens the memory is in-memory's: every result whole."""
    memory = fed(ToolClearingChatMemory(trigger=100_000), 10)
    assert memory.cleared == 0 and not any(map(is_cleared, results(memory)))


def test_past_the_trigger_all_but_the_newest_keep_results_are_cleared():
    """The oldest results become placeholders; the newest `keep` stay whole."""
    memory = fed(ToolClearingChatMemory(trigger=500, keep=2), 10)
    cleared = [is_cleared(m) for m in results(memory)]
    assert cleared[-2:] == [False, False] and all(cleared[:-3])
    assert memory.tokens == sum(map(count_message_tokens, memory.messages()))


def test_the_placeholder_keeps_the_ids_and_the_call_id():
    """A cleared result still names its order and tracking number, and answers the
    same call: the pair stays valid for the provider."""
    memory = fed(ToolClearingChatMemory(trigger=500, keep=1), 6)
    first = results(memory)[0]
    assert is_cleared(first) and first.tool_call_id == "call_0"
    assert find_ids(first.content) == ["70000", "SF1000000000"]
    assert placeholder("{}", "zh") == CLEARED["zh"]


def test_clear_at_least_waits_until_a_clearing_is_worth_a_cache_miss():
    """With clear_at_least above one result's saving, results are cleared in
    batches: fewer clearings (fewer cache misses), each saving at least that much."""
    one = fed(ToolClearingChatMemory(trigger=500, keep=1), 20)
    batched = fed(ToolClearingChatMemory(trigger=500, keep=1, clear_at_least=600), 20)
    assert batched.clearings < one.clearings
    assert batched.cleared_tokens >= 600 * batched.clearings


def test_excluded_tools_are_never_cleared():
    """exclude_tools: those results stay whole however old."""
    memory = ToolClearingChatMemory(trigger=500, keep=0,
                                    exclude_tools=["searchKnowledge"])
    for n in range(10):
        for message in turn(n, tool=TOOLS[n % 3]):
            memory.add(message)
    kinds = [(m.tool_call_id, is_cleared(m)) for m in results(memory)]
    assert all(cleared == (int(i.split("_")[1]) % 3 != 2) for i, cleared in kinds)


@pytest.mark.parametrize("bad", [{"trigger": 50}, {"keep": -1},
                                 {"clear_at_least": -5}])
def test_bad_knobs_are_named(bad):
    """A bad knob's error names it."""
    with pytest.raises(ValueError, match=next(iter(bad))):
        ToolClearingChatMemory(**bad)


step = st.tuples(st.lists(st.sampled_from(TOOLS), min_size=1, max_size=2),
                 st.lists(st.integers(0, 120), min_size=2, max_size=2),
                 st.lists(st.integers(10000, 99999), max_size=2))
turns = st.lists(st.tuples(st.integers(0, 60), st.lists(step, max_size=3)),
                 min_size=1, max_size=14)


@settings(max_examples=80, deadline=None)
@given(turns, st.integers(100, 1500), st.integers(0, 4), st.integers(0, 800),
       st.sets(st.sampled_from(TOOLS), max_size=1))
def test_clearing_keeps_every_pair_every_id_and_its_minimum(dialog, trigger, keep,
                                                           at_least, excluded):
    """Over random dialogs and knobs: every call keeps its one result, no id is
    lost, no clearing saves less than clear_at_least, a cleared message never
    changes again, and the newest `keep` and excluded results stay whole."""
    memory = ToolClearingChatMemory(trigger, keep, at_least, excluded)
    sent, n, frozen = [], 0, {}
    for words, steps in dialog:
        said = [ChatMessage.user(f"turn {len(sent)}" + " and" * words)]
        for tools, sizes, ids in steps:
            calls = [ToolCall(f"c{(n := n + 1)}", t, {}) for t in tools]
            said.append(ChatMessage.assistant("", calls))
            said += [ChatMessage.tool(c.id, " ".join(map(str, ids)) + " x" * size)
                     for c, size in zip(calls, sizes, strict=False)]
        said.append(ChatMessage.assistant("done" + " so" * words))
        for message in said:
            before = memory.cleared_tokens
            memory.add(message)
            sent.append(message)
            saved = memory.cleared_tokens - before
            assert saved == 0 or saved >= max(at_least, 1)
        held = memory.messages()
        check_messages([m.to_dict() for m in held])  # raises on a broken pair
        assert set(find_ids(" ".join(m.content for m in held))) == set(
            find_ids(" ".join(m.content for m in sent)))
        for i, message in frozen.items():
            assert held[i] == message
        frozen.update((i, m) for i, m in enumerate(held) if is_cleared(m))
        whole = [i for i, m in enumerate(sent) if m.role is Role.TOOL]
        names = {c.id: c.name for m in sent for c in m.tool_calls}
        for i in whole[len(whole) - keep:] if keep else []:
            assert held[i] == sent[i]
        assert all(held[i] == sent[i] for i in whole
                   if names[sent[i].tool_call_id] in excluded)
        assert memory.tokens == sum(map(count_message_tokens, held))


def test_the_memory_contract_holds():
    """messages() is a copy, clear() forgets everything (counters too), len and
    tokens describe messages(), the repr shows no address."""
    memory = fed(ToolClearingChatMemory(trigger=500, keep=1), 6)
    held = memory.messages()
    held.clear()
    assert len(memory.messages()) == len(memory) == 24 and memory.cleared
    assert "0x" not in repr(memory) and "cleared=" in repr(memory)
    memory.clear()
    assert memory.messages() == [] and memory.tokens == 0
    assert memory.stats()["cleared"] == memory.clearings == 0
    fed(memory, 6)  # and it works again from scratch
    assert memory.cleared


def test_an_add_reads_only_the_new_message(monkeypatch):
    """A turn costs the same tokenizer work with 10 or 100 turns held: each message
    is read once, and a result is measured once, when it falls due."""
    import tinyagent.tokens

    def tokenizer_calls(turns):
        memory = fed(ToolClearingChatMemory(trigger=500, keep=2,
                                            clear_at_least=10_000), turns)
        calls = []
        real = tinyagent.tokens.count_tokens
        monkeypatch.setattr(tinyagent.tokens, "count_tokens",
                            lambda text: calls.append(text) or real(text))
        for message in turn(999):
            memory.add(message)
        monkeypatch.setattr(tinyagent.tokens, "count_tokens", real)
        return len(calls)

    assert tokenizer_calls(10) == tokenizer_calls(100) <= 16
