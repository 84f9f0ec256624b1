"""The offline model behind the real `openai` SDK, as an in-process HTTP transport.

Introduced in notebook 00. `offline_http_client()` is an `httpx.Client` whose
transport never opens a socket: POST .../chat/completions is answered by
`complete()`, GET .../models lists the offline model. So `LlmClient` runs the very
same SDK code path offline as online, and requests and responses are real JSON.
The failure modes of the reliability lessons are chosen by the model name, so the
model stays a pure function of the request:

    bitmall-offline+error      HTTP 500 with an OpenAI-style error body
    bitmall-offline+ratelimit  HTTP 429
    bitmall-offline+timeout    httpx.ReadTimeout at once (no real waiting)
    bitmall-offline+malformed  HTTP 200 whose body is cut-off JSON

Like a real provider, each client keeps a prompt cache (prompt_cache.py): the usage
reports the cached start of each prompt (and, where the rule bills them, the tokens
written to the cache) in the provider's own fields, by the rule given
(`offline_http_client("openai")`; cache_rules.py). A `clock` (clock.py) lets the
cache expire as the rule says, and `hit_chance` plays a provider whose hits are best
effort: a seeded draw per request, so a run gives the same usage every time. Only
the usage depends on earlier requests and the clock; the answer is still a pure
function of the request.

Left out: streaming (server-sent events), the async client and the other endpoints.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from ..cache_marks import breakpoints
from .cache_rules import CacheRule, get_rule, usage_fields
from .clock import Clock
from .model import OFFLINE_MODEL, complete, model_mode
from .prompt_cache import PrefixCache, request_tokens

MALFORMED_BODY = b'{"id": "chatcmpl-offline-malformed", "choices": ['  # cut short
SIMULATED = {  # mode -> (HTTP status, error type, message)
    "error": (500, "server_error", "offline model: simulated server error"),
    "ratelimit": (429, "rate_limit_error", "offline model: simulated rate limit, "
                  "too many requests"),
}


def error_response(status: int, kind: str, message: str) -> httpx.Response:
    """An error the way OpenAI-compatible servers send one."""
    body: dict[str, Any] = {"error": {"message": message, "type": kind,
                                      "param": None, "code": kind}}
    return httpx.Response(status, json=body)


def handle(request: httpx.Request, cache: PrefixCache | None = None
           ) -> httpx.Response:
    """Answer one HTTP request the way an OpenAI-compatible server would; with a
    `cache`, the usage says how much of the prompt it held."""
    path = request.url.path.rstrip("/")
    if request.method == "GET" and path.endswith("/models"):
        return httpx.Response(200, json={"object": "list", "data": [
            {"id": OFFLINE_MODEL, "object": "model", "created": 0,
             "owned_by": "tinyagent"}]})
    if request.method != "POST" or not path.endswith("/chat/completions"):
        return error_response(404, "not_found", f"offline model: no route for "
                              f"{request.method} {path}; use POST .../chat/completions")
    try:
        body = json.loads(request.content)
        mode = model_mode(str(body.get("model") or OFFLINE_MODEL))
    except (json.JSONDecodeError, AttributeError) as exc:
        return error_response(400, "invalid_request_error",
                              f"offline model: the request body is not a JSON object "
                              f"({exc})")
    except ValueError as exc:  # an unknown "+mode": the message lists the valid ones
        return error_response(400, "invalid_request_error", str(exc))
    if mode in SIMULATED:
        return error_response(*SIMULATED[mode])
    if mode == "timeout":
        raise httpx.ReadTimeout("offline model: simulated timeout", request=request)
    if mode == "malformed":
        return httpx.Response(200, content=MALFORMED_BODY,
                              headers={"content-type": "application/json"})
    try:
        reply = complete(body)
    except (ValueError, TypeError) as exc:  # a real provider would reject it too
        return error_response(400, "invalid_request_error", str(exc))
    if cache is not None and cache.rule.caches:  # looked up, then kept: a prompt
        # never hits itself
        blocks, marks = request_tokens(body), breakpoints(body)
        found, usage = cache.lookup(blocks, marks), reply["usage"]
        usage.update(usage_fields(cache.rule, usage["prompt_tokens"], found.read,
                                  found.written))
        cache.keep(blocks, reply["choices"][0]["message"], marks)
    return httpx.Response(200, json=reply)


def offline_http_client(cache_rule: str | CacheRule | None = None,
                        clock: Clock | None = None, hit_chance: float = 1.0,
                        seed: int = 0) -> httpx.Client:
    """An httpx client served by the offline model: pass it to `openai.OpenAI`.
    It has a prompt cache of its own, priced by `cache_rule` (a name from
    cache_rules.RULES, or a rule; None: the default provider's, qwen), expiring by
    `clock`, hitting with `hit_chance` (a best-effort rule) from draws seeded by
    `seed`."""
    cache = PrefixCache(get_rule(cache_rule), clock, hit_chance=hit_chance,
                        seed=seed)
    return httpx.Client(transport=httpx.MockTransport(
        lambda request: handle(request, cache)))

