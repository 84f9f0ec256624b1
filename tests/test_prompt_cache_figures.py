"""The bounded prompt cache reports what the unbounded one did, on the course's runs.

The reference below is the cache as it was before it was bounded: it kept every
request, packed as bytes and sorted (the longest match of a prompt is one of its two
neighbours), and DeepSeek's units as the hashes of whole earlier inputs and of
input + output. For every dialog the course and the README bill (the six-turn demo
in both languages, notebook 04's twelve turns, the planted dialog of 50 turns in
both languages, and of 150 turns for in-memory and compact), every strategy and the
rules openai, deepseek and qwen, the bounded cache must bill the reference's cached
tokens, call for call. (The figures are recomputed, not stored: a dialog may change,
the rule may not.)
"""

import hashlib
from array import array
from bisect import bisect_left

import pytest

from tinyagent.course.billing import RecordingClient
from tinyagent.course.catalogue import SIX_TURNS, STRATEGIES, make_strategies
from tinyagent.course.compare import compare
from tinyagent.course.evaluation import planted_dialog
from tinyagent.course.ratios import TWELVE_TURNS
from tinyagent.offline.cache_rules import cached_tokens, get_rule
from tinyagent.offline.prompt_cache import PrefixCache, message_tokens, request_tokens


class Unbounded:
    """The cache before it was bounded: every request kept, compared in full."""

    def __init__(self, whole_units: bool) -> None:
        self.whole_units, self.seen, self.units = whole_units, [], set()

    @staticmethod
    def _ends(blocks):
        running, ends, size = hashlib.blake2b(digest_size=16), [], 0
        for block in blocks:
            running.update(array("q", block).tobytes())
            size += len(block)
            ends.append((size, running.copy().digest()))
        return ends

    def matched(self, blocks) -> int:
        if self.whole_units:
            return max((size for size, end in self._ends(blocks) if end in self.units),
                       default=0)
        sequence = b"".join(array("q", b).tobytes() for b in blocks)
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

    def keep(self, blocks, reply) -> None:
        if self.whole_units:
            self.units.add(self._ends(blocks)[-1][1])
            self.units.add(self._ends([*blocks, message_tokens(reply)])[-1][1])
        else:
            sequence = b"".join(array("q", b).tobytes() for b in blocks)
            at = bisect_left(self.seen, sequence)
            if at == len(self.seen) or self.seen[at] != sequence:
                self.seen.insert(at, sequence)


TWELVE = TWELVE_TURNS["en"]  # notebook 04's twelve turns, as ratios.py plays them


def dialogs():
    """{name: (turns, lang, strategies)} of the dialogs the figures cover."""
    every = list(STRATEGIES)
    return {"six-en": (SIX_TURNS["en"], "en", every),
            "six-zh": (SIX_TURNS["zh"], "zh", every),
            "twelve-en": (TWELVE, "en", every),
            "planted-50-0-en": (planted_dialog(50, 0).turns, "en", every),
            "planted-50-0-zh": (planted_dialog(50, 0, lang="zh").turns, "zh", every),
            "planted-150-0-en": (planted_dialog(150, 0).turns, "en",
                                 ["inmemory", "compact"])}


@pytest.mark.parametrize("name", list(dialogs()))
def test_every_call_is_cached_as_before_under_every_rule(name):
    """Per call, the tokens the bounded cache bills as cached are the unbounded
    cache's, for each strategy and rule of the dialog."""
    turns, lang, names = dialogs()[name]
    recorder = RecordingClient()
    compare(recorder, turns, make_strategies(recorder, names), lang=lang)
    checked = 0
    for strategy, run in zip(names, recorder.runs, strict=True):
        for rule in map(get_rule, ("openai", "deepseek", "qwen")):
            cache, reference = PrefixCache(rule), Unbounded(rule.whole_units)
            for number, (body, reply) in enumerate(run):
                blocks = request_tokens(body)
                expected = cached_tokens(rule, reference.matched(blocks))
                assert cache.hit(blocks) == expected, (name, strategy, rule.name,
                                                       number)
                cache.keep(blocks, reply)
                reference.keep(blocks, reply)
            checked += 1
    assert checked == 3 * len(names)
