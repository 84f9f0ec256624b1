"""Plausible wrong solutions of notebook 07's exercise (nb07.py): compact's marks.

Each entry is (id, code, the case that must fail first), as in wrong_solutions.py,
whose CATALOGUE this one joins. They are the slips of a learner sizing compact from
a cache rule: one pair of marks for every rule, a low mark that forgets the minimum,
a high mark that never compacts, a gap that ignores the price of a read or turns it
upside down, no floor under the low mark, the marks swapped, the package's `Marks`
returned instead of a pair. (A low mark that forgets the part of the prompt that is
not memory is rejected too, but by a different first case in each language: it is
tested in test_exercises_nb07.py.)
"""

import math
from dataclasses import replace

from tinyagent.production import marks_for

FIXED, GROWTH = 600, 30  # what the exercise's defaults say about the agent


def package(rule):
    """The package's marks, to build one slip at a time on."""
    marks = marks_for(rule)
    return marks.high_tokens, marks.low_tokens


def low_under_the_minimum(rule):
    """The gap is right; the low mark is 200 whatever the minimum."""
    high, low = package(rule)
    return high - low + 200, 200


def never_compacts(rule):
    """A high mark no dialog reaches: compact is in-memory."""
    return 100_000, package(rule)[1]


def ignores_the_cached_share(rule):
    """Every read priced at OpenAI's tenth."""
    return package(replace(rule, cached_share=0.1))


def no_floor(rule):
    """The low mark from the minimum, with nothing under it: with no minimum it goes
    below zero."""
    high, low = package(rule)
    new = rule.min_tokens + rule.step_tokens - FIXED
    return high - low + new, new


def upside_down(rule):
    """The economic order quantity with the cached price multiplied, not divided:
    a cheap read compacts all the time, a dear one rarely."""
    high, low = package(rule)
    cached = rule.cached_share if rule.caches else 1.0
    return low + round(math.sqrt(2 * 1500 * GROWTH * cached)) + 100, low


CATALOGUE = {"07.size_compact": [
    ("fixed-marks", lambda rule: (1800, 500), "'gemini' rule"),
    ("low-under-the-minimum", low_under_the_minimum, "'gemini' rule"),
    ("never-compacts", never_compacts, "'gemini' rule"),
    ("ignores-the-cached-share", ignores_the_cached_share, "'deepseek' rule"),
    ("no-floor", no_floor, "'deepseek' rule"),
    ("cached-price-upside-down", upside_down, "'gemini' rule"),
    ("swapped", lambda rule: package(rule)[::-1], "'gemini' rule"),
    ("returns-the-marks-object", lambda rule: marks_for(rule), "'gemini' rule"),
]}
