"""What `compare` returns: a record per turn, a run per strategy, and their tables.

Introduced in notebook 06. A `TurnRecord` holds one turn's answer and costs, a
`StrategyRun` one strategy's turns, and a `Comparison` every run; it prints as text
tables (the prompt tokens of each turn, then totals; the answers) and shows as HTML
in a notebook. The tables' own words follow the notebook's language (`set_lang`) or
`lang=`; the strategies keep their labels ("hybrid 4/8") in both. The totals end
with what the provider's prompt cache held and what the run is billed, in
input-token equivalents at the provider's prices (prices.py). Left out: plots
(evaluation.py draws them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..lang import say
from ..memory import ChatMemory
from ..messages import clip
from .names import strategy_title
from .prices import billed, money, price_for
from .table import Table


@dataclass(frozen=True)
class TurnRecord:
    """One turn of one strategy: what was asked and answered, and what it cost."""

    question: str
    answer: str
    prompt_tokens: tuple[int, ...]  # one per model call of the agent, in order
    memory_tokens: int  # held by the memory after the turn (0 without memory)
    summarizer_calls: int = 0  # made during this turn
    summarizer_tokens: int = 0  # prompt + completion tokens of those calls
    compressions: int = 0  # during this turn
    # Every model call of the turn (the summarizer's too), as the usage reported it:
    input_tokens: int = 0  # prompt tokens
    cached_tokens: int = 0  # of those, what the provider's prompt cache held
    output_tokens: int = 0  # reply tokens
    written_tokens: int = 0  # of input_tokens, what was written to the cache
    error: str = ""  # why the turn failed (a model call's LlmError); "" if it did not

    @property
    def shown(self) -> str:
        """The answer, or the failure in its place: the tables show both."""
        return self.answer if not self.error else f"(failed) {self.error}"

    @property
    def context_tokens(self) -> int:  # first call: system + tools + memory + question
        return self.prompt_tokens[0] if self.prompt_tokens else 0

    @property
    def cost_tokens(self) -> int:  # every token sent: agent prompts + summarizer's
        return sum(self.prompt_tokens) + self.summarizer_tokens


TALLY = ("input_tokens", "cached_tokens", "written_tokens", "output_tokens")


@dataclass
class StrategyRun:
    """One strategy's run through the script; `memory` is its state at the end."""

    name: str
    turns: list[TurnRecord]
    memory: ChatMemory | None = field(default=None, repr=False)

    @property
    def peak_prompt_tokens(self) -> int:
        """The largest prompt of any of the agent's model calls."""
        return max((n for t in self.turns for n in t.prompt_tokens), default=0)

    def total(self, name: str) -> int:
        """A TurnRecord number summed over the run: total("summarizer_calls")."""
        return sum(getattr(t, name) for t in self.turns)

    def billed(self, provider: str) -> float:
        """Every call of the run in input-token equivalents under `provider`'s rule
        and prices (prices.py): prompts, cache reads and writes, replies."""
        return billed(provider, *map(self.total, TALLY))

    def money(self, provider: str) -> float:
        """What the run costs at `provider`'s listed prices, outputs included."""
        return money(provider, *map(self.total, TALLY))


@dataclass(repr=False)
class Comparison:
    """The runs of `compare`, one per strategy, in the order given."""

    runs: list[StrategyRun]
    provider: str = "qwen"  # whose cache rule (offline) and prices the bill uses
    online: bool = False  # True: the cached figures are a real provider's own

    def __getitem__(self, name: str) -> StrategyRun:
        return {run.name: run for run in self.runs}[name]

    def _per_turn(self, caption: str, cell: Callable[[TurnRecord], str],
                  width: int, lang: str | None) -> Table:
        """A row per turn (the question clipped to `width`), a column per strategy."""
        return Table(caption, [say("turn", "轮次", lang),
                               *(strategy_title(run.name) for run in self.runs)],
                     [[f"{i} {clip(t.question, width)}",
                       *(cell(run.turns[i - 1]) for run in self.runs)]
                      for i, t in enumerate(self.runs[0].turns, 1)])

    def tokens_table(self, question_width: int = 36, lang: str | None = None
                     ) -> Table:
        """Rows per turn (the first call's prompt tokens), then totals; labels in
        `lang` (default: the notebook's language)."""
        table = self._per_turn(say("Prompt tokens of each turn's first model call "
                                   "(system prompt + tools + memory + question)",
                                   "每轮第一次模型调用的提示词 token 数"
                                   "（系统提示词 + 工具 + 记忆 + 问题）", lang),
                               lambda t: say("failed", "失败", lang) if t.error else
                               f"{t.context_tokens:,}", question_width, lang)
        totals: dict[str, Callable[[StrategyRun], int]] = {
            say("peak prompt (any call)", "提示词峰值（任一次调用）", lang):
                lambda r: r.peak_prompt_tokens,
            say("summarizer calls", "摘要调用次数", lang):
                lambda r: r.total("summarizer_calls"),
            say("summarizer tokens", "摘要消耗的 token", lang):
                lambda r: r.total("summarizer_tokens"),
            say("tokens sent (all calls)", "发送 token 总数（所有调用）", lang):
                lambda r: r.total("cost_tokens"),
            say("memory held at the end", "结束时记忆中的 token", lang):
                lambda r: r.turns[-1].memory_tokens}
        table.rows += [[label, *(f"{value(r):,}" for r in self.runs)]
                       for label, value in totals.items()]
        table.rows += self.bill_rows(lang)
        return table

    def bill_rows(self, lang: str | None = None) -> list[list[str]]:
        """Cached tokens, the bill in input-token equivalents and in money."""
        p = getattr(self.provider, "name", self.provider)  # a rule, or its name
        where = (say("reported by the provider", "服务商报告", lang) if self.online
                 else say(f"offline, {p} rule", f"离线，{p} 规则", lang))
        price = price_for(self.provider)
        return [[say(f"cached tokens ({where})", f"缓存命中 token（{where}）", lang),
                 *(f"{r.total('cached_tokens'):,}" for r in self.runs)],
                [say(f"billed (input-token equivalents, {p} prices)",
                     f"计费（折合输入 token，{p} 价格）", lang),
                 *(f"{r.billed(self.provider):,.0f}" for r in self.runs)],
                [say(f"money ({price.currency}, {price.model} list price)",
                     f"费用（{price.currency}，{price.model} 标价）", lang),
                 *(f"{r.money(self.provider):.4f}" for r in self.runs)]]

    def answers_table(self, width: int = 60, turns: Sequence[int] = (),
                      lang: str | None = None) -> Table:
        """The answers, clipped: side by side (a column a strategy) for a notebook;
        with `turns` (1-based), a row per strategy and turn, for a terminal."""
        caption = say(f"Answers, clipped to {width} characters",
                      f"各策略的回答（截断到 {width} 个字符）", lang)
        if not turns:
            return self._per_turn(caption, lambda t: clip(t.shown, width), 80, lang)
        return Table(caption,
                     say("turn|strategy|answer", "轮次|策略|回答", lang).split("|"),
                     [[f"{i} {clip(run.turns[i - 1].question, 40)}" if j == 0 else "",
                       strategy_title(run.name), clip(run.turns[i - 1].shown, width)]
                      for i in turns for j, run in enumerate(self.runs)])

    def __repr__(self) -> str:
        return repr(self.tokens_table())

    def _repr_html_(self) -> str:
        return self.tokens_table()._repr_html_()
