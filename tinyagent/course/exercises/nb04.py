"""Checkers for notebook 04 (summary memory): when to compress, and where to cut.

`04.summary_trigger` takes a function `plan_compression(messages, threshold,
keep_recent)` that returns how many of the oldest messages to compress now (0: not
yet), as SummaryChatMemory decides it: compress once `threshold` messages are held,
cut only between turns, and keep at least `keep_recent` messages verbatim. Each case
names its dialog, the learner's number and SummaryChatMemory's. Last, 300 drawn
dialogs of up to 120 messages, turns of 2 to 14 messages, with thresholds up to 120
and keep_recent up to 50 (ten times the named cases' largest). Left out: writing the
summary itself (the notebook shows it) and merging (notebook 05).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...lang import say
from ...memory.summary import compression_cut
from ...memory.turns import split_turns
from ...messages import ChatMessage
from . import Case, Wrong, exercise
from ._dialogs import ORDERS, dialog
from ._drawn import drawn, size
from .nb00_remember import _turn

DRAWS, MOST_MESSAGES, MOST_THRESHOLD, MOST_KEEP = 300, 120, 120, 50


def reference_plan(messages: list[ChatMessage], threshold: int,
                   keep_recent: int) -> int:
    """SummaryChatMemory's own rule (its trigger, then `compression_cut`)."""
    if len(messages) < threshold:
        return 0
    sizes = [len(turn) for turn in split_turns(messages)]
    return compression_cut(sizes, len(messages), keep_recent)


def _one_long_turn() -> list[ChatMessage]:
    """A single turn of 12 messages: a question and five tool calls."""
    turn = dialog("t")
    return turn[:1] + turn[1:3] * 5 + turn[3:]


def _shape(messages: list[ChatMessage]) -> str:
    """"10 messages in turns of 4, 2, 4"."""
    sizes = ", ".join(str(len(t)) for t in split_turns(messages))
    return say(f"{len(messages)} messages in turns of {sizes}",
               f"{len(messages)} 条消息，各轮分别 {sizes} 条")


def _agrees(plan_compression: Any, make: Any, pairs: Any,
            expected: int | None = None) -> bool:
    """Compare with SummaryChatMemory on fresh messages for each (threshold, keep)."""
    for threshold, keep in pairs:
        want = reference_plan(make(), threshold, keep) if expected is None \
            else expected
        got = plan_compression(make(), threshold, keep)
        if got != want:
            raise Wrong(say(f"with {_shape(make())}, threshold={threshold}, "
                            f"keep_recent={keep}: returned {got}; expected {want}",
                            f"输入为 {_shape(make())}，threshold={threshold}，"
                            f"keep_recent={keep}：得到 {got}；应为 {want}"))
    return True


def _drawn_plan(plan_compression: Any, rng: Any) -> bool:
    """A drawn dialog (turns of 2 to 14 messages) and drawn sizes."""
    messages: list[ChatMessage] = []
    wanted = size(rng, MOST_MESSAGES)
    while len(messages) < wanted:
        messages += _turn(len(messages), rng.choice(ORDERS), size(rng, 6, 0)
                          if rng.random() < 0.5 else 0)
    threshold, keep = size(rng, MOST_THRESHOLD, 2), size(rng, MOST_KEEP, 1)
    return _agrees(plan_compression, lambda: list(messages), [(threshold, keep)])


PAIRS = ((4, 2), (6, 3), (8, 4), (10, 4), (12, 5), (6, 2), (8, 2), (10, 5), (12, 2),
         (4, 3))


@exercise("04.summary_trigger")
def _summary_trigger_cases(plan_compression: Any) -> Iterator[Case]:
    def plain() -> list[ChatMessage]:
        return dialog("ppppp", 1)  # 10 messages, 5 turns of 2

    def tools() -> list[ChatMessage]:
        return dialog("tptp", 2)  # turns of 4, 2, 4, 2 messages

    turns = say("the summary takes whole turns, oldest first, as many as it can while "
                "keep_recent messages stay", "摘要从最早的一轮开始整轮地拿，在留住 "
                "keep_recent 条消息的前提下，能拿几轮拿几轮")
    yield (say("below the threshold: 0 (don't compress yet)",
               "低于阈值：返回 0（先不压缩）"),
           lambda: _agrees(plan_compression, lambda: plain()[:8], [(10, 4), (9, 2)], 0),
           say("below the threshold there is nothing to compress yet",
               "还没到阈值，就还没有要压缩的"))
    yield (say("exactly at the threshold, it compresses (10 messages, threshold 10)",
               "恰好到达阈值就压缩（10 条消息，阈值 10）"),
           lambda: _agrees(plan_compression, plain, [(10, 4)], 6),
           say("the agent adds a whole turn at once: a memory that has reached the "
               "threshold compresses", "智能体一次加入一整轮：记忆一到阈值就压缩"))
    yield (say("at least keep_recent messages stay verbatim",
               "至少保留 keep_recent 条消息原文"),
           lambda: _agrees(plan_compression, plain, [(4, k) for k in (2, 3, 5)])
           and _agrees(plan_compression, tools, [(4, k) for k in (2, 3, 5)]),
           say("stop before the cut would leave fewer than keep_recent messages",
               "如果再切会剩下不到 keep_recent 条消息，就停在这里"))
    yield (say("the cut falls between turns: the kept part starts with a user message",
               "切口落在两轮之间：保留的部分以用户消息开头"),
           lambda: _agrees(plan_compression, tools, [(4, k) for k in (2, 3, 4, 5, 6)]),
           turns)
    yield (say("keep_recent=3 in plain chat keeps 4 (half a turn is never kept)",
               "纯聊天时 keep_recent=3 会保留 4 条（不会只留半轮）"),
           lambda: _agrees(plan_compression, plain, [(10, 3)], 6), turns)
    yield (say("turns of 4, 2, 4, 2 messages, keep_recent=2: compress 10",
               "各轮分别 4、2、4、2 条消息，keep_recent=2：压缩 10 条"),
           lambda: _agrees(plan_compression, tools, [(10, 2)], 10),
           say("take as many whole turns as you can, not just the oldest one",
               "能取几整轮就取几整轮，不只是最早的一轮"))
    yield (say("one long turn (12 messages): nothing to compress, 0",
               "只有很长的一轮（12 条消息）：没有可压缩的，返回 0"),
           lambda: _agrees(plan_compression, _one_long_turn, [(10, 4)], 0),
           say("the newest turn is never cut, even when it is long",
               "最新一轮从不切开，哪怕它很长"))
    yield (say("matches SummaryChatMemory on 40 cases (sizes 4–12, keep 2–5)",
               "40 个用例都与 SummaryChatMemory 一致（阈值 4–12，保留 2–5）"),
           lambda: all(_agrees(plan_compression, lambda s=s: dialog(s, 3), PAIRS)
                       for s in ("ppppp", "tptp", "ttpptp", "pttp")), turns)
    yield (say(f"matches SummaryChatMemory on {DRAWS} drawn dialogs of up to "
               f"{MOST_MESSAGES} messages, thresholds up to {MOST_THRESHOLD}",
               f"{DRAWS} 段抽取的对话（至多 {MOST_MESSAGES} 条消息，阈值至多 "
               f"{MOST_THRESHOLD}）都与 SummaryChatMemory 一致"),
           lambda: drawn("04.summary_trigger", DRAWS,
                         lambda rng: _drawn_plan(plan_compression, rng)), turns)
