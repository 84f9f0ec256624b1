"""The bounded prompt cache reports what the unbounded one did, on the course's runs.

tests/data/prompt_cache_figures.json holds, for every dialog the course and the
README bill (the six-turn demo in both languages, notebook 04's twelve turns, the
planted dialog of 50 turns in both languages, and of 150 turns for in-memory and
compact), every strategy and the rules openai, deepseek and qwen: the number of
model calls, the cached tokens summed, and a hash of the per-call list. They were
taken from the cache before it was bounded (it kept every request and compared
them all). The bounded one must give the same figures, call for call.
"""

import hashlib
import json
from pathlib import Path

import pytest

from tinyagent.course.billing import RecordingClient
from tinyagent.course.catalogue import SIX_TURNS, STRATEGIES, make_strategies
from tinyagent.course.compare import compare
from tinyagent.course.evaluation import planted_dialog
from tinyagent.offline.cache_rules import get_rule
from tinyagent.offline.prompt_cache import PrefixCache, request_tokens

FIGURES = json.loads((Path(__file__).parent / "data" / "prompt_cache_figures.json")
                     .read_text(encoding="utf-8"))
TWELVE = ["Where is my order 88231?",
          "I want a refund, this vacuum won't go back to its dock",
          "How long until the refund arrives?",
          "Do you have any new robot vacuums to recommend?",
          "How much is the S20 Pro?",
          "What's the difference between the S20 Pro and the S20 Max?",
          "Is there any discount on the S20 Max?",
          "Where is my order 90417?",
          "When will it arrive?",
          "Where is my order 55107?",
          "How much is the BandPro?",
          "By the way, what was that refund number again?"]


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
        for rule in ("openai", "deepseek", "qwen"):
            cache, hits = PrefixCache(get_rule(rule)), []
            for body, reply in run:
                blocks = request_tokens(body)
                hits.append(cache.hit(blocks))
                cache.keep(blocks, reply)
            digest = hashlib.sha256(json.dumps(hits).encode()).hexdigest()[:16]
            key = f"{name}/{strategy}/{rule}"
            assert [len(hits), sum(hits), digest] == FIGURES[key], key
            checked += 1
    assert checked == 3 * len(names)


def test_the_figures_cover_every_dialog_listed():
    """The stored figures are exactly those the test checks: none left unchecked."""
    expected = {f"{name}/{strategy}/{rule}" for name, (_, _, names) in dialogs().items()
                for strategy in names for rule in ("openai", "deepseek", "qwen")}
    assert expected == set(FIGURES)
