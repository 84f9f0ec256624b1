"""InMemoryChatMemory: keep every message, forever.

Introduced in notebook 02. It fixes the stateless agent's amnesia with the simplest
possible thing, an unbounded list, and shows the cost: every turn resends the whole
history, so prompt tokens grow without limit. Left out: any bound (notebook 03 adds
one) and persistence (the list dies with the process; notebook 09).
"""

from __future__ import annotations

from .base import BaseChatMemory


class InMemoryChatMemory(BaseChatMemory):
    """All messages, oldest first. `_trim` is the base's: it keeps everything."""
