"""Rules of the attempt's deadline (http_deadline.py), against a raw socket server
that sends exactly the bytes each test names, as slowly as it names."""

import json
import socket
import threading
import time

import pytest

from tinyagent import ChatMessage, LlmClient
from tinyagent.http_deadline import DeadlineBackend
from tinyagent.llm import LlmError

HELLO = [ChatMessage.user("hello")]
BODY = json.dumps({"id": "c", "object": "chat.completion", "created": 0,
                   "model": "m", "choices": [{"index": 0, "finish_reason": "stop",
                   "message": {"role": "assistant", "content": "hi"}}],
                   "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                             "total_tokens": 2}}).encode()
WHOLE = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
         + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)


class RawServer:
    """Answers the Nth request on any connection with `replies[N]` (the last one
    repeats): bytes sent at once, or (bytes, seconds between two of them)."""

    def __init__(self, replies):
        self.replies, self.count = replies, 0
        self.stop = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn):
        with conn:
            buffer = b""
            while not self.stop.is_set():
                while b"\r\n\r\n" not in buffer:  # the request's headers
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    buffer += chunk
                head, _, buffer = buffer.partition(b"\r\n\r\n")
                length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                                  if line.lower().startswith(b"content-length")))
                while len(buffer) < length:
                    buffer += conn.recv(65536)
                buffer = buffer[length:]
                reply = self.replies[min(self.count, len(self.replies) - 1)]
                self.count += 1
                data, pause = reply if isinstance(reply, tuple) else (reply, 0)
                try:
                    for start in range(0, len(data), 1 if pause else len(data)):
                        if pause and self.stop.wait(pause):
                            return
                        conn.sendall(data[start:start + (1 if pause else len(data))])
                except OSError:  # the client hung up: what a deadline does
                    return

    def close(self):
        self.stop.set()
        self.sock.close()


@pytest.fixture
def raw_server(request):
    server = RawServer(request.param)
    yield server
    server.close()


# A status line, then a header a byte every 0.05 s: 10 s in all, so a client that
# waits for the whole of it fails the test in seconds rather than hanging it.
TRICKLED_HEADERS = (b"HTTP/1.1 200 OK\r\nx-slow: " + b"a" * 200 + b"\r\n", 0.05)


@pytest.mark.parametrize("raw_server", [[WHOLE, TRICKLED_HEADERS]], indirect=True)
def test_headers_that_trickle_end_at_the_attempts_deadline(raw_server):
    """The first reply is whole; the second sends its status line, then a header a
    byte every 0.05 s for 10 s. Each read is quick, so no read timeout fires: the
    attempt's deadline (0.25 s) ends it, on a reused connection, as a timeout."""
    llm = LlmClient(api_key="k", base_url=raw_server.url, model="m", timeout=0.25,
                    max_retries=0)
    assert llm.chat(HELLO).content == "hi"  # the connection is now open and reused
    started = time.monotonic()
    with pytest.raises(LlmError, match="timed out"):
        llm.chat(HELLO)
    assert time.monotonic() - started <= llm.max_wait + 0.5


@pytest.mark.parametrize("raw_server", [[TRICKLED_HEADERS]], indirect=True)
def test_each_retry_gets_its_own_deadline(raw_server):
    """One retry after the first attempt: two deadlines of 0.2 s (and the SDK's
    back-off between them), never one without end, and as many attempts as the
    banner counted."""
    llm = LlmClient(api_key="k", base_url=raw_server.url, model="m", timeout=0.2,
                    max_retries=1)
    started = time.monotonic()
    with pytest.raises(LlmError, match="timed out"):
        llm.chat(HELLO)
    assert raw_server.count == 2
    assert time.monotonic() - started <= llm.max_wait + 0.5


def test_a_read_gets_no_more_than_the_attempt_has_left():
    """Before a deadline is set, a read keeps its own timeout; after, the shorter of
    the two; past it, the HTTP library's timeout error at once."""
    class Timeout(Exception):
        pass

    backend = DeadlineBackend(inner=None, timeout_error=Timeout)
    assert backend.left(5.0) == 5.0 and backend.left(None) is None
    backend.start(1.0)
    assert 0.5 < backend.left(5.0) <= 1.0 and backend.left(0.1) == 0.1
    backend.start(0.0)
    with pytest.raises(Timeout):
        backend.left(5.0)
    done = []  # another thread has no deadline of this one's
    threading.Thread(target=lambda: done.append(backend.left(5.0))).start()
    while not done:
        time.sleep(0.01)
    assert done == [5.0]
