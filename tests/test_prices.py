"""Prices: what a cached token is worth, and a learner's own price list."""

import pytest

from tinyagent.course.prices import PRICES, Price, price_for


def test_billed_counts_a_cached_token_at_its_share():
    """Billed = uncached prompt tokens + cached ones at the cached/input ratio."""
    price = Price("m", "USD", 1.0, 0.1, 4.0, "test")
    assert price.billed(1000, 800) == pytest.approx(200 + 80)
    assert price.money(1000, 800, 100) == pytest.approx((280 * 1.0 + 400) / 1e6)


def test_each_provider_has_a_dated_source_and_the_documented_share():
    """OpenAI and DeepSeek bill a hit at a tenth, Qwen's implicit cache at a fifth."""
    assert all(p.source and p.read_on for p in PRICES.values())
    assert price_for("openai").cached_share == pytest.approx(0.1)
    assert price_for("deepseek").cached_share == pytest.approx(0.1)
    assert price_for("qwen").cached_share == pytest.approx(0.2)
    assert price_for("none").billed(100, 0) == 100


def test_a_learner_sets_their_own_price_and_bad_ones_are_refused():
    """PRICES is a plain dict a learner may change; a price of 0 or below is an error
    naming the model; an unknown provider names the known ones."""
    with pytest.raises(ValueError, match="'mine'"):
        Price("mine", "USD", 0.0, 0.0, 1.0, "me")
    with pytest.raises(ValueError, match="openai"):
        price_for("acme")
