"""The offline clock and a dialog's pauses: what the prompt cache's expiry reads."""

import pytest

from tinyagent import LlmClient
from tinyagent.course.catalogue import make_strategies
from tinyagent.course.compare import compare
from tinyagent.course.evaluation import planted_dialog
from tinyagent.offline.clock import Clock, Schedule, lunch_break


def test_a_clock_moves_forward_only_and_counts_turns():
    """advance adds seconds; next_turn adds a pause and counts a turn; reset starts
    over; a negative time is refused."""
    clock = Clock()
    clock.next_turn()
    clock.next_turn(30)
    clock.advance(15)
    assert (clock.seconds, clock.turn) == (45, 2)
    with pytest.raises(ValueError, match="-1"):
        clock.advance(-1)
    clock.reset()
    assert (clock.seconds, clock.turn) == (0, 0)


def test_a_schedule_spaces_turns_and_adds_its_breaks():
    """No pause before the first turn; `pause_seconds` before each later one, and a
    break on top where one is given; a lunch break falls before the middle turn."""
    schedule = Schedule(30, {3: 600})
    assert [schedule.before(n) for n in (1, 2, 3, 4)] == [0, 30, 630, 30]
    assert schedule.seconds_at(4) == 690
    assert lunch_break(50).breaks == {26: 45 * 60}
    with pytest.raises(ValueError, match="pauses"):
        Schedule(-5)


def test_the_answers_do_not_depend_on_the_clock_only_the_usage_does():
    """The same dialog with and without a lunch break gets the same answers and
    prompts; under Anthropic's 5-minute cache the break costs cached tokens."""
    turns = planted_dialog(14, 0).turns
    runs = []
    for schedule in (Schedule(30), Schedule(30, {11: 2700})):
        llm = LlmClient(offline=True)
        runs.append(compare(llm, turns, make_strategies(llm, ["inmemory"]),
                            provider="anthropic", schedule=schedule).runs[0])
    steady, lunch = runs
    assert [t.answer for t in steady.turns] == [t.answer for t in lunch.turns]
    assert [t.prompt_tokens for t in steady.turns] == [
        t.prompt_tokens for t in lunch.turns]
    # prompts pass Anthropic's 1,024-token minimum from turn 8 on: after the break,
    # turn 11's first call reads nothing (its later calls read the first one)
    assert lunch.total("cached_tokens") < steady.total("cached_tokens")
    assert lunch.turns[10].cached_tokens < steady.turns[10].cached_tokens
    assert [t.cached_tokens for t in lunch.turns[:10]] == [
        t.cached_tokens for t in steady.turns[:10]]
