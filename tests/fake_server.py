"""A Chat Completions server on 127.0.0.1, for tests of the real HTTP path.

The offline model answers in-process, so it never shows what a real server can do to
the client: error codes, Retry-After, cut-off bodies, odd reply shapes, slow replies.
`FakeServer` speaks the protocol over a real socket: each POST .../chat/completions
gets the next scripted `Reply` (the last one repeats), and every request body is
recorded. The `fake_server` fixture starts one on a free port and stops it after the
test. Import it in a test module: `from fake_server import fake_server_fixture`.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tinyagent.messages import ChatMessage


@dataclass
class Reply:
    """One scripted answer: a JSON object (or raw bytes), after `delay` seconds."""

    body: dict[str, Any] | bytes
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    trickle: float = 0.0  # > 0: the body a byte at a time, this many seconds apart
    cut: str = ""  # "headers": close after the headers; "reset": reset, no reply


def completion(content: Any = "ok", tool_calls: Any = None,
               finish_reason: str = "stop") -> dict[str, Any]:
    """A Chat Completions body; `content` and `tool_calls` are sent as given."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0,
            "model": "fake", "choices": [{"index": 0, "message": message,
                                          "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                      "total_tokens": 15}}


def call(call_id: Any = "call_1", name: Any = "queryOrder",
         arguments: Any = '{"order_id": "88231"}') -> dict[str, Any]:
    """One tool call as a server sends it."""
    return {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": arguments}}


def error(status: int, message: str = "failed") -> Reply:
    return Reply({"error": {"message": message, "type": "error", "code": status}},
                 status)


class FakeServer:
    """`server.script = [Reply(...), ...]`, then point a client at `server.url`."""

    def __init__(self) -> None:
        self.script: list[Reply] = [Reply(completion())]
        self.requests: list[dict[str, Any]] = []  # every request body, parsed
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True  # a slow reply never blocks the shutdown
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,),
                                        daemon=True)  # 0.02 s: a quick stop()

    def start(self) -> FakeServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()  # a sleeping handler wakes up and goes away
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=5)

    def next_reply(self, body: bytes) -> Reply:
        with self._lock:
            try:
                self.requests.append(json.loads(body))
            except ValueError:
                self.requests.append({"unparsed": body.decode("utf-8", "replace")})
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def handle(self) -> None:
                # A kept-alive connection waits here for the client's next request.
                # A client that gave up (its timeout) and closed with our late reply
                # unread resets the connection: socketserver would print that
                # ConnectionResetError's traceback to stderr, in the middle of the
                # test run, after the test that caused it had ended. It is the
                # client's right, not a server error.
                try:
                    super().handle()
                except ConnectionError:
                    pass

            def do_POST(self) -> None:  # noqa: N802 (the name http.server calls)
                length = int(self.headers.get("content-length") or 0)
                reply = server.next_reply(self.rfile.read(length))
                if reply.delay and server.stopping.wait(reply.delay):
                    return
                body = reply.body if isinstance(reply.body, bytes) else json.dumps(
                    reply.body).encode()
                if reply.cut == "reset":  # SO_LINGER 0: close() sends a TCP reset
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                               struct.pack("ii", 1, 0))
                    self.close_connection = True
                    return
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    if reply.cut == "headers":
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    step = 1 if reply.trickle else max(len(body), 1)
                    for start in range(0, len(body), step):
                        if reply.trickle and server.stopping.wait(reply.trickle):
                            return
                        self.wfile.write(body[start:start + step])
                        self.wfile.flush()
                except OSError:  # the client gave up (its timeout): nothing to do
                    pass

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

        return Handler


@pytest.fixture(name="fake_server")
def fake_server_fixture():
    """A started FakeServer on a free port of 127.0.0.1, stopped after the test."""
    server = FakeServer().start()
    yield server
    server.stop()


def probe() -> None:
    """`python tests/fake_server.py`: print what a 5 MB reply and a slow model cost
    the real client (figures, not asserts; the tests assert the rules)."""
    import resource
    import time

    from tinyagent import InMemoryChatMemory, LlmClient, LlmError, ReActAgent
    from tinyagent.tools import bitmall_tools

    server = FakeServer().start()
    server.script = [Reply(completion("word " * 1_000_000)), Reply(completion("ok"))]
    llm = LlmClient(api_key="k", base_url=server.url, model="fake", max_retries=0)
    agent = ReActAgent(llm, bitmall_tools(), memory=InMemoryChatMemory(),
                       verbose=False)
    started = time.monotonic()
    kept = agent.run("Where is my order 88231?")
    print(f"5 MB reply: {time.monotonic() - started:.2f}s, {len(kept):,} characters "
          f"kept, stop {agent.last_trace.stop_reason}; next turn: "
          f"{agent.run('and now?')!r} ({agent.last_trace.stop_reason}); peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    server.script = [Reply(completion(), delay=30)]
    slow = LlmClient(api_key="k", base_url=server.url, model="fake", timeout=1.0,
                     max_retries=2)
    started = time.monotonic()
    try:
        slow.chat([ChatMessage.user("hello")])
    except LlmError as exc:
        print(f"slow model, timeout 1s, 2 retries: {time.monotonic() - started:.1f}s "
              f"(max_wait says {slow.max_wait:.1f}s): {exc}")
    server.stop()


if __name__ == "__main__":
    probe()
