"""MemorySession: any tinyagent memory as an OpenAI Agents SDK session.

Introduced in notebook 10. The SDK's `Runner.run(agent, text, session=...)` reads
the history from a session before each run and adds the run's items to it as they
come (the user's message, then each step's words, calls and results). This class
implements the SDK's `Session` protocol (its `SessionABC`) over a `ChatMemory`, so a
window, a summary or a compact memory decides what the next run sees:

- `add_items` turns the items into messages (items.py) and adds them: the memory
  trims or compresses as it always does;
- `get_items(limit)` is the memory's messages as items, the newest `limit` of
  them (the session's `SessionSettings(limit=N)` when not given), never a
  function call's output without its call: a cut inside a tool step gives fewer;
- `pop_item()` undoes the newest message (`pop()`) and returns its last item;
  when that is a call's output, its call and the step's other outputs go with it
  (the memory never holds a call without its result). Once only a summary is left,
  it cannot be taken apart: UndoError, nothing changed. An empty session gives None;
- `clear_session()` forgets everything, the summary too.

With a `store` (tinyagent.storage: SQLite or PostgreSQL), the memory is a stored
`Session` of notebook 09 named `session_id`: every message is saved as it arrives,
an undo is recorded, and a restart (a new MemorySession on the same store and id)
resumes the conversation. Left out: running a slow summarizer off the event loop
(its model call blocks it, as it blocks ReActAgent), and the SDK's item ids.
"""

from __future__ import annotations

import asyncio

from agents.memory import SessionABC, SessionSettings
from agents.memory.session_settings import resolve_session_limit

from ..memory.base import ChatMemory, add_turn
from ..production.sessions import SessionManager
from ..storage import Store
from .items import Item, from_items, to_items


class MemorySession(SessionABC):
    """`MemorySession(HybridChatMemory(llm))`: the SDK reads and writes the memory."""

    def __init__(self, memory: ChatMemory, session_id: str = "tinyagent", *,
                 store: Store | None = None,
                 session_settings: SessionSettings | None = None) -> None:
        if store is not None:  # saved message by message, resumed after a restart
            memory = SessionManager(store, lambda: memory,
                                    type(memory).__name__).open(session_id)
        self.memory = memory
        self.session_id = session_id
        self.session_settings = session_settings
        self._lock = asyncio.Lock()  # one operation at a time, as the SDK's own

    async def get_items(self, limit: int | None = None) -> list[Item]:
        limit = resolve_session_limit(limit, self.session_settings)
        async with self._lock:
            items = to_items(self.memory.messages())
        if limit is None or limit < 0:  # as SQLiteSession: negative means all
            return items
        return whole_steps(items[len(items) - limit:] if limit else [])

    async def add_items(self, items: list[Item]) -> None:
        messages = from_items(items)
        if not messages:
            return
        async with self._lock:  # a stored session: one transaction a batch
            add_turn(self.memory, messages)

    async def pop_item(self) -> Item | None:
        async with self._lock:
            if not self.memory.messages():
                return None
            message = self.memory.pop()  # type: ignore[attr-defined]
        return to_items([message])[-1]

    async def clear_session(self) -> None:
        async with self._lock:
            self.memory.clear()

    def __repr__(self) -> str:
        return f"MemorySession({self.session_id!r}, {self.memory!r})"


def whole_steps(items: list[Item]) -> list[Item]:
    """`items` less any call output whose call is not among them (a cut tool step)."""
    called = {i["call_id"] for i in items if i.get("type") == "function_call"}
    return [i for i in items if i.get("type") != "function_call_output"
            or i["call_id"] in called]
