"""SlidingWindowChatMemory: keep the newest messages, forget the rest.

Introduced in notebook 03. The first bound on memory: the prompt stops growing, at
the price of forgetting (with a window of 4 messages, turn 4 no longer sees turn 1).
It counts messages; `from_rounds(3)` says the same in rounds, the way people count
exchanges (one round = one user + one assistant message, so 6 messages).

It cuts only between turns (see base.py): cutting inside a turn could keep a tool
result whose call is gone, which providers reject. What that means in practice:

- a plain user/assistant chat holds exactly the newest `max_messages` messages after
  each exchange when `max_messages` is even; an odd size holds one fewer, because
  half a turn is never kept;
- a single turn longer than the window (many tool calls) is kept whole, alone, until
  the next turn starts: an answer without its question would be worse than a long
  prompt.

Its errors speak the package's language at the time (`set_lang`): a window writes
nothing else a person reads. Left out: a budget in tokens (token_window.py) and
remembering what fell out of the window (summary.py, hybrid.py).
"""

from __future__ import annotations

from ..checks import check_size
from .base import BaseChatMemory


class SlidingWindowChatMemory(BaseChatMemory):
    """The newest whole turns that fit in `max_messages` messages."""

    _repr_fields = ("max_messages",)

    def __init__(self, max_messages: int) -> None:
        check_size("max_messages", max_messages, 2, "one user + one assistant",
                   why_zh="一轮对话需要一条用户消息和一条助手消息")
        super().__init__()
        self.max_messages = max_messages

    @classmethod
    def from_rounds(cls, rounds: int) -> SlidingWindowChatMemory:
        """A window of `rounds` exchanges: from_rounds(3) keeps 6 messages."""
        check_size("rounds", rounds, 1, "one round = one user + one assistant message",
                   why_zh="一轮 = 一条用户消息 + 一条助手消息")
        return cls(max_messages=2 * rounds)

    def _trim(self) -> None:
        while len(self) > self.max_messages:  # drop whole turns, oldest first
            if not self._pop_oldest_turn():
                break  # only the newest turn is left: kept whole, even if too long
