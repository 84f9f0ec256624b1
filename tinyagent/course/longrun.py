"""The long run: do the bounded memories stay bounded for hundreds of turns?

Introduced in notebook 06 (its last section); run `python -m tinyagent.course.longrun`
(600 turns, 30-60 s offline) or `--turns 1000`. It plays the planted-fact dialog of
evaluation.py through the summary, hybrid and production memories and checks, turn
by turn, the three promises of a bounded memory (in the package's language, dialog
and store included, unless `--lang` says otherwise):

- the summary never exceeds its budget (`max_summary_tokens`);
- the prompt at the end costs what it cost at turn 100 (within 10 %; both are the
  mean of fifty turns' first prompts, since a single turn's question varies; a run
  shorter than 150 turns has no two such spans to compare, and says so);
- no turn stops on the agent's token budget.

Left out: wall-clock time (bench.py times the memory operations) and real models.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..agent import ReActAgent
from ..lang import get_lang, say, speaking
from ..llm import LlmClient
from ..memory import HybridChatMemory, SummaryChatMemory
from ..production import IncrementalSummaryChatMemory
from ..tokens import count_tokens
from ..tools import bitmall_tools
from .cli_args import Parser, chosen_lang, lang_option
from .evaluation import planted_dialog
from .names import strategy_title
from .table import Table

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
    def drift(self) -> float | None:
        """The end's prompt against turn 100's; None for a run too short to hold
        both spans apart (the first 100 turns are the memory filling up)."""
        if len(self.prompts) < 100 + WINDOW:
            return None
        return self.prompt_at(len(self.prompts)) / self.prompt_at(100) - 1

    @property
    def ok(self) -> bool:
        return (max(self.summaries) <= self.budget
                and (self.drift is None or abs(self.drift) <= TOLERANCE)
                and "token_budget" not in self.stops)


def memories(llm: LlmClient, budget: int) -> dict[str, Callable[[], object]]:
    """The bounded memories with a summary, each with the same summary budget."""
    return {
        "summary 10/4": lambda: SummaryChatMemory(llm, 10, 4,
                                                  max_summary_tokens=budget),
        "hybrid 4/8": lambda: HybridChatMemory(llm, 4, 8, max_summary_tokens=budget),
        "production 4 turns": lambda: IncrementalSummaryChatMemory(
            llm, max_summary_tokens=budget),
    }


def long_run(llm: LlmClient, name: str, make: Callable[[], object],
             turns: Sequence[str], budget: int, lang: str | None = None) -> LongRun:
    """Play `turns` over the store in `lang` (default: the package's language)."""
    lang = get_lang(lang)
    memory = make()
    agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=memory, verbose=False,
                       lang=lang)
    prompts, summaries, stops = [], [], []
    for text in turns:
        agent.run(text)
        trace = agent.last_trace
        prompts.append(trace.prompt_tokens[0])
        summaries.append(count_tokens(memory.summary or ""))
        stops.append(trace.stop_reason)
    return LongRun(name, budget, tuple(prompts), tuple(summaries), tuple(stops),
                   memory.stats().get("evicted", 0))


def report(runs: Sequence[LongRun], lang: str | None = None) -> str:
    """A row per memory, in `lang` (default: the package's language)."""
    header = say("memory|turns|budget|max summary|evicted|prompt@100|prompt@end|"
                 "drift|budget stops|ok", "记忆|轮数|预算|摘要最大|移出条目|"
                 "第 100 轮提示词|结束时提示词|漂移|超预算停止|达标", lang)
    rows = []
    for r in runs:
        ref = min(100, len(r.prompts))
        drift = say("too short", "太短", lang) if r.drift is None else f"{r.drift:+.1%}"
        rows.append([strategy_title(r.name, lang), f"{len(r.prompts)}", f"{r.budget}",
                     f"{max(r.summaries)}", f"{r.evicted}", f"{r.prompt_at(ref):.0f}",
                     f"{r.prompt_at(len(r.prompts)):.0f}", drift,
                     f"{r.stops.count('token_budget')}",
                     say("yes", "是", lang) if r.ok else say("NO", "否", lang)])
    return repr(Table("", header.split("|"), rows)).lstrip("\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Play the long dialog, print the table; exit status 1 when a memory broke a
    promise. In the package's language (TINYAGENT_LANG) unless --lang says."""
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = chosen_lang(argv)
    with speaking(lang):
        parser = Parser(prog="python -m tinyagent.course.longrun", lang=lang,
                        description=say(
            "Play a long planted-fact dialog through the summary, hybrid and "
            "production memories; check that each stays bounded.",
            "把一段埋入事实的长对话放进摘要记忆、混合记忆和生产级（结构化）记忆里"
            "跑一遍，检查每一种是否始终有上限。", lang))
        parser.add_argument("--turns", type=int, default=600, help=say(
            "length of the dialog (default: 600)", "对话的轮数（默认：600）", lang))
        parser.add_argument("--seed", type=int, default=0, help=say(
            "seed of the dialog's order and phrasing (default: 0)",
            "随机种子：决定对话的顺序和说法（默认：0）", lang))
        parser.add_argument("--budget", type=int, default=350, metavar="TOKENS",
                            help=say("each memory's max_summary_tokens (default: 350)",
                                     "每种记忆的摘要上限 max_summary_tokens（默认："
                                     "350）", lang))
        lang_option(parser, lang)
        args = parser.parse_args(argv)
        llm = LlmClient.from_env()
        try:
            dialog = planted_dialog(args.turns, args.seed, lang=args.lang)
        except ValueError as error:
            parser.error(str(error))
        print(f"{llm.describe(args.lang)}\n" + say(
            f"{args.turns} turns (seed {args.seed}); prompts are means of {WINDOW} "
            "turns' first calls.\n",
            f"{args.turns} 轮（种子 {args.seed}）；提示词是 {WINDOW} 轮第一次调用的"
            "平均值。\n", args.lang))
        runs = [long_run(llm, name, make, dialog.turns, args.budget, args.lang)
                for name, make in memories(llm, args.budget).items()]
        print(report(runs, args.lang))
    return 0 if all(r.ok for r in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
