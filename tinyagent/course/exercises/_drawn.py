"""Inputs a checker draws beside its named cases, so that it tests the rule.

Used by every checker (notebooks 00 to 08). A named case shows one idea on one small
input, and code tuned to the named inputs passes them all: a history of at most 10
messages, 250 adds, the pairs (1, 2) and (1, 3) only. So each checker also draws
inputs and compares what the learner's code does with what the reference does:

- from a generator seeded with the exercise's name and the draw's number, so the
  draws, and a report, are the same on every run and every machine;
- sizes from 1 up to ten times the largest the exercise or its named cases use,
  spread evenly on a log scale (`size`), so small and large both come up;
- judged by behaviour only: what a function returns, what `messages()` gives back
  and what a later `add` does, never the attributes an object keeps.

`drawn(cases, count)` runs a draw's check `count` times; the first that fails
raises `Wrong` with "drawn input 7 of 40: " before its evidence, shown in full.
Left out: shrinking a failing input to a smaller one (the evidence names its size).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from ...lang import say
from . import Wrong

Draw = Callable[[random.Random], bool]  # one drawn input's check: True, or Wrong


def generator(exercise: str, number: int) -> random.Random:
    """The draw's generator: seeded by a string, so stable across runs (Python
    hashes a string seed with SHA-512, not with the per-process string hash)."""
    return random.Random(f"{exercise}:{number}")


def size(rng: random.Random, largest: int, smallest: int = 1) -> int:
    """A size from `smallest` (0 or more) to `largest`, even on a log scale."""
    if largest <= smallest:
        return smallest
    low, high = math.log(smallest + 1), math.log(largest + 2)
    return max(smallest, min(largest, int(math.exp(rng.uniform(low, high))) - 1))


def first_difference(got: Sequence[Any], expected: Sequence[Any]) -> int:
    """The first index where two sequences differ (the shorter's length if one is
    the start of the other)."""
    pairs = zip(got, expected, strict=False)
    return next((i for i, (a, b) in enumerate(pairs) if a != b),
                min(len(got), len(expected)))


def drawn(exercise: str, count: int, check: Draw) -> bool:
    """`check` on `count` drawn inputs; the first failure names its draw."""
    for number in range(1, count + 1):
        try:
            check(generator(exercise, number))
        except Wrong as wrong:
            raise Wrong(say(f"drawn input {number} of {count}: {wrong}",
                            f"第 {number} 个抽取的输入（共 {count} 个）：{wrong}"),
                        wrong.hint) from None
    return True


__all__ = ["Draw", "drawn", "first_difference", "generator", "size"]
