"""Filling a memory from the store, without a model call: what loading a session does.

Introduced in notebook 07. A summary strategy gets the newest snapshot and the
messages after it; any other strategy replays the whole log (a window trims
itself). A stored message longer than MAX_LOADED_CHARS goes into the memory cut,
while the log keeps it whole: one 50 MB message must not cost a gigabyte to
tokenize at every start. Left out: loading a log in pages.
"""

from __future__ import annotations

import dataclasses

from ..memory.base import ChatMemory
from ..memory.compressed import CompressedMemory
from ..messages import ChatMessage
from ..storage import Store, SummaryState

# A stored message longer than this is loaded into the memory cut (the log keeps it
# whole): one 50 MB message must not cost a gigabyte to tokenize at every start.
MAX_LOADED_CHARS = 100_000
def loaded(message: ChatMessage) -> ChatMessage:
    """`message`, cut to MAX_LOADED_CHARS characters if it is longer."""
    if len(message.content) <= MAX_LOADED_CHARS:
        return message
    cut = f"{message.content[:MAX_LOADED_CHARS]}… [cut: {len(message.content):,} chars]"
    return dataclasses.replace(message, content=cut)


def summarized(memory: ChatMemory) -> CompressedMemory | None:
    """`memory` if it keeps a summary (and so a record to save), else None."""
    return memory if isinstance(memory, CompressedMemory) else None


def snapshot(memory: ChatMemory) -> SummaryState | None:
    """The summary record of `memory`; None for a memory without a summary."""
    summary = summarized(memory)
    return summary.state if summary is not None else None


def restore(memory: ChatMemory, store: Store, name: str) -> int:
    """Fill `memory` from the store, without a model call; the messages it reflects."""
    if (summary := summarized(memory)) is not None:  # newest snapshot + the rest
        state = store.summary(name) or SummaryState()
        after = store.messages(name, after=state.covered_up_to)
        summary.restore(state, [loaded(m) for m in after])
        return state.covered_up_to + len(after)
    memory.clear()  # a window or a plain list: replay the log, it trims itself
    log = store.messages(name)
    for message in log:
        memory.add(loaded(message))
    return len(log)
