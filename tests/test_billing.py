"""Billing a recorded run under every cache rule, and the two-prompt drawing."""

import pytest

from tinyagent import LlmClient
from tinyagent.course.billing import RecordingClient, bill, picture, tally
from tinyagent.course.catalogue import make_strategies
from tinyagent.course.compare import compare
from tinyagent.course.evaluation import planted_dialog
from tinyagent.offline.cache_rules import RULES, with_numbers
from tinyagent.offline.clock import Schedule
from tinyagent.production import CompactChatMemory

NAMES = ["inmemory", "window"]
TURNS = planted_dialog(14, 0).turns  # long enough to pass 1,024 tokens
PAUSES = Schedule(60, {8: 3600})  # a minute between turns, an hour before turn 8


def strategies(llm):
    """In-memory, the window, and compact with marks of its own: sized for a rule
    (`for_rule`), it would send other requests under each, as it should."""
    return {**make_strategies(llm, NAMES),
            "compact 1800/500": lambda: CompactChatMemory(llm)}


@pytest.fixture(scope="module")
def recorded():
    recorder = RecordingClient()
    compare(recorder, TURNS, strategies(recorder), schedule=PAUSES)
    return recorder


def test_one_run_per_strategy_with_each_calls_turn_and_time(recorded):
    """compare() empties the cache before each strategy: one run each, in order;
    each call knows its turn and the clock, as the schedule spaced them."""
    assert len(recorded.runs) == len(NAMES) + 1
    assert all(body["messages"] and reply["role"] == "assistant"
               for run in recorded.runs for body, reply in run)
    first = recorded.runs[0].calls
    assert (first[0].turn, first[0].seconds) == (1, 0)
    at_eight = next(c for c in first if c.turn == 8)
    assert at_eight.seconds == 6 * 60 + 60 + 3600
    assert recorded.runs[0].times() == recorded.runs[0].times(PAUSES)


@pytest.mark.parametrize("rule", ["openai", "deepseek", "qwen", "none", "anthropic",
                                  "openai-gpt-5.6", "deepseek-prefix", "gemini"])
def test_replaying_the_requests_bills_what_the_usage_reported(recorded, rule):
    """A recorded run billed under a rule equals the bill from the usage of a run
    made under that rule with the same pauses: the answers depend on neither the
    cache nor the clock, only the usage does."""
    llm = LlmClient(offline=True)
    live = compare(llm, TURNS, strategies(llm), provider=rule, schedule=PAUSES)
    for run, requests in zip(live.runs, recorded.runs, strict=True):
        assert bill(requests, rule) == pytest.approx(run.billed(rule))
        assert tally(requests, rule).cached == run.total("cached_tokens")
        if RULES[rule].write_share != 1:  # the usage reports writes for these
            assert tally(requests, rule).written == run.total("written_tokens")
    if RULES[rule].write_share != 1:
        assert live.runs[0].total("written_tokens") > 0  # the prompts pass 1,024


def test_a_lunch_break_empties_a_five_minute_cache(recorded):
    """Under Anthropic's 5-minute rule, turn 8's first call (after an hour) reads
    nothing; spaced without the break, it reads the earlier turns."""
    run = recorded.runs[0]
    at = next(i for i, c in enumerate(run.calls) if c.turn == 8)
    lunch = run.matches(RULES["anthropic"], PAUSES)[at][1]
    steady = run.matches(RULES["anthropic"], Schedule(60))[at][1]
    assert lunch == 0 < steady


def test_typed_in_numbers_and_a_hit_chance(recorded):
    """A learner's numbers replace the rule's; a cached price of 100 % bills every
    prompt token in full; at a hit chance p the bill is p of the way between a
    cache that always hits and one that never does (a guaranteed rule ignores p)."""
    run = recorded.runs[0]
    full = tally(run, "qwen", cached_share=1.0)
    assert full.billed == pytest.approx(full.prompt + full.output * 2.5)
    assert bill(run, with_numbers("qwen", cached_share=1.0)) == full.billed
    always, never = bill(run, "qwen"), bill(run, "qwen", hit_chance=0.0)
    assert never > always
    assert bill(run, "qwen", hit_chance=0.5) == pytest.approx((always + never) / 2)
    assert bill(run, "anthropic", hit_chance=0.5) == bill(run, "anthropic")


def test_the_drawing_marks_only_the_fixed_part_for_a_sliding_window(recorded):
    """Window 6, turn 4 then 5: the tools and system prompt are shared, the first
    remembered turn is not; in-memory shares all of the earlier request."""
    def firsts(run):
        return [b for b, _ in run if b["messages"][-1]["role"] == "user"]
    full, window = firsts(recorded.runs[0]), firsts(recorded.runs[1])
    marks = picture(window[3], window[4]).splitlines()[2].split("|")[1:]
    assert [m.strip() for m in marks[:2]] == ["=====", "====="]
    assert all(m.strip() != "=====" for m in marks[2:])
    marks = picture(full[3], full[4]).splitlines()[2].split("|")[1:]
    # every cell of the earlier request: tools + its messages
    assert [m.strip() for m in marks].count("=====") == len(full[3]["messages"]) + 1
