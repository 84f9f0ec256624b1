"""The providers' prompt-cache rules, each pinned against its documentation."""

import re
from dataclasses import replace

import pytest

from tinyagent.course.prices import price_for
from tinyagent.offline.cache_rules import (
    RULES,
    CacheRule,
    cached_tokens,
    get_rule,
    usage_fields,
    with_numbers,
)
from tinyagent.offline.rules_sources import SOURCES

DATE = re.compile(r"^20\d\d-\d\d-\d\d$")


def missing_sources(rule: CacheRule) -> list[str]:
    """What a rule lacks to be trusted: a page, a date, a language, what it says."""
    if not rule.caches:
        return []
    if not rule.sources:
        return [f"{rule.name}: no source"]
    return [f"{rule.name}: {source.page or '(no page)'}"
            for source in rule.sources
            if not (source.page.startswith("https://") and DATE.match(source.read_on)
                    and source.lang in ("en", "zh") and source.says.strip())]


def test_every_rule_has_a_dated_source_and_the_check_can_fail():
    """Each rule that caches names at least one page, with the date it was read, its
    language and what the rule takes from it; a rule nobody documented fails."""
    assert [problem for rule in RULES.values() for problem in missing_sources(rule)
            ] == []
    assert missing_sources(replace(RULES["qwen"], name="acme")) == ["acme: no source"]
    assert set(SOURCES) == {name for name, rule in RULES.items() if rule.caches}


def test_qwen_was_read_in_both_languages():
    """Qwen's English and Chinese pages were both read; both give 256 tokens for the
    implicit cache, and no rule claims a 1,024 minimum for it."""
    languages = {s.lang for s in RULES["qwen"].sources}
    assert languages == {"en", "zh"}
    assert all("256" in s.says for s in RULES["qwen"].sources)
    with pytest.raises(ValueError, match="256.*qwen-explicit"):
        get_rule("qwen-1024")


def test_openai_caches_nothing_under_1024_tokens():
    """OpenAI: a matched prefix under 1,024 tokens is not cached at all."""
    assert cached_tokens(RULES["openai"], 1023) == 0
    assert cached_tokens(RULES["openai"], 1024) == 1024


def test_openai_hits_grow_in_128_token_steps():
    """OpenAI: past the minimum, the hit is rounded down to a multiple of 128."""
    assert cached_tokens(RULES["openai"], 1151) == 1024
    assert cached_tokens(RULES["openai"], 1152) == 1152
    assert cached_tokens(RULES["openai"], 5000) == 4992


def test_qwen_needs_256_tokens_then_counts_each_token():
    """Qwen implicit: nothing under 256 tokens; from there the exact prefix."""
    assert cached_tokens(RULES["qwen"], 255) == 0
    assert cached_tokens(RULES["qwen"], 256) == 256
    assert cached_tokens(RULES["qwen"], 1001) == 1001


def test_deepseek_counts_whole_units_and_none_caches_nothing():
    """DeepSeek's hit is a whole earlier unit (the unit is found elsewhere, so any
    matched length counts as is); the "none" rule never caches."""
    assert RULES["deepseek"].whole_units and not RULES["qwen"].whole_units
    assert RULES["deepseek-prefix"].whole_units
    assert cached_tokens(RULES["deepseek"], 77) == 77
    assert cached_tokens(RULES["none"], 5000) == 0


def test_the_documented_shares_premiums_and_lifetimes():
    """Reads and writes as the pages state them: OpenAI's gpt-4o-mini at half price,
    GPT-5.6 and Anthropic's 5-minute writes at 1.25x, Anthropic's 1-hour at 2x,
    DeepSeek's hit far below a tenth of a miss; expiry where a page gives one."""
    assert RULES["openai-gpt-4o-mini"].cached_share == 0.5
    assert RULES["openai-gpt-5.6"].write_share == RULES["anthropic"].write_share == 1.25
    assert RULES["anthropic-1h"].write_share == 2.0
    assert RULES["deepseek"].cached_share < 0.05
    assert RULES["anthropic"].expiry_seconds == 300 and RULES["anthropic"].guaranteed
    assert RULES["openai-gpt-5.6"].expiry_seconds == 1800
    assert RULES["qwen"].expiry_seconds is None and not RULES["qwen"].guaranteed


def test_each_rule_reports_in_its_providers_own_fields():
    """OpenAI and Qwen: prompt_tokens_details.cached_tokens; DeepSeek: hit and miss
    tokens that add up to the prompt; a rule that bills writes reports them too;
    none: nothing."""
    assert usage_fields(RULES["openai"], 2000, 1024) == {
        "prompt_tokens_details": {"cached_tokens": 1024}}
    assert usage_fields(RULES["qwen"], 300, 256) == {
        "prompt_tokens_details": {"cached_tokens": 256}}
    assert usage_fields(RULES["deepseek"], 900, 600) == {
        "prompt_cache_hit_tokens": 600, "prompt_cache_miss_tokens": 300}
    assert usage_fields(RULES["anthropic"], 2000, 1200, 790) == {
        "prompt_tokens_details": {"cached_tokens": 1200, "cache_write_tokens": 790}}
    assert usage_fields(RULES["none"], 900, 0) == {}


def test_a_learner_puts_in_their_own_numbers():
    """with_numbers changes only what is given, names the result "+custom", keeps
    the sources of the rule it started from, and is billed at its model's prices."""
    mine = with_numbers("openai", cached_share=0.5, min_tokens=256, expiry_seconds=60)
    assert (mine.name, mine.cached_share, mine.min_tokens, mine.expiry_seconds,
            mine.step_tokens) == ("openai+custom", 0.5, 256, 60, 128)
    assert mine.sources == RULES["openai"].sources
    assert price_for(mine) == price_for("openai")
    assert with_numbers("qwen") is RULES["qwen"]


@pytest.mark.parametrize("bad", [dict(min_tokens=-1), dict(step_tokens=0),
                                 dict(unit="sometimes"), dict(cached_share=1.5),
                                 dict(write_share=0.5), dict(expiry_seconds=0)])
def test_a_bad_rule_is_refused_with_its_name(bad):
    """A rule with impossible numbers is refused, naming the rule."""
    with pytest.raises(ValueError, match="'mine'"):
        replace(RULES["qwen"], name="mine", **bad)


def test_the_default_is_qwen_and_an_unknown_name_lists_the_rules():
    """No name means the default provider's rule; an unknown name lists the valid
    ones; a rule given is returned as is."""
    assert get_rule(None).name == "qwen"
    with pytest.raises(ValueError, match="openai, qwen-explicit|qwen, qwen-explicit"):
        get_rule("acme")
    assert get_rule(RULES["gemini"]) is RULES["gemini"]
