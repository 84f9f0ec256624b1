"""Billing a recorded run under every cache rule, and the two-prompt drawing."""

import pytest

from tinyagent import LlmClient
from tinyagent.course.billing import RecordingClient, bill, picture
from tinyagent.course.catalogue import make_strategies
from tinyagent.course.compare import compare

NAMES = ["inmemory", "window", "compact"]


@pytest.fixture(scope="module")
def recorded():
    recorder = RecordingClient()
    compare(recorder, strategies=make_strategies(recorder, NAMES))
    return recorder


def test_one_list_of_requests_per_strategy(recorded):
    """compare() empties the cache before each strategy: one list each, in order."""
    assert len(recorded.runs) == len(NAMES)
    assert all(body["messages"] and reply["role"] == "assistant"
               for run in recorded.runs for body, reply in run)


@pytest.mark.parametrize("rule", ["openai", "deepseek", "qwen", "none"])
def test_replaying_the_requests_bills_what_the_usage_reported(recorded, rule):
    """A recorded run billed under a rule equals the bill from the usage of a run
    made under that rule: the answers do not depend on the cache, only the usage."""
    llm = LlmClient(offline=True)
    live = compare(llm, strategies=make_strategies(llm, NAMES), provider=rule)
    for run, requests in zip(live.runs, recorded.runs, strict=True):
        assert bill(requests, rule) == pytest.approx(run.billed(rule))


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
