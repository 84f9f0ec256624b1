"""The pictures of notebook 06: tokens per turn, cumulative cost, recall against cost.

Introduced in notebook 06 (imported there from evaluation.py). matplotlib is
imported only inside the functions, so `import tinyagent` stays light. The titles
and axis labels follow the notebook's language, but Chinese only when the machine
has a font that draws it (`use_chinese_font`): without one, matplotlib would draw
empty boxes, so the labels stay English, with one warning however many pictures
ask (`plot_text` gives any picture the same choice: notebooks 02 and 04 label theirs
with it). Strategy names in the legends are titled in the notebook's language ("混合
4/8", names.py). Left out: interactive plots.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import accumulate
from typing import Any, Protocol

from ..lang import get_lang
from .language import use_chinese_font
from .names import strategy_title


class Comparison(Protocol):  # comparison.Comparison: what plot_tokens reads
    runs: Any


class Evaluation(Protocol):  # evaluation.Evaluation: what plot_recall_cost reads;
    scores: Any              # a Protocol, so that this module never imports that one
    dialog: Any

MARKERS = "osD^vP*X"  # one per strategy, in order, so overlapping lines stay visible


@cache
def cjk_font() -> str | None:
    """The font matplotlib now draws Chinese with, or None when there is none; looked
    for once (language.use_chinese_font puts it first in matplotlib's list)."""
    return use_chinese_font()


def plot_text(en: str, zh: str) -> str:
    """A label for a picture: the Chinese text in the Chinese notebooks when a font
    can draw it, else the English one (never boxes). The notebooks that draw their
    own pictures (02, 04) label them with this too.

    >>> plot_text("turn", "轮次") in ("turn", "轮次")
    True
    """
    return zh if get_lang() == "zh" and cjk_font() is not None else en


def _put(setter: Callable[..., Any], en: str, zh: str) -> None:
    """Call a matplotlib text setter with the English or, if it can be drawn, the
    Chinese text."""
    setter(plot_text(en, zh))


def _title(name: str) -> str:
    """A strategy's name in the legend: its Chinese title when Chinese can be drawn."""
    return strategy_title(name) if get_lang() == "zh" and cjk_font() is not None \
        else name


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
                markersize=4, markevery=max(1, len(values) // 12),
                label=_title(run.name))
    _put(ax.set_xlabel, "turn", "轮次")
    if cumulative:
        _put(ax.set_title, "Cumulative cost: prompts + summarizer",
             "累计成本：提示词 + 摘要器")
        _put(ax.set_ylabel, "tokens sent so far", "累计发送的 token")
    else:
        _put(ax.set_title, "What each turn sends the model (first call)",
             "每轮发给模型的内容（第一次调用）")
        _put(ax.set_ylabel, "prompt tokens", "提示词 token")
    ax.legend(fontsize="small")
    return ax


def plot_recall_cost(evaluation: Evaluation, axes: Any = None,
                     facts: bool = False) -> Any:
    """Recall against tokens sent (left) and against peak prompt (right), a marker
    and colour per strategy as in `plot_tokens`. The dashed line is the frontier: no
    strategy to its left recalls more for less. `facts=True`: the recall of what the
    customer said in their own words, instead of the ids."""
    import matplotlib.pyplot as plt

    axes = axes if axes is not None else plt.subplots(1, 2, figsize=(11, 4),
                                                      sharey=True)[1]
    for ax, cost, en, zh in [
            (axes[0], "total_tokens", "tokens sent over the dialog",
             "整段对话发送的 token"),
            (axes[1], "peak_prompt_tokens", "peak prompt tokens", "提示词峰值 token")]:
        def recall(s: Any) -> float:
            return 100 * (s.fact_recall if facts else s.recall)
        points = sorted((getattr(s, cost), recall(s)) for s in evaluation.scores)
        frontier = [p for i, p in enumerate(points)
                    if all(p[1] > q[1] for q in points[:i])]
        ax.plot(*zip(*frontier, strict=True), "--", color="grey", zorder=0)
        for i, s in enumerate(evaluation.scores):
            ax.scatter(getattr(s, cost), recall(s), s=70,
                       label=_title(s.strategy),
                       marker=MARKERS[i % len(MARKERS)], color=f"C{i}", alpha=0.8)
        _put(ax.set_xlabel, en, zh)
        ax.set(ylim=(-8, 112))
        ax.xaxis.set_major_formatter(lambda x, _: f"{x / 1000:g}k")  # 60k, 1.5k
    if facts:
        _put(axes[0].set_ylabel, "recall of the customer's words (%)",
             "顾客原话的召回率（%）")
    else:
        _put(axes[0].set_ylabel, "recall of planted facts (%)", "埋入事实的召回率（%）")
    axes[1].legend(fontsize="small", loc="center right")
    turns = len(evaluation.dialog.turns)
    _put(axes[0].figure.suptitle,
         f"Recall against cost, {turns} turns (up and to the left is better)",
         f"召回与成本，{turns} 轮（越靠左上越好）")
    return axes


def plot_bill_map(sweep: Any, scenario: Any = None) -> Any:
    """Each memory's bill in % of in-memory's, a panel a memory (rows) and length
    (columns): the cached price across, the minimum down; blue where the memory is
    billed less, red where keeping everything is; a black bar a row, where the
    two cost the same (sensitivity.py computes it exactly)."""
    import math

    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm

    from .sensitivity import MINIMUMS, SHARES, STEADY

    scenario = scenario or STEADY
    rows, cols = len(sweep.labels), len(sweep.lengths)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.3 * rows),
                             squeeze=False, sharex=True, sharey=True)
    norm = TwoSlopeNorm(vmin=25, vcenter=100, vmax=400)
    logs = [math.log(s) for s in SHARES]
    for (r, label), (c, turns) in ((a, b) for a in enumerate(sweep.labels)
                                   for b in enumerate(sweep.lengths)):
        ax, grid = axes[r][c], sweep.grid(label, turns, scenario)
        image = ax.imshow([[100 * v for v in row] for row in grid], cmap="RdBu_r",
                          norm=norm, aspect="auto")
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center",
                        fontsize=7, color="white" if abs(v - 1) > 0.9 else "black")
        points = [(i, sweep.crossover(label, turns, m, scenario).share)
                  for i, m in enumerate(MINIMUMS)]
        points = [(i, s) for i, s in points if s and SHARES[0] <= s <= SHARES[-1]]
        ax.scatter([_at(logs, math.log(s)) for _, s in points],
                   [i for i, _ in points], color="black", marker="|", s=180,
                   linewidths=2.5)
        ax.set_title(f"{_title(label)}, {turns} " + plot_text("turns", "轮"),
                     fontsize=9)
    axes[0][0].set_xticks(range(len(SHARES)), [f"{100 * s:g}%" for s in SHARES])
    axes[0][0].set_yticks(range(len(MINIMUMS)), [f"{m:,}" for m in MINIMUMS])
    for ax in axes[-1]:
        _put(ax.set_xlabel, "cached price, % of input", "缓存价格（占输入价格 %）")
    for ax in axes[:, 0]:
        _put(ax.set_ylabel, "minimum tokens", "最少 token 数")
    fig.colorbar(image, ax=axes, shrink=0.6, label="%")
    _put(fig.suptitle, f"Billed, in % of in-memory's ({scenario.name}): blue, the "
         "memory is cheaper; red, keeping everything is",
         f"账单占全量记忆的百分比（{scenario.zh}）：蓝色，该记忆更便宜；红色，全量记忆更便宜")
    return axes


def _at(logs: list[float], value: float) -> float:
    """The x of `value` (a log price) between the columns of the prices."""
    for j in range(len(logs) - 1):
        if logs[j] <= value <= logs[j + 1]:
            return j + (value - logs[j]) / (logs[j + 1] - logs[j])
    return 0.0 if value < logs[0] else len(logs) - 1.0


__all__ = ["cjk_font", "plot_bill_map", "plot_recall_cost", "plot_text", "plot_tokens"]
