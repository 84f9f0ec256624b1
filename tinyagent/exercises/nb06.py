"""Checkers for notebook 06 (compare strategies): tune the hybrid memory.

`06.tune_hybrid` takes a function `llm -> HybridChatMemory` and plays the 50-turn
planted-fact dialog (seed 0) with it, on the offline model. The notebook's default,
recent_size=6 and summary_threshold=10, peaks at 1,197 prompt tokens and sends
105,994 tokens in all. The targets: a peak of at most 1,150, at most 103,000 tokens in
all (summarizer included), and every planted fact still recalled. A smaller window
lowers the peak; compressing too often costs more summarizer tokens than it saves.
Left out: a real model (the targets are the offline model's numbers).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..compare import run_strategy
from ..evaluation import Score, planted_dialog, score
from ..llm import LlmClient
from ..memory import HybridChatMemory
from . import Case, exercise

PEAK_TARGET = 1_150  # peak prompt tokens of any call
TOTAL_TARGET = 103_000  # every token sent over the dialog, summarizer included


@exercise("06.tune_hybrid")
def _tune_hybrid_cases(make_hybrid: Any) -> Iterator[Case]:
    llm = LlmClient(offline=True)
    measured: list[Score] = []  # the dialog is played once, by the first case

    def scored() -> Score:
        if not measured:
            memory = make_hybrid(llm)
            if not isinstance(memory, HybridChatMemory):  # don't play 50 turns for it
                raise TypeError(f"got {type(memory).__name__}, not HybridChatMemory")
            dialog = planted_dialog(turns=50, seed=0)
            measured.append(score(run_strategy(llm, dialog.turns, "yours",
                                               lambda: memory), dialog))
        return measured[0]

    yield ("it returns a HybridChatMemory",
           lambda: isinstance(make_hybrid(llm), HybridChatMemory),
           "return HybridChatMemory(llm, recent_size=..., summary_threshold=...)")
    yield ("every planted fact is recalled (50 turns, seed 0)",
           lambda: all(scored().recalled),
           "the summary must keep the ids: don't replace the summarizer")
    yield (f"peak prompt tokens <= {PEAK_TARGET:,}",
           lambda: scored().peak_prompt_tokens <= PEAK_TARGET,
           "6/10 peaks at 1,197: a smaller recent_size keeps fewer messages verbatim")
    yield (f"tokens sent over the dialog <= {TOTAL_TARGET:,}",
           lambda: scored().total_tokens <= TOTAL_TARGET,
           "6/10 sends 105,994: leave a gap between recent_size and "
           "summary_threshold, or the summarizer runs almost every turn")
