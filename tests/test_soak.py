"""The soak run (tinyagent.course.soak), small: its figures, its table, its bar."""

import pytest

from tinyagent.course import soak


def test_a_run_gives_one_row_a_bucket_with_cpu_seconds_and_rss():
    """play(): per bucket of turns, the CPU seconds spent and the RSS at its end,
    both positive; the background memory's compressions are waited for."""
    for name in ("window", "background"):
        rows = soak.play(name, turns=20, bucket=10, seed=0)
        assert len(rows) == 2
        assert all(r["seconds"] > 0 and r["rss"] > 10 for r in rows)


def test_background_adds_are_timed_in_buckets_with_the_slowest_add():
    """timed_adds(): one row per bucket, its CPU seconds and its slowest add."""
    rows = soak.timed_adds(adds=400, bucket=100)
    assert len(rows) == 4 and all(r["slowest"] > 0 for r in rows)


@pytest.mark.parametrize(("figures", "expected"), [
    ([10, 4, 4, 6], 1.5),  # the last against the second: the first warms up
    ([10, 4], 0.4),  # two buckets: against the first
    ([3, 0, 3], float("inf"))])
def test_the_bar_compares_the_last_bucket_with_the_second(figures, expected):
    """ratio(): last / second (last / first with two buckets); a second bucket
    that cost nothing makes any cost after it infinitely more."""
    rows = [{"seconds": f} for f in figures]
    assert soak.ratio(rows, "seconds") == expected


def test_the_table_marks_a_memory_that_grows(capsys):
    """A memory whose last bucket costs twice the second is marked NO, one within
    the bar yes; the columns are the second and the last bucket's."""
    flat = [{"seconds": 2.0, "rss": 100.0}] * 4
    grows = [*flat[:3], {"seconds": 4.0, "rss": 100.0}]
    lines = soak.report({"window": flat, "hybrid": grows}, 1_000).splitlines()
    assert lines[1].split()[0] == "window" and lines[1].endswith("yes")
    assert lines[2].split()[0] == "hybrid" and lines[2].endswith("NO")
    assert "2.00" in lines[2] and "4.00" in lines[2]


def test_the_command_runs_each_memory_in_its_own_process(capsys):
    """main() runs the memory in a child process and prints its row; exit 0 when
    it is within the bar (a short run of a window: flat)."""
    status = soak.main(["--turns", "30", "--bucket", "10", "--memory", "window",
                        "--cache-rule", "none"])
    out = capsys.readouterr().out
    assert "prompt cache rule none" in out
    row = next(line for line in out.splitlines() if line.startswith("window"))
    assert row.split()[1] == "30" and status == (0 if row.endswith("yes") else 1)
