"""One scripted dialog through every memory strategy: answers, tokens, extra calls.

Introduced in notebook 06; also `tinyagent compare`. `compare(llm, turns)` gives each
strategy a fresh agent, fresh BitMall tools (refund numbers restart at RF20260701001)
and a fresh memory, plays the script, and records per turn the answer, the prompt
tokens of every model call, the tokens memory holds and what the summarizer cost.
Results print as text tables and show as HTML in a notebook; plots and the
planted-fact evaluation are in evaluation.py. Left out: latency, and parallel runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import memory as m
from ..agent import ReActAgent
from ..llm import LlmClient, LlmError
from ..messages import clip
from ..tokens import count_message_tokens
from ..tools import bitmall_tools
from .cli import SIX_TURNS
from .table import Table

Factory = Callable[[], "m.ChatMemory | None"]  # makes a fresh memory (None: no memory)
Progress = Callable[[str, int, int], None]  # (strategy, turn, turns): after each turn
NAMES = ("none", "inmemory", "window", "tokens", "summary", "hybrid")
SUMMARIZER_STATS = ("summarizer_calls", "summarizer_tokens", "compressions")


def make_strategies(llm: LlmClient, names: Sequence[str] = NAMES
                    ) -> dict[str, Factory]:
    """{label: factory} for command-line names; the sizes are in the labels. The
    token window gets about what the hybrid holds at its fullest (equal memory)."""
    known = {
        "none": ("none", lambda: None),
        "inmemory": ("in-memory", m.InMemoryChatMemory),
        "window": ("window 6", lambda: m.SlidingWindowChatMemory.from_rounds(3)),
        "tokens": ("tokens 400", lambda: m.TokenWindowChatMemory(max_tokens=400)),
        "summary": ("summary 10/4", lambda: m.SummaryChatMemory(llm, 10, 4)),
        "hybrid": ("hybrid 4/8", lambda: m.HybridChatMemory(llm, 4, 8)),
    }
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ValueError(f"unknown strategy {', '.join(unknown) or '(none given)'}: "
                         f"choose from {', '.join(NAMES)}")
    return dict(known[n] for n in names)


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

    @property
    def context_tokens(self) -> int:  # first call: system + tools + memory + question
        return self.prompt_tokens[0] if self.prompt_tokens else 0

    @property
    def cost_tokens(self) -> int:  # every token sent: agent prompts + summarizer's
        return sum(self.prompt_tokens) + self.summarizer_tokens


@dataclass
class StrategyRun:
    """One strategy's run through the script; `memory` is its state at the end."""

    name: str
    turns: list[TurnRecord]
    memory: m.ChatMemory | None = field(default=None, repr=False)

    @property
    def peak_prompt_tokens(self) -> int:
        """The largest prompt of any of the agent's model calls."""
        return max((n for t in self.turns for n in t.prompt_tokens), default=0)

    def total(self, name: str) -> int:
        """A TurnRecord number summed over the run: total("summarizer_calls")."""
        return sum(getattr(t, name) for t in self.turns)


def run_strategy(llm: LlmClient, turns: Sequence[str], name: str, make: Factory, *,
                 max_tokens: int = 8000, progress: Progress | None = None
                 ) -> StrategyRun:
    """Play `turns` with a fresh agent, tools and memory; record every turn."""
    memory = make()
    agent = ReActAgent(llm, bitmall_tools(), max_tokens=max_tokens, memory=memory,
                       verbose=False)
    records: list[TurnRecord] = []
    before: dict[str, int] = {}  # the memory's stats() after the previous turn
    for number, text in enumerate(turns, 1):
        answer = agent.run(text)
        held = memory.messages() if memory is not None else []
        after = getattr(memory, "stats", dict)()  # a memory without stats(): zeros
        extra = [after.get(k, 0) - before.get(k, 0) for k in SUMMARIZER_STATS]
        records.append(TurnRecord(text, answer, tuple(agent.last_trace.prompt_tokens),
                                  sum(map(count_message_tokens, held)), *extra))
        before = after
        if progress:
            progress(name, number, len(turns))
    return StrategyRun(name, records, memory)


def compare(llm: LlmClient, turns: Sequence[str] | None = None,
            strategies: Mapping[str, Factory] | None = None, **options: Any
            ) -> Comparison:
    """Every strategy on one script (default: the six-turn demo in English); options
    go to `run_strategy`. `strategies`: {label: factory}, or `make_strategies(llm)`."""
    turns = list(SIX_TURNS["en"] if turns is None else turns)
    if not turns:
        raise ValueError("the script is empty: give at least one user message")
    chosen = make_strategies(llm) if strategies is None else strategies
    return Comparison([run_strategy(llm, turns, name, make, **options)
                       for name, make in chosen.items()])


@dataclass(repr=False)
class Comparison:
    """The runs of `compare`, one per strategy, in the order given."""

    runs: list[StrategyRun]

    def __getitem__(self, name: str) -> StrategyRun:
        return {run.name: run for run in self.runs}[name]

    def _per_turn(self, caption: str, cell: Callable[[TurnRecord], str],
                  width: int) -> Table:
        """A row per turn (the question clipped to `width`), a column per strategy."""
        return Table(caption, ["turn", *(run.name for run in self.runs)],
                     [[f"{i} {clip(t.question, width)}",
                       *(cell(run.turns[i - 1]) for run in self.runs)]
                      for i, t in enumerate(self.runs[0].turns, 1)])

    def tokens_table(self, question_width: int = 36) -> Table:
        """Rows per turn (the first call's prompt tokens), then totals."""
        table = self._per_turn("Prompt tokens of each turn's first model call (system "
                               "prompt + tools + memory + question)",
                               lambda t: f"{t.context_tokens:,}", question_width)
        totals: dict[str, Callable[[StrategyRun], int]] = {
            "peak prompt (any call)": lambda r: r.peak_prompt_tokens,
            "summarizer calls": lambda r: r.total("summarizer_calls"),
            "summarizer tokens": lambda r: r.total("summarizer_tokens"),
            "tokens sent (all calls)": lambda r: r.total("cost_tokens"),
            "memory held at the end": lambda r: r.turns[-1].memory_tokens}
        table.rows += [[label, *(f"{value(r):,}" for r in self.runs)]
                       for label, value in totals.items()]
        return table

    def answers_table(self, width: int = 60, turns: Sequence[int] = ()) -> Table:
        """The answers, clipped: side by side (a column a strategy) for a notebook;
        with `turns` (1-based), a row per strategy and turn, for a terminal."""
        caption = f"Answers, clipped to {width} characters"
        if not turns:
            return self._per_turn(caption, lambda t: clip(t.answer, width), 80)
        return Table(caption, ["turn", "strategy", "answer"],
                     [[f"{i} {clip(run.turns[i - 1].question, 40)}" if j == 0 else "",
                       run.name, clip(run.turns[i - 1].answer, width)]
                      for i in turns for j, run in enumerate(self.runs)])

    def __repr__(self) -> str:
        return repr(self.tokens_table())

    def _repr_html_(self) -> str:
        return self.tokens_table()._repr_html_()


# -- the command line: `tinyagent compare`
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", type=Path, metavar="FILE", help="a text file, "
                        "one user message a line (default: the six-turn demo)")
    parser.add_argument("--strategies", default=",".join(NAMES), metavar="LIST",
                        help=f"comma-separated from {', '.join(NAMES)} (default: all)")
    parser.add_argument("--lang", choices=sorted(SIX_TURNS), default="en",
                        help="language of the six-turn demo (default: en)")
    parser.add_argument("--turns", type=int, metavar="N", help="play the planted-fact "
                        "dialog of N turns (notebook 06) instead of the demo")
    parser.add_argument("--answers", choices=["last", "all"], default="last",
                        help="print the answers to the last turn or to every turn")


def _progress(name: str, turn: int, total: int) -> None:  # only on a terminal
    done = round(20 * turn / total)
    print(f"\r[{'#' * done}{'.' * (20 - done)}] {name}: turn {turn}/{total}  ",
          end="\n" if turn == total else "", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """`tinyagent compare`: every strategy on one script, in one table."""
    try:
        turns = SIX_TURNS[args.lang]
        if getattr(args, "turns", None):  # the evaluation's dialog imports compare
            from .evaluation import planted_dialog
            turns = list(planted_dialog(args.turns).turns)
        if args.script:  # one user message a line; blank lines skipped
            lines = args.script.read_text(encoding="utf-8").splitlines()
            turns = [line.strip() for line in lines if line.strip()]
            if not turns:
                raise ValueError(f"{args.script} is empty: write one message a line")
        llm = LlmClient.from_env()
        chosen = make_strategies(llm, [n.strip() for n in args.strategies.split(",")])
        print(f"{llm.describe()}\nStrategies: {', '.join(chosen)}; {len(turns)} "
              "turns.\n")
        result = compare(llm, turns, chosen,
                         progress=_progress if sys.stderr.isatty() else None)
    except (OSError, ValueError, LlmError) as exc:  # a bad file or name; a failed call
        print(f"error: {exc}", file=sys.stderr)
        return 1 if isinstance(exc, LlmError) else 2
    every = range(1, len(turns) + 1) if args.answers == "all" else [len(turns)]
    print(f"{result.tokens_table()}\n\n{result.answers_table(70, every)}")
    if len(turns) < 10:  # a summary compresses once or twice: it cannot pay yet
        print(f"\nOn {len(turns)} turns a summary has barely started; it pays for "
              "itself on long dialogs: tinyagent compare --turns 50")
    return 0
