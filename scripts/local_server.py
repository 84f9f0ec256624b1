"""The HTTP side of scripts/local_model.py: Chat Completions over one llama.cpp model.

Two routes, the ones the course's client uses: GET /v1/models and POST
/v1/chat/completions. One model, one request at a time, in a bounded line
(scripts/local_queue.py): a small model on a laptop is faster serving calls in turn
than side by side, and past the line a request gets HTTP 503 at once. What a room
needs from it besides:

- every reply is capped on the server's side (`max_tokens`, whatever a client
  asks), so no learner's runaway reply holds the line;
- a request whose client hung up is dropped, waiting or computing;
- each conversation keeps its prefix: the model's state after each call is kept
  in a RAM cache of prefixes, so a summary call (another prompt) does not make the
  next agent call read its whole history again (scripts/local_llama.py);
- it uses the cores it is given (threads, set when the model is loaded).

Each call is logged in one line (tokens, cache reuse, seconds, the line's length) so
that a room's host can see who waits. Left out: streaming, embeddings, the legacy
/v1/completions route.
"""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from local_llama import BadRequest, Model
from local_queue import Busy, Line, hung_up
from recording_proxy import send_json  # one JSON reply, as the proxy sends it

RETRY_AFTER = 30  # seconds a refused client is told to wait
# Requests that may wait behind the one computing; more get HTTP 503 at once. With
# calls of 2-5 s, the last in line waits about a minute: the client's default timeout.
WAITING = 16


def serve(model: Model, host: str, port: int, *, waiting: int = WAITING,
          ready: str = "") -> None:
    """Answer requests with `model` until interrupted; at most `waiting` wait."""
    server = make_server(model, host, port, waiting)
    if ready:
        print(ready, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def make_server(model: Model, host: str, port: int,
                waiting: int = WAITING) -> ThreadingHTTPServer:
    """The HTTP server over `model` (not started: call serve_forever())."""
    line = Line(waiting)

    class Handler(BaseHTTPRequestHandler):
        def send(self, status: int, body: dict[str, Any],
                 headers: dict[str, str] | None = None) -> None:
            send_json(self, status, json.dumps(body, ensure_ascii=False).encode(),
                      headers)

        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            if self.path.rstrip("/").endswith("/models"):
                self.send(200, {"object": "list", "data": [
                    {"id": model.alias, "object": "model", "owned_by": "local"}]})
            else:
                self.send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:  # noqa: N802
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self.send(404, {"error": {"message": f"no route {self.path}"}})
                return
            start, cpu = time.monotonic(), time.process_time()
            try:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                request = json.loads(body or b"{}")
                with line.turn(self.gone) as ours:
                    if not ours:
                        waited = time.monotonic() - start
                        log(f"dropped: the client left after {waited:.1f}s in line "
                            f"(line {len(line)})")
                        return
                    reply = model.complete(request, self.gone)
            except Busy as exc:
                log(f"refused: {exc} (HTTP 503)")
                self.send(503, {"error": {
                    "message": f"the model server is busy ({exc}); try again in "
                               f"{RETRY_AFTER} s", "type": "server_busy"}},
                          {"Retry-After": str(RETRY_AFTER)})
                return
            except (BadRequest, json.JSONDecodeError, ValueError) as exc:
                self.send(400, {"error": {"message": str(exc),
                                          "type": "invalid_request_error"}})
                return
            used = reply["usage"]
            left = " (client gone: stopped)" if self.gone() else ""
            log(f"chat: prompt={used['prompt_tokens']} cached="
                f"{used['prompt_tokens_details']['cached_tokens']} completion="
                f"{used['completion_tokens']} finish="
                f"{reply['choices'][0]['finish_reason']} "
                f"{time.monotonic() - start:.2f}s (CPU "
                f"{time.process_time() - cpu:.2f}s), line {len(line)}{left}")
            self.send(200, reply)

        def gone(self) -> bool:
            return hung_up(self.connection)

        def log_message(self, *args: object) -> None:  # one line a call, above
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True  # a request still waiting never blocks Ctrl-C
    server.line = line  # type: ignore[attr-defined]  # its counts, for a test
    return server


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
