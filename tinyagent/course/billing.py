"""One run, priced under every provider's prompt cache: record it, replay it.

Introduced in notebook 06 ("What you pay: prompt caching"), and used by
scripts/seed_sweep.py. The offline model's answers do not depend on the cache
rule, only its usage does; so one run, recorded, can be billed under OpenAI's,
DeepSeek's and Qwen's rules by replaying its requests into a fresh `PrefixCache`
for each. `RecordingClient` is the offline `LlmClient` that keeps every request
and reply, one list per strategy (`compare` empties the cache before each);
`bill(requests, rule)` prices one list; `picture(old, new, cached)` draws two
consecutive prompts, a cell a message, marking the cached prefix. Left out: a
real provider (its own usage is the bill: see `compare`).
"""

from __future__ import annotations

import json
from typing import Any

from ..lang import text_width
from ..llm import LlmClient
from ..offline.cache_rules import get_rule
from ..offline.prompt_cache import PrefixCache, request_tokens
from ..offline.transport import handle
from .language import say
from .prices import price_for

Request = tuple[dict[str, Any], dict[str, Any]]  # (request body, reply message)


class RecordingClient(LlmClient):
    """The offline model, keeping every request and reply of each strategy's run."""

    def __init__(self) -> None:
        super().__init__(offline=True)
        self.runs: list[list[Request]] = [[]]  # one list per strategy, in run order

    def forget_prompt_cache(self) -> None:  # compare() calls it before each strategy
        if self.runs[-1]:
            self.runs.append([])

    @property
    def client(self) -> Any:
        if self._client is None:
            import httpx
            import openai

            transport = httpx.MockTransport(self._serve)  # no cache: bill() prices
            self._client = openai.OpenAI(api_key="offline", base_url=self.base_url,
                                         max_retries=0,
                                         http_client=httpx.Client(transport=transport))
        return self._client

    def _serve(self, request: Any) -> Any:
        response = handle(request)
        if response.status_code == 200 and request.url.path.endswith("completions"):
            reply = response.json()["choices"][0]["message"]
            self.runs[-1].append((json.loads(request.content), reply))
        return response


def bill(requests: list[Request], rule: str) -> float:
    """Input-token equivalents of `requests` under `rule`, from a cold cache."""
    cache, price, total = PrefixCache(get_rule(rule)), price_for(rule), 0.0
    for body, reply in requests:
        blocks = request_tokens(body)
        prompt = sum(map(len, blocks)) + 3  # + the reply's priming, as usage counts
        total += price.billed(prompt, cache.hit(blocks))
        cache.keep(blocks, reply)
    return total


def picture(old: dict[str, Any], new: dict[str, Any], rule: str = "qwen",
            lang: str | None = None) -> str:
    """Two consecutive requests, a cell a message ("tools", "sys", "u", "a"; in
    Chinese 工具, 系统, 用户, 客服): `=` under what the second shares with the first
    (cached, if the rule's minimum is met)."""
    cache = PrefixCache(get_rule(rule))
    cache.keep(request_tokens(old))
    blocks = request_tokens(new)
    matched, hit = cache.matched(blocks), cache.hit(blocks)
    tools, *roles = say("tools|sys|u|a|t", "工具|系统|用户|客服|结果", lang).split("|")
    names = dict(zip(("system", "user", "assistant", "tool"), roles, strict=True))
    lines = []
    earlier, later, cached = say("earlier|next|cached", "上一次|下一次|缓存",
                                 lang).split("|")
    for label, body in ((earlier, old), (later, new)):
        cells = [tools] + [names[m["role"]] for m in body["messages"]]
        lines.append(f"{right(label, 8)} | " + " | ".join(centred(c, 5) for c in cells))
    marks, done = [], 0
    for block in blocks:
        marks.append("=====" if done + len(block) <= matched else
                     "==---" if done < matched else "-----")
        done += len(block)
    lines.append(f"{right(cached, 8)} | " + " | ".join(marks))
    lines.append(say(f"{hit:,} of {done + 3:,} prompt tokens cached ({rule} rule)",
                     f"{done + 3:,} 个提示词 token 中缓存命中 {hit:,} 个"
                     f"（{rule} 规则）",
                     lang))
    return "\n".join(lines)


def right(text: str, width: int) -> str:
    """`text` right-aligned in `width` terminal columns (a Chinese character: two)."""
    return " " * max(width - text_width(text), 0) + text


def centred(text: str, width: int) -> str:
    """`text` centred in `width` terminal columns (a Chinese character takes two)."""
    room = max(width - text_width(text), 0)
    return " " * (room // 2) + text + " " * (room - room // 2)
