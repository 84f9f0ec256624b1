"""Checkers for notebook 04 (summary memory): when to compress, and where to cut.

`04.summary_trigger` takes a function `plan_compression(messages, threshold,
keep_recent)` that returns how many of the oldest messages to compress now (0: not
yet), as SummaryChatMemory decides it: compress once `threshold` messages are held,
cut only between turns, and keep at least `keep_recent` messages verbatim. Left
out: writing the summary itself (the notebook shows it) and merging (notebook 05).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..memory.base import split_turns
from ..memory.summary import compression_cut
from ..messages import ChatMessage
from . import Case, exercise
from .nb03 import dialog


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


@exercise("04.summary_trigger")
def _summary_trigger_cases(plan_compression: Any) -> Iterator[Case]:
    plain = dialog("ppppp")  # 10 messages, 5 turns of 2
    tools = dialog("tptp")  # turns of 4, 2, 4, 2 messages
    turns = "walk split_turns(messages) from the oldest turn"
    yield ("below the threshold: 0 (don't compress yet)",
           lambda: plan_compression(plain[:8], 10, 4) == 0,
           "return 0 while len(messages) < threshold")
    yield ("at the threshold, it compresses (10 messages, threshold 10)",
           lambda: plan_compression(plain, 10, 4) > 0,
           "'>=': the agent adds a whole turn at once, so compress on reaching it")
    yield ("plain chat, 10 messages, keep_recent=4: compress the oldest 6",
           lambda: plan_compression(plain, 10, 4) == 6,
           "everything but the newest keep_recent messages")
    yield ("at least keep_recent messages stay verbatim",
           lambda: all(len(m) - plan_compression(m, 4, k) >= k
                       for m in (plain, tools) for k in (2, 3, 5)),
           "stop before the cut would leave fewer than keep_recent messages")
    yield ("the cut falls between turns: the kept part starts with a user message",
           lambda: all(plan_compression(tools, 4, k) in (0, 4, 6, 10)
                       for k in (2, 3, 4, 5, 6)), turns)
    yield ("keep_recent=3 in plain chat keeps 4 (half a turn is never kept)",
           lambda: plan_compression(plain, 10, 3) == 6, turns)
    yield ("turns of 4, 2, 4, 2 messages, keep_recent=2: compress 10",
           lambda: plan_compression(tools, 10, 2) == 10,
           "take as many whole turns as you can, not just the oldest one")
    yield ("one long turn (12 messages): nothing to compress, 0",
           lambda: plan_compression(_one_long_turn(), 10, 4) == 0,
           "the newest turn is never cut, even when it is long")
    yield ("matches SummaryChatMemory on 40 cases (sizes 4–12, keep 2–5)",
           lambda: all(plan_compression(m, t, k) == reference_plan(m, t, k)
                       for m in (plain, tools, dialog("ttpptp"), dialog("pttp"))
                       for t, k in ((4, 2), (6, 3), (8, 4), (10, 4), (12, 5),
                                    (6, 2), (8, 2), (10, 5), (12, 2), (4, 3))),
           turns)
