"""The providers' prompt-cache rules, as data: when a prefix is a hit, and how much.

Introduced in notebook 06 ("What you pay: prompt caching"). Every provider the
course lists keeps the start of recent prompts and bills a token it has seen
before at a fraction of the price. They differ in three numbers, written here with
the page each was read from and the date:

- the minimum: a prompt whose matched prefix is shorter is not cached at all;
- the step: the hit is rounded down to a multiple of it;
- the unit: either any prefix of an earlier prompt (OpenAI, Qwen), or only a whole
  earlier request, cut where its input or its output ended (DeepSeek).

`cached_tokens(rule, matched)` applies the first two to the longest matched prefix;
prompt_cache.py finds that prefix and applies the third. Left out: explicit
caches (a write at a premium, a hit by name), expiry after minutes of silence,
DeepSeek's units cut at fixed intervals or at a prefix shared by many requests.
"""

from __future__ import annotations

from dataclasses import dataclass

READ_ON = "2026-12-01"  # the day these pages were read


@dataclass(frozen=True)
class CacheRule:
    """When a provider bills a prompt's prefix as cached, and how it says so."""

    name: str  # the setting's value: "openai", "deepseek", "qwen", "none"
    min_tokens: int  # a matched prefix shorter than this is not cached
    step_tokens: int  # the hit is rounded down to a multiple of this
    whole_units: bool  # True: only a whole earlier request (input, or input+output)
    usage_field: str  # where the usage reports it
    source: str  # the page the numbers come from
    read_on: str = READ_ON

    def __post_init__(self) -> None:
        if self.min_tokens < 0 or self.step_tokens < 1:
            raise ValueError(f"cache rule {self.name!r}: min_tokens must be >= 0 and "
                             f"step_tokens >= 1 (got {self.min_tokens}, "
                             f"{self.step_tokens})")


RULES: dict[str, CacheRule] = {
    # Automatic for prompts of 1,024 tokens or more; hits grow in 128-token steps.
    "openai": CacheRule("openai", 1024, 128, False,
                        "usage.prompt_tokens_details.cached_tokens",
                        "OpenAI, Prompt caching guide (developers.openai.com)"),
    # On disk by default; a request leaves two units, at the end of its input and
    # at the end of its output, and a later request hits one only if it holds the
    # whole unit as its prefix.
    "deepseek": CacheRule("deepseek", 0, 1, True,
                          "usage.prompt_cache_hit_tokens / prompt_cache_miss_tokens",
                          "DeepSeek API docs, Context Caching "
                          "(https://api-docs.deepseek.com/guides/kv_cache)"),
    # Bailian/DashScope implicit cache: on by default, 256 tokens or more, exact
    # prefix. The course's default provider, so the default rule.
    "qwen": CacheRule("qwen", 256, 1, False,
                      "usage.prompt_tokens_details.cached_tokens",
                      "Alibaba Cloud Model Studio, Context Cache (help.aliyun.com)"),
    # No cache: every prompt token at full price (the course before notebook 06).
    "none": CacheRule("none", 0, 1, False, "(none)", "(no cache)"),
}
DEFAULT_RULE = "qwen"


def get_rule(name: str | None) -> CacheRule:
    """The rule called `name` (None: the default provider's)."""
    key = (name or DEFAULT_RULE).strip().lower()
    if key not in RULES:
        raise ValueError(f"unknown prompt-cache rule {name!r}: use one of "
                         f"{', '.join(RULES)} (TINYAGENT_CACHE_RULE or --provider)")
    return RULES[key]


def cached_tokens(rule: CacheRule, matched: int) -> int:
    """The tokens billed as cached when `matched` tokens of the prompt's start were
    seen before: nothing below the minimum, else rounded down to the step."""
    if rule.name == "none" or matched < max(rule.min_tokens, 1):
        return 0
    return matched // rule.step_tokens * rule.step_tokens


def usage_fields(rule: CacheRule, prompt_tokens: int, cached: int) -> dict:
    """The usage entries that report `cached`, in the provider's own names."""
    if rule.name == "none":
        return {}
    if rule.name == "deepseek":
        return {"prompt_cache_hit_tokens": cached,
                "prompt_cache_miss_tokens": prompt_tokens - cached}
    return {"prompt_tokens_details": {"cached_tokens": cached}}
