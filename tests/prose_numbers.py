"""The numbers a text states, and whether a printout holds them (test_prose_numbers.py).

A number in prose is a claim: it must be printed by a cell (or a command), so that
when the code changes, a drifted claim shows. `claims(markdown)` finds the numbers a
markdown text states, leaving out what is structure, not a claim: a heading's or a
list item's own number ("## 2.", "1."), where a notebook, section or exercise is
named ("notebook 04", "section 3", "第 04 课", "06.tune_hybrid"), code in backticks
or in a fenced block (what the learner types), links, and the "Time" line (its own
test keeps it). `printed(text)` finds every number a printout or code holds.
`holds(claim, numbers)` says whether the claim is among them: 1,234, 1234 and
1 234 are one number, "12.3 %" is 12.3, and a claim said with fewer decimals is
held by a number that rounds to it; a claim said to be approximate ("about 1,200",
"约 1,530", "610 个 token 左右") is held within 10 %. `ratios` gives the percentages
printed numbers make of each other, for a claim computed from two of them.
Left out: numbers written as words ("three times", "两次"), and arithmetic (a claim
computed from two printed numbers must be printed itself).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

# A number: 1,234,567 (or with a narrow space), 1234, 12.5; not inside a word or an id
# (S20, RF20260701001, cl100k, v1), and a date or a clock time as one token.
NUMBER = re.compile(
    r"(?<![\w.])(?:\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}(?!\d)"
    r"|(?:\d{1,3}(?:[,\u202f]\d{3})+|\d+)(?:\.\d+)?)(?![\w])(?!\.\d)")
APPROXIMATE = re.compile(
    r"(?:about|around|roughly|nearly|near|almost|some|over|under|~|≈|约|大约|将近|接近|近|"
    r"超过|不到|上下)\s*$", re.I)
# said after the number: "610 个 token 左右", "120 多个"
AFTER = re.compile(r"^\s*(?:个\s*token\s*)?(?:左右|上下|多|出头|余)")
# What names a place in the course, not a quantity.
PLACES = re.compile(
    r"(?:[Nn]otebooks?|[Ss]ections?|[Ee]xercises?|[Ss]olutions?|[Cc]ells?|第)\s*"
    r"\d{1,2}(?:\s*(?:[–—-]|to|and|,|、|和|到)\s*\d{1,2})*(?:\s*(?:课|节|个练习))?"
    r"|\b\d\d\.[a-z_]\w*|\b\d\d_\w+|\b\d\d\b(?=\s*[·–—])"
    r"|(?<![-\d.])\b0\d\b(?![-:.\d])")  # 00-09 name notebooks
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
LINK = re.compile(r"\]\([^)]*\)|<https?://[^>]*>|https?://\S+")
TIME_LINE = re.compile(r"^\*\*(?:Time|时长|时间)：?:?\*\*.*$", re.M)
HEAD_NUMBER = re.compile(r"^(?:#+\s*\d+\.|\s*\d+\.\s|\*\*\d+\.)", re.M)


@dataclass(frozen=True)
class Claim:
    """A number as the text states it, where, and whether it is approximate."""

    text: str  # "1,195", "38", "12.3"
    line: str  # the line it is on, for the report
    approximate: bool = False


def _value(text: str) -> Decimal | str:
    """A number's value; a date or a time stays a string."""
    if "-" in text or ":" in text:
        return text
    return Decimal(text.replace(",", "").replace("\u202f", ""))


def claims(markdown: str) -> list[Claim]:
    """The numbers a markdown text states, structure left out."""
    text = TIME_LINE.sub("", markdown)
    for pattern in (CODE, LINK, PLACES):
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    text = HEAD_NUMBER.sub(lambda m: " " * len(m.group(0)), text)
    found = []
    for match in NUMBER.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = markdown.splitlines()[markdown.count("\n", 0, match.start())] \
            if markdown else ""
        before = " ".join(text[max(0, match.start() - 16):match.start()].split())
        after = text[match.end():match.end() + 12]
        found.append(Claim(match.group(0), line.strip() or text[start:end].strip(),
                           bool(APPROXIMATE.search(before) or AFTER.match(after))))
    return found


@cache  # the same printouts are read for many cells and paragraphs
def printed(text: str) -> frozenset[Decimal | str]:
    """Every number a printout or code holds (1_000 in code is 1000)."""
    return frozenset(_value(m.group(0))
                     for m in NUMBER.finditer(text.replace("_", "")))


@cache
def _ascending(numbers: frozenset[Decimal | str]) -> list[Decimal]:
    return sorted(n for n in numbers if not isinstance(n, str))


def holds(claim: Claim, numbers: set[Decimal | str]) -> bool:
    """Whether `numbers` hold the claim: equal, or rounding to it at the claim's
    decimals, or within 10 % when the claim is approximate."""
    value = _value(claim.text)
    if isinstance(value, str):
        return value in numbers
    if value in numbers:  # equal (1.50 is 1.5)
        return True
    places = -value.as_tuple().exponent if "." in claim.text else 0
    # Only a number within half a unit of the claim's last place rounds to it, and
    # only one within 10 % holds an approximate claim: the sorted numbers in reach.
    reach = max(Decimal(5).scaleb(-places - 1),
                abs(value) / 10 if claim.approximate else Decimal(0))
    ascending = _ascending(frozenset(numbers))
    for number in ascending[bisect_left(ascending, value - reach):
                            bisect_right(ascending, value + reach)]:
        if number == value or round(number, places) == value:
            return True
        if claim.approximate and value and abs(number - value) <= abs(value) / 10:
            return True
    return False


def ratios(numbers: set[Decimal | str] | frozenset[Decimal | str]
           ) -> frozenset[Decimal]:
    """Every percentage one of `numbers` is of another: a claim "15 % (408 /
    2,722)" is checked against the two numbers it is computed from."""
    return _ratios(frozenset(numbers))


@cache  # a block's paragraphs share their printout: its ratios are computed once
def _ratios(numbers: frozenset[Decimal | str]) -> frozenset[Decimal]:
    values = [n for n in numbers if isinstance(n, Decimal) and n > 0]
    return frozenset(100 * a / b for a in values for b in values if a < b)


def nearest(claim: Claim, numbers: set[Decimal | str], count: int = 3) -> list[str]:
    """The printed numbers nearest the claim, as a report shows them."""
    value = _value(claim.text)
    if isinstance(value, str):
        return sorted(n for n in numbers if isinstance(n, str))[:count]
    values = sorted((n for n in numbers if not isinstance(n, str)),
                    key=lambda n: abs(n - value))[:count]
    return [f"{n:,}" for n in values]


__all__ = ["Claim", "claims", "holds", "nearest", "printed", "ratios"]
