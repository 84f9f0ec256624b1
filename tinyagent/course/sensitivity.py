"""When does a bounded memory cost less than keeping everything? It depends: on what.

Introduced in notebook 07 ("What you pay"). Each memory's run of the planted dialog
is recorded once (billing.py), then billed against in-memory's run under every
variant of one rule: the cached price from 2 % to 100 % of the input price, the
minimum from 256 to 4,096 tokens, and three ways a customer writes (30-second
pauses; the same with a 45-minute lunch break; every hit only by a coin toss).
A bill is linear in the cached price (bill = A + price x R), so where a memory and
in-memory cost the same, the crossover, is exact: no grid needed.

    runs = record_runs(lengths=(12, 50, 150))   # {(label, turns): RecordedRun}
    sweep = Sweep(runs)
    sweep.ratio("summary 10/4", 50, 0.1, 1024, STEADY)   # 1.07: 7 % dearer
    sweep.crossover("summary 10/4", 50, 1024, STEADY)    # the price it flips at

Left out: rules other than "any prefix" (bill those with billing.bill directly),
prices per model beyond the base rule's output price, and real providers' noise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..lang import say
from ..offline.clock import Schedule
from .billing import RecordedRun, RecordingClient, tally
from .catalogue import make_strategies
from .compare import compare
from .names import strategy_title
from .planted import planted_dialog

BASE = "qwen"  # the rule varied: any prefix, step 1; replies at qwen-plus's price
EXPIRY = 300.0  # seconds: the 5 minutes of Anthropic's and Qwen's explicit caches
SHARES = (0.02, 0.05, 0.10, 0.20, 0.50, 1.00)  # the cached price, of the input's
MINIMUMS = (256, 512, 1024, 2048, 4096)  # the shortest prefix cached, in tokens
LENGTHS = (12, 50, 150)  # turns of the planted dialog
MEMORIES = ("window", "summary", "hybrid", "compact")  # against "inmemory"
FULL = "in-memory"
BUDGET = 32_000  # the agent's token budget while recording: room for every turn


@dataclass(frozen=True)
class Scenario:
    """How the customer writes: the pauses, and how often a prefix hit is found."""

    name: str
    zh: str  # the same name in Chinese
    pause_seconds: float = 30.0
    lunch_seconds: float = 0.0  # before the middle turn
    hit_chance: float = 1.0

    def schedule(self, turns: int) -> Schedule:
        breaks = {turns // 2 + 1: self.lunch_seconds} if self.lunch_seconds else {}
        return Schedule(self.pause_seconds, breaks)

    def title(self, lang: str | None = None) -> str:
        return say(self.name, self.zh, lang)


STEADY = Scenario("30 s pauses, every hit found", "每轮停 30 秒，每次都命中")
LUNCH = Scenario("with a 45-minute lunch break", "中途午休 45 分钟",
                 lunch_seconds=45 * 60)
HALF = Scenario("hits found half the time", "只有一半命中", hit_chance=0.5)
SCENARIOS = (STEADY, LUNCH, HALF)


def record_runs(lengths: Sequence[int] = LENGTHS, memories: Sequence[str] = MEMORIES,
           seed: int = 0, lang: str = "en", max_tokens: int = BUDGET
           ) -> dict[tuple[str, int], RecordedRun]:
    """Play the planted dialog at each length through in-memory and `memories`,
    recording every call: {(label, turns): run}. The agent's token budget is
    `max_tokens`: past the course's 8,000, in-memory would stop answering (and stop
    being billed) long before 150 turns, and the comparison would be with an agent
    that no longer works."""
    runs = {}
    for turns in lengths:
        recorder = RecordingClient()
        dialog = planted_dialog(turns, seed, lang=lang)
        chosen = make_strategies(recorder, ["inmemory", *memories])
        compare(recorder, dialog.turns, chosen, lang=lang, max_tokens=max_tokens)
        runs.update({(label, turns): run
                     for label, run in zip(chosen, recorder.runs, strict=True)})
    return runs


class Sweep:
    """Every memory's bill against in-memory's, as the rule's numbers move."""

    def __init__(self, runs: Mapping[tuple[str, int], RecordedRun], base: str = BASE,
                 expiry_seconds: float = EXPIRY) -> None:
        self.runs, self.base, self.expiry = dict(runs), base, expiry_seconds
        self.labels = list(dict.fromkeys(label for label, _ in runs if label != FULL))
        self.lengths = sorted({turns for _, turns in runs})
        self._lines: dict[tuple, tuple[float, float]] = {}

    def describe(self, lang: str | None = None) -> str:
        """What the sweep bills: memories, lengths, prices, minimums, the rule."""
        low, high = f"{100 * SHARES[0]:g}", f"{100 * SHARES[-1]:g}"
        first, last = f"{MINIMUMS[0]:,}", f"{MINIMUMS[-1]:,}"
        n, lengths = len(self.labels), ", ".join(map(str, self.lengths))
        return say(f"{n} memories against in-memory at {lengths} turns; cached price "
                   f"{low} % to {high} % of the input price ({len(SHARES)} steps); "
                   f"minimum {first} to {last} tokens ({len(MINIMUMS)} steps); any "
                   f"prefix, {self.expiry:.0f}-second expiry",
                   f"{n} 种记忆对比全量记忆，{lengths.replace(', ', '、')} 轮；"
                   f"缓存价格为输入价格的 {low}% 到 {high}%（{len(SHARES)} 档）；"
                   f"最少 {first} 到 {last} 个 token（{len(MINIMUMS)} 档）；"
                   f"任意前缀，{self.expiry:.0f} 秒过期", lang)

    def line(self, label: str, turns: int, minimum: int, scenario: Scenario
             ) -> tuple[float, float]:
        """(A, R): the run's bill is A + cached price x R (input-token equivalents)."""
        key = (label, turns, minimum, scenario)
        if key not in self._lines:
            ends = [tally(self.runs[label, turns], self.base, cached_share=share,
                          min_tokens=minimum, expiry_seconds=self.expiry,
                          schedule=scenario.schedule(turns),
                          hit_chance=scenario.hit_chance).billed for share in (0, 1)]
            self._lines[key] = ends[0], ends[1] - ends[0]
        return self._lines[key]

    def ratio(self, label: str, turns: int, share: float, minimum: int,
              scenario: Scenario = STEADY) -> float:
        """The memory's bill over in-memory's (below 1: the memory is cheaper)."""
        (a, r), (a0, r0) = (self.line(label, turns, minimum, scenario),
                            self.line(FULL, turns, minimum, scenario))
        return (a + share * r) / (a0 + share * r0)

    def crossover(self, label: str, turns: int, minimum: int,
                  scenario: Scenario = STEADY) -> Crossover:
        """Where keeping everything is billed less than the memory: below or above
        the cached price at which both cost the same, always or never."""
        (a, r), (a0, r0) = (self.line(label, turns, minimum, scenario),
                            self.line(FULL, turns, minimum, scenario))
        if abs(a - a0) + abs(r - r0) < 1e-6 * (a0 + r0):  # the same requests
            return Crossover(None, "same")
        free, full = a0 < a, a0 + r0 < a + r  # in-memory cheaper at 0 %, at 100 %
        if free == full:
            return Crossover(None, "always" if free else "never")
        return Crossover((a0 - a) / (r - r0), "below" if free else "above")

    def grid(self, label: str, turns: int, scenario: Scenario = STEADY
             ) -> list[list[float]]:
        """The ratios, a row a minimum (MINIMUMS), a column a price (SHARES)."""
        return [[self.ratio(label, turns, share, m, scenario) for share in SHARES]
                for m in MINIMUMS]


@dataclass(frozen=True)
class Crossover:
    """Where keeping everything is billed less than a memory, in cached prices."""

    share: float | None  # the price both cost the same at (None: no such price)
    full_wins: str  # "below" or "above" it, "always", "never" or "same"

    def text(self, lang: str | None = None, long: bool = False) -> str:
        """"below 12 %", "above 40 %", "always", "never", or why never; `long`:
        "if a cached token costs below 12 % of an input token"."""
        if self.share is None:
            return say(*{"always": ("always", "总是"), "never": ("never", "从不"),
                         "same": ("never (the same requests: nothing compressed yet)",
                                  "从不（请求完全相同：还没压缩过）")
                         }[self.full_wins], lang)
        pct, zh = f"{100 * self.share:.0f}", {"below": "低于", "above": "高于"}
        if long:
            return say(f"if a cached token costs {self.full_wins} {pct} % of an input "
                       "token", f"缓存 token 的价格{zh[self.full_wins]}输入价格的 "
                       f"{pct}%", lang)
        return say(f"{self.full_wins} {pct} %", f"{zh[self.full_wins]} {pct}%", lang)


def statements(sweep: Sweep, minimum: int = 1024, scenario: Scenario = STEADY,
               lang: str | None = None) -> list[str]:
    """One sentence a memory: at which cached prices keeping everything is billed
    less than it, at each length; then the conditions all of them hold under."""
    out = []
    for label in sweep.labels:
        parts, said = [], False  # the first price gets the long form
        for n in sweep.lengths:
            cross = sweep.crossover(label, n, minimum, scenario)
            long = cross.share is not None and not said
            said = said or long
            parts.append(say(f"at {n} turns ", f"{n} 轮时", lang)
                         + cross.text(lang, long))
        out.append(say(f"{strategy_title(label, 'en')}: keeping everything is billed "
                       f"less {', '.join(parts)}",
                       f"{strategy_title(label, 'zh')}：全量记忆更便宜的条件——"
                       f"{'，'.join(parts)}", lang))
    out.append(say(
        f"(the cached price as a share of the input price; any prefix cached from "
        f"{minimum:,} tokens, {sweep.expiry:.0f}-second expiry, {scenario.name}; "
        "replies billed at qwen-plus's output price; every turn answered, no token "
        "budget)",
        f"（缓存价格按输入价格的比例计；任意前缀，{minimum:,} 个 token 起缓存，"
        f"{sweep.expiry:.0f} 秒过期，{scenario.zh}；回复按 `qwen-plus` 的输出价格计费；"
        "每轮都作答，不设 token 预算）",
        lang))
    return out
