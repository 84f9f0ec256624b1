"""Checkers for notebook 00 (setup and tour): two ideas behind the agent's guards.

`00.same_signature` is the repeated-call guard's test that two steps made the same
tool calls; `00.no_progress` is the no-progress guard's test that the last three
thoughts are pairwise alike (Jaccard on character sets, the notebook's `jaccard`).
Left out: the guards themselves, which the notebook runs on the agent.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..messages import ToolCall
from . import Case, exercise

# Thoughts the offline model really writes (notebook 00 prints them).
DITHER = ["I am still not sure, let me look again (1).",
          "I am still not sure, let me look again (2).",
          "I am still not sure, let me look again (3)."]
WORKING = ["The customer asks about order 88231; I'll look up the order first.",
           "Order 88231 has shipped (SF1234567890); I'll check the logistics.",
           "The customer wants a refund for order 88231; I'll apply for it."]
# Neighbours alike (0.82), first and last not (0.67): every pair must be compared.
DRIFT = ["abcdefghij", "bcdefghijk", "cdefghijkl"]
# "abcdefgxy" vs "abcdefgz": 7 shared of 10 distinct characters, exactly 0.7.
EDGE = ["abcdefgxy", "abcdefgz", "abcdefgxy"]


@exercise("00.no_progress")
def _no_progress_cases(no_progress: Any) -> Iterator[Case]:
    every_pair = "compare every pair of the last three: (1, 2), (1, 3) and (2, 3)"
    yield ("three dithering thoughts: no progress",
           lambda: no_progress(DITHER) is True,
           "jaccard() of each pair is 0.9 here, above 0.7")
    yield ("three working thoughts: progress",
           lambda: no_progress(WORKING) is False,
           "two of their three pairs score below 0.7")
    yield ("fewer than three thoughts: too early to tell",
           lambda: no_progress(DITHER[:2]) is False, "return False below three")
    yield ("only the last three thoughts count",
           lambda: no_progress([WORKING[0], *DITHER]) is True,
           "take thoughts[-3:] after dropping the blank ones")
    yield ("blank thoughts are skipped",
           lambda: no_progress([DITHER[0], "", DITHER[1], "   ", DITHER[2]]) is True,
           "keep only thoughts whose .strip() is not empty")
    yield ("every pair must be alike, not only neighbours",
           lambda: no_progress(DRIFT) is False, every_pair)
    yield ("exactly 0.7 counts as alike (>=)", lambda: no_progress(EDGE) is True,
           "use >= 0.7, not > 0.7")


def _call(call_id: str, name: str, **arguments: Any) -> ToolCall:
    return ToolCall(call_id, name, arguments)


@exercise("00.same_signature")
def _same_signature_cases(same_signature: Any) -> Iterator[Case]:
    order = _call("call_1", "queryOrder", order_id="88231")
    logistics = _call("call_2", "queryLogistics", order_id="88231")
    yield ("the same call with a new id is a repeat",
           lambda: same_signature([order], [_call("call_9", "queryOrder",
                                                  order_id="88231")]) is True,
           "ids are new every step: compare name and arguments only")
    yield ("another order number is not a repeat",
           lambda: same_signature([order], [_call("call_9", "queryOrder",
                                                  order_id="90417")]) is False,
           "the arguments are part of the signature")
    yield ("another tool with the same arguments is not a repeat",
           lambda: same_signature([order], [logistics]) is False,
           "the tool name is part of the signature")
    yield ("the calls of a step may come in any order",
           lambda: same_signature([order, logistics], [logistics, order]) is True,
           "sort the signatures before comparing")
    yield ("argument order does not matter",
           lambda: same_signature(
               [_call("a", "applyRefund", order_id="88231", reason="dock")],
               [_call("b", "applyRefund", reason="dock", order_id="88231")]) is True,
           "json.dumps(arguments, sort_keys=True), or ToolCall.signature()")
    yield ("one call is not the same as that call twice",
           lambda: same_signature([order], [order, order]) is False,
           "compare sorted lists, not sets: the count matters")
