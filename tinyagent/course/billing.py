"""One run, recorded once, billed under any prompt-cache rule: record it, replay it.

Introduced in notebook 07 ("What you pay"), and used by scripts/seed_sweep.py. The
offline model's answers do not depend on the cache rule, the clock or chance; only
its usage does. So one run, recorded, can be billed under every provider's rule,
and under a learner's own numbers, by replaying its requests into a fresh
`PrefixCache` (offline/prompt_cache.py):

    recorder = RecordingClient()                 # the offline model, recording
    evaluate(recorder, dialog, strategies)       # or compare(...)
    bill(recorder.runs[0], "anthropic")          # in input-token equivalents
    bill(recorder.runs[0], "qwen", cached_share=0.5, min_tokens=1024)

`RecordingClient` keeps every request, its reply, its turn and its time on the
clock, one `RecordedRun` per strategy (`compare` empties the cache before each).
A replay's match per call is kept on the run, so billing the same run under many
prices and minimums is arithmetic (notebook 06's sensitivity analysis). With a
`hit_chance` below 1 the bill is the expected one (each hit billed at that chance);
the live offline model draws instead. `picture(old, new)` draws two prompts, a cell
a message, marking the cached prefix. Left out: a real provider (its own usage is
the bill: see `compare`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from ..cache_marks import breakpoints
from ..llm import LlmClient
from ..offline.cache_rules import CacheRule, cached_tokens, get_rule, with_numbers
from ..offline.clock import Clock, Schedule
from ..offline.prompt_cache import PrefixCache, request_tokens
from ..offline.transport import handle
from .picture import draw_prefix
from .prices import billed, price_for

PRIMING = 3  # the tokens that prime the reply: in the prompt, in no cache block


@dataclass(frozen=True)
class Call:
    """One recorded model call."""

    request: dict[str, Any]  # the body sent
    reply: dict[str, Any]  # the message answered
    turn: int  # the dialog's turn (the clock's), 1-based
    seconds: float  # the clock when it was sent
    output: int  # reply tokens, as the usage counted them


class RecordedRun(Sequence):
    """One strategy's calls; reads as a list of (request, reply) pairs."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._matches: dict[tuple, list[tuple[int, int, int]]] = {}  # see matches
        self._blocks: list[tuple] = []  # each call's tokens and breakpoints, read once

    def __getitem__(self, i: Any) -> Any:
        """A (request, reply) pair; a slice is a run of those calls (billable)."""
        if isinstance(i, slice):
            part = RecordedRun()
            part.calls = self.calls[i]
            return part
        return self.calls[i].request, self.calls[i].reply

    def __len__(self) -> int:
        return len(self.calls)

    def __iter__(self) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        return ((c.request, c.reply) for c in self.calls)

    def times(self, schedule: Schedule | None = None) -> list[float]:
        """Each call's time: as recorded, or as `schedule` would have spaced turns."""
        if schedule is None:
            return [c.seconds for c in self.calls]
        last = max((c.turn for c in self.calls), default=0)
        starts = [0.0, *accumulate(schedule.before(n) for n in range(1, last + 1))]
        return [starts[c.turn] for c in self.calls]

    def matches(self, rule: CacheRule, schedule: Schedule | None = None
                ) -> list[tuple[int, int, int]]:
        """(request tokens, tokens the cache could reuse, reply tokens) per call,
        replayed once per way of matching (unit, lookback, expiry, times)."""
        times = self.times(schedule)
        key = (rule.unit, rule.lookback_blocks, rule.expiry_seconds, tuple(times))
        if key not in self._matches:
            self._blocks += [(request_tokens(c.request), breakpoints(c.request))
                             for c in self.calls[len(self._blocks):]]
            clock = Clock()
            cache, found = PrefixCache(rule, clock), []
            for call, at, (blocks, marks) in zip(self.calls, times, self._blocks,
                                                 strict=True):
                clock.seconds = at
                found.append((sum(map(len, blocks)), cache.matched(blocks, marks),
                              call.output))
                cache.keep(blocks, call.reply, marks)
            self._matches[key] = found
        return self._matches[key]


class RecordingClient(LlmClient):
    """The offline model, keeping every call of each strategy's run."""

    def __init__(self) -> None:
        super().__init__(offline=True)
        self.runs: list[RecordedRun] = [RecordedRun()]  # one per strategy, in order

    def forget_prompt_cache(self) -> None:  # compare() calls it before each strategy
        if self.runs[-1]:
            self.runs.append(RecordedRun())

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
            body = response.json()
            clock = self.clock or Clock()
            self.runs[-1].calls.append(Call(
                json.loads(request.content), body["choices"][0]["message"],
                clock.turn, clock.seconds, body["usage"]["completion_tokens"]))
        return response


@dataclass(frozen=True)
class Tally:
    """A run's tokens under one rule (expected, with a hit chance below 1)."""

    prompt: float
    cached: float
    written: float
    output: float
    billed: float  # input-token equivalents (prices.py), replies included
    input: float = 0.0  # the same, prompts only: what the memory changes most


def tally(run: RecordedRun, rule: str | CacheRule | None = None, *,
          schedule: Schedule | None = None, hit_chance: float = 1.0,
          **numbers: Any) -> Tally:
    """`run` billed under `rule` (a name, or a rule), with a learner's `numbers`
    (cached_share, min_tokens, expiry_seconds) in place of the rule's, spaced by
    `schedule`, hitting with `hit_chance` where the rule is best effort."""
    rule = with_numbers(rule, **numbers)
    chance = 1.0 if rule.guaranteed or not rule.caches else hit_chance
    prompt = cached = written = output = 0.0
    for length, matched, out in run.matches(rule, schedule):
        read = cached_tokens(rule, matched)
        long_enough = rule.caches and length >= rule.min_tokens
        prompt += length + PRIMING
        cached += chance * read
        written += chance * (length - read) * long_enough + (1 - chance) * (
            length * long_enough)
        output += out
    return Tally(prompt, cached, written, output,
                 billed(rule, prompt, cached, written, output),
                 billed(rule, prompt, cached, written))


def bill(run: RecordedRun, rule: str | CacheRule | None = None, *,
         replies: bool = True, **options: Any) -> float:
    """Input-token equivalents of `run` under `rule`, from a cold cache (`replies`:
    the replies too, at the output price; False: the prompts only); options as
    `tally` (cached_share=, min_tokens=, expiry_seconds=, schedule=, hit_chance=)."""
    found = tally(run, rule, **options)
    return found.billed if replies else found.input


def picture(old: dict[str, Any], new: dict[str, Any], rule: str = "qwen",
            lang: str | None = None) -> str:
    """Two consecutive requests, a cell a message ("tools", "sys", "u", "a"; in
    Chinese 工具, 系统, 用户, 客服): `=` under what the second shares with the first
    (cached, if the rule's minimum is met)."""
    cache = PrefixCache(get_rule(rule))
    cache.keep(request_tokens(old))
    blocks = request_tokens(new)
    return draw_prefix(old, new, blocks, cache.matched(blocks), cache.hit(blocks),
                       rule, lang)


__all__ = ["Call", "RecordedRun", "RecordingClient", "Tally", "bill", "picture",
           "price_for", "tally"]
