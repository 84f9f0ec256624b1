"""What a provider charges, in one place: the bill of a prompt and its reply.

Introduced in notebook 07 ("What you pay"). "Billed" in the course's tables is in
input-token equivalents, so a figure compares across strategies whatever the
currency: a prompt token the cache did not touch counts 1, one it read counts the
rule's `cached_share`, one written to it the rule's `write_share`
(offline/cache_rules.py), and a token of the reply counts the model's output
price over its input price. A summary is a reply too: a summarizer's output is
billed at the output price. Money is that figure times the input price.

The list prices are examples, read on the date given from the page named; they
change, so set your own (the cache's shares come from the rule, see `with_numbers`):

    from tinyagent.course.prices import PRICES, Price
    PRICES["qwen"] = Price("qwen-max", "CNY", 2.4, 9.6, "my contract")

Left out: tiers by prompt length, batch discounts, off-peak prices (DeepSeek's are
half at night, the same shares), and the explicit caches' storage fees.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..offline.cache_rules import CacheRule, get_rule
from ..offline.rules_sources import READ_ON


@dataclass(frozen=True)
class Price:
    """One model's list price per million tokens, and where it was read."""

    model: str
    currency: str
    input: float  # a prompt token the cache did not hold
    output: float  # a token of the reply
    source: str
    read_on: str = READ_ON

    def __post_init__(self) -> None:
        if self.input <= 0 or self.output < 0:
            raise ValueError(f"price of {self.model!r}: input must be > 0 and output "
                             f">= 0 (got input={self.input}, output={self.output})")

    @property
    def output_share(self) -> float:
        """A reply token in input tokens' price: 8.0 is eight times dearer."""
        return self.output / self.input


PRICES: dict[str, Price] = {  # keyed by the cache rule's name (cache_rules.py)
    "openai": Price("gpt-5", "USD", 1.25, 10.0,
                    "https://developers.openai.com/api/docs/pricing"),
    "openai-gpt-4o-mini": Price("gpt-4o-mini", "USD", 0.15, 0.60,
                                "https://chatgptpricing-akr.pages.dev/api-pricing"),
    "openai-gpt-5.6": Price("gpt-5.6-terra", "USD", 2.00, 12.00,
                            "https://developers.openai.com/api/docs/pricing"),
    "deepseek": Price("deepseek-v4-flash", "USD", 0.44, 1.32,
                      "https://api-docs.deepseek.com/quick_start/pricing (peak)"),
    "qwen": Price("qwen-plus", "CNY", 0.8, 2.0, "Alibaba Cloud Model Studio, model "
                  "prices (help.aliyun.com)", read_on="2026-12-01"),
    "anthropic": Price("claude-sonnet-4-5", "USD", 3.0, 15.0, "https://platform."
                       "claude.com/docs/en/build-with-claude/prompt-caching"),
    "gemini": Price("gemini-2.5-flash", "USD", 0.30, 2.50,
                    "https://ai.google.dev/gemini-api/docs/pricing"),
    "none": Price("(no cache)", "-", 1.0, 1.0, "every token at the same price"),
}
SAME_MODEL = {"deepseek-prefix": "deepseek", "qwen-explicit": "qwen",
              "anthropic-1h": "anthropic"}  # variants of one model's cache


def price_for(provider: str | CacheRule) -> Price:
    """The price list of `provider` (a cache rule, or its name; a learner's
    "<rule>+custom" is billed at the rule's model's prices)."""
    name = get_rule(provider).name if isinstance(provider, CacheRule) else provider
    name = name.split("+")[0]
    name = SAME_MODEL.get(name, name)
    if name not in PRICES:
        raise ValueError(f"no price for {provider!r}: use one of {', '.join(PRICES)}, "
                         "or add yours to tinyagent.course.prices.PRICES")
    return PRICES[name]


def billed(rule: str | CacheRule, prompt: int, cached: int = 0, written: int = 0,
           output: int = 0) -> float:
    """Input-token equivalents of `prompt` tokens (of which `cached` read from the
    cache and `written` to it) and `output` reply tokens, under `rule`."""
    rule = get_rule(rule)
    if not rule.caches:
        cached = written = 0
    return (prompt - cached - written + cached * rule.cached_share
            + written * rule.write_share + output * price_for(rule).output_share)


def money(rule: str | CacheRule, prompt: int, cached: int = 0, written: int = 0,
          output: int = 0) -> float:
    """What that costs at the rule's model's list price, in its currency."""
    return billed(rule, prompt, cached, written, output) * price_for(rule).input / 1e6
