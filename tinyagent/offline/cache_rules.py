"""The providers' prompt-cache rules, as data: when a prefix is a hit, and how much.

Introduced in notebook 07 ("What you pay"). Every provider the course lists keeps
the start of recent prompts and bills a token it has seen before at a share of the
input price. A rule says, per provider and model:

- min_tokens: a matched prefix shorter than this is not cached at all;
- step_tokens: the hit is rounded down to a multiple of it;
- unit, what can be reused: "prefix" (any start of an earlier prompt), "request"
  (only a whole earlier request, cut where its input or its output ended),
  "common-prefix" (that, and the start two requests shared) or "breakpoints" (the
  prompt up to a marked block: where `marked` (Anthropic), the client marks them
  as the provider's page advises, tinyagent/cache_marks.py; else the end of each
  request is marked, as GPT-5.6's default and a client of Qwen's explicit cache
  that marks its last message do);
- cached_share and write_share: a token read from, or written to, the cache, as a
  share of an input token's price (1.0: no premium);
- expiry_seconds: an entry unused this long is gone (None: the pages give no time);
- guaranteed: False where the page says a hit is best effort.

Each rule names the pages its numbers were read from (rules_sources.py), with the
date read and the page's language. `with_numbers` puts in a learner's own numbers.
`cached_tokens(rule, matched)` applies the minimum and the step; prompt_cache.py
finds the match. Left out: storage fees, tiers by prompt length, DeepSeek's units
cut at fixed intervals (the pages give no interval), per-key rate limits.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .rules_sources import SOURCES, Source

UNITS = ("prefix", "request", "common-prefix", "breakpoints", "none")


@dataclass(frozen=True)
class CacheRule:
    """When a provider bills a prompt's prefix as cached, and how it says so."""

    name: str  # what --provider and TINYAGENT_CACHE_RULE take: "openai", "qwen", ...
    model: str  # the model whose pages gave the numbers
    min_tokens: int  # a matched prefix shorter than this is not cached
    step_tokens: int  # the hit is rounded down to a multiple of this
    unit: str  # one of UNITS
    cached_share: float  # a cache read, in input tokens' price (0.1: 90 % off)
    write_share: float = 1.0  # a token written to the cache (1.25: a 25 % premium)
    expiry_seconds: float | None = None  # idle time that empties it (None: not stated)
    guaranteed: bool = False  # False: a hit is best effort (the pages say so)
    lookback_blocks: int | None = None  # breakpoints: messages searched back
    usage_field: str = "usage.prompt_tokens_details.cached_tokens"
    note: str = ""  # what the pages leave open, in one line
    marked: bool = False  # True: the client marks its breakpoints (cache_marks.py)

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"cache rule {self.name!r}: unit must be one of "
                             f"{', '.join(UNITS)} (got {self.unit!r})")
        if self.min_tokens < 0 or self.step_tokens < 1:
            raise ValueError(f"cache rule {self.name!r}: min_tokens must be >= 0 and "
                             f"step_tokens >= 1 (got {self.min_tokens}, "
                             f"{self.step_tokens})")
        if not 0 <= self.cached_share <= 1 or self.write_share < 1:
            raise ValueError(f"cache rule {self.name!r}: cached_share is a share of "
                             f"the input price, 0 to 1, and write_share at least 1 "
                             f"(got {self.cached_share}, {self.write_share})")
        if self.expiry_seconds is not None and self.expiry_seconds <= 0:
            raise ValueError(f"cache rule {self.name!r}: expiry_seconds must be > 0 "
                             f"or None (got {self.expiry_seconds})")

    @property
    def caches(self) -> bool:
        return self.unit != "none"

    @property
    def whole_units(self) -> bool:
        """True when only whole units hit (DeepSeek), not any prefix."""
        return self.unit in ("request", "common-prefix")

    @property
    def sources(self) -> tuple[Source, ...]:
        """The pages this rule's numbers were read from."""
        return SOURCES.get(self.name.split("+")[0], ())

    @property
    def source(self) -> str:  # the first page, for one-line displays
        return self.sources[0].page if self.sources else ""

    @property
    def read_on(self) -> str:
        return max((s.read_on for s in self.sources), default="")


USAGE_DEEPSEEK = "usage.prompt_cache_hit_tokens / prompt_cache_miss_tokens"
USAGE_WRITES = ("usage.prompt_tokens_details.cached_tokens / "
                "prompt_tokens_details.cache_write_tokens")
RULES: dict[str, CacheRule] = {r.name: r for r in [
    # Bailian / DashScope implicit cache: the course's default provider. Both the
    # English and the Chinese page give 256 tokens; a hit is not guaranteed.
    CacheRule("qwen", "qwen-plus", 256, 1, "prefix", 0.20,
              note="no expiry stated: unused data is cleared periodically"),
    # Its explicit cache: a marker per request, 5 minutes renewed by a hit.
    CacheRule("qwen-explicit", "qwen-plus", 1024, 1, "breakpoints", 0.10, 1.25,
              300, True, 20, USAGE_WRITES),
    # GPT-5 and the models before GPT-5.6: any prefix, 128-token steps, no write
    # fee; gpt-5's default retention is 24 hours (without Zero Data Retention).
    CacheRule("openai", "gpt-5", 1024, 128, "prefix", 0.10, 1.0, 86400,
              note="the minimum is 1,024 to 2,048 depending on the model"),
    CacheRule("openai-gpt-4o-mini", "gpt-4o-mini", 1024, 128, "prefix", 0.50, 1.0,
              300, note="in-memory retention: 5 to 10 minutes idle, at most 1 hour"),
    # GPT-5.6 and later: exact prefixes at breakpoints (the latest user or tool
    # message by default), writes at 1.25x, a 30-minute lifetime renewed by reuse.
    CacheRule("openai-gpt-5.6", "gpt-5.6-terra", 1024, 1, "breakpoints", 0.10, 1.25,
              1800, False, None, USAGE_WRITES,
              note="reads consider the latest 50 breakpoints"),
    # DeepSeek: a request leaves a unit where its input ends and one where its
    # output ends; a later request hits a unit only if it holds all of it.
    CacheRule("deepseek", "deepseek-v4-flash", 0, 1, "request", 0.014 / 0.44,
              usage_field=USAGE_DEEPSEEK,
              note="entries clear within hours to days; hits are best effort"),
    # ... and the start that several requests share becomes a unit of its own.
    CacheRule("deepseek-prefix", "deepseek-v4-flash", 0, 1, "common-prefix",
              0.014 / 0.44, usage_field=USAGE_DEEPSEEK,
              note="units cut at fixed intervals are left out (no interval given)"),
    # Anthropic: cache_control breakpoints, placed by the client as the page advises
    # (the tools, then automatic caching on the last block), 20 blocks searched
    # back, 5 minutes renewed by each hit.
    CacheRule("anthropic", "claude-sonnet-4-5", 1024, 1, "breakpoints", 0.10, 1.25,
              300, True, 20, USAGE_WRITES,
              note="the minimum is per model: 512 to 4,096", marked=True),
    CacheRule("anthropic-1h", "claude-sonnet-4-5", 1024, 1, "breakpoints", 0.10, 2.0,
              3600, True, 20, USAGE_WRITES, marked=True),
    # Gemini's implicit cache: on by default, no saving guaranteed.
    CacheRule("gemini", "gemini-2.5-flash", 2048, 1, "prefix", 0.10,
              usage_field="usage_metadata.cached_content_token_count",
              note="no expiry stated for the implicit cache"),
    # No cache: every prompt token at full price (the course before notebook 06).
    CacheRule("none", "(no cache)", 0, 1, "none", 1.0, usage_field="(none)"),
]}
DEFAULT_RULE = "qwen"
UNREAD = {  # names a learner may expect, and why there is no such rule
    "qwen-1024": "no page read gives Qwen's implicit cache a 1,024-token minimum "
                 "(the English and the Chinese page both say 256; 1,024 is the "
                 "explicit cache's): use qwen-explicit, or qwen with --min-tokens 1024",
}


def get_rule(name: str | CacheRule | None) -> CacheRule:
    """The rule called `name` (None: the default provider's; a rule: itself)."""
    if isinstance(name, CacheRule):
        return name
    key = (name or DEFAULT_RULE).strip().lower()
    if key in UNREAD:
        raise ValueError(f"no {key!r} rule: {UNREAD[key]}")
    if key not in RULES:
        raise ValueError(f"unknown prompt-cache rule {name!r}: use one of "
                         f"{', '.join(RULES)} (TINYAGENT_CACHE_RULE or --provider)")
    return RULES[key]


def with_numbers(rule: str | CacheRule | None, *, cached_share: float | None = None,
                 min_tokens: int | None = None, expiry_seconds: float | None = None,
                 ) -> CacheRule:
    """`rule` with a learner's own numbers in place of the pages' (None: keep);
    named "<rule>+custom" so no table mistakes it for the documented one."""
    base = get_rule(rule)
    changes = {k: v for k, v in [("cached_share", cached_share),
                                 ("min_tokens", min_tokens),
                                 ("expiry_seconds", expiry_seconds)] if v is not None}
    if not changes:
        return base
    return replace(base, name=f"{base.name.split('+')[0]}+custom", **changes)


def cached_tokens(rule: CacheRule, matched: int) -> int:
    """The tokens billed as cached when `matched` tokens of the prompt's start can be
    reused: nothing below the minimum, else rounded down to the step."""
    if not rule.caches or matched < max(rule.min_tokens, 1):
        return 0
    return matched // rule.step_tokens * rule.step_tokens


def usage_fields(rule: CacheRule, prompt_tokens: int, cached: int,
                 written: int = 0) -> dict:
    """The usage entries that report `cached` (and `written`), in the provider's own
    names. The offline model speaks Chat Completions, so a rule with cache writes
    reports them as GPT-5.6 does; Anthropic's own Messages API calls the two
    cache_read_input_tokens and cache_creation_input_tokens."""
    if not rule.caches:
        return {}
    if rule.usage_field == USAGE_DEEPSEEK:
        return {"prompt_cache_hit_tokens": cached,
                "prompt_cache_miss_tokens": prompt_tokens - cached}
    details: dict[str, int] = {"cached_tokens": cached}
    if rule.write_share != 1.0:
        details["cache_write_tokens"] = written
    return {"prompt_tokens_details": details}
