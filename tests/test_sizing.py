"""Compact's marks read off the cache rule: each follows from the rule's numbers."""

import pytest

from tinyagent import LlmClient
from tinyagent.offline.cache_rules import RULES, with_numbers
from tinyagent.production import CompactChatMemory
from tinyagent.production.sizing import FIXED_TOKENS, Marks, marks_for


@pytest.mark.parametrize("name", list(RULES))
def test_after_a_compaction_the_prompt_stays_above_the_minimum(name):
    """The low mark and the fixed part reach the rule's minimum plus one step, so
    the prompt after a compaction is still cached; the high mark is above it."""
    rule, marks = RULES[name], marks_for(name)
    assert marks.low_tokens + FIXED_TOKENS >= rule.min_tokens + rule.step_tokens
    assert marks.high_tokens > marks.low_tokens and marks.price > 0


def test_a_cheaper_read_waits_longer_and_a_higher_minimum_lifts_both():
    """The gap between the marks grows as a cached token gets cheaper (holding
    history costs less); a higher minimum lifts the low mark, and the high one."""
    gaps = [marks_for(with_numbers("qwen", cached_share=share))
            for share in (0.5, 0.2, 0.05)]
    assert [m.high_tokens - m.low_tokens for m in gaps] == sorted(
        m.high_tokens - m.low_tokens for m in gaps)
    assert gaps[0].high_tokens < gaps[-1].high_tokens
    low, high = marks_for("qwen"), marks_for(with_numbers("qwen", min_tokens=2048))
    assert high.low_tokens > low.low_tokens and high.high_tokens > low.high_tokens


def test_a_larger_fixed_part_needs_less_memory_to_pass_the_minimum():
    """An agent whose requests carry more besides the memory (a long system prompt)
    gets a lower low mark under a rule with a minimum."""
    assert marks_for("openai", fixed_tokens=900).low_tokens < \
        marks_for("openai").low_tokens


def test_for_rule_reads_the_clients_rule_unless_one_is_given():
    """`for_rule(llm)` sizes compact for `llm.cache_rule`; a rule given wins; the
    marks it came from are kept, and its cache's expiry becomes cold_after."""
    llm = LlmClient(offline=True)
    llm.cache_rule = "gemini"
    memory = CompactChatMemory.for_rule(llm)
    assert isinstance(memory.marks, Marks) and memory.marks.rule == "gemini"
    assert (memory.high_tokens, memory.low_tokens) == (
        marks_for("gemini").high_tokens, marks_for("gemini").low_tokens)
    other = CompactChatMemory.for_rule(llm, "anthropic")
    assert other.marks.rule == "anthropic" and other.cold_after == 300
    assert CompactChatMemory.for_rule(llm, "anthropic", cold=False).cold_after is None
    # the summaries leave room between the marks for verbatim turns
    assert other.max_summary_tokens <= other.high_tokens - other.low_tokens
