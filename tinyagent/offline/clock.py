"""Simulated time for the offline prompt cache: a clock, and when a dialog pauses.

Introduced in notebook 07 ("What you pay"). A provider's cache forgets a prefix
nobody used for a while (a rule's `expiry_seconds`), so what a memory is billed
depends on when the customer writes, not only on what the agent sends. The offline
model never reads the wall clock (its outputs must be the same on every run): it
reads a `Clock` that the dialog runner advances. `Schedule` says by how much:
a pause before every turn, and longer breaks before some (a lunch break).

    llm = LlmClient(offline=True)
    llm.clock.advance(45 * 60)          # the customer went to lunch
    compare(llm, turns, schedule=Schedule(pause_seconds=30, breaks={26: 2700}))

Left out: time spent inside a turn (the offline model answers at once) and real
waiting (nothing sleeps).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


class Clock:
    """Seconds since the conversation began, and how many turns have begun."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.turn = 0

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass (time only moves forward)."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back: seconds must be >= 0, got "
                             f"{seconds}")
        self.seconds += seconds

    def next_turn(self, pause_seconds: float = 0.0) -> None:
        """A new turn begins after `pause_seconds` of silence."""
        self.advance(pause_seconds)
        self.turn += 1

    def reset(self) -> None:
        """Back to the start of a new conversation."""
        self.seconds, self.turn = 0.0, 0

    def __repr__(self) -> str:
        return f"Clock(seconds={self.seconds:g}, turn={self.turn})"


@dataclass(frozen=True)
class Schedule:
    """How long the customer is silent before each turn: `pause_seconds` before
    every turn after the first, and `breaks` {turn: seconds} on top of it."""

    pause_seconds: float = 0.0
    breaks: Mapping[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.pause_seconds < 0 or any(s < 0 for s in self.breaks.values()):
            raise ValueError(f"pauses must be >= 0 seconds (got pause_seconds="
                             f"{self.pause_seconds}, breaks={dict(self.breaks)})")

    def before(self, turn: int) -> float:
        """Seconds of silence before `turn` (1-based; none before the first)."""
        return 0.0 if turn <= 1 else self.pause_seconds + self.breaks.get(turn, 0.0)

    def seconds_at(self, turn: int) -> float:
        """The clock when `turn` begins."""
        return sum(self.before(n) for n in range(1, turn + 1))

    def __repr__(self) -> str:
        breaks = f", breaks={dict(self.breaks)}" if self.breaks else ""
        return f"Schedule(pause_seconds={self.pause_seconds:g}{breaks})"


def lunch_break(turns: int, pause_seconds: float = 30.0,
                lunch_seconds: float = 45 * 60) -> Schedule:
    """`pause_seconds` between turns, and a lunch break before the middle turn."""
    return Schedule(pause_seconds, {turns // 2 + 1: lunch_seconds})
