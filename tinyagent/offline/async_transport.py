"""The offline model for async clients: `openai.AsyncOpenAI` served in the process.

Introduced in notebook 10, for frameworks that call the model asynchronously (the
OpenAI Agents SDK's chat-completions model takes an `AsyncOpenAI`). It answers
with transport.py's `handle`, the same pure function of the request, and keeps a
prompt cache of its own by the rule given, as the sync client does: no socket, no
key, no network. Left out: streaming (server-sent events).
"""

from __future__ import annotations

import httpx

from .cache_rules import get_rule
from .prompt_cache import PrefixCache
from .transport import handle


def offline_async_http_client(cache_rule: str | None = None) -> httpx.AsyncClient:
    """An `httpx.AsyncClient` served by the offline model: pass it to
    `openai.AsyncOpenAI(http_client=...)`. `cache_rule` as offline_http_client's."""
    cache = PrefixCache(get_rule(cache_rule))
    # MockTransport serves async clients too: it reads the body, then calls us.
    return httpx.AsyncClient(transport=httpx.MockTransport(
        lambda request: handle(request, cache)))
