"""Filling a memory from the store, without a model call: what loading a session does.

Introduced in notebook 09. A summary strategy gets the newest snapshot and the
messages after it, through its record (persistent.py); any other strategy replays
the whole log (a window trims itself). A stored message longer than
MAX_LOADED_CHARS goes into the memory cut, while the log keeps it whole: one 50 MB
message must not cost a gigabyte to tokenize at every start. A stored tool result
whose call is not right before it (an orphan, written by an older version or by
hand) is dropped with a warning, never sent: providers reject it. The log keeps it,
and the summary's record counts it as a message of the memory's, so a later
snapshot may reach one message less far (a message summarized twice, none lost).
Left out: loading a log in pages.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence

from ..memory.base import ChatMemory
from ..memory.turns import call_before
from ..messages import ChatMessage, Role
from ..storage import Store
from ..storage.base import SummaryState
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


def without_orphans(messages: Sequence[ChatMessage], name: str,
                    first: int = 1) -> list[ChatMessage]:
    """`messages` (numbered from `first` in session `name`) less every tool result
    whose call is not right before it: a warning for each, none sent."""
    kept: list[ChatMessage] = []
    for number, message in enumerate(messages, first):
        if message.role is Role.TOOL and not call_before(kept, message):
            warnings.warn(f"session {name!r}: message {number} answers tool call "
                          f"{message.tool_call_id!r}, which is not before it; it is "
                          "left out of the memory (providers reject it)", stacklevel=3)
            continue
        kept.append(message)
    return kept


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
        kept = without_orphans(after, name, state.covered_up_to + 1)
        record.restore(state, [loaded(m) for m in kept])
        return state.covered_up_to + len(after)
    memory.clear()  # a window or a plain list: replay the log, it trims itself
    log = store.messages(name)
    for message in without_orphans(log, name):
        memory.add(loaded(message))
    return len(log)

