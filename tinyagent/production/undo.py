"""Undo for a stored session: the memory and the store take the message back together.

Introduced in notebook 10 (the SDK session's `pop_item`, the chat's `/undo`), on
notebook 09's sessions. `Session.pop()` undoes the memory first (its own rules:
the newest message, or its whole tool step; an UndoError when a summary holds it),
then removes the same messages from the store with a compare-and-swap
(`Store.pop_messages`), so a restart does not bring them back. If another writer
changed the session meanwhile, nothing is removed from the store: the memory is
reloaded from it and the error says so.

Another writer's undo must not go unnoticed either: after it, the log has the same
length as before a new message took the old one's number. So each handle keeps the
newest stored message it knows, and after an append compares it with the message
the store has just before its own; if they differ, the handle reloads (sessions.py).
Left out: redo, and undoing a message another handle wrote.
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING

from ..lang import say
from ..memory.base import ChatMemory
from ..messages import ChatMessage
from ..storage import Store, StoreError
from .restore import loaded

if TYPE_CHECKING:
    from .persistent import Persistent


class Undo:
    """What a Session adds for undo; it sets every attribute named below."""

    name: str
    memory: ChatMemory
    store: Store
    _target: ChatMemory
    _record: Persistent | None
    _lock: threading.RLock
    _seen: int
    _newest: ChatMessage | None  # the newest stored message this handle knows

    def _reload(self) -> None: ...

    def pop(self) -> ChatMessage:
        """Undo the newest message (with its tool step), in memory and in the store."""
        pop = getattr(self._target, "pop", None)
        if pop is None:
            raise TypeError(f"{type(self.memory).__name__} has no pop(): undo needs a "
                            "memory of this package, or one with pop()")
        record = self._record
        memory_lock = contextlib.nullcontext() if record is None else record.locked()
        with memory_lock, self._lock:
            held = self.memory.messages()
            message = pop()  # the memory's own refusal (UndoError) changes nothing
            gone = held[len(self.memory.messages()):]
            first = self._seen - len(gone) + 1
            stored = self.store.messages(self.name, after=first - 1)
            if [loaded(m) for m in stored] == gone and self.store.pop_messages(
                    self.name, stored, self._seen):
                self._seen = first - 1
                self._newest = self._stored(first - 1)
                return message
        self._reload()  # another writer changed the session: take what it holds
        raise StoreError(say(
            f"session {self.name!r} was changed by another writer meanwhile, so "
            "nothing was undone; it is reloaded: look at it and undo again",
            f"会话 {self.name!r} 同时被另一个写入方修改，所以没有撤销任何消息；"
            "已重新加载：请查看后再撤销"))

    def _stored(self, number: int) -> ChatMessage | None:
        """Stored message `number` (None for 0)."""
        return next(iter(self.store.messages(self.name, after=number - 1)), None) \
            if number else None

    def _tail_moved(self, first: int) -> bool:
        """Whether the message stored just before `first` is not the newest one
        this handle knew: another writer undid it and wrote another in its place."""
        return first > 1 and self._stored(first - 1) != self._newest
