"""Where each prompt-cache rule's numbers come from: page, date read, language.

Used by cache_rules.py and introduced with it in notebook 07 ("What you pay"). One
entry a page, as it was read: the address, the date it was read, the date the
stored copy itself states (if it states one), its language, how it was read when
not from the provider's own site, and what the rule takes from it. Where the
English and the Chinese page of a provider were both read, both are here; where
they disagree, `says` says so. Prices change: read the page again before you trust
a number, and put your own in with `--cached-price`, `--min-tokens`, `--expiry`.
Left out: Chinese pages for OpenAI, Anthropic and Gemini (none was read).
"""

from __future__ import annotations

from dataclasses import dataclass

READ_ON = "2026-12-06"  # the day these pages were read for the course


@dataclass(frozen=True)
class Source:
    """One page a rule's numbers were read from."""

    page: str  # the address as read
    title: str
    lang: str  # "en" or "zh"
    says: str  # what the rule takes from it
    read_on: str = READ_ON
    stated: str = ""  # the date the page (or its stored copy) gives, if any
    via: str = ""  # how it was read, when not on the provider's own site


QWEN_EN = Source(
    "https://www.alibabacloud.com/help/en/model-studio/context-cache",
    "Alibaba Cloud Model Studio: Context Cache", "en",
    "implicit cache: hits billed at 20 % of the input price, creation at 100 %, "
    "minimum 256 tokens, hits not guaranteed, validity indeterminate (unused data "
    "cleared periodically); explicit cache: minimum 1,024, creation 125 %, hits "
    "10 %, valid 5 minutes, reset on a hit", stated="Last Updated: Jun 24, 2026")
QWEN_ZH = Source(
    "https://help.aliyun.com/zh/model-studio/user-guide/context-cache",
    "阿里云百炼：上下文缓存（Context Cache）", "zh",
    "隐式缓存：命中按输入单价 20% 计费，最少 256 Token，命中概率不确定；显式缓存："
    "最少 1024 Token，创建 125%，命中 10%，有效期 5 分钟（命中后重置）。The same "
    "numbers as the English page: no 1,024-token minimum for the implicit cache")
QWEN_MARKERS = Source(
    "https://www.alibabacloud.com/help/en/model-studio/user-guide/context-cache",
    "Alibaba Cloud Model Studio: Context cache", "en",
    "explicit cache: a cache_control marker; the system searches backward up to 20 "
    "content blocks from each marker; at most four markers a request",
    stated="Last Updated: Mar 31, 2026")
OPENAI_GUIDE = Source(
    "https://developers.openai.com/api/docs/guides/prompt-caching",
    "OpenAI API: Prompt caching", "en",
    "earlier models: automatic best-effort prefix reuse, minimum 1,024 to 2,048 "
    "tokens by model, hits in increments of 128 tokens, no cache-write fee, "
    "in-memory retention 5 to 10 minutes idle (at most 1 hour), 24 h extended "
    "retention for gpt-5 (the default without Zero Data Retention). GPT-5.6 and "
    "later: exact matching at breakpoints (by default the latest user or tool "
    "message), 1,024 tokens strict, reads 0.1x and writes 1.25x the input rate, a "
    "30-minute lifetime refreshed on reuse, reads consider the latest 50 "
    "breakpoints", via="a stored copy of the page's markdown")
OPENAI_201 = Source(
    "https://raw.githubusercontent.com/openai/openai-cookbook/main/examples/"
    "Prompt_Caching_201.ipynb", "OpenAI Cookbook: Prompt Caching 201", "en",
    "applies only to models before GPT-5.6: prompts of 1,024 tokens or more, cache "
    "hits in increments of 128 tokens")
OPENAI_PRICES = Source(
    "https://developers.openai.com/api/docs/pricing", "OpenAI API pricing", "en",
    "per 1M tokens: gpt-5 $1.25 input, $0.125 cached, $10 output; gpt-5.6-terra "
    "$2.00 input, $0.20 cached, $2.50 cache write, $12.00 output",
    via="the table as transcribed in a stored research note (2026)")
GPT4O_MINI = Source(
    "https://chatgptpricing-akr.pages.dev/api-pricing", "OpenAI API Pricing: Every "
    "Model, Every Cost", "en",
    "GPT-4o-mini: $0.15 input, $0.075 cached input, $0.60 output per 1M tokens "
    "(citing developers.openai.com/api/docs/pricing); the 2024 announcement "
    "(openai.com/index/api-prompt-caching) gave cached prompts a 50 % discount",
    via="a third-party price list")
DEEPSEEK_CACHE = Source(
    "https://api-docs.deepseek.com/guides/kv_cache", "DeepSeek API Docs: Context "
    "Caching", "en",
    "a hit needs a persisted prefix unit, matched whole; units are persisted (1) "
    "where each request's input ends and where its output ends, (2) at a common "
    "prefix detected across requests, (3) at fixed token intervals of long inputs "
    "(no interval given)", via="a stored copy read through a proxy (soft31.com)")
DEEPSEEK_CACHE_ZH = Source(
    "https://platform.deepseek.com/api-docs/zh-cn/guides/kv_cache",
    "DeepSeek API 文档：上下文硬盘缓存", "zh",
    "the stored Chinese copy is the earlier text (any repeated prefix is a hit) and "
    "does not describe prefix units: it disagrees with the English page; the "
    "course follows the English page, the newer")
DEEPSEEK_PRICES = Source(
    "https://api-docs.deepseek.com/quick_start/pricing", "DeepSeek API Docs: Models "
    "& Pricing", "en",
    "deepseek-v4-flash, peak hours: $0.014 a 1M input tokens on a cache hit, $0.44 "
    "on a miss, $1.32 output; off-peak rates are half of each",
    via="the table as transcribed in a stored research note (after 2026-08-17)")
DEEPSEEK_PRICES_MAY = Source(
    "https://api-docs.deepseek.com/quick_start/pricing", "DeepSeek API Docs: Models "
    "& Pricing", "en",
    "the earlier price: deepseek-v4-flash $0.0028 hit, $0.14 miss, $0.28 output "
    "(a hit at 2 % of a miss)", stated="2026-05-23",
    via="a stored copy (aihot.virxact.com)")
DEEPSEEK_PRICES_ZH = Source(
    "https://api-docs.deepseek.com/zh-cn/quick_start/pricing/", "DeepSeek API 文档："
    "模型 & 价格", "zh",
    "V4-Flash 每百万 token 输入 0.02 元（缓存命中）/ 1 元（缓存未命中），"
    "输出 2 元 (the May price, as the English copy of that date)", stated="2026-05",
    via="quoted in a stored news item (welinux.com)")
ANTHROPIC = Source(
    "https://platform.claude.com/docs/en/build-with-claude/prompt-caching",
    "Claude Docs: Prompt caching", "en",
    "automatic caching puts the breakpoint on the last cacheable block; the system "
    "checks up to 20 blocks back; the cache lives 5 minutes, refreshed at no cost "
    "on each use (1 hour at 2x); 5-minute writes 1.25x, reads 0.1x the input "
    "price; minimum 1,024 tokens for Claude Sonnet 4.5 (2,048 for Sonnet 4.6, 4,096 "
    "for Opus 4.5 and 4.6 and Haiku 4.5); Sonnet 4.5 per MTok: $3 input, $3.75 5m "
    "write, $6 1h write, $0.30 hit, $15 output", via="stored copies of the page")
GEMINI = Source(
    "https://ai.google.dev/gemini-api/docs/caching?authuser=7&hl=en",
    "Gemini API: Context caching", "en",
    "implicit caching is on by default for Gemini 2.5 and newer models, with no "
    "cost saving guarantee; minimum 2,048 input tokens for Gemini 2.5 Flash (4,096 "
    "for Gemini 3.5 Flash)", stated="Last updated 2026-07-07 UTC")
GEMINI_PRICES = Source(
    "https://ai.google.dev/gemini-api/docs/pricing", "Gemini Developer API "
    "pricing", "en",
    "Gemini 2.5 Flash per 1M tokens: $0.30 input, $0.03 cached, $2.50 output",
    stated="Last updated 2026-08-13 UTC",
    via="the table as transcribed in a stored research note")

SOURCES: dict[str, tuple[Source, ...]] = {  # rule name -> its pages
    "qwen": (QWEN_EN, QWEN_ZH),
    "qwen-explicit": (QWEN_EN, QWEN_ZH, QWEN_MARKERS),
    "openai": (OPENAI_GUIDE, OPENAI_201, OPENAI_PRICES),
    "openai-gpt-4o-mini": (OPENAI_GUIDE, GPT4O_MINI),
    "openai-gpt-5.6": (OPENAI_GUIDE, OPENAI_PRICES),
    "deepseek": (DEEPSEEK_CACHE, DEEPSEEK_CACHE_ZH, DEEPSEEK_PRICES,
                 DEEPSEEK_PRICES_MAY, DEEPSEEK_PRICES_ZH),
    "deepseek-prefix": (DEEPSEEK_CACHE, DEEPSEEK_CACHE_ZH, DEEPSEEK_PRICES),
    "anthropic": (ANTHROPIC,),
    "anthropic-1h": (ANTHROPIC,),
    "gemini": (GEMINI, GEMINI_PRICES),
}
