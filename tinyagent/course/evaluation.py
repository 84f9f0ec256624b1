"""The planted-fact evaluation: does a memory keep what the customer was told?

Introduced in notebook 06. The dialog comes from planted.py (`planted_dialog`, in
English or Chinese): a tracking and a refund number planted in turns 1-2, and what
the customer says in their own words (a reason, a delivery time, a contact channel,
a budget) in turns 2-8, with probes near the end that ask for them back.
`evaluate(llm, dialog)` plays it through every strategy with the harness of
compare.py, over the store in the dialog's language, and scores each: recall of ids
and of facts apart (probes whose answer holds the planted value; a guard restores
ids, so only the facts test the summary), peak and total prompt tokens, and the
summarizer's extra calls. Its pictures are in plots.py (re-exported here, where
notebook 06 imports them).

Offline, the summarizer writes a rule-based fact ledger: the scores measure the
mechanism (what each strategy keeps), not the quality of a model's summaries; with a
real model the same code measures those too. Run `python -m
tinyagent.course.evaluation --help` (5-15 s); it speaks, and plays the dialog in, the
package's language (TINYAGENT_LANG) unless `--lang` says otherwise. Left out: a real
model's latency.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..lang import say, speaking
from ..llm import LlmClient
from .catalogue import MemoryFactory
from .compare import compare
from .comparison import Comparison, StrategyRun
from .names import strategy_title
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
from .plots import plot_recall_cost, plot_tokens
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
    cached_tokens: int = 0  # of every prompt (summarizer's too), what the cache held
    billed: float = 0.0  # every prompt in input-token equivalents (prices.py)
    facts_recalled: tuple[bool, ...] = ()  # the customer's own words, one per probe

    @property
    def recall(self) -> float:
        return sum(self.recalled) / len(self.recalled)

    @property
    def fact_recall(self) -> float:
        """The share of the customer's own words recalled (0 with none planted)."""
        return sum(self.facts_recalled) / max(len(self.facts_recalled), 1)

    @property
    def total_tokens(self) -> int:  # what the dialog cost: prompts + summarizer
        return self.prompt_tokens + self.summarizer_tokens


def score(run: StrategyRun, dialog: Dialog, provider: str = "qwen") -> Score:
    """Score one run: a probe counts when its answer contains the planted value;
    billed at `provider`'s prices."""
    def held(probes: tuple[Probe, ...]) -> tuple[bool, ...]:
        return tuple(p.expected in run.turns[p.turn - 1].answer for p in probes)
    return Score(run.name, held(dialog.probes), run.peak_prompt_tokens,
                 sum(sum(t.prompt_tokens) for t in run.turns),
                 run.total("summarizer_calls"), run.total("summarizer_tokens"),
                 max(t.memory_tokens for t in run.turns),
                 cached_tokens=run.total("cached_tokens"),
                 billed=run.billed(provider), facts_recalled=held(dialog.fact_probes))


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
        seed, m = self.dialog.seed, len(self.dialog.fact_probes)
        return Table(
            say(f"Planted facts: {turns} turns (seed {seed}), {n} id and {m} fact "
                "probes", f"埋入的事实：{turns} 轮（种子 {seed}），"
                f"{n} 个编号探针、{m} 个事实探针", lang),
            say("strategy|ids|facts|peak prompt|tokens sent|summarizer calls|"
                "peak memory", "策略|编号|事实|提示词峰值|发送 token 总数|"
                "摘要调用|记忆峰值", lang).split("|")
            + [say("cached", "缓存命中", lang),
               say(f"billed ({self.comparison.provider})",
                   f"计费（{self.comparison.provider}）", lang)],
            [[strategy_title(s.strategy, lang), f"{sum(s.recalled)}/{n}",
              f"{sum(s.facts_recalled)}/{m}",
              f"{s.peak_prompt_tokens:,}", f"{s.total_tokens:,}",
              f"{s.summarizer_calls:,}", f"{s.peak_memory_tokens:,}",
              f"{s.cached_tokens:,}", f"{s.billed:,.0f}"]
             for s in self.scores])

    def __repr__(self) -> str:
        return repr(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def evaluate(llm: LlmClient, dialog: Dialog | None = None,
             strategies: Mapping[str, MemoryFactory] | None = None, **options: Any
             ) -> Evaluation:
    """Play `dialog` (default: 50 turns, seed 0, in the package's language at the
    time of the call) through every strategy, over the store in the dialog's
    language; score each."""
    dialog = dialog or planted_dialog()
    comparison = compare(llm, dialog.turns, strategies, lang=dialog.lang, **options)
    return Evaluation(dialog, [score(run, dialog, comparison.provider)
                               for run in comparison.runs], comparison)


__all__ = ["FILLERS", "LOOKUPS", "PROBES", "PROBE_SPAN", "PRODUCTS", "REFUNDS",
           "Dialog", "Evaluation", "Probe", "Score", "evaluate", "planted_dialog",
           "plot_recall_cost", "plot_tokens", "score"]


def main(argv: list[str] | None = None) -> int:
    """`python -m tinyagent.course.evaluation [turns [seed]] [--lang zh]`: print the
    table (5-15 s), in the package's language unless --lang says otherwise."""
    import sys

    from .cli_args import Parser, chosen_lang, lang_option

    argv = sys.argv[1:] if argv is None else list(argv)
    lang = chosen_lang(argv)
    with speaking(lang):
        parser = Parser(prog="python -m tinyagent.course.evaluation", lang=lang,
                        description=say(
            "Plant a refund, a tracking and an order number in turns 1-2 of a long "
            "dialog, and what the customer says in their own words in turns 2-8; "
            "ask for them near the end, and score every memory strategy: recall, "
            "peak prompt, tokens sent, summarizer calls, peak memory. Offline "
            "unless TINYAGENT_API_KEY is set.",
            "在一段长对话的第 1–2 轮埋入退款编号、运单号和订单号，第 2–8 轮埋入顾客"
            "自己说的话，快结束时再问回来，给每种记忆策略打分：召回、提示词峰值、"
            "发送的 token、摘要调用次数、记忆峰值。没有设置 TINYAGENT_API_KEY 时"
            "离线运行。", lang))
        upper = {"metavar": "TURNS"} if lang == "zh" else {}  # a name, not a word
        parser.add_argument("turns", nargs="?", type=int, default=50, **upper,
                            help=say(
            "length of the dialog, at least 6 (default: 50)",
            "对话的轮数，至少 6（默认：50）", lang))
        upper = {"metavar": "SEED"} if lang == "zh" else {}
        parser.add_argument("seed", nargs="?", type=int, default=0, **upper,
                            help=say(
            "seed of the filler questions, their order and phrasing (default: 0)",
            "随机种子：决定填充问题、它们的顺序和说法（默认：0）", lang))
        parser.add_argument("--provider", choices=["openai", "deepseek", "qwen",
                                                   "none"], help=say(
            "whose prompt-cache rule (offline) and prices the billed column uses "
            "(default: qwen)",
            "计费一栏按哪家的提示词缓存规则（离线时）和价格计算（默认：qwen）", lang))
        lang_option(parser, lang)
        args = parser.parse_args(argv)
        llm = LlmClient.from_env()
        try:
            dialog = planted_dialog(args.turns, args.seed, lang=args.lang)
        except ValueError as error:
            parser.error(str(error))
        print(f"{llm.describe(args.lang)}\n\n"
              f"{evaluate(llm, dialog, provider=args.provider)!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
