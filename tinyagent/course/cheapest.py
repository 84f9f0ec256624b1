"""The cheapest memory that still recalls everything, under every cache rule.

Introduced in notebook 07 ("What you pay"), and run on many dialogs by
`scripts/seed_sweep.py --compact`. `play(turns, seed)` records the planted dialog
(evaluation.py) through in-memory, summary 10/4, hybrid 4/8 and compact sized for
each rule (`CompactChatMemory.for_rule`), once each: the first three send the
same requests under every rule, so one run of each is billed under all of them
(billing.py); compact's marks depend on the rule, so it is recorded once per set of
marks, and once more with the pauses where a pause outlasts the rule's cache
(after it, compact compacts at once: the cache is cold anyway).

Every memory gets room for every turn (a token budget of 32,000): under the course's
8,000 in-memory stops answering near turn 130 and is billed nothing after, so at 150
turns it would be compared as an agent that no longer works. `Played.row(variant,
scenario)` gives compact's input bill (prompts under the rule: uncached, read,
written) and full bill (the replies too, at the output price: the same answers for
every memory, so they pull every ratio toward 1) against in-memory's, summary's and
the hybrid's, its recall and its peak prompt. Left out: a hit that is only a chance
(sensitivity.py plays it), and the window, which recalls nothing old.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..lang import say, speaking
from ..offline.cache_rules import CacheRule, cached_tokens, get_rule, with_numbers
from ..offline.clock import Schedule
from ..offline.prompt_tokens import message_tokens
from ..production.compact import CompactChatMemory
from .billing import PRIMING, RecordedRun, RecordingClient, tally
from .catalogue import make_strategies
from .evaluation import Score, evaluate
from .names import strategy_title
from .planted import Dialog, planted_dialog
from .prices import billed
from .sensitivity import BUDGET, LUNCH, STEADY, Scenario

VARIANTS = ("openai", "openai-gpt-4o-mini", "deepseek", "deepseek-prefix", "qwen",
            "qwen@1024", "anthropic", "anthropic-1h", "gemini")
FULL, SUMMARY, HYBRID = "in-memory", "summary 10/4", "hybrid 4/8"
BASES = ("inmemory", "summary", "hybrid")  # the same requests under every rule
COLD = ", cold"  # a compact run that compacted early, after a pause


def variant(name: str) -> CacheRule:
    """A rule by name; "qwen@1024" is qwen's rule with a 1,024-token minimum."""
    base, _, minimum = name.partition("@")
    return with_numbers(base, min_tokens=int(minimum)) if minimum else get_rule(base)


def compact_name(memory: CompactChatMemory, cold: bool) -> str:
    """The run's name: its marks, and ", cold" if it compacted after a pause."""
    return f"compact {memory.high_tokens}/{memory.low_tokens}" + (COLD * cold)


def title(name: str, lang: str | None = None) -> str:
    """A run's name for a table in `lang`: "水位压缩 1500/425，冷时先压缩"."""
    head = strategy_title(name.removesuffix(COLD), lang)
    return head + (say(COLD, "，遇冷先压缩", lang) if name.endswith(COLD) else "")


@dataclass(frozen=True)
class Row:
    """Compact under one rule and scenario, against the others (ratios: 1 = same)."""

    variant: str
    scenario: str
    name: str  # the compact run billed
    to_full: float  # its input bill over in-memory's
    to_full_with_replies: float  # the same, both bills with the replies
    to_summary: float  # its input bill over summary 10/4's
    to_hybrid: float  # and over hybrid 4/8's
    ids: int  # planted ids it recalled
    facts: int  # the customer's own words it recalled
    peak: float  # its peak prompt over in-memory's
    warm_only: float  # to_full of compact that never compacts early (the same marks)


@dataclass
class Played:
    """One planted dialog, recorded once per distinct set of requests."""

    dialog: Dialog
    runs: dict[str, RecordedRun]
    scores: dict[str, Score]
    compact: dict[tuple[str, str], str]  # (variant, scenario name) -> run name

    def schedule(self, scenario: Scenario) -> Schedule:
        return scenario.schedule(len(self.dialog.turns))

    def bills(self, name: str, rule: CacheRule, scenario: Scenario
              ) -> tuple[float, float]:
        """(input bill, full bill) of run `name` under `rule`, spaced as
        `scenario` says."""
        found = tally(self.runs[name], rule, schedule=self.schedule(scenario))
        return found.input, found.billed

    def cheapest(self, name: str, scenario: Scenario = STEADY) -> tuple[str, float]:
        """The run with full recall (every id and fact) billed least under variant
        `name` in `scenario` (input bill), with its bill over in-memory's."""
        rule = variant(name)
        runs = [n for n in self.runs if not n.startswith("compact")
                or n == self.compact[name, scenario.name]]
        recalled = [n for n in runs if all(self.scores[n].recalled)
                    and all(self.scores[n].facts_recalled)]
        bills = {n: self.bills(n, rule, scenario)[0] for n in recalled}
        best = min(bills, key=bills.__getitem__)
        return best, bills[best] / bills[FULL]

    def row(self, name: str, scenario: Scenario = STEADY) -> Row:
        """Compact under variant `name` (VARIANTS) in `scenario`, against the rest."""
        rule, run = variant(name), self.compact[name, scenario.name]
        (mine, mine_all), (full, full_all) = (self.bills(n, rule, scenario)
                                              for n in (run, FULL))
        score, warm = self.scores[run], run.removesuffix(COLD)
        return Row(name, scenario.name, run, mine / full, mine_all / full_all,
                   mine / self.bills(SUMMARY, rule, scenario)[0],
                   mine / self.bills(HYBRID, rule, scenario)[0],
                   sum(score.recalled), sum(score.facts_recalled),
                   score.peak_prompt_tokens / self.scores[FULL].peak_prompt_tokens,
                   self.bills(warm, rule, scenario)[0] / full)


@dataclass(frozen=True)
class Parts:
    """A run's input bill, split by what a memory can change (input-token
    equivalents; they add up to the bill)."""

    short: float  # calls under the rule's minimum: nothing cached, whatever is held
    tail: float  # each call's new end at full price (or written): answer, question,
    # tool call and result, the rounding to the rule's step
    fixed: float  # the system prompt and tool schemas, read from the cache
    history: float  # the remembered history, read from the cache

    @property
    def total(self) -> float:
        return self.short + self.tail + self.fixed + self.history


def parts(run: RecordedRun, rule: CacheRule, schedule: Schedule | None = None
          ) -> Parts:
    """`run`'s input bill under `rule`, split (for in-memory's run, `history` is
    the most any memory could save: and a memory that recalls holds some)."""
    short = tail = fixed = kept = 0.0
    for (length, matched, _), (request, _) in zip(run.matches(rule, schedule), run,
                                                   strict=True):
        read = cached_tokens(rule, matched)
        written = length - read if rule.caches and length >= rule.min_tokens else 0
        cost = billed(rule, length + PRIMING, read, written)
        if not read:
            short += cost
            continue
        old = min(history(request), read) * rule.cached_share
        kept += old
        fixed += read * rule.cached_share - old
        tail += cost - read * rule.cached_share
    return Parts(short, tail, fixed, kept)


def history(request: dict) -> int:
    """Tokens of the remembered history in `request`: the messages between the
    system prompt and the turn's own question."""
    messages = request.get("messages") or []
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    start = 1 if messages and messages[0].get("role") == "system" else 0
    return sum(len(message_tokens(m)) for m in messages[start:users[-1]]) if users \
        else 0


def play(turns: int = 50, seed: int = 0, variants: Sequence[str] = VARIANTS,
         scenarios: Sequence[Scenario] = (STEADY, LUNCH), lang: str = "en",
         max_tokens: int = BUDGET, others: Sequence[str] = BASES) -> Played:
    """Record the planted dialog through every memory: `others` (command-line
    names) once, compact once per set of marks (and per scenario where its cache
    goes cold), each with every turn answered."""
    with speaking(lang):  # the memories summarize in the dialog's language
        return _play(turns, seed, variants, scenarios, lang, max_tokens, others)


def _play(turns: int, seed: int, variants: Sequence[str],
          scenarios: Sequence[Scenario], lang: str, max_tokens: int,
          others: Sequence[str]) -> Played:
    dialog = planted_dialog(turns, seed, lang=lang)
    recorder = RecordingClient()
    played = Played(dialog, {}, {}, {})
    _record(played, recorder, make_strategies(recorder, others), None, max_tokens)
    for scenario in scenarios:
        pauses = scenario.schedule(turns)
        for name in variants:
            rule = variant(name)
            memory = CompactChatMemory.for_rule(recorder, rule)
            cold = memory.cold_after is not None and any(
                pauses.before(n) >= memory.cold_after for n in range(2, turns + 1))
            run = played.compact[name, scenario.name] = compact_name(memory, cold)
            if run not in played.runs:  # played with the pauses if they matter
                _record(played, recorder, {run: lambda rule=rule, cold=cold:
                                           CompactChatMemory.for_rule(
                                               recorder, rule, cold=cold)},
                        pauses if cold else None, max_tokens)
    return played


# Notebook 07's names for these two (tinyagent.course exports them)
record_all, run_title = play, title


def _record(played: Played, recorder: RecordingClient, factories: dict,
            schedule: Schedule | None, max_tokens: int) -> None:
    """Play `factories` on the dialog; keep each run and its score by name."""
    found = evaluate(recorder, played.dialog, factories, max_tokens=max_tokens,
                     schedule=schedule)
    for score, run in zip(found.scores, recorder.runs[-len(factories):],
                          strict=True):
        played.runs[score.strategy], played.scores[score.strategy] = run, score
