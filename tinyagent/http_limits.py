"""Bounds on one HTTP exchange with a real model: time, body size, Retry-After.

Introduced with `LlmClient` in notebook 00, which promises in its banner how long a
call may take at most. Three things a server can do break that promise, or the
memory, unless the client bounds them itself:

- a slow trickle (a byte every half second) never trips the HTTP timeout, which
  counts per read: here the whole body must arrive within the attempt's timeout
  (at the deadline a timer shuts the socket, so a blocked read ends too);
- a small gzip body can inflate a thousandfold: here the body is inflated by us,
  and refused past MAX_INFLATED_BYTES (a reply is capped at about a thousand
  tokens, so two megabytes is already far more than any real one); a plain body
  is refused past MAX_BODY_BYTES;
- the SDK honours a Retry-After of up to two minutes: here a wait longer than the
  back-off the banner counted is dropped, and the SDK's own back-off applies.

They are event hooks on the SDK's own HTTP client, so its proxy settings and its
redirects (which never forward the key to another host) stay as they are. The
headers arrive before any hook runs: a trickle there is bounded by the same
deadline, one level down, in the client's network streams (http_deadline.py).
Left out: brotli or zstd bodies (refused: they cannot be inflated with a bound
here).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import socket
import ssl
import threading
import time
import weakref
import zlib
from collections.abc import Iterator
from typing import Any

from .http_deadline import install as install_deadline
from .lang import say

MAX_BODY_BYTES = 8 * 2**20  # as sent; a server ignoring max_tokens still stops here
MAX_INFLATED_BYTES = 2 * 2**20  # a compressed body, inflated: real ones are kilobytes
SHORTEST_BACKOFF = 0.5  # seconds: the SDK's first back-off, the least max_wait counts
ORIGINAL_RETRY_AFTER = "x-tinyagent-retry-after"  # kept for the error's hint


def http_library() -> Any:
    """The HTTP package the SDK's client is built on (httpx, or its successor)."""
    import openai

    base = next(c for c in openai.DefaultHttpxClient.__mro__ if c.__name__ == "Client")
    return importlib.import_module(base.__module__.split(".")[0])


class LimitedBody:
    """A response body read within a deadline and a size, inflated by us."""

    def __init__(self, lib: Any, stream: Any, deadline: float, timeout: float,
                 encoding: str, sock: Any) -> None:
        self.lib, self.stream, self.socket = lib, stream, sock
        self.deadline, self.timeout = deadline, timeout
        # wbits 47 = 32 + 15: a zlib or a gzip stream, told apart by its header
        self.inflater = None if encoding in ("", "identity") else zlib.decompressobj(47)

    def __iter__(self) -> Iterator[bytes]:
        # At the deadline the socket is shut: a read blocked between two bytes of a
        # trickle returns at once, and the attempt ends on time, not a byte later.
        timer = threading.Timer(max(self.deadline - time.monotonic(), 0), self.cut)
        timer.daemon = True
        timer.start()
        size, limit = 0, MAX_BODY_BYTES if self.inflater is None else MAX_INFLATED_BYTES
        try:
            for raw in self.stream:
                if time.monotonic() > self.deadline:
                    raise self.timed_out()
                chunk = self.inflate(raw, limit - size, limit)
                size += len(chunk)
                yield chunk
        except self.lib.TransportError:
            if time.monotonic() >= self.deadline:  # we shut it: say why
                raise self.timed_out() from None
            raise
        finally:
            timer.cancel()

    def timed_out(self) -> Exception:
        return self.lib.ReadTimeout(say(f"the reply took longer than {self.timeout:g}s "
                                        "to arrive",
                                        f"回复超过 {self.timeout:g} 秒仍未到达"))

    def cut(self) -> None:
        with contextlib.suppress(OSError, AttributeError):
            self.socket.shutdown(socket.SHUT_RDWR)

    def inflate(self, raw: bytes, room: int, limit: int) -> bytes:
        if self.inflater is None:
            chunk = raw
        else:
            try:
                chunk = self.inflater.decompress(raw, room + 1)
            except zlib.error as error:
                raise self.lib.DecodingError(say(
                    f"the compressed body is corrupt ({error})",
                    f"压缩的内容已损坏（{error}）")) from None
        if len(chunk) > room or (self.inflater and self.inflater.unconsumed_tail):
            raise self.lib.DecodingError(say(f"the reply is larger than "
                                             f"{limit // 2**20} MB",
                                             f"回复超过 {limit // 2**20} MB"))
        return chunk

    def close(self) -> None:
        self.stream.close()


def limited_client(timeout: float) -> Any:
    """The SDK's default HTTP client with the three bounds above."""
    import openai

    lib = http_library()
    # the library checks that a body is one of its own sync streams
    body = type("LimitedBody", (LimitedBody, lib.SyncByteStream), {})
    started: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()

    def on_request(request: Any) -> None:
        started[request] = time.monotonic()
        if deadline is not None:  # connecting and the headers: the same deadline
            deadline.start(timeout)

    def on_response(response: Any) -> None:
        headers = response.headers
        for name in ("retry-after-ms", "retry-after"):
            wait = retry_after_seconds(name, headers.get(name))
            if wait is not None and wait > SHORTEST_BACKOFF:
                headers[ORIGINAL_RETRY_AFTER] = headers[name]
                del headers[name]
        encoding = headers.get("content-encoding", "").strip().lower()
        if encoding not in ("", "identity", "gzip", "x-gzip", "deflate"):
            raise lib.DecodingError(say(
                f"the reply is compressed with {encoding!r}, which this client does "
                "not inflate", f"回复使用 {encoding!r} 压缩，本客户端无法解压"))
        if encoding:
            del headers["content-encoding"]  # inflated by LimitedBody, within bounds
        begun = started.get(response.request, time.monotonic())
        network = response.extensions.get("network_stream")
        sock = network.get_extra_info("socket") if network is not None else None
        response.stream = body(lib, response.stream, begun + timeout, timeout,
                               encoding, sock)

    options = {} if shared_tls() is None else {"verify": shared_tls()}
    client = openai.DefaultHttpxClient(event_hooks={"request": [on_request],
                                                    "response": [on_response]},
                                       **options)
    deadline = install_deadline(client)
    return client


@functools.cache
def shared_tls() -> ssl.SSLContext | None:
    """One TLS context for every client of this process, made as the library makes
    its own (certificates from the environment, else the bundled ones). Loading the
    certificates costs about 80 ms: once, not at every LlmClient's first call."""
    make = getattr(http_library(), "create_ssl_context", None)
    return make() if make is not None else None


def retry_after_seconds(name: str, value: str | None) -> float | None:
    """A Retry-After header in seconds (an HTTP date counts as long)."""
    if value is None:
        return None
    try:
        return float(value) / (1000 if name == "retry-after-ms" else 1)
    except ValueError:
        return float("inf")
