"""The benchmark says what its last column means."""

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
