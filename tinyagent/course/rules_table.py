"""The prompt-cache rules as one table: their numbers, and where each was read.

Introduced in notebook 07 ("What you pay"); `tinyagent compare --provider` takes
the names in its first column. Each row is a rule of offline/cache_rules.py: what
the cache reuses, from how many tokens, at what price for a read and a write, for
how long, whether a hit is certain, and the pages its numbers come from with the
day they were read (offline/rules_sources.py holds the addresses and what each page
says). Left out: the pages' text; read them before you trust a number.
"""

from __future__ import annotations

from urllib.parse import urlparse

from ..lang import say
from ..offline.cache_rules import RULES, CacheRule
from .prices import price_for
from .table import Table

UNITS = {"prefix": ("any prefix", "任意前缀"),
         "request": ("whole requests", "整个请求"),
         "common-prefix": ("whole requests, shared starts", "整个请求、共同前缀"),
         "breakpoints": ("up to a breakpoint", "到断点为止"),
         "none": ("nothing", "不缓存")}


def _expiry(rule: CacheRule, lang: str | None) -> str:
    if rule.expiry_seconds is None:
        return say("not stated", "未说明", lang)
    minutes = rule.expiry_seconds / 60
    return (say(f"{minutes / 60:g} h", f"{minutes / 60:g} 小时", lang)
            if minutes >= 60 else say(f"{minutes:g} min", f"{minutes:g} 分钟", lang))


def as_typed(name: str, lang: str | None = None) -> str:
    """A name the learner types (a rule, a model, a site): in code quotes in the
    Chinese edition, where a Latin word in a sentence would read as English."""
    return say(name, f"`{name}`", lang)


def rules_table(lang: str | None = None) -> Table:
    """A row a rule: reuse, minimum, step, read and write prices (in % of the input
    price), replies (x the input price), expiry, hits, and the pages read."""
    rows = []
    for rule in RULES.values():
        pages = sorted({urlparse(s.page).netloc.removeprefix("www.")
                        for s in rule.sources})
        read = f"{100 * rule.cached_share:.3g}%" if rule.caches else "-"
        write = f"{100 * rule.write_share:.3g}%" if rule.write_share != 1 else "-"
        rows.append([as_typed(rule.name, lang), as_typed(rule.model, lang),
                     say(*UNITS[rule.unit], lang),
                     f"{rule.min_tokens:,}", f"{rule.step_tokens}", read, write,
                     f"{price_for(rule).output_share:.3g}x",
                     _expiry(rule, lang) if rule.caches else "-",
                     say("certain" if rule.guaranteed else "best effort",
                         "确定命中" if rule.guaranteed else "尽力而为", lang)
                     if rule.caches else "-",
                     f"{', '.join(as_typed(p, lang) for p in pages)} "
                     f"({rule.read_on})" if pages else "-"])
    return Table(say("Prompt-cache rules: a read, a write in % of the input price; "
                     "a reply token in input tokens",
                     "提示词缓存规则：读、写按输入价格的百分比计；"
                     "回复 token 折合输入 token", lang),
                 say("rule|model|reuses|minimum|step|read|write|reply|expiry|hits|"
                     "pages (read on)", "规则|模型|复用什么|最少 token|步长|读|写|回复|"
                     "过期|命中|来源页面（读取日期）", lang).split("|"), rows)
