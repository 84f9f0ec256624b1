"""The HTTP side of scripts/local_model.py: Chat Completions over one llama.cpp model.

Two routes, the ones the course's client uses: GET /v1/models and POST
/v1/chat/completions. One model, one request at a time (a lock): a small model on a
laptop is faster serving calls in turn than side by side. Each call is logged in
one line (tokens, cache reuse, seconds) so that a room's host can see who waits.
Left out: streaming, embeddings, the legacy /v1/completions route.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import chat_template
from recording_proxy import send_json  # one JSON reply, as the proxy sends it

DEFAULT_MAX_TOKENS = 512  # when a request sets none: one reply never runs away
# Greedy decoding makes the answers repeatable, and makes a small model loop until
# max_tokens: on one sentence ("The refund is not possible. The refund is not ..."),
# which a repeat penalty breaks, or on one whole line, which ends the reply.
REPEAT_PENALTY = 1.3


def repeats_a_line(text: str) -> bool:
    """Whether the last finished line of `text` is one it already holds."""
    if not text.endswith("\n"):
        return False
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return len(lines) > 1 and lines[-1] in lines[:-1]


def drop_repeat(text: str) -> str:
    """`text` without a last line that repeats an earlier one."""
    return text.rstrip().rsplit("\n", 1)[0] if repeats_a_line(
        text.rstrip() + "\n") else text


class BadRequest(ValueError):
    """The request cannot be served as sent: HTTP 400 with this message."""


def load(model: Path, n_ctx: int, threads: int) -> Any:
    """The model, loaded without llama.cpp's extra buffer types.

    Those repack weights for the CPU's widest instructions (AMX, for one), and a
    build that used them crashed in its first decode. The Llama class has no
    parameter for it, so the default model parameters are wrapped before loading.
    """
    from llama_cpp import Llama
    from llama_cpp import llama_cpp as low

    defaults = low.llama_model_default_params

    def no_extra_buffers() -> Any:
        params = defaults()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = False
        return params

    low.llama_model_default_params = no_extra_buffers
    try:
        return Llama(str(model), n_ctx=n_ctx, n_threads=threads,
                     n_threads_batch=threads, verbose=False)
    finally:
        low.llama_model_default_params = defaults


def forced_call(tools: list[dict[str, Any]], choice: Any) -> tuple[str, Any]:
    """For tool_choice "required" or a named function: the text that opens a call,
    and a grammar that lets the model write only a call of one of the tools (with
    that tool's parameters). ("", None) for "auto", where the model writes freely."""
    from llama_cpp import LlamaGrammar

    named = (choice.get("function") or {}).get("name") if isinstance(
        choice, dict) else None
    if choice != "required" and not named:
        return "", None
    calls = [{"type": "object", "required": ["name", "arguments"], "properties": {
        "name": {"const": f["name"]},
        "arguments": f.get("parameters") or {"type": "object"}}}
        for f in (t.get("function") or {} for t in tools)
        if f.get("name") and (not named or f["name"] == named)]
    if not calls:
        raise BadRequest(f"tool_choice names no tool that was sent: {choice!r}")
    return chat_template.OPEN, LlamaGrammar.from_json_schema(
        json.dumps({"oneOf": calls}), verbose=False)


class Model:
    """One loaded model and its chat template; `complete` answers one request."""

    def __init__(self, path: Path, alias: str, n_ctx: int, threads: int) -> None:
        self.llm, self.alias = load(path, n_ctx, threads), alias
        self.lock = threading.Lock()
        self.template = self.llm.metadata["tokenizer.chat_template"]  # its own
        # bos/eos as text: some templates write them, and eos ends every reply
        self.bos, self.eos = (self.llm.detokenize([t], special=True).decode()
                              for t in (self.llm.token_bos(), self.llm.token_eos()))

    def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("stream"):
            raise BadRequest("streaming is not supported by this server; send "
                             '"stream": false')
        messages = request.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadRequest("messages must be a non-empty list")
        choice = request.get("tool_choice", "auto")
        tools = [] if choice == "none" else (request.get("tools") or [])
        names = {(t.get("function") or {}).get("name") for t in tools}
        opened, grammar = forced_call(tools, choice) if tools else ("", None)
        prompt = chat_template.render(self.template, chat_template.template_messages(
            messages, tools), self.bos, self.eos) + opened
        tokens = self.llm.tokenize(prompt.encode(), add_bos=True, special=True)
        room = self.llm.n_ctx() - len(tokens)
        if room < 1:
            raise BadRequest(f"the prompt has {len(tokens)} tokens, the context "
                             f"{self.llm.n_ctx()}: send less history")
        asked = request.get("max_tokens") or request.get("max_completion_tokens")
        max_tokens = min(int(asked or DEFAULT_MAX_TOKENS), room)
        from llama_cpp import StoppingCriteriaList

        def looping(ids: Any, _logits: Any) -> bool:  # checked after every token
            return repeats_a_line(self.llm.detokenize(
                list(ids[len(tokens):])).decode(errors="ignore"))

        with self.lock:
            # What llama.cpp will reuse from the previous call: the common prefix
            # (all but one token, when the whole prompt matches: it is replayed).
            same = self.llm.longest_token_prefix(self.llm._input_ids.tolist(), tokens)
            cached = min(same, len(tokens) - 1)
            # A forced call copies ids from the prompt: no penalty, no loop guard.
            out = self.llm.create_completion(
                tokens, max_tokens=max_tokens,
                temperature=float(request.get("temperature") or 0.0),
                repeat_penalty=1.0 if grammar else REPEAT_PENALTY, grammar=grammar,
                stopping_criteria=None if grammar else StoppingCriteriaList([looping]),
                stop=[self.eos, chat_template.CLOSE] if tools else [self.eos])
        text = opened + drop_repeat(out["choices"][0]["text"])
        finish = out["choices"][0]["finish_reason"]
        content, calls = chat_template.parse(text, names)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if calls:
            message["tool_calls"], finish = calls, "tool_calls"
        used = out["usage"]
        return {"id": out["id"].replace("cmpl", "chatcmpl"),
                "object": "chat.completion", "created": out["created"],
                "model": self.alias, "choices": [{"index": 0, "message": message,
                                                  "finish_reason": finish}],
                "usage": {**used, "prompt_tokens_details": {"cached_tokens": cached}}}


def serve(path: Path, alias: str, host: str, port: int, *, n_ctx: int = 4096,
          threads: int = 1, ready: str = "") -> None:
    """Load the model, then answer requests until interrupted."""
    model = Model(path, alias, n_ctx, threads)

    class Handler(BaseHTTPRequestHandler):
        def send(self, status: int, body: dict[str, Any]) -> None:
            send_json(self, status, json.dumps(body, ensure_ascii=False).encode())

        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            if self.path.rstrip("/").endswith("/models"):
                self.send(200, {"object": "list", "data": [
                    {"id": alias, "object": "model", "owned_by": "local"}]})
            else:
                self.send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:  # noqa: N802
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self.send(404, {"error": {"message": f"no route {self.path}"}})
                return
            start = time.monotonic()
            try:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                reply = model.complete(json.loads(body or b"{}"))
            except (BadRequest, json.JSONDecodeError, ValueError) as exc:
                self.send(400, {"error": {"message": str(exc),
                                          "type": "invalid_request_error"}})
                return
            used = reply["usage"]
            print(f"chat: prompt={used['prompt_tokens']} cached="
                  f"{used['prompt_tokens_details']['cached_tokens']} completion="
                  f"{used['completion_tokens']} finish="
                  f"{reply['choices'][0]['finish_reason']} "
                  f"{time.monotonic() - start:.2f}s", file=sys.stderr, flush=True)
            self.send(200, reply)

        def log_message(self, *args: object) -> None:  # one line a call, above
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    if ready:
        print(ready, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
