"""One llama.cpp model answering Chat Completions requests: scripts/local_server.py's.

`Model.complete(request)` turns one request into one reply, the way an
OpenAI-compatible server does: the model's own chat template with the tools
described in the system turn (scripts/chat_template.py), greedy decoding (temperature
0 unless asked) with a repeat penalty and a stop at a repeated line, max_tokens
honoured for prose and tool calls alike and capped on the server's side, tool_choice
"required" honoured through a grammar, and `usage` with the prompt tokens reused
(`prompt_tokens_details.cached_tokens`). Each call's state is kept in a RAM cache of
prefixes, so that a conversation's next call reuses its history even after another
conversation's (or a summary's) call. Left out: streaming, sampling options beyond
temperature, logprobs.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import chat_template

MAX_TOKENS = 256  # the server's cap on every reply, whatever a request asks
CACHE_MB = 512  # the prefix cache: SmolLM2-135M keeps about 23 KB a token
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


# What the portable x86-64 build still uses (llama_cpp.llama_print_system_info()).
CPU_FLAGS = ("avx2", "fma", "f16c", "bmi2")


def missing_cpu_flags(cpuinfo: str | None = None) -> list[str]:
    """The instruction sets the build needs that this x86-64 CPU lacks ([] when
    they are all there, or when the CPU cannot be read: not Linux, not x86-64)."""
    import platform

    if cpuinfo is None:
        if platform.machine().lower() not in ("x86_64", "amd64"):
            return []
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            return []
    flags = next((line.split(":", 1)[1].split() for line in cpuinfo.splitlines()
                  if line.startswith("flags")), None)
    return [] if flags is None else [f for f in CPU_FLAGS if f not in flags]


class BadRequest(ValueError):
    """The request cannot be served as sent: HTTP 400 with this message."""


def prefix_cache(megabytes: int) -> Any:
    """llama-cpp-python's RAM cache of model states, keyed by their tokens.

    A state also carries a copy of the logits of up to 512 tokens (100 MB for this
    vocabulary) that the cache does not count and sampling never reads again: it is
    kept as one row, so the cache holds what its capacity says.
    """
    import numpy as np
    from llama_cpp import LlamaRAMCache

    class PrefixCache(LlamaRAMCache):  # type: ignore[misc]
        def __setitem__(self, key: Any, value: Any) -> None:
            value.scores = np.zeros((1, value.scores.shape[1]), dtype=np.single)
            super().__setitem__(key, value)

    return PrefixCache(capacity_bytes=megabytes * 2**20)


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

    def __init__(self, path: Path, alias: str, n_ctx: int, threads: int, *,
                 max_tokens: int = MAX_TOKENS, cache_mb: int = CACHE_MB) -> None:
        self.llm, self.alias = load(path, n_ctx, threads), alias
        self.max_tokens, self.cache = max_tokens, None
        if cache_mb > 0:
            self.cache = prefix_cache(cache_mb)
            self.llm.set_cache(self.cache)
        self.lock = threading.Lock()
        self.template = self.llm.metadata["tokenizer.chat_template"]  # its own
        # bos/eos as text: some templates write them, and eos ends every reply
        self.bos, self.eos = (self.llm.detokenize([t], special=True).decode()
                              for t in (self.llm.token_bos(), self.llm.token_eos()))

    def reused(self, tokens: list[int]) -> int:
        """The prompt tokens llama.cpp will not compute again: the longest prefix
        shared with the state it holds or with one in the prefix cache (all but one
        token, when the whole prompt matches: the last is replayed)."""
        prefix = self.llm.longest_token_prefix
        same = prefix(self.llm._input_ids.tolist(), tokens)
        if self.cache is not None:
            key = self.cache._find_longest_prefix_key(tuple(tokens))
            same = max(same, prefix(key, tokens) if key else 0)
        return min(same, len(tokens) - 1)

    def complete(self, request: dict[str, Any],
                 gone: Any = lambda: False) -> dict[str, Any]:
        """One reply; `gone()` says the client hung up: generation stops there."""
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
        max_tokens = min(int(asked or self.max_tokens), self.max_tokens, room)
        from llama_cpp import StoppingCriteriaList

        def looping(ids: Any, _logits: Any) -> bool:  # checked after every token
            return gone() or (not grammar and repeats_a_line(self.llm.detokenize(
                list(ids[len(tokens):])).decode(errors="ignore")))

        with self.lock:
            cached = self.reused(tokens)
            # A forced call copies ids from the prompt: no penalty, no loop guard.
            out = self.llm.create_completion(
                tokens, max_tokens=max_tokens,
                temperature=float(request.get("temperature") or 0.0),
                repeat_penalty=1.0 if grammar else REPEAT_PENALTY, grammar=grammar,
                stopping_criteria=StoppingCriteriaList([looping]),
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
