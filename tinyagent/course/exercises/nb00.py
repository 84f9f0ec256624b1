"""Checkers for notebook 00 (setup and tour): the no-progress guard's test.

`00.no_progress` is the no-progress guard's test that the last three thoughts are
pairwise alike (Jaccard on character sets, the notebook's `jaccard`). It is graded
against the agent's own test, `guards.no_progress`: a learner's function passes
when it agrees with the guard the agent runs, on thoughts placed near the 0.7
boundary from both sides, then on 300 drawn lists of up to 50 thoughts: variants
of one character set (every pattern of alike and unlike pairs comes up), pairs built
to score exactly 0.7 or just off it, a thought in other letter case, blanks of
every kind between them. The repeated-call guard's test is in nb00_signature.py,
what a memory keeps of a turn in nb00_remember.py. Left out: the loop that calls
the guards, which the notebook runs on the agent.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from ... import guards
from ...lang import say
from . import Case, exercise, expect
from ._drawn import drawn, size

# Thoughts the offline model really writes (notebook 00 prints them).
DITHER = ("I am still not sure, let me look again (1).",
          "I am still not sure, let me look again (2).",
          "I am still not sure, let me look again (3).")
WORKING = ("The customer asks about order 88231; I'll look up the order first.",
           "Order 88231 has shipped (SF1234567890); I'll check the logistics.",
           "The customer wants a refund for order 88231; I'll apply for it.")
# Neighbours alike (0.82), first and last not (0.67): every pair must be compared.
DRIFT = ("abcdefghij", "bcdefghijk", "cdefghijkl")
# Only the last pair unlike (0.71, 0.71, 0.5): comparing (1, 2) and (1, 3) misses it.
LAST_PAIR = ("abcdefghijkl", "abcdefghijXY", "abcdefghklZW")
# "abcdefgxy" vs "abcdefgz": 7 shared of 10 distinct characters, exactly 0.7.
EDGE = ("abcdefgxy", "abcdefgz", "abcdefgxy")
# Just under: "abcdefgxyw" vs "abcdefgz": 7 of 11, 0.64, so not alike.
UNDER = ("abcdefgxyw", "abcdefgz", "abcdefgxyw")
# Nearer still, from below: 25 of 36 (0.694) passes "> 0.69" and a Jaccard rounded
# to one decimal; 2 of 3 (0.667) also rounds up to 0.7. Neither is alike.
NEAR = ("abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnopqrstuvwxy456789",
        "abcdefghijklmnopqrstuvwxyz0123")
TWO_THIRDS = ("abcdefgh", "abcdefghijkl", "abcdefgh")  # 8 of 12: 0.667
# 37 of 53 (0.698) rounds to 0.70 at two decimals, and is still below 0.7.
ROUNDS_UP = ("abcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+",
             "abcdefghijklmnopqrstuvwxyz0123456789!,-./:;<=",
             "abcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+")
# Just above, from above: 12 of 17 (0.706) is alike.
ABOVE = ("abcdefghijklmno", "abcdefghijklpq", "abcdefghijklmno")
# The same words in other letters are other characters: jaccard() sees case.
SHOUTED = ("LOOK-AGAIN-88231", "look-again-88231", "LOOK-AGAIN-88231")


LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
BLANKS = ("", " ", "  ", "\t", "\n", " \n ")
DRAWS, LONGEST = 300, 50  # the named cases hold at most five thoughts


def _variant(rng: random.Random, base: list[str]) -> str:
    """A thought whose characters are `base` with a few dropped and a few added,
    some repeated, shuffled: pairs of such thoughts score around 0.7."""
    cut = max(1, len(base) // 6)
    dropped = set(rng.sample(range(len(base)), rng.randint(0, cut)))
    chars = [c for i, c in enumerate(base) if i not in dropped] + rng.sample(
        [c for c in LETTERS if c not in base], rng.randint(0, cut))
    chars = chars or [rng.choice(LETTERS)]
    text = chars + [rng.choice(chars) for _ in range(rng.randint(0, len(chars)))]
    rng.shuffle(text)
    return "".join(text)


def _at_the_edge(rng: random.Random) -> list[str]:
    """Two thoughts whose Jaccard is 0.7 exactly, or one shared character off it
    (7 of 10, 14 of 20, ...), and the first again: (a, b, a)."""
    union = 10 * rng.randint(1, 6)
    shared = union * 7 // 10 + rng.choice((-1, 0, 0, 1))
    chars = rng.sample(LETTERS, union)
    split = rng.randint(0, union - shared)
    a = chars[:shared] + chars[shared:shared + split]
    b = chars[:shared] + chars[shared + split:]
    return ["".join(rng.sample(a, len(a))), "".join(rng.sample(b, len(b))),
            "".join(rng.sample(a, len(a)))]


def _thoughts(rng: random.Random) -> list[str]:
    """A drawn list of thoughts: mostly variants of one set, blanks between them."""
    base = rng.sample(LETTERS, rng.randint(4, 30))
    count = size(rng, LONGEST, 1)
    thoughts = [_variant(rng, base) for _ in range(count)]
    if rng.random() < 0.3:  # the last three built at the 0.7 boundary
        thoughts[-3:] = _at_the_edge(rng)
    if len(thoughts) > 1 and rng.random() < 0.15:  # other case: other letters
        thoughts[-1] = thoughts[-2].swapcase()
    for _ in range(rng.choice((0, 0, 1, 3))):  # blanks anywhere, the end included
        thoughts.insert(rng.randint(0, len(thoughts)), rng.choice(BLANKS))
    return thoughts


def _pairs(thoughts: list[str]) -> str:
    """"pairs (1, 2) 0.71, (1, 3) 0.69, (2, 3) 0.75" of the last three non-blank."""
    last = [t.strip() for t in thoughts if t.strip()][-3:]
    if len(last) < 3:
        return say(f"{len(last)} non-blank", f"非空的只有 {len(last)} 条")
    names = ("(1, 2)", "(1, 3)", "(2, 3)")
    scores = [guards.jaccard(a, b) for a, b in combinations(last, 2)]
    return say("the last three non-blank thoughts' pairs ",
               "最后三条非空思考两两的 jaccard()：") + ", ".join(
        f"{n} {j:.3f}" for n, j in zip(names, scores, strict=True))


def _drawn_verdict(no_progress: Any, rng: random.Random) -> bool:
    thoughts = _thoughts(rng)
    return expect(no_progress(list(thoughts)), guards.no_progress(thoughts),
                  say(f"with {thoughts!r} ({_pairs(thoughts)})",
                      f"输入为 {thoughts!r}（{_pairs(thoughts)}）"))


def _verdict(no_progress: Any, thoughts: tuple[str, ...], name: str) -> bool:
    """The learner's verdict must be the agent's own guard's verdict."""
    return expect(no_progress(list(thoughts)), guards.no_progress(thoughts),
                  say(f"with {name}", f"输入为{name}"))


@exercise("00.no_progress")
def _no_progress_cases(no_progress: Any) -> Iterator[Case]:
    every_pair = say("compare every pair of the last three: (1, 2), (1, 3) and (2, 3)",
                     "最后三条要两两比较：(1, 2)、(1, 3) 和 (2, 3)")
    blanks = say("a blank thought says nothing: the guard looks at the last three "
                 "that say something", "空白的思考什么也没说：守卫看的是最后三条"
                 "有内容的思考")
    dithering = say("three dithering thoughts", "三条原地打转的思考")
    yield (say("three dithering thoughts: no progress", "三条原地打转的思考：没有进展"),
           lambda: _verdict(no_progress, DITHER, dithering),
           say("jaccard() of each pair is 0.9 here, at least 0.7",
               "这里每一对的 jaccard() 都是 0.9，不低于 0.7"))
    yield (say("three working thoughts: progress", "三条在推进的思考：有进展"),
           lambda: _verdict(no_progress, WORKING, say("three working thoughts",
                                                      "三条在推进的思考")),
           say("two of their three pairs score below 0.7", "三对里有两对低于 0.7"))
    yield (say("fewer than three thoughts: too early to tell",
               "不到三条思考：还判断不了"),
           lambda: _verdict(no_progress, DITHER[:2], say("two dithering thoughts",
                                                         "两条原地打转的思考"))
           and _verdict(no_progress, (), say("no thoughts", "没有思考")),
           say("return False below three", "不到三条时返回 False"))
    yield (say("only the last three thoughts count", "只看最后三条思考"),
           lambda: _verdict(no_progress, (WORKING[0], *DITHER),
                            say("a working thought, then three dithering ones",
                                "一条在推进的思考，后面三条原地打转"))
           and _verdict(no_progress, (*DITHER, WORKING[0]),
                        say("three dithering thoughts, then a working one",
                            "三条原地打转的思考，后面一条在推进")),
           say("the guard asks whether the agent is stuck now, not at the start",
               "守卫问的是智能体现在是否卡住，不是一开始"))
    yield (say("blank thoughts are skipped", "空白的思考不算"),
           lambda: _verdict(no_progress, (DITHER[0], "", DITHER[1], "   ", DITHER[2]),
                            say("dithering thoughts with blanks between them",
                                "原地打转的思考，中间夹着空白"))
           and _verdict(no_progress, (DITHER[0], DITHER[1], "", " "),
                        say("two dithering thoughts, then two blank ones",
                            "两条原地打转的思考，后面两条空白")), blanks)
    yield (say("every pair must be alike, not only neighbours",
               "每一对都要相似，不只是相邻的两条"),
           lambda: _verdict(no_progress, DRIFT, f"{list(DRIFT)} (0.82, 0.67, "
                            "0.82)")
           and _verdict(no_progress, LAST_PAIR, f"{list(LAST_PAIR)} (0.71, 0.71, "
                        "0.5)"), every_pair)
    yield (say("exactly 0.7 counts as alike (>=), just under does not",
               "恰好 0.7 算相似 (>=)，略低于 0.7 不算"),
           lambda: _verdict(no_progress, EDGE, say(f"{list(EDGE)} (each pair "
                                                   "0.7 or 1.0)",
                                                   f"{list(EDGE)}（每对 0.7 或 1.0）"))
           and _verdict(no_progress, UNDER, f"{list(UNDER)} (0.64)"),
           say("a pair scoring 0.7 is alike, one scoring less is not",
               "得分恰好 0.7 的一对算相似，低一点就不算"))
    yield (say("near 0.7 from both sides: 0.667, 0.694 and 0.698 are not alike, "
               "0.706 is", "从两边逼近 0.7：0.667、0.694 和 0.698 不算相似，0.706 算"),
           lambda: _verdict(no_progress, NEAR, f"{list(NEAR)} (0.694)")
           and _verdict(no_progress, TWO_THIRDS, f"{list(TWO_THIRDS)} (0.667)")
           and _verdict(no_progress, ROUNDS_UP, f"{list(ROUNDS_UP)} (0.698)")
           and _verdict(no_progress, ABOVE, f"{list(ABOVE)} (0.706)"),
           say("the threshold is exactly 0.7, compared on the exact Jaccard: nothing "
               "rounded, no other cut-off",
               "阈值就是 0.7，比较的是精确的 `jaccard()` 值：不取整，也不换别的阈值"))
    yield (say("letters in another case are other characters",
               "大小写不同的字母是不同的字符"),
           lambda: _verdict(no_progress, SHOUTED, f"{list(SHOUTED)}"),
           say("the guard compares the thoughts as they were written",
               "守卫比较的是原样写下的思考"))
    yield (say(f"agrees with the agent's guard on {DRAWS} drawn lists of up to "
               f"{LONGEST} thoughts", f"在 {DRAWS} 个抽取的思考列表上（每个至多 "
               f"{LONGEST} 条）与智能体的守卫一致"),
           lambda: drawn("00.no_progress", DRAWS,
                         lambda rng: _drawn_verdict(no_progress, rng)),
           say("the rule, whatever the thoughts: drop the blanks, take the last three, "
               "and every pair must score at least 0.7, exactly as written",
               "规则对任何思考都一样：去掉空白的，取最后三条，每一对都要不低于 "
               "0.7，按原样比较"))
