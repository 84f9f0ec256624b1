"""The benchmark's table says what its last column means."""

from tinyagent.bench import MAX_RATIO, report


def test_the_last_column_is_explained_under_the_table():
    """The ratio column is named largest/smallest and explained in words, bar too."""
    out = report({"window": [2.0, 2.2, 2.4]}, (10, 1_000, 10_000))
    lines = out.splitlines()
    assert lines[0].rstrip().endswith("10,000/10")
    assert lines[1].split()[-1] == "1.20"
    assert "with 10,000 messages held / with 10" in out
    assert "1,000: it grows with the history" in out and f"{MAX_RATIO}" in out
