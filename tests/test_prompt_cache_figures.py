"""The bounded prompt cache bills what an unbounded one does, call for call.

The reference below is the cache as it was before it was bounded: it kept every
request, packed as bytes and sorted (the longest match of a prompt is one of its two
neighbours), and DeepSeek's units as the hashes of whole earlier inputs and of
input + output; an entry lives while it was kept (a unit: kept or read) within the
rule's expiry. The bounded cache (a tree of blocks, with an expiry and a cap on
blocks) must bill the reference's cached tokens, call for call, on the course's
dialogs (the six-turn demo in both languages, notebook 04's twelve turns, the
planted dialog in both languages), for every strategy and the rules openai,
deepseek and qwen. (The figures are recomputed, not stored: a dialog may change,
the rule may not.)

What the sizes must exercise:
- each memory's own way of reshaping its prompt (a window drops its oldest turn, a
  summary rewrites its start, compact compacts, structured notes in batches): the
  planted dialog of 20 turns has every memory do so more than once (compact, the
  last to start, compacts twice in English, at turns 11 and 17, four times in
  Chinese); a longer dialog grows the same tree deeper, which the rule does not
  depend on;
- the expiry: each run is replayed again with its turns 10 hours apart and two
  days off halfway, so a rule with a day's expiry (openai's; deepseek's with a
  learner's day) drops what the last two turns or so did not keep or read, while
  the start every call shares lives on, and after the two days everything (the
  test checks that a call read less for it);
- the block bound: the course's runs store fewer than 1,000 blocks, far under
  MAX_BLOCKS (4,096), so at the default the bound never bites, as the course's
  bills need. So each run is replayed with the cap at the most it stores (the
  bound at its limit: nothing may change) and one block under it (the cache must
  hold no more than the cap, and never bill more than the reference).
"""

import hashlib
from array import array
from bisect import bisect_left
from functools import cache

import pytest

from tinyagent.course.billing import RecordingClient
from tinyagent.course.catalogue import SIX_TURNS, STRATEGIES, make_strategies
from tinyagent.course.compare import compare
from tinyagent.course.evaluation import planted_dialog
from tinyagent.course.ratios import TWELVE_TURNS
from tinyagent.offline.cache_rules import cached_tokens, get_rule, with_numbers
from tinyagent.offline.clock import Clock, Schedule
from tinyagent.offline.prompt_cache import PrefixCache, message_tokens, request_tokens


@cache  # a run is replayed under several rules: each request is read once
def ends(blocks: tuple) -> list[tuple[int, bytes]]:
    """(length, hash) of the request up to the end of each of its blocks."""
    running, found, size = hashlib.blake2b(digest_size=16), [], 0
    for block in blocks:
        running.update(array("q", block).tobytes())
        size += len(block)
        found.append((size, running.copy().digest()))
    return found


@cache
def packed(blocks: tuple) -> bytes:
    return b"".join(array("q", b).tobytes() for b in blocks)


class Unbounded:
    """The cache before it was bounded: every request kept, compared in full; an
    entry not kept (a unit: nor read) for the rule's expiry is gone."""

    def __init__(self, whole_units: bool, expiry: float | None = None) -> None:
        self.whole_units, self.expiry = whole_units, expiry
        self.seen, self.kept, self.units = [], {}, {}  # units: hash -> last used

    def _expire(self, now: float) -> None:
        if self.expiry is None:
            return
        self.units = {k: t for k, t in self.units.items() if t >= now - self.expiry}
        self.seen = [s for s in self.seen if self.kept[s] >= now - self.expiry]

    def _unit(self, blocks) -> tuple[int, bytes | None]:
        return max(((size, end) for size, end in ends(tuple(blocks))
                    if end in self.units), default=(0, None))

    def matched(self, blocks, now: float = 0.0) -> int:
        self._expire(now)
        if self.whole_units:
            return self._unit(blocks)[0]
        sequence = packed(tuple(blocks))
        at, best = bisect_left(self.seen, sequence), 0
        for i in (at - 1, at):
            if 0 <= i < len(self.seen):
                other, low, high = self.seen[i], 0, min(len(self.seen[i]),
                                                        len(sequence))
                while low < high:  # the longest common start, by bisection
                    middle = (low + high + 1) // 2
                    low, high = ((middle, high) if other[:middle] == sequence[:middle]
                                 else (low, middle - 1))
                best = max(best, low // 8)  # whole tokens: 8 bytes each
        return best

    def keep(self, blocks, reply, now: float = 0.0) -> None:
        self._expire(now)
        if self.whole_units:
            read = self._unit(blocks)[1]  # a unit read lives on
            for key in (read, ends(tuple(blocks))[-1][1],
                        ends((*blocks, message_tokens(reply)))[-1][1]):
                if key is not None:
                    self.units[key] = now
        else:
            sequence = packed(tuple(blocks))
            at = bisect_left(self.seen, sequence)
            if at == len(self.seen) or self.seen[at] != sequence:
                self.seen.insert(at, sequence)
            self.kept[sequence] = now


TWELVE = TWELVE_TURNS["en"]  # notebook 04's twelve turns, as ratios.py plays them
PLANTED = 20  # turns: see the module's docstring
EVERY = list(STRATEGIES)
RULES = [get_rule(name) for name in ("openai", "deepseek", "qwen")]
DAY = 24 * 3600
EXPIRING = [get_rule("openai"), with_numbers("deepseek", expiry_seconds=DAY)]
assert get_rule("openai").expiry_seconds == DAY


def dialogs():
    """{name: (turns, lang)} of the dialogs the figures cover."""
    return {"six-en": (SIX_TURNS["en"], "en"), "six-zh": (SIX_TURNS["zh"], "zh"),
            "twelve-en": (TWELVE, "en"),
            f"planted-{PLANTED}-0-en": (planted_dialog(PLANTED, 0).turns, "en"),
            f"planted-{PLANTED}-0-zh": (planted_dialog(PLANTED, 0, lang="zh").turns,
                                        "zh")}


def replay(run, requests, rule, times, max_blocks=None):
    """(the bounded cache's cached tokens per call, the most it held)."""
    clock = Clock()
    cache = PrefixCache(rule, clock, **({"max_blocks": max_blocks}
                                        if max_blocks else {}))
    found, most = [], 0
    for blocks, (_, reply), at in zip(requests, run, times, strict=True):
        clock.seconds = at
        found.append(cache.hit(blocks))
        cache.keep(blocks, reply)
        most = max(most, len(cache))
    return found, most


def reference(run, requests, rule, times):
    """The unbounded cache's cached tokens per call."""
    cache, found = Unbounded(rule.whole_units, rule.expiry_seconds), []
    for blocks, (_, reply), at in zip(requests, run, times, strict=True):
        found.append(cached_tokens(rule, cache.matched(blocks, at)))
        cache.keep(blocks, reply, at)
    return found


@pytest.mark.parametrize("name", list(dialogs()))
def test_every_call_is_cached_as_before_under_every_rule(name):
    """Per call, the tokens the bounded cache bills as cached are the unbounded
    cache's, for each strategy and rule of the dialog: at the recorded times, with
    the turns spaced past a day's expiry, and with the cap at the most a run
    stores; one block under that cap, the cache holds no more and bills no more."""
    turns, lang = dialogs()[name]
    apart = Schedule(10 * 3600, {len(turns) // 2 + 1: 2 * DAY})  # and a weekend
    recorder = RecordingClient()
    compare(recorder, turns, make_strategies(recorder, EVERY), lang=lang)
    checked, expired = 0, 0
    for strategy, run in zip(EVERY, recorder.runs, strict=True):
        requests = [request_tokens(body) for body, _ in run]
        for rule in RULES:
            where = (name, strategy, rule.name)
            expected = reference(run, requests, rule, run.times())
            found, most = replay(run, requests, rule, run.times())
            assert found == expected, where
            assert replay(run, requests, rule, run.times(), most)[0] == expected, where
            under, held = replay(run, requests, rule, run.times(), most - 1)
            assert held == most - 1 and all(
                a <= b for a, b in zip(under, expected, strict=True)), where
            checked += 1
        for rule in EXPIRING:
            spaced = reference(run, requests, rule, run.times(apart))
            assert replay(run, requests, rule, run.times(apart))[0] == spaced, (
                name, strategy, rule.name, "10 hours apart")
            expired += sum(spaced) < sum(reference(run, requests, rule, run.times()))
    assert checked == len(RULES) * len(EVERY)
    assert expired > 0  # the expiry dropped something the rule would have read
