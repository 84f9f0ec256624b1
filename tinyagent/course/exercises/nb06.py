"""Checkers for notebook 06 (compare strategies): tune a hybrid, then choose a memory.

`06.tune_hybrid` takes a function `llm -> HybridChatMemory` and plays the 50-turn
planted-fact dialog (seed 0) with it, on the offline model. The notebook's default,
recent_size=6 and summary_threshold=10, peaks at 1,195 prompt tokens and sends
97,790 tokens in all. The targets: a peak of at most 1,150, at most 97,000 tokens in
all (summarizer included), at most 25 summarizer calls (each is a wait for the
customer), and every planted fact recalled, on seed 0 and on another dialog, so a
memory that writes seed 0's facts in by hand does not pass.

`06.cheapest_recall` asks for a decision under a constraint: a function
`choose_memory(llm, turns) -> ChatMemory | None` that returns the cheapest memory
(fewest tokens sent, summarizer included) that still recalls every planted fact of a
conversation of `turns` turns. The facts are planted in turns 1–2, so they are about
`turns` turns old when asked for. It is checked on dialogs of 6 and 30 turns that
the notebook does not show, against the cheapest of the package's strategies that
recalls everything there. Left out: a real model (the figures are the offline model's).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from ...llm import LlmClient
from ...memory import HybridChatMemory
from ..catalogue import make_strategies
from ..compare import run_strategy
from ..evaluation import Score, planted_dialog, score
from ..language import say
from . import Case, Wrong, exercise

PEAK_TARGET = 1_150  # peak prompt tokens of any call
TOTAL_TARGET = 97_000  # every token sent over the dialog, summarizer included
CALLS_TARGET = 25  # summarizer calls: a terse summary is cheap, but each call waits
OTHER_SEED = 5  # another order, so another tracking number to recall
LENGTHS = ((6, 3), (30, 6))  # (turns, seed) of the decision's dialogs
TOLERANCE = 1.05  # within 5 % of the cheapest counts as the cheapest


def _play(llm: LlmClient, make: Any, turns: int, seed: int) -> Score:
    dialog = planted_dialog(turns=turns, seed=seed)
    return score(run_strategy(llm, dialog.turns, "yours", make), dialog)


def _is_hybrid(memory: Any) -> bool:
    if not isinstance(memory, HybridChatMemory):  # don't play 50 turns for it
        raise Wrong(say(f"got {type(memory).__name__}, not HybridChatMemory",
                        f"得到的是 {type(memory).__name__}，不是 HybridChatMemory"))
    return True


def _recalls(memory: Any, llm: LlmClient, seed: int) -> bool:
    _is_hybrid(memory)
    got = _play(llm, lambda: memory, 50, seed)
    if not all(got.recalled):
        facts = planted_dialog(50, seed).facts
        order, tracking = facts["order"], facts["tracking"]
        raise Wrong(say(f"on the 50-turn dialog with seed {seed} (order {order}, "
                        f"tracking {tracking}): recalled {sum(got.recalled)}/3",
                        f"在 seed {seed} 的 50 轮对话上（订单 {order}，运单号 "
                        f"{tracking}）：只记住了 {sum(got.recalled)}/3 条"))
    return True


@exercise("06.tune_hybrid")
def _tune_hybrid_cases(make_hybrid: Any) -> Iterator[Case]:
    llm = LlmClient(offline=True)
    measured: list[Score] = []  # the dialog is played once, by the first case

    def scored() -> Score:
        if not measured:
            memory = make_hybrid(llm)
            _is_hybrid(memory)
            measured.append(_play(llm, lambda: memory, 50, 0))
        return measured[0]

    def at_most(value: int, target: int, what: str) -> bool:
        if value > target:
            raise Wrong(say(f"on the 50-turn dialog (seed 0): {what} {value:,}; "
                            f"expected at most {target:,}",
                            f"在 50 轮对话上 (seed 0)：{what} {value:,}；"
                            f"应不超过 {target:,}"))
        return True

    def at_least_all(recalled: tuple[bool, ...]) -> bool:
        if not all(recalled):
            raise Wrong(say(f"on the 50-turn dialog (seed 0): recalled "
                            f"{sum(recalled)}/{len(recalled)} planted facts",
                            f"在 50 轮对话上 (seed 0)：埋下的事实只记住了 "
                            f"{sum(recalled)}/{len(recalled)} 条"))
        return True

    yield (say("it returns a HybridChatMemory", "返回一个 HybridChatMemory"),
           lambda: _is_hybrid(make_hybrid(llm)),
           say("return HybridChatMemory(llm, recent_size=..., summary_threshold=...)",
               "返回 HybridChatMemory(llm, recent_size=..., summary_threshold=...)"))
    yield (say("every planted fact is recalled (50 turns, seed 0)",
               "埋下的事实全部记住（50 轮，seed 0）"),
           lambda: at_least_all(scored().recalled),
           say("the summary must keep the ids: don't replace the summarizer",
               "摘要必须留住编号：不要换掉摘要器"))
    yield (say(f"peak prompt tokens <= {PEAK_TARGET:,}",
               f"提示词 token 峰值 <= {PEAK_TARGET:,}"),
           lambda: at_most(scored().peak_prompt_tokens, PEAK_TARGET,
                           say("peak prompt", "提示词峰值")),
           say("6/10 peaks at 1,129: a smaller recent_size keeps fewer messages "
               "verbatim", "6/10 的峰值是 1,129：recent_size 越小，原样保留的消息越少"))
    yield (say(f"tokens sent over the dialog <= {TOTAL_TARGET:,}",
               f"整段对话发送的 token <= {TOTAL_TARGET:,}"),
           lambda: at_most(scored().total_tokens, TOTAL_TARGET,
                           say("tokens sent", "发送的 token")),
           say("6/10 sends 98,325: fewer messages verbatim means a smaller prompt "
               "on every call", "6/10 共发送 98,325：原样保留的消息越少，"
               "每次调用的提示词就越小"))
    yield (say(f"summarizer calls <= {CALLS_TARGET}",
               f"摘要器调用 <= {CALLS_TARGET} 次"),
           lambda: at_most(scored().summarizer_calls, CALLS_TARGET,
                           say("summarizer calls", "摘要器调用次数")),
           say("leave a gap between recent_size and summary_threshold, or the "
               "summarizer runs every turn", "recent_size 和 summary_threshold "
               "之间要留出间隔，否则每轮都要调用摘要器"))
    yield (say(f"every fact is recalled on another dialog too (seed {OTHER_SEED})",
               f"换一段对话也全部记住 (seed {OTHER_SEED})"),
           lambda: _recalls(make_hybrid(llm), llm, OTHER_SEED),
           say("other orders, other numbers: remember what the dialog says, not "
               "seed 0", "订单不同、编号也不同：要记住对话里说的，而不是 seed 0 的"))


@cache  # deterministic offline, and the slowest part: measured once a session
def cheapest(turns: int, seed: int) -> tuple[str, Score]:
    """The package strategy that recalls every fact for the fewest tokens sent."""
    llm = LlmClient(offline=True)
    scores = [_play(llm, make, turns, seed)
              for name, make in make_strategies(llm).items() if name != "none"]
    names = [n for n in make_strategies(llm) if n != "none"]
    complete = [(s.total_tokens, n, s) for n, s in zip(names, scores, strict=True)
                if all(s.recalled)]
    _, name, best = min(complete)
    return name, best


def _decides(choose_memory: Any, turns: int, seed: int) -> bool:
    llm = LlmClient(offline=True)
    got = _play(llm, lambda: choose_memory(llm, turns), turns, seed)
    name, best = cheapest(turns, seed)
    where = say(f"with {turns} turns (facts about {turns - 2} turns old)",
                f"{turns} 轮对话（事实约在 {turns - 2} 轮之前）")
    if not all(got.recalled):
        raise Wrong(say(f"{where}: your memory recalled {sum(got.recalled)}/3 facts; "
                        f"expected 3/3 ({name} does, for {best.total_tokens:,} "
                        "tokens)", f"{where}：你的记忆只记住了 {sum(got.recalled)}/3 "
                        f"条事实；应为 3/3（{name} 做得到，只花 "
                        f"{best.total_tokens:,} 个 token）"))
    if got.total_tokens > best.total_tokens * TOLERANCE:
        raise Wrong(say(f"{where}: your memory sent {got.total_tokens:,} tokens; "
                        f"{name} recalls 3/3 for {best.total_tokens:,}",
                        f"{where}：你的记忆发送了 {got.total_tokens:,} 个 token；"
                        f"{name} 只要 {best.total_tokens:,} 就能记住 3/3"))
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
