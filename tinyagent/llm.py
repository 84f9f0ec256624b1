"""LlmClient: one small door to any OpenAI-compatible model, or the offline one.

Introduced in notebook 00. It implements `SupportsChat` (chat_model.py), the one
method the agent and the memories call, which import that module and never this
one. The same code talks to Bailian/DashScope, DeepSeek, OpenAI, Ollama or vLLM
through the `openai` SDK, and, with no API key, to the offline BitMall model, which
sits behind the very same SDK as an in-process HTTP transport. Retries and timeouts
are the SDK's own; the reply is checked in `reply.py`. Left out: streaming, async
calls and multimodal input.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache_marks import mark_breakpoints
from .call_errors import (
    bad_reply,
    connection_problem,
    http_failed,
    offline_where,
    timed_out,
)
from .chat_model import ChatResponse, LlmError, Usage, error_text
from .lang import say
from .messages import ChatMessage
from .reply import BadReply, parse_reply
from .settings import (
    BANNER,
    check_api_key,
    check_count,
    check_timeout,
    check_url,
    find_env_file,
    load_env_file,
    mask_url,
    numbers_from_env,
    scrub,
    url_secrets,
)

if TYPE_CHECKING:
    import openai

__all__ = ["LlmClient"]

DEFAULT_BASE_URL = "https://dashscope.aliyuncs.com/compatible-mode/v1"  # Bailian
DEFAULT_MODEL = "qwen-plus"
OFFLINE_BASE_URL = "http://bitmall.offline/v1"  # never resolved: served in-process
# Sent as max_tokens with every call (answers and summaries): one runaway reply must
# not cost minutes and fill the memory. TINYAGENT_MAX_REPLY_TOKENS changes it.
DEFAULT_MAX_REPLY_TOKENS = 1024


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


class LlmClient:
    """Chat with a model: `LlmClient.from_env().chat(messages, tools)`.

    Offline when `offline=True`, or when `offline` is None and there is no API key.
    `offline=False` without a key is an error rather than a silent switch.
    `timeout` is per attempt; the SDK retries `max_retries` times, so a dead server
    costs up to `max_wait` seconds. `max_reply_tokens` caps every reply's length.
    """

    def __init__(self, api_key: str | None = None, base_url: str | None = None,
                 model: str | None = None, *, offline: bool | None = None,
                 timeout: float = 60.0, max_retries: int = 2,
                 max_reply_tokens: int = DEFAULT_MAX_REPLY_TOKENS) -> None:
        if offline is None:
            offline = not api_key
        if not offline and not api_key:
            raise ValueError(say("a real model needs an API key: set TINYAGENT_API_KEY "
                                 "(in the environment or .env), or use offline=True",
                                 "真实模型需要 API 密钥：请设置 TINYAGENT_API_KEY"
                                 "（在环境变量或 .env 中），或使用 offline=True"))
        if not offline:
            api_key = check_api_key(api_key)
        self.timeout = check_timeout(timeout)
        check_count("max_retries", max_retries, 0)
        self.max_reply_tokens = check_count("max_reply_tokens", max_reply_tokens, 1)
        self.offline = offline
        self.base_url = OFFLINE_BASE_URL if offline else check_url(
            base_url or DEFAULT_BASE_URL)
        self.model = model or ("bitmall-offline" if offline else DEFAULT_MODEL)
        self._api_key = api_key if not offline else "offline"  # never printed
        # The offline model answers instantly and deterministically: retrying it
        # would only hide the failure modes the reliability lessons inject.
        self.max_retries = 0 if offline else max_retries
        self.env_file: Path | None = None  # the .env that from_env() read, if any
        self._client: openai.OpenAI | None = None  # built on first use: fast import
        # Offline: the prompt cache's rule (offline/cache_rules.py, notebook 07),
        # the Clock its expiry reads (None: no time passes), its chance of a hit
        self.cache_rule = os.environ.get("TINYAGENT_CACHE_RULE", "").strip() or "qwen"
        self.clock, self.hit_chance = None, 1.0
        self.usage_total = Usage()  # every call's usage, summed

    @classmethod
    def from_env(cls, **overrides: Any) -> LlmClient:
        """Read TINYAGENT_API_KEY / _API_URL / _MODEL / _TIMEOUT / _MAX_REPLY_TOKENS /
        _MAX_RETRIES from the environment or a `.env` in the working or project folder.

        TINYAGENT_OFFLINE=1 forces the offline model even when a key is set (the
        tests and nbval do this, so a developer's key never changes an output).
        """
        env_file = find_env_file()
        load_env_file(env_file)  # TINYAGENT_* only; the real environment wins
        settings = {**numbers_from_env(), **overrides}
        if _env_flag("TINYAGENT_OFFLINE"):
            client = cls(offline=True, **settings)
        else:
            client = cls(api_key=os.environ.get("TINYAGENT_API_KEY") or None,
                         base_url=os.environ.get("TINYAGENT_API_URL") or None,
                         model=os.environ.get("TINYAGENT_MODEL") or None, **settings)
            client.env_file = env_file  # told by describe(); forced offline needs none
        return client

    @classmethod
    def for_summaries(cls, **overrides: Any) -> LlmClient:
        """The client for a summary memory: `from_env()`, with TINYAGENT_SUMMARY_MODEL
        as the model when it is set. A summary needs less than an answer, so a smaller
        model of the same provider often does, at a fraction of the price (notebook 04
        prices it). The offline model is one model: it ignores the setting."""
        client = cls.from_env(**overrides)
        model = os.environ.get("TINYAGENT_SUMMARY_MODEL")
        if model and not client.offline:
            client.model = model
        return client

    def __repr__(self) -> str:  # no key, no address: notebooks print this
        mode = "offline" if self.offline else mask_url(self.base_url)
        return f"LlmClient(model={self.model!r}, {mode})"

    @property
    def max_wait(self) -> float:
        """Seconds one call may take at worst: every attempt times out, plus the
        SDK's back-off between attempts (0.5 s doubling, at most 8 s)."""
        backoff = sum(min(0.5 * 2**i, 8.0) for i in range(self.max_retries))
        return self.timeout * (self.max_retries + 1) + backoff

    def describe(self, lang: str | None = None) -> str:
        """One line for a notebook banner (two with a real model), in `lang`: "en" or
        "zh", or the package's language (`set_lang`) when None."""
        text = BANNER.say(lang)  # get_lang names a lang that is neither
        source = (text["file"].format(self.env_file) if self.env_file else
                  text["environment"])
        if self.offline:
            return text["offline"] + (text["gap"] + source if self.env_file else "")
        attempts = self.max_retries + 1
        return text["real"].format(
            model=self.model, where=self._where(False), source=source,
            timeout=self.timeout, attempts=attempts, s="s" * (attempts > 1),
            wait=self.max_wait, cap=self.max_reply_tokens)

    @property
    def client(self) -> openai.OpenAI:
        if self._client is None:
            import openai

            if self.offline:
                from .offline import offline_http_client as offline
                http_client = offline(self.cache_rule, self.clock, self.hit_chance)
            else:  # a deadline per attempt, a bounded body, a bounded Retry-After
                from .http_limits import limited_client

                http_client = limited_client(self.timeout)
            self._client = openai.OpenAI(api_key=self._api_key, base_url=self.base_url,
                                         timeout=self.timeout,
                                         max_retries=self.max_retries,
                                         http_client=http_client)
        return self._client

    def chat(self, messages: list[ChatMessage],
             tools: list[dict[str, Any]] | None = None) -> ChatResponse:
        """One Chat Completions call; LlmError says the cause and what to check."""
        if not messages:
            raise ValueError(say("chat() needs at least one message",
                                 "chat() 至少需要一条消息"))
        request: dict[str, Any] = {"model": self.model,
                                   "messages": [m.to_dict() for m in messages],
                                   "max_tokens": self.max_reply_tokens}
        if tools:  # some servers (llama.cpp) take a missing tool_choice as "none"
            request.update(tools=tools, tool_choice="auto")
        mark_breakpoints(request, self._marking_rule())  # Anthropic's: notebook 07
        import httpx
        import openai

        started = time.monotonic()
        try:  # only the HTTP exchange: a local bug must not read as a bad reply
            # The SDK's POST, with its retries, timeouts and errors. Its create() would
            # first walk every message through its type definitions, three quarters
            # of an offline call's time; these messages are plain JSON already.
            body = self.client.post("/chat/completions", body=request,
                                    cast_to=httpx.Response).content
        except openai.APIStatusError as exc:
            raise LlmError(http_failed(exc.status_code, self._where(),
                                       error_text(exc, self._secrets()), exc.response)
                           ) from None
        except openai.APITimeoutError:
            waited, attempts = time.monotonic() - started, self.max_retries + 1
            raise LlmError(timed_out(self.timeout, self._where(), attempts, waited)
                           ) from None
        except openai.APIConnectionError as exc:
            raise LlmError(scrub(connection_problem(exc.__cause__, self._where()),
                                 self._secrets())) from None
        try:
            reply = parse_reply(body, self.max_reply_tokens)
        except BadReply as exc:
            raise LlmError(bad_reply(self._where(), exc)) from None
        self.usage_total += reply.usage
        return reply

    def forget_prompt_cache(self) -> None:
        """Offline: empty the provider's prompt cache, so that a strategy compared
        after another starts cold. A real provider's cache cannot be emptied."""
        if self.offline:
            self._client = None  # the next call builds a transport with a fresh cache

    def _marking_rule(self) -> Any:
        """The cache rule whose client marks its own breakpoints (Anthropic's), or
        None: a name that is no rule of the course's is a real provider's own,
        which finds its prefix itself."""
        from .offline.cache_rules import get_rule

        try:
            return get_rule(self.cache_rule)
        except ValueError:
            return None

    def _where(self, with_model: bool = True) -> str:
        if self.offline:
            return offline_where()
        url = mask_url(self.base_url)
        if not with_model:
            return url
        return say(f"{url} ({self.model})", f"{url}（{self.model}）")

    def _secrets(self) -> list[str]:
        """What must never appear in a message: the key, and a key in the URL."""
        if self.offline:
            return []
        return [s for s in (self._api_key, *url_secrets(self.base_url)) if s]
