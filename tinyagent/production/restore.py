"""Filling a memory from the store, without a model call: what loading a session does.

Introduced in notebook 08. A summary strategy gets the newest snapshot and the
messages after it, through its record (persistent.py); any other strategy replays
the whole log (a window trims itself). A stored message longer than
MAX_LOADED_CHARS goes into the memory cut, while the log keeps it whole: one 50 MB
message must not cost a gigabyte to tokenize at every start. Left out: loading a
log in pages.
"""

from __future__ import annotations

import dataclasses

from ..memory.base import ChatMemory
from ..memory.compressed import SummaryState
from ..messages import ChatMessage
from ..storage import Store
from .persistent import Persistent, Recorded, recorded

# A stored message longer than this is loaded into the memory cut (the log keeps it
# whole): one 50 MB message must not cost a gigabyte to tokenize at every start.
MAX_LOADED_CHARS = 100_000


def loaded(message: ChatMessage) -> ChatMessage:
    """`message`, cut to MAX_LOADED_CHARS characters if it is longer."""
    if len(message.content) <= MAX_LOADED_CHARS:
        return message
    cut = f"{message.content[:MAX_LOADED_CHARS]}… [cut: {len(message.content):,} chars]"
    return dataclasses.replace(message, content=cut)


def record_of(memory: ChatMemory | Persistent) -> Persistent | None:
    """The record of `memory`, or `memory` itself when it is one already."""
    return memory if isinstance(memory, Recorded) else recorded(memory)


def snapshot(memory: ChatMemory | Persistent) -> SummaryState | None:
    """The summary record of `memory`; None for a memory without a summary."""
    record = record_of(memory)
    return record.state if record is not None else None


def load_memory(memory: ChatMemory | Persistent, store: Store, name: str) -> int:
    """Fill `memory` from the store, without a model call; the messages it reflects."""
    record = record_of(memory)
    if record is not None:  # newest snapshot + the rest
        state = store.summary(name) or SummaryState()
        after = store.messages(name, after=state.covered_up_to)
        record.restore(state, [loaded(m) for m in after])
        return state.covered_up_to + len(after)
    memory.clear()  # a window or a plain list: replay the log, it trims itself
    log = store.messages(name)
    for message in log:
        memory.add(loaded(message))
    return len(log)


restore = load_memory  # the earlier name; a memory's restore() is another thing
