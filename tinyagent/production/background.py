"""Compression in the background: the turn ends now, the summary is ready later.

Introduced in notebook 07 (Nexus Agent refreshes its summary after each turn on a
small pool, one refresh in flight per conversation, SPEC §7). With a real model a
summary takes seconds, and the customer should not wait for it. This memory is the
incremental one with one method overridden: `_trim` hands the slow step to a
ThreadPoolExecutor instead of running it. Until the result is applied, the next
turn uses whatever is ready: the old summary and the turns still held verbatim.
The result is applied atomically under the memory's lock (incremental.py), and
dropped if the memory was cleared or restored meanwhile.

At most one compression is in flight per memory, so per session: a turn that ends
while one runs starts nothing; when the running one finishes it plans again and
picks up what accumulated (up to `batch_turns`). Left out: cancelling, retrying
with backoff, and process pools.
"""

from __future__ import annotations

import threading
from concurrent.futures import Executor, Future, ThreadPoolExecutor

from ..llm import SupportsChat
from .incremental import Batch, IncrementalSummaryMemory, SummaryState
from .structured import MAX_RENDER_CHARS

_shared: ThreadPoolExecutor | None = None
_shared_lock = threading.Lock()


def shared_executor() -> ThreadPoolExecutor:
    """The small pool every background memory uses unless given its own."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = ThreadPoolExecutor(2, thread_name_prefix="tinyagent-summary")
        return _shared


class BackgroundSummaryMemory(IncrementalSummaryMemory):
    """IncrementalSummaryMemory whose compressions run on a thread pool."""

    def __init__(self, llm: SupportsChat, keep_recent_turns: int = 4,
                 batch_turns: int = 6, *, max_summary_chars: int = MAX_RENDER_CHARS,
                 executor: Executor | None = None) -> None:
        super().__init__(llm, keep_recent_turns, batch_turns,
                         max_summary_chars=max_summary_chars)
        self.executor = executor or shared_executor()
        self.in_flight: Future[bool] | None = None  # the one running compression

    def _trim(self) -> None:  # runs under the lock, at the end of add()
        if self.in_flight is not None:
            return  # one at a time: it plans again when it finishes
        batch = self.plan()
        if batch is not None:
            self.in_flight = self.executor.submit(self._run, batch)

    def _run(self, batch: Batch) -> bool:
        """On a pool thread: summarize outside the lock, apply inside it."""
        try:
            text = self.summarize(batch)  # falls back on model errors; may still raise
        except BaseException:
            with self._lock:  # free the slot but plan nothing: replanning the same
                self.in_flight = None  # batch now would fail the same way, forever.
            raise  # the next turn's add() tries again; wait() re-raises this
        with self._lock:
            applied = self.apply(batch, text)
            self.in_flight = None
            self._trim()  # pick up the turns that ended meanwhile
        return applied

    def wait(self) -> SummaryState:
        """Block until no compression is in flight; the state afterwards."""
        while (future := self.in_flight) is not None:
            future.result()
        return self.state
