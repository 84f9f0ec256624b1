"""Checkers for notebook 06 (compare strategies): choose the cheapest memory.

`06.cheapest_recall` asks for a decision under a constraint: a function
`choose_memory(llm, turns) -> ChatMemory | None` that returns the cheapest memory
(fewest tokens sent, summarizer included) that still recalls every planted fact of a
conversation of `turns` turns. The facts are planted in turns 1–2, so they are about
`turns` turns old when asked for. It is checked on dialogs of 6 and 30 turns that
the notebook does not show, against the cheapest of the package's strategies that
recalls everything there. Left out: a real model (the figures are the offline model's),
and tuning one strategy's sizes (nb06.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from ..catalogue import make_strategies
from ..evaluation import Score
from ..language import get_lang, say, speaking
from ..names import strategy_title
from . import Case, Wrong, exercise
from ._replies import Remembered
from .nb06 import _play

LENGTHS = ((6, 7), (30, 6))  # (turns, seed) of the decision's dialogs
# The decision is graded on the English dialog in both editions: on the Chinese one
# the cheapest short-chat memory is another (a window), and one official answer
# serves both notebooks. The report's words follow the notebook's language.
DIALOG_LANG = "en"
TOLERANCE = 1.05  # within 5 % of the cheapest counts as the cheapest


def cheapest(turns: int, seed: int) -> tuple[str, Score]:
    """The package strategy that recalls every fact for the fewest tokens sent, its
    summaries written in the report's language, as the learner's are."""
    return _cheapest(turns, seed, get_lang())


@cache  # deterministic offline, and the slowest part: measured once a session
def _cheapest(turns: int, seed: int, lang: str) -> tuple[str, Score]:
    llm = Remembered()
    with speaking(lang):  # the strategies' summaries are written in it
        scores = [_play(llm, make, turns, seed, DIALOG_LANG)
                  for name, make in make_strategies(llm).items() if name != "none"]
    names = [n for n in make_strategies(llm) if n != "none"]
    complete = [(s.total_tokens, n, s) for n, s in zip(names, scores, strict=True)
                if all(s.recalled)]
    _, name, best = min(complete)
    return name, best


def _decides(choose_memory: Any, turns: int, seed: int) -> bool:
    llm = Remembered()
    got = _play(llm, lambda: choose_memory(llm, turns), turns, seed, DIALOG_LANG)
    name, best = cheapest(turns, seed)
    where = say(f"with {turns} turns (facts about {turns - 2} turns old)",
                f"{turns} 轮对话（事实约在 {turns - 2} 轮之前）")
    if not all(got.recalled):
        raise Wrong(say(f"{where}: your memory recalled {sum(got.recalled)}/3 facts; "
                        f"expected 3/3 ({name} does, for {best.total_tokens:,} "
                        "tokens)", f"{where}，记住的事实：得到 {sum(got.recalled)}/3；"
                        f"应为 3/3（{strategy_title(name)} 做得到，只花 "
                        f"{best.total_tokens:,} 个 token）"))
    if got.total_tokens > best.total_tokens * TOLERANCE:
        raise Wrong(say(f"{where}: your memory sent {got.total_tokens:,} tokens; "
                        f"{name} recalls 3/3 for {best.total_tokens:,}",
                        f"{where}，发送的 token：得到 {got.total_tokens:,}；应为不超过"
                        f"约 {best.total_tokens * TOLERANCE:,.0f}（"
                        f"{strategy_title(name)} 只要 {best.total_tokens:,} 就能记住 "
                        "3/3）"))
    return True


@exercise("06.cheapest_recall")
def _cheapest_recall_cases(choose_memory: Any) -> Iterator[Case]:
    hints = {6: say("a short chat: is any compression worth its summarizer calls?",
                    "短对话：压缩省下的，抵得过摘要器调用的花费吗？"),
             30: say("a long chat: the full buffer resends every old turn on every "
                     "call", "长对话：完整缓冲每次调用都要重发所有旧轮次")}
    for turns, seed in LENGTHS:
        yield (say(f"{turns} turns: every fact recalled, for the fewest tokens",
                   f"{turns} 轮：记住全部事实，且 token 最少"),
               lambda turns=turns, seed=seed: _decides(choose_memory, turns, seed),
               hints[turns])
