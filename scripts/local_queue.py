"""Who computes next on the room's one model: a bounded first-come queue.

Used by scripts/local_server.py. One model computes one reply at a time (two side by
side on a laptop's cores are each slower than one after the other). So requests
wait in line, first come first served, and the line is bounded: past `waiting`
requests a new one is refused at once (HTTP 503, "try again shortly") rather than
left to wait minutes for its client's timeout. A request whose client hangs up while
it waits leaves the line without costing the model anything; one whose client hangs
up while its reply is computed is stopped at the next token (`hung_up`).
Left out: priorities, per-learner fairness, several models.
"""

from __future__ import annotations

import select
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

POLL = 0.2  # seconds between two looks at a waiting client's socket


class Busy(Exception):
    """The line is full: the request is refused (HTTP 503)."""


def hung_up(sock: socket.socket) -> bool:
    """Whether the client at the other end closed the connection. A closed socket
    reads as ready with no data; the request itself was read already, so any data
    waiting is the client's next request, not a hang-up."""
    try:
        ready, _, _ = select.select([sock], [], [], 0)
        return bool(ready) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # reset, or closed on our side
        return True


class Line:
    """`with line.turn(gone) as ok:` waits its turn; ok is False if the client left."""

    def __init__(self, waiting: int) -> None:
        if waiting < 0:
            raise ValueError(f"waiting must be >= 0, got {waiting}")
        self.waiting = waiting  # how many may wait behind the one computing
        self._queue: deque[object] = deque()  # the one computing first, then in order
        self._changed = threading.Condition()
        self.served = self.refused = self.dropped = 0  # counts, for the log

    def __len__(self) -> int:
        with self._changed:
            return len(self._queue)

    @contextmanager
    def turn(self, gone: Callable[[], bool]) -> Iterator[bool]:
        ticket, ours = object(), True
        with self._changed:
            if len(self._queue) > self.waiting:
                self.refused += 1
                raise Busy(f"{len(self._queue) - 1} requests are waiting already")
            self._queue.append(ticket)
            while self._queue[0] is not ticket:
                self._changed.wait(POLL)
                if self._queue[0] is not ticket and gone():  # left the line
                    self._queue.remove(ticket)
                    self.dropped, ours = self.dropped + 1, False
                    self._changed.notify_all()
                    break
        try:
            yield ours
        finally:
            if ours:
                with self._changed:
                    self._queue.popleft()  # ours is the head until now
                    self.served += 1
                    self._changed.notify_all()
