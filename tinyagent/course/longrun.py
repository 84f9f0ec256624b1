"""The long run: do the bounded memories stay bounded for hundreds of turns?

Introduced in notebook 06 (its last section); run `python -m tinyagent.course.longrun`
(600 turns, 30-60 s offline) or `--turns 1000`. It plays the planted-fact dialog of
evaluation.py through the summary, hybrid and production memories and checks, turn
by turn, the three promises of a bounded memory:

- the summary never exceeds its budget (`max_summary_tokens`);
- the prompt at the end costs what it cost at turn 100 (within 10 %; both are the
  mean of fifty turns' first prompts, since a single turn's question varies);
- no turn stops on the agent's token budget.

Left out: wall-clock time (bench.py times the memory operations) and real models.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..agent import ReActAgent
from ..llm import LlmClient
from ..memory import HybridChatMemory, SummaryChatMemory
from ..production import IncrementalSummaryMemory
from ..tokens import count_tokens
from ..tools import bitmall_tools
from .evaluation import planted_dialog
from .names import strategy_title

TOLERANCE = 0.10  # the end's prompt within 10 % of turn 100's
WINDOW = 50  # turns averaged for "the prompt at turn N": questions vary


@dataclass(frozen=True)
class LongRun:
    """One memory through the whole dialog: what each turn cost, and what broke."""

    name: str
    budget: int  # the memory's max_summary_tokens
    prompts: tuple[int, ...]  # first prompt of each turn
    summaries: tuple[int, ...]  # summary tokens after each turn
    stops: tuple[str, ...]  # each turn's stop reason
    evicted: int

    def prompt_at(self, turn: int) -> float:
        """Mean first prompt of the `WINDOW` turns ending at `turn` (1-based)."""
        span = self.prompts[max(turn - WINDOW, 0):turn]
        return sum(span) / len(span)

    @property
    def drift(self) -> float:
        """The end's prompt against turn 100's (or the middle's, if shorter)."""
        ref = min(100, len(self.prompts) // 2)
        return self.prompt_at(len(self.prompts)) / self.prompt_at(ref) - 1

    @property
    def ok(self) -> bool:
        return (max(self.summaries) <= self.budget and abs(self.drift) <= TOLERANCE
                and "token_budget" not in self.stops)


def memories(llm: LlmClient, budget: int) -> dict[str, Callable[[], object]]:
    """The bounded memories with a summary, each with the same summary budget."""
    return {
        "summary 10/4": lambda: SummaryChatMemory(llm, 10, 4,
                                                  max_summary_tokens=budget),
        "hybrid 4/8": lambda: HybridChatMemory(llm, 4, 8, max_summary_tokens=budget),
        "production 4 turns": lambda: IncrementalSummaryMemory(
            llm, max_summary_tokens=budget),
    }


def long_run(llm: LlmClient, name: str, make: Callable[[], object],
             turns: Sequence[str], budget: int) -> LongRun:
    memory = make()
    agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    prompts, summaries, stops = [], [], []
    for text in turns:
        agent.run(text)
        trace = agent.last_trace
        prompts.append(trace.prompt_tokens[0])
        summaries.append(count_tokens(memory.summary or ""))
        stops.append(trace.stop_reason)
    return LongRun(name, budget, tuple(prompts), tuple(summaries), tuple(stops),
                   memory.stats().get("evicted", 0))


def report(runs: Sequence[LongRun]) -> str:
    head = (f"{'memory':<20}{'turns':>6}{'budget':>8}{'max summary':>13}"
            f"{'evicted':>9}{'prompt@100':>12}{'prompt@end':>12}{'drift':>8}"
            f"{'budget stops':>14}  ok")
    lines = [head]
    for r in runs:
        ref = min(100, len(r.prompts) // 2)
        lines.append(f"{strategy_title(r.name):<20}{len(r.prompts):>6}{r.budget:>8}"
                     f"{max(r.summaries):>13}{r.evicted:>9}{r.prompt_at(ref):>12.0f}"
                     f"{r.prompt_at(len(r.prompts)):>12.0f}{r.drift:>+8.1%}"
                     f"{r.stops.count('token_budget'):>14}  {'yes' if r.ok else 'NO'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tinyagent.course.longrun",
        description="Play a long planted-fact dialog through the summary, hybrid "
                    "and production memories; check that each stays bounded.")
    parser.add_argument("--turns", type=int, default=600,
                        help="length of the dialog (default: 600)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the dialog's order and phrasing (default: 0)")
    parser.add_argument("--budget", type=int, default=350, metavar="TOKENS",
                        help="each memory's max_summary_tokens (default: 350)")
    args = parser.parse_args(argv)
    llm = LlmClient.from_env()
    dialog = planted_dialog(args.turns, args.seed)
    print(f"{llm.describe()}\n{args.turns} turns (seed {args.seed}); prompts are "
          f"means of {WINDOW} turns' first calls.\n")
    runs = [long_run(llm, name, make, dialog.turns, args.budget)
            for name, make in memories(llm, args.budget).items()]
    print(report(runs))
    return 0 if all(r.ok for r in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
