"""Prices: what a reply and a cached token are worth, and a learner's own price list."""

import pytest

from tinyagent.course.prices import PRICES, Price, billed, money, price_for
from tinyagent.offline.cache_rules import RULES, with_numbers


def test_billed_counts_reads_writes_and_replies_at_their_shares():
    """Billed = untouched prompt tokens + reads at the cached share + writes at the
    write share + reply tokens at the output/input price ratio."""
    # anthropic: reads 0.1, writes 1.25, claude-sonnet-4-5 replies 15/3 = 5x
    assert billed("anthropic", 1000, 600, 300, 10) == pytest.approx(
        100 + 60 + 375 + 50)
    assert billed("none", 1000, 600, 300, 10) == 1010  # no cache: every token at 1
    assert money("qwen", 1000, 0, 0, 100) == pytest.approx(
        (1000 + 100 * 2.0 / 0.8) * 0.8 / 1e6)


def test_every_rule_has_a_price_with_a_source():
    """Each rule, and a learner's variant of it, is billed at some model's list
    price, read from a named page on a given day."""
    for name in RULES:
        price = price_for(name)
        assert price.source and price.read_on and price.output_share > 0
    assert price_for(with_numbers("deepseek-prefix", min_tokens=64)) == \
        PRICES["deepseek"]


def test_a_learner_sets_their_own_price_and_bad_ones_are_refused():
    """PRICES is a plain dict a learner may change; a price of 0 or below is an error
    naming the model; an unknown provider names the known ones."""
    with pytest.raises(ValueError, match="'mine'"):
        Price("mine", "USD", 0.0, 1.0, "me")
    with pytest.raises(ValueError, match="openai"):
        price_for("acme")
