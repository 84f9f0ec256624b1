"""One deadline for a whole HTTP attempt: connecting, the headers, the body.

Introduced with `LlmClient` in notebook 00, whose banner promises how long a call
may take at most. The HTTP library's timeouts count per read: a server that sends
its headers a byte every half second never trips them, and the SDK's event hooks
(http_limits.py) run only once the headers are in. So the client's connections are
opened through this network backend, which gives every read and write no more time
than the attempt has left, and ends the attempt with the library's own ReadTimeout
at the deadline, wherever the bytes stopped: the SDK then retries or reports it as
the timeout it is.

The deadline is set per thread when a request starts (`start`), so one client used
from several threads gives each call its own. Left out: HTTP/2 (the SDK's client
speaks HTTP/1.1) and async clients.
"""

from __future__ import annotations

import importlib
import threading
import time
from typing import Any


class DeadlineBackend:
    """Wraps the HTTP core's network backend: streams that honour the deadline."""

    def __init__(self, inner: Any, timeout_error: type[Exception]) -> None:
        self.inner, self.timeout_error = inner, timeout_error
        self._local = threading.local()  # .deadline: this thread's attempt's end

    def start(self, seconds: float) -> None:
        """A new attempt begins on this thread: it has `seconds` from now."""
        self._local.deadline = time.monotonic() + seconds

    def left(self, timeout: float | None) -> float | None:
        """`timeout` shortened to what the attempt has left; raise once none is."""
        deadline = getattr(self._local, "deadline", None)
        if deadline is None:
            return timeout
        left = deadline - time.monotonic()
        if left <= 0:
            raise self.timeout_error("the attempt's deadline passed")
        return left if timeout is None else min(timeout, left)

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    **options: Any) -> DeadlineStream:
        stream = self.inner.connect_tcp(host, port, self.left(timeout), **options)
        return DeadlineStream(stream, self)

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            **options: Any) -> DeadlineStream:
        stream = self.inner.connect_unix_socket(path, self.left(timeout), **options)
        return DeadlineStream(stream, self)

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class DeadlineStream:
    """A network stream whose every read and write ends by the deadline."""

    def __init__(self, inner: Any, backend: DeadlineBackend) -> None:
        self.inner, self.backend = inner, backend

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        data: bytes = self.inner.read(max_bytes, self.backend.left(timeout))
        return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.inner.write(buffer, self.backend.left(timeout))

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> DeadlineStream:
        return DeadlineStream(self.inner.start_tls(
            ssl_context, server_hostname, self.backend.left(timeout)), self.backend)

    def close(self) -> None:
        self.inner.close()

    def get_extra_info(self, info: str) -> Any:
        return self.inner.get_extra_info(info)


def install(client: Any) -> DeadlineBackend | None:
    """Put one DeadlineBackend under every connection pool of an SDK HTTP client
    (the direct one and each proxy's); None if the client is not built that way."""
    transports = [client._transport, *getattr(client, "_mounts", {}).values()]
    pools = [getattr(t, "_pool", None) for t in transports if t is not None]
    pools = [p for p in pools if hasattr(p, "_network_backend")]
    if not pools:
        return None
    core = importlib.import_module(type(pools[0]).__module__.split(".")[0])
    backend = DeadlineBackend(pools[0]._network_backend, core.ReadTimeout)
    for pool in pools:
        pool._network_backend = backend
    return backend
