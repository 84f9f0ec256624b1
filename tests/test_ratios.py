"""Rules of `python -m tinyagent.course.ratios`: it prints every compression's ratio."""

from tinyagent.course.ratios import main


def test_prints_a_ratio_per_compression_and_when_the_summary_paid(capsys):
    """Three compressions in English, one in Chinese, and the turn it paid."""
    assert main() == 0
    out = capsys.readouterr().out
    assert out.count("tokens it stands for =") == 4
    assert "paid for itself by turn" in out and "by turn None" not in out
