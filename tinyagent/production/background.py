"""Compression in the background: the turn ends now, the summary is ready later.

Introduced in notebook 09: the summary is refreshed after each turn on a small pool,
one refresh in flight per conversation. With a real model a summary takes seconds,
and the customer should not wait for it. This memory is the incremental one with
one method overridden: `_trim` hands the slow step to a pool instead of running it.
Until the result is applied, the next turn uses whatever is ready: the old summary
and the turns still held verbatim. The result is applied atomically under the
memory's lock (incremental.py), and dropped if the memory was cleared or restored
meanwhile.

At most one compression is in flight per memory, and per session in a process
(incremental.InFlight): a turn that ends while one runs starts nothing; when the
running one finishes it plans again and picks up what accumulated (up to
`batch_turns`). If it fails, the slot is freed all the same and the next turn tries
again. The shared pool runs each job on a daemon thread: a process that exits while
a slow model call is in flight does not wait for it; the result is abandoned and
recomputed from the stored turns next time. Left out: cancelling, retrying with
backoff, and process pools.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from ..chat_model import SupportsChat
from ..memory.budget import DEFAULT_SUMMARY_TOKENS
from ..storage.base import SummaryState
from .incremental import IN_FLIGHT, Batch, IncrementalSummaryChatMemory
from .structured import MAX_RENDER_CHARS

T = TypeVar("T")


class DaemonPool(Executor):
    """At most `workers` jobs at once, each on a daemon thread.

    A ThreadPoolExecutor joins its threads when the interpreter exits, so a process
    with a slow summary in flight would wait for the model before exiting.
    """

    def __init__(self, workers: int = 2) -> None:
        self._slots = threading.BoundedSemaphore(workers)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any
               ) -> Future[T]:
        future: Future[T] = Future()

        def run() -> None:
            with self._slots:
                if not future.set_running_or_notify_cancel():
                    return
                try:
                    future.set_result(fn(*args, **kwargs))
                except BaseException as error:  # the waiter gets it from the future
                    future.set_exception(error)

        threading.Thread(target=run, name="tinyagent-summary", daemon=True).start()
        return future


_shared: DaemonPool | None = None
_shared_lock = threading.Lock()


def shared_executor() -> DaemonPool:
    """The small pool every background memory uses unless given its own."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = DaemonPool(2)
        return _shared


class BackgroundSummaryChatMemory(IncrementalSummaryChatMemory):
    """IncrementalSummaryChatMemory whose compressions run on a thread pool."""

    def __init__(self, llm: SupportsChat, keep_recent_turns: int = 4,
                 batch_turns: int = 6, *, max_summary_chars: int = MAX_RENDER_CHARS,
                 max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 executor: Executor | None = None, lang: str | None = None) -> None:
        super().__init__(llm, keep_recent_turns, batch_turns,
                         max_summary_chars=max_summary_chars,
                         max_summary_tokens=max_summary_tokens, lang=lang)
        self.executor = executor or shared_executor()
        self.in_flight: Future[bool] | None = None  # the one running compression

    def _trim(self) -> None:  # runs under the lock, at the end of add()
        if self.in_flight is not None or not IN_FLIGHT.claim(self.flight_key):
            return  # one at a time: the running one plans again when it finishes
        batch = self.plan()
        try:
            if batch is not None:
                self.in_flight = self.executor.submit(self._run, batch)
                return
        except RuntimeError:  # the pool was shut down (the process is exiting)
            pass
        IN_FLIGHT.release(self.flight_key)

    def _free(self) -> None:
        with self._lock:
            self.in_flight = None
            IN_FLIGHT.release(self.flight_key)

    def _run(self, batch: Batch) -> bool:
        """On a pool thread: summarize outside the lock, apply inside it."""
        try:
            text = self.summarize(batch)  # falls back on model errors; may still raise
            with self._lock:
                applied = self.apply(batch, text)  # saving it may raise too
        except BaseException:
            # Free the slot but plan nothing: replanning the same batch now would
            # fail the same way. The next add() tries again.
            self._free()
            raise
        with self._lock:
            self._free()
            self._trim()  # pick up the turns that ended meanwhile
        return applied

    def wait(self) -> SummaryState:
        """Block until no compression is in flight; the state afterwards."""
        while True:
            with self._lock:  # an add() starting a compression finishes starting it
                future = self.in_flight
            if future is None:
                return self.state
            future.result()

