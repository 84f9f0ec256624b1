"""A summarizing session built the way the OpenAI cookbook builds one, to grade it.

Introduced in notebook 10. The cookbook's "Context Engineering - Short-Term Memory
Management with Sessions" notebook keeps the newest turns verbatim and, once the
conversation has more than `context_limit` user turns, replaces everything older
than the newest `keep_last_n_turns` turns with two synthetic messages: a user line
asking for a summary, and the summary as the assistant's answer. This class does the
same with this package's summarizer (so the offline model writes the summary), over
plain item lists. What it shows in notebook 10: a summary in the assistant's mouth
is not fenced, so whatever it repeats reads as something the clerk said. Left out:
the cookbook's metadata records, and its prompt (the offline model answers this
package's summarizer prompt).
"""

from __future__ import annotations

from typing import Any

from ..agents_sdk.items import Item, from_items
from ..chat_model import SupportsChat
from ..memory.summarizer import Summarizer

SHADOW = "Summarize the conversation we had so far."  # the synthetic user line


class CookbookSummarizingSession:
    """The SDK's Session protocol over a list of items, summarized by turns."""

    session_settings: Any = None

    def __init__(self, llm: SupportsChat, keep_last_n_turns: int = 2,
                 context_limit: int = 4, session_id: str = "cookbook") -> None:
        if not 1 <= keep_last_n_turns <= context_limit:
            raise ValueError(f"need 1 <= keep_last_n_turns <= context_limit, got "
                             f"{keep_last_n_turns} and {context_limit}")
        self.session_id = session_id
        self.keep_last_n_turns, self.context_limit = keep_last_n_turns, context_limit
        self.summarizer = Summarizer(llm)
        self.items: list[Item] = []
        self.synthetic = 0  # how many leading items are the synthetic pair

    def _user_starts(self) -> list[int]:
        """Where each real user turn starts (the synthetic pair is not one)."""
        return [i for i, item in enumerate(self.items)
                if i >= self.synthetic and item.get("role") == "user"]

    async def add_items(self, items: list[Item]) -> None:
        self.items += [dict(item) for item in items]
        starts = self._user_starts()
        if len(starts) <= self.context_limit:
            return
        boundary = starts[-self.keep_last_n_turns]
        previous = self.items[1]["content"] if self.synthetic else None
        old = from_items(self.items[self.synthetic:boundary])
        summary = self.summarizer.summarize(previous, old)
        self.items = [{"role": "user", "content": SHADOW},
                      {"role": "assistant", "content": summary},
                      *self.items[boundary:]]
        self.synthetic = 2

    async def get_items(self, limit: int | None = None) -> list[Item]:
        return [dict(i) for i in (self.items[-limit:] if limit else self.items)]

    async def pop_item(self) -> Item | None:
        if not self.items:
            return None
        self.synthetic = min(self.synthetic, len(self.items) - 1)
        return self.items.pop()

    async def clear_session(self) -> None:
        self.items, self.synthetic = [], 0
