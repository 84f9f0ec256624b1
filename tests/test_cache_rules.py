"""The providers' prompt-cache rules, each pinned against its documentation."""

import pytest

from tinyagent.offline.cache_rules import RULES, cached_tokens, get_rule, usage_fields


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
    assert cached_tokens(RULES["deepseek"], 77) == 77
    assert cached_tokens(RULES["none"], 5000) == 0


def test_each_rule_reports_in_its_providers_own_fields():
    """OpenAI and Qwen: prompt_tokens_details.cached_tokens; DeepSeek: hit and miss
    tokens that add up to the prompt; none: nothing."""
    assert usage_fields(RULES["openai"], 2000, 1024) == {
        "prompt_tokens_details": {"cached_tokens": 1024}}
    assert usage_fields(RULES["qwen"], 300, 256) == {
        "prompt_tokens_details": {"cached_tokens": 256}}
    assert usage_fields(RULES["deepseek"], 900, 600) == {
        "prompt_cache_hit_tokens": 600, "prompt_cache_miss_tokens": 300}
    assert usage_fields(RULES["none"], 900, 0) == {}


def test_every_rule_names_its_source_and_the_default_is_qwen():
    """Each rule says where its numbers come from and when they were read; no name
    means the default provider's rule; an unknown name lists the valid ones."""
    assert all(rule.source and rule.read_on for rule in RULES.values())
    assert get_rule(None).name == "qwen"
    with pytest.raises(ValueError, match="openai, deepseek, qwen, none"):
        get_rule("anthropic")
