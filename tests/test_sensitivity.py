"""The sensitivity analysis: exact crossovers, and sentences that carry conditions."""

import pytest

from tinyagent.course.billing import tally
from tinyagent.course.sensitivity import (
    FULL,
    HALF,
    LUNCH,
    MINIMUMS,
    SHARES,
    STEADY,
    Crossover,
    Sweep,
    record_runs,
    statements,
)


@pytest.fixture(scope="module")
def sweep():
    return Sweep(record_runs(lengths=(12, 24),
                             memories=("window", "summary", "compact")))


def test_a_bill_is_a_straight_line_in_the_cached_price(sweep):
    """The (A, R) of a run give its bill at any cached price, as tally computes it."""
    a, r = sweep.line("summary 10/4", 24, 512, STEADY)
    run = sweep.runs["summary 10/4", 24]
    for share in (0.03, 0.37, 0.9):
        direct = tally(run, "qwen", cached_share=share, min_tokens=512,
                       expiry_seconds=300, schedule=STEADY.schedule(24)).billed
        assert a + share * r == pytest.approx(direct)


def test_at_the_crossover_both_cost_the_same_and_each_side_wins_once(sweep):
    """At a crossover price the ratio is 1; below it keeping everything is billed
    less when it says "below", above it the memory is."""
    found = 0
    for label in sweep.labels:
        for minimum in MINIMUMS:
            cross = sweep.crossover(label, 24, minimum)
            if cross.share is None or not 0.01 < cross.share < 0.99:
                continue
            found += 1
            assert sweep.ratio(label, 24, cross.share, minimum) == pytest.approx(1)
            below = sweep.ratio(label, 24, cross.share - 0.01, minimum)
            above = sweep.ratio(label, 24, cross.share + 0.01, minimum)
            assert (below > 1 > above) == (cross.full_wins == "below")
    assert found >= 3


def test_a_memory_that_sends_the_same_requests_never_crosses(sweep):
    """A memory that sends in-memory's requests (compact before its first
    compaction does) is billed the same at every price, said so."""
    full = sweep.runs[FULL, 12]
    same = Sweep({(FULL, 12): full, ("copy", 12): full})
    cross = same.crossover("copy", 12, 1024)
    assert cross == Crossover(None, "same")
    assert "nothing compressed yet" in cross.text("en")
    assert all(v == pytest.approx(1) for row in same.grid("copy", 12) for v in row)


def test_half_the_hits_makes_keeping_everything_dearer(sweep):
    """A cache that finds half its hits raises in-memory's bill more than the
    window's: its crossover moves left (or disappears)."""
    steady = sweep.crossover("window 6", 24, 1024, STEADY).share or 0
    half = sweep.crossover("window 6", 24, 1024, HALF).share or 0
    assert half < steady


def test_every_sentence_states_its_conditions(sweep):
    """Each block of statements names every memory and ends with the conditions:
    the minimum, the expiry, the scenario, the price of replies, in both
    languages."""
    for scenario in (STEADY, LUNCH, HALF):
        lines = statements(sweep, 2048, scenario)
        assert [line.split(":")[0] for line in lines[:-1]] == sweep.labels
        assert all("at 12 turns" in line for line in lines[:-1])
        assert "2,048 tokens" in lines[-1] and scenario.name in lines[-1]
        assert "300-second expiry" in lines[-1] and "output price" in lines[-1]
        zh = statements(sweep, 2048, scenario, lang="zh")
        assert scenario.zh in zh[-1] and "2,048 个 token" in zh[-1]


def test_the_grid_has_a_row_a_minimum_and_a_column_a_price(sweep):
    """grid(): MINIMUMS rows of SHARES ratios, each the ratio() of that cell."""
    grid = sweep.grid("window 6", 24)
    assert len(grid) == len(MINIMUMS) and all(len(r) == len(SHARES) for r in grid)
    assert grid[2][3] == sweep.ratio("window 6", 24, SHARES[3], MINIMUMS[2])
    assert FULL not in sweep.labels and "4 memories" not in sweep.describe()
