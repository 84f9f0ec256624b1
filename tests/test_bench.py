"""The benchmark says what its last column means."""

import pytest

from tinyagent.course.bench import MAX_RATIO, legend, report


def test_the_last_column_is_the_ratio_largest_over_smallest():
    """The ratio column is headed largest/smallest and holds that ratio."""
    lines = report({"window": [2.0, 2.2, 2.4]}, (10, 1_000, 10_000)).splitlines()
    assert lines[0].rstrip().endswith("10,000/10")
    assert lines[1].split()[-1] == "1.20"


def test_the_legend_explains_the_last_column_in_words():
    """Under the table: what the ratio divides, what 1.00 and N mean, and the bar."""
    text = legend((10, 1_000, 10_000))
    assert "with 10,000 messages held / with 10" in text
    assert "1.00: a turn costs the same" in text
    assert "1,000: it grows with the history" in text and f"{MAX_RATIO}" in text


def test_a_ratio_above_the_bar_is_reported_and_the_command_exits_0(monkeypatch,
                                                                   capsys):
    """A benchmark reports: a strategy whose ratio passes the bar (a busy machine)
    is named in words, and the exit status is still 0."""
    from tinyagent.course import bench

    monkeypatch.setattr(bench, "offline_call_ms", lambda calls: {})
    monkeypatch.setattr(bench, "run", lambda sizes, adds, repeats: {
        "window": [1.0, 1.0, 3.0], "hybrid": [1.0, 1.1, 1.2]})
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert f"Above the {MAX_RATIO} bar: window" in out and "hybrid" not in out.split(
        "Above")[1]


def test_an_error_is_not_swallowed(monkeypatch):
    """Only an error fails the command: an exception inside the run propagates."""
    from tinyagent.course import bench

    def broken(calls):
        raise RuntimeError("the offline model is missing")
    monkeypatch.setattr(bench, "offline_call_ms", broken)
    with pytest.raises(RuntimeError, match="missing"):
        bench.main()
