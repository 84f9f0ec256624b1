"""The planted-fact evaluation: does a memory keep what the customer was told?

Introduced in notebook 06. The dialog comes from planted.py (`planted_dialog`, in
English or Chinese): a tracking and a refund number planted in turns 1-2, probes
near the end that ask for them back. `evaluate(llm, dialog)` plays it through every
strategy with the harness of compare.py, over the store in the dialog's language,
and scores each: recall (probes whose answer holds the planted value), peak and
total prompt tokens, and the summarizer's extra calls. The pictures of notebook 06
are here too: tokens per turn, cumulative cost, and recall against cost.

Offline, the summarizer writes a rule-based fact ledger: the scores measure the
mechanism (what each strategy keeps), not the quality of a model's summaries; with a
real model the same code measures those too. Run `python -m
tinyagent.course.evaluation --help` (5-15 s). Left out: the pictures' labels stay
English (a machine without a CJK font would draw empty boxes and warn).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from ..llm import LlmClient
from .catalogue import MemoryFactory
from .compare import compare
from .comparison import Comparison, StrategyRun
from .language import say
from .planted import (
    FILLERS,
    LOOKUPS,
    PROBE_SPAN,
    PROBES,
    PRODUCTS,
    REFUNDS,
    Dialog,
    Probe,
    planted_dialog,
)
from .table import Table


@dataclass(frozen=True)
class Score:
    """One strategy on one dialog: what it recalled and what it cost."""

    strategy: str
    recalled: tuple[bool, ...]  # one per probe, in dialog order
    peak_prompt_tokens: int  # the largest prompt of any of the agent's calls
    prompt_tokens: int  # all the agent's prompts, summed
    summarizer_calls: int  # the extra model calls memory made
    summarizer_tokens: int
    peak_memory_tokens: int  # the most memory held after any turn

    @property
    def recall(self) -> float:
        return sum(self.recalled) / len(self.recalled)

    @property
    def total_tokens(self) -> int:  # what the dialog cost: prompts + summarizer
        return self.prompt_tokens + self.summarizer_tokens


def score(run: StrategyRun, dialog: Dialog) -> Score:
    """Score one run: a probe counts when its answer contains the planted value."""
    recalled = tuple(p.expected in run.turns[p.turn - 1].answer for p in dialog.probes)
    return Score(run.name, recalled, run.peak_prompt_tokens,
                 sum(sum(t.prompt_tokens) for t in run.turns),
                 run.total("summarizer_calls"), run.total("summarizer_tokens"),
                 max(t.memory_tokens for t in run.turns))


@dataclass(repr=False)
class Evaluation:
    """The scores of every strategy on one dialog; `comparison` holds the runs."""

    dialog: Dialog
    scores: list[Score]
    comparison: Comparison  # the runs, turn by turn

    def __getitem__(self, strategy: str) -> Score:
        return {s.strategy: s for s in self.scores}[strategy]

    def table(self, lang: str | None = None) -> Table:
        """A row per strategy; labels in `lang` (default: the notebook's)."""
        n, turns = len(self.dialog.probes), len(self.dialog.turns)
        seed = self.dialog.seed
        return Table(
            say(f"Planted facts: {turns} turns (seed {seed}), {n} probes",
                f"埋入的事实：{turns} 轮（种子 {seed}），{n} 个探针", lang),
            say("strategy|recall|peak prompt|tokens sent|summarizer calls|peak memory",
                "策略|召回|提示词峰值|发送 token 总数|摘要调用|记忆峰值",
                lang).split("|"),
            [[s.strategy, f"{sum(s.recalled)}/{n}", f"{s.peak_prompt_tokens:,}",
              f"{s.total_tokens:,}", f"{s.summarizer_calls:,}",
              f"{s.peak_memory_tokens:,}"] for s in self.scores])

    def __repr__(self) -> str:
        return repr(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def evaluate(llm: LlmClient, dialog: Dialog | None = None,
             strategies: Mapping[str, MemoryFactory] | None = None, **options: Any
             ) -> Evaluation:
    """Play `dialog` (default: 50 turns, seed 0) through every strategy, over the
    store in the dialog's language; score each."""
    dialog = dialog or planted_dialog()
    comparison = compare(llm, dialog.turns, strategies, lang=dialog.lang, **options)
    return Evaluation(dialog, [score(run, dialog) for run in comparison.runs],
                      comparison)


__all__ = ["FILLERS", "LOOKUPS", "PROBES", "PROBE_SPAN", "PRODUCTS", "REFUNDS",
           "Dialog", "Evaluation", "Probe", "Score", "evaluate", "planted_dialog",
           "plot_recall_cost", "plot_tokens", "score"]


# -- the pictures (matplotlib is imported only here, when a notebook plots)
MARKERS = "osD^vP*X"  # one per strategy, in order, so overlapping lines stay visible


def plot_tokens(comparison: Comparison, cumulative: bool = False, ax: Any = None
                ) -> Any:
    """Prompt tokens of each turn's first call, one line per strategy; or, with
    `cumulative`, the running total of every token sent (summarizer included)."""
    import matplotlib.pyplot as plt

    ax = ax or plt.subplots(figsize=(8, 4))[1]
    for i, run in enumerate(comparison.runs):
        values = (list(accumulate(t.cost_tokens for t in run.turns)) if cumulative
                  else [t.context_tokens for t in run.turns])
        ax.plot(range(1, len(values) + 1), values, marker=MARKERS[i % len(MARKERS)],
                markersize=4, markevery=max(1, len(values) // 12), label=run.name)
    ax.set(xlabel="turn", title="Cumulative cost: prompts + summarizer" if cumulative
           else "What each turn sends the model (first call)",
           ylabel="tokens sent so far" if cumulative else "prompt tokens")
    ax.legend(fontsize="small")
    return ax


def plot_recall_cost(evaluation: Evaluation, axes: Any = None) -> Any:
    """Recall against tokens sent (left) and against peak prompt (right), a marker
    and colour per strategy as in `plot_tokens`. The dashed line is the frontier: no
    strategy to its left recalls more for less."""
    import matplotlib.pyplot as plt

    axes = axes if axes is not None else plt.subplots(1, 2, figsize=(11, 4),
                                                      sharey=True)[1]
    for ax, cost, label in [(axes[0], "total_tokens", "tokens sent over the dialog"),
                            (axes[1], "peak_prompt_tokens", "peak prompt tokens")]:
        points = sorted((getattr(s, cost), 100 * s.recall) for s in evaluation.scores)
        frontier = [p for i, p in enumerate(points)
                    if all(p[1] > q[1] for q in points[:i])]
        ax.plot(*zip(*frontier, strict=True), "--", color="grey", zorder=0)
        for i, s in enumerate(evaluation.scores):
            ax.scatter(getattr(s, cost), 100 * s.recall, s=70, label=s.strategy,
                       marker=MARKERS[i % len(MARKERS)], color=f"C{i}", alpha=0.8)
        ax.set(xlabel=label, ylim=(-8, 112))
        ax.xaxis.set_major_formatter(lambda x, _: f"{x / 1000:g}k")  # 60k, 1.5k
    axes[0].set(ylabel="recall of planted facts (%)")
    axes[1].legend(fontsize="small", loc="center right")
    axes[0].figure.suptitle(f"Recall against cost, {len(evaluation.dialog.turns)} "
                            "turns (up and to the left is better)")
    return axes


def main(argv: list[str] | None = None) -> int:
    """`python -m tinyagent.course.evaluation [turns [seed]]`: print the table
    (5-15 s)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m tinyagent.course.evaluation",
        description="Plant a refund, a tracking and an order number in turns 1-2 of "
                    "a long dialog, ask for them near the end, and score every memory "
                    "strategy: recall, peak prompt, tokens sent, summarizer calls, "
                    "peak memory. Offline unless TINYAGENT_API_KEY is set.")
    parser.add_argument("turns", nargs="?", type=int, default=50,
                        help="length of the dialog, at least 6 (default: 50)")
    parser.add_argument("seed", nargs="?", type=int, default=0,
                        help="seed of the filler questions, their order and "
                             "phrasing (default: 0)")
    args = parser.parse_args(argv)
    llm = LlmClient.from_env()
    try:
        dialog = planted_dialog(args.turns, args.seed)
    except ValueError as error:
        parser.error(str(error))
    print(f"{llm.describe()}\n\n{evaluate(llm, dialog)!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
