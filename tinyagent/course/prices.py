"""What a provider charges for a token, in one place: input, cached input, output.

Introduced in notebook 06 ("What you pay: prompt caching"). "Billed" in the course's
tables is in input-token equivalents: a prompt token the provider's cache held
counts `cached` of a full one, so a figure compares across strategies whatever the
currency. Money at the listed price is shown beside it. The prices are examples,
read on the date given from the page named; they change, so set your own:

    from tinyagent.course.prices import PRICES, Price
    PRICES["qwen"] = Price("qwen-max", "CNY", 2.4, 0.48, 9.6, "my contract")

Left out: tiers by prompt length, batch discounts, off-peak prices, and the
explicit caches' storage fees.
"""

from __future__ import annotations

from dataclasses import dataclass

READ_ON = "2026-12-01"


@dataclass(frozen=True)
class Price:
    """One model's list price per million tokens, and where it was read."""

    model: str
    currency: str
    input: float  # a prompt token the cache did not hold
    cached: float  # a prompt token the cache held
    output: float  # a token of the reply
    source: str
    cache_write: float | None = None  # explicit caches only: writing a token
    read_on: str = READ_ON

    def __post_init__(self) -> None:
        if min(self.input, self.cached, self.output) < 0 or self.input <= 0:
            raise ValueError(f"price of {self.model!r}: input must be > 0 and no "
                             f"price negative (got input={self.input}, "
                             f"cached={self.cached}, output={self.output})")

    @property
    def cached_share(self) -> float:
        """A cached token as a share of an input token: 0.1 is 90 % off."""
        return self.cached / self.input

    def billed(self, prompt_tokens: int, cached_tokens: int) -> float:
        """Input-token equivalents of prompts of which `cached_tokens` were cached."""
        return prompt_tokens - cached_tokens + cached_tokens * self.cached_share

    def money(self, prompt_tokens: int, cached_tokens: int,
              output_tokens: int) -> float:
        """What those prompts and `output_tokens` cost, in `currency`."""
        return (self.billed(prompt_tokens, cached_tokens) * self.input
                + output_tokens * self.output) / 1e6


PRICES: dict[str, Price] = {  # keyed by the cache rule's name (cache_rules.py)
    "openai": Price("gpt-5", "USD", 1.25, 0.125, 10.0,
                    "OpenAI API pricing (developers.openai.com): cached input is "
                    "10 % of input on the current models"),
    "deepseek": Price("deepseek-chat", "USD", 0.28, 0.028, 0.42,
                      "DeepSeek API docs, Models & Pricing: a cache hit costs a "
                      "tenth of a miss"),
    "qwen": Price("qwen-plus", "CNY", 0.8, 0.16, 2.0,
                  "Alibaba Cloud Model Studio, Context Cache: an implicit hit is "
                  "20 % of the input price (explicit: 125 % to write, 10 % a hit)"),
    "none": Price("(no cache)", "-", 1.0, 1.0, 1.0, "every prompt token at full "
                  "price"),
}


def price_for(provider: str) -> Price:
    """The price list of `provider` (a cache rule's name: openai, deepseek, qwen,
    none)."""
    if provider not in PRICES:
        raise ValueError(f"no price for {provider!r}: use one of {', '.join(PRICES)}, "
                         "or add yours to tinyagent.course.prices.PRICES")
    return PRICES[provider]
