"""What notebook 03's rounds window stores, measured (for nb03.py).

A window bounds what it stores, not only what it hands out. The checker does not
look for the messages in the memory's attributes (a UserList, a nested object, dicts
made from them would hide them): it measures. With 3,000 messages added, a window of
two rounds may hold no more bytes (tracemalloc: allocated while the messages were
added, and still held) than it held after the first 100; 4,096 bytes more, about
500 references, is a memory that keeps more than its window, however it keeps it.
Left out: time per add (the benchmark, `tinyagent bench`, times it).
"""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

from ...lang import say
from ...messages import ChatMessage
from ...tokens import count_message_tokens
from . import Wrong
from ._dialogs import dialog

# Memory measured over ADDS adds, from the EARLY-th on; more than GROWTH bytes (500
# references) more is a memory that keeps more than its window.
ADDS, EARLY, GROWTH = 3_000, 100, 4_096


def growth(memory: Any, messages: list[ChatMessage], after: int) -> int:
    """Bytes the memory holds more after all `messages` than after the first
    `after` of them (allocated while they were added, and still held: tracemalloc):
    what it keeps, whatever form it keeps it in, the window it shows aside."""
    for message in messages:  # tokens counted once, before: that cache is not growth
        count_message_tokens(message)
    tracing = tracemalloc.is_tracing()  # the learner's own tracing is left running
    if not tracing:
        tracemalloc.start()
    try:
        for message in messages[:after]:
            memory.add(message)
        gc.collect(1)  # the young generations: what the adds left
        early = tracemalloc.get_traced_memory()[0]
        for message in messages[after:]:
            memory.add(message)
        gc.collect(1)  # the young generations: what the adds left
        return tracemalloc.get_traced_memory()[0] - early
    finally:
        if not tracing:
            tracemalloc.stop()


def stores_only_the_window(memory_class: Any) -> bool:
    """A window bounds what it stores, not only what it hands out: measured."""
    pool = dialog("pt" * 4, 12)  # a few message objects, added again and again
    stream = [pool[i % len(pool)] for i in range(ADDS)]
    memory = memory_class(2)
    grown = growth(memory, stream, EARLY)
    held = len(memory.messages())
    if grown > GROWTH:
        raise Wrong(say(f"with max_rounds=2, {ADDS:,} messages added: messages() "
                        f"returns {held}, but the memory holds {grown:,} bytes more "
                        f"than after {EARLY} messages (a window that stores only its "
                        "rounds holds as much after 100 messages as after "
                        f"{ADDS:,})",
                        f"max_rounds=2，加入 {ADDS:,} 条消息：messages() 返回 {held} "
                        f"条，但记忆比加入 {EARLY} 条时多占的内存得到 {grown:,} 字节；"
                        f"应为几乎为 0（只存窗口的记忆，{EARLY} 条之后和 {ADDS:,} 条"
                        "之后占的一样多）"),
                    say("a window that slices only when read, or keeps a long buffer "
                        "behind it, still stores what it no longer shows",
                        "只在读取时切片、或在背后留着一长串缓冲的窗口，仍然存着"
                        "它已经不显示的消息"))
    return True


__all__ = ["ADDS", "EARLY", "GROWTH", "growth", "stores_only_the_window"]
