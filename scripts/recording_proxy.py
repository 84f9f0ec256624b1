"""A tiny recording proxy between the course's client and a real model server.

Used by scripts/real_model_check.py. Every Chat Completions request and reply goes
through it on 127.0.0.1, so the check can read exactly what travelled over HTTP (the
history each request carried, the status, the finish reason, the latency) without
trusting the client's own account. It can also bend one reply on purpose (a slow
call, an empty answer, a reply cut at the length limit, a malformed shape), because a
real model produces those rarely and never on cue; and it can ask the server for a
tool call (tool_choice "required"), because a 135M model never calls one unasked.
The reply to that is the model's own. Left out: streaming, TLS.
"""

from __future__ import annotations

import copy
import http.client
import json
import select
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

TRUNCATED_MARK = "(cut off at the length limit)"
# Bounds asked of the server, whatever the client asked, while `capped` is on: a
# 135M model can ramble, and most of the check must fit a CI budget. Replies get a
# token cap; tool arguments get a length limit on each string (for servers that
# honour JSON schemas). One part of the check runs uncapped, to see that the server
# honours the client's own max_tokens. What is recorded, and asserted on, is the
# client's own request.
SERVER_REPLY_CAP = 64
SUMMARY_REPLY_CAP = 256  # a summary is a list of facts: cut short, it is thrown away
ARGUMENT_CHARS = 40
ENVELOPE = {"id": "chatcmpl-made-by-proxy", "object": "chat.completion",
            "created": 0, "model": "proxy", "choices": [
                {"index": 0, "message": {}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def for_server(request: dict[str, Any]) -> bytes:
    """The request body for the server: the reply and each string argument capped."""
    asked = request.get("max_tokens") or request.get("max_completion_tokens")
    cap = SERVER_REPLY_CAP if request.get("tools") else SUMMARY_REPLY_CAP
    bounded = {**request, "max_tokens": min(asked or cap, cap)}
    bounded.pop("max_completion_tokens", None)
    bounded["tools"] = copy.deepcopy(request.get("tools") or [])
    for tool in bounded["tools"]:
        properties = tool.get("function", {}).get("parameters", {}).get("properties")
        for schema in (properties or {}).values():
            if schema.get("type") == "string":
                schema.setdefault("maxLength", ARGUMENT_CHARS)
    if not bounded["tools"]:
        del bounded["tools"]
    return json.dumps(bounded).encode()


@dataclass
class Exchange:
    """One request and what came back: kind is "agent" (tools offered) or "summary"."""

    kind: str
    request: dict[str, Any]
    status: int = 0
    reply: dict[str, Any] | None = None
    seconds: float = 0.0
    fault: str = ""

    @property
    def finish_reason(self) -> str:
        try:
            return str((self.reply or {})["choices"][0].get("finish_reason"))
        except (KeyError, IndexError, TypeError, AttributeError):
            return "?"


def bend(reply: dict[str, Any], fault: str, shape: dict[str, Any] | None) -> dict:
    """The upstream reply changed as `fault` says (a copy; the original is kept)."""
    reply = copy.deepcopy(reply)
    choice = reply["choices"][0]
    if fault == "empty":  # what some servers send when the model stops at once
        choice["message"] = {"role": "assistant", "content": None}
        choice["finish_reason"] = "stop"
    elif fault == "length":  # half a reply, flagged as such by the server
        text = (choice["message"].get("content") or "- the customer asked").strip()
        choice["message"] = {"role": "assistant",
                             "content": f"{text[: len(text) // 2]} {TRUNCATED_MARK}"}
        choice["finish_reason"] = "length"
    elif fault == "shape":
        choice["message"] = shape
    return reply


@dataclass
class Fault:
    name: str  # delay | empty | length | shape | tool (tool_choice "required")
    kind: str  # which requests it waits for: "agent" or "summary"
    seconds: float = 0.0
    shape: dict[str, Any] | None = None


@dataclass
class RecordingProxy:
    """`proxy.start()` -> base URL to give LlmClient; `proxy.exchanges` afterwards."""

    upstream: str  # e.g. http://127.0.0.1:8123
    exchanges: list[Exchange] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)  # each bends one request
    capped: bool = True  # off: the client's request goes to the server as it is
    on_error: Callable[[], None] | None = None  # called when the server is unreachable
    _server: ThreadingHTTPServer | None = None

    def inject(self, name: str, kind: str = "agent", *, seconds: float = 0.0,
               shape: dict[str, Any] | None = None) -> None:
        self.faults.append(Fault(name, kind, seconds, shape))

    def start(self) -> str:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                proxy.handle(self, body)

            def log_message(self, *args: object) -> None:  # quiet: the check prints
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # a short poll: stop() returns at once (the check starts and stops many)
        threading.Thread(target=self._server.serve_forever, args=(0.05,),
                         daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def _take_fault(self, kind: str) -> Fault | None:
        for fault in self.faults:
            if fault.kind == kind:
                self.faults.remove(fault)
                return fault
        return None

    def handle(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        request = json.loads(body or b"{}")
        exchange = Exchange("agent" if request.get("tools") else "summary", request)
        self.exchanges.append(exchange)
        fault = self._take_fault(exchange.kind)
        exchange.fault = fault.name if fault else ""
        start = time.monotonic()
        if fault and fault.name == "delay":  # hold the line; the server never sees it
            wait_for_hangup(handler, fault.seconds)
            exchange.seconds = time.monotonic() - start
            return
        if fault and fault.name == "shape":  # made here: the server's reply is moot
            status, raw = 200, json.dumps(ENVELOPE).encode()
        else:
            sent = {**request, "tool_choice": "required"} if fault and \
                fault.name == "tool" else request  # the server must call a tool
            status, raw = self.forward(handler, for_server(sent) if self.capped
                                       else json.dumps(sent).encode())
        exchange.seconds, exchange.status = time.monotonic() - start, status
        if status == 200:
            exchange.reply = json.loads(raw)
            if fault and fault.name != "tool":  # a tool call is the server's own
                exchange.reply = bend(exchange.reply, fault.name, fault.shape)
                raw = json.dumps(exchange.reply).encode()
        send_json(handler, status, raw)

    def forward(self, handler: BaseHTTPRequestHandler,
                body: bytes) -> tuple[int, bytes]:
        url = urlsplit(self.upstream)
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=900)
        headers = {"Content-Type": "application/json"}
        if handler.headers.get("Authorization"):
            headers["Authorization"] = handler.headers["Authorization"]
        try:
            connection.request("POST", handler.path, body, headers)
            reply = connection.getresponse()
            return reply.status, reply.read()
        except OSError as exc:  # the server died or hung up: a failure to record
            if self.on_error is not None:
                self.on_error()
            return 502, json.dumps({"error": {"message": str(exc)}}).encode()
        finally:
            connection.close()


def send_json(handler: BaseHTTPRequestHandler, status: int, raw: bytes,
              headers: dict[str, str] | None = None) -> None:
    """Answer with a JSON body; a client that already gave up is not an error."""
    try:
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(raw)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(raw)
    except OSError:  # the client gave up (its timeout): nothing to tell it
        pass


def wait_for_hangup(handler: BaseHTTPRequestHandler, seconds: float) -> None:
    """Sleep up to `seconds`, returning early when the client closes the socket."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        readable, _, _ = select.select([handler.connection], [], [], 0.2)
        if readable and not handler.connection.recv(1, socket.MSG_PEEK):  # b"": gone
            return
