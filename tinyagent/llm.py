"""LlmClient: one small door to any OpenAI-compatible model, or the offline one.

Introduced in notebook 00. The same code talks to Bailian/DashScope, DeepSeek, OpenAI,
Ollama or vLLM through the `openai` SDK, and, with no API key, to the offline BitMall
model, which sits behind the very same SDK as an in-process HTTP transport. Retries and
timeouts are the SDK's own. Left out: streaming, async calls and multimodal input.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .messages import ChatMessage, ToolCall, parse_arguments

if TYPE_CHECKING:
    import openai

DEFAULT_BASE_URL = "https://dashscope.aliyuncs.com/compatible-mode/v1"  # Bailian
DEFAULT_MODEL = "qwen-plus"
OFFLINE_BASE_URL = "http://bitmall.offline/v1"  # never resolved: served in-process


class LlmError(RuntimeError):
    """A model call failed. The message says why and what to check, never the key."""


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class ChatResponse:
    """What one model call returned: text, tool calls (maybe none) and token usage."""

    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)

    def to_message(self) -> ChatMessage:
        """The assistant message to append to the conversation."""
        return ChatMessage.assistant(self.content, tool_calls=tuple(self.tool_calls))


class SupportsChat(Protocol):
    """Anything with LlmClient's chat(): the real client, the offline one, a fake.
    The agent and the summarizers need nothing more from a model."""

    def chat(self, messages: list[ChatMessage],
             tools: list[dict[str, Any]] | None = None) -> ChatResponse: ...


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


class LlmClient:
    """Chat with a model: `LlmClient.from_env().chat(messages, tools)`.

    Offline when `offline=True`, or when `offline` is None and there is no API key.
    `offline=False` without a key is an error rather than a silent switch.
    """

    def __init__(self, api_key: str | None = None, base_url: str | None = None,
                 model: str | None = None, *, offline: bool | None = None,
                 timeout: float = 60.0, max_retries: int = 2) -> None:
        if offline is None:
            offline = not api_key
        if not offline and not api_key:
            raise ValueError("a real model needs an API key: set TINYAGENT_API_KEY "
                             "(in the environment or .env), or use offline=True")
        if timeout <= 0 or max_retries < 0:
            raise ValueError(f"timeout must be > 0 and max_retries >= 0, "
                             f"got timeout={timeout}, max_retries={max_retries}")
        self.offline = offline
        self.base_url = OFFLINE_BASE_URL if offline else (base_url or DEFAULT_BASE_URL)
        self.model = model or ("bitmall-offline" if offline else DEFAULT_MODEL)
        self._api_key = api_key if not offline else "offline"  # never printed
        # The offline model answers instantly and deterministically: retrying it
        # would only hide the failure modes the reliability lessons inject.
        self.timeout = timeout
        self.max_retries = 0 if offline else max_retries
        self._client: openai.OpenAI | None = None  # built on first use: fast import

    @classmethod
    def from_env(cls, **overrides: Any) -> LlmClient:
        """Read TINYAGENT_API_KEY / _API_URL / _MODEL from the environment or `.env`.

        TINYAGENT_OFFLINE=1 forces the offline model even when a key is set (the
        tests and nbval do this, so a developer's key never changes an output).
        """
        from dotenv import find_dotenv, load_dotenv

        # Look from the working directory upwards (a notebook in notebooks/ finds the
        # project's .env); the real environment wins over the file.
        load_dotenv(find_dotenv(usecwd=True), override=False)
        if _env_flag("TINYAGENT_OFFLINE"):
            return cls(offline=True, **overrides)
        return cls(api_key=os.environ.get("TINYAGENT_API_KEY") or None,
                   base_url=os.environ.get("TINYAGENT_API_URL") or None,
                   model=os.environ.get("TINYAGENT_MODEL") or None, **overrides)

    def __repr__(self) -> str:  # no key, no address: notebooks print this
        mode = "offline" if self.offline else self.base_url
        return f"LlmClient(model={self.model!r}, {mode})"

    def describe(self) -> str:
        """One line for a notebook banner."""
        if self.offline:
            return ("Using the offline BitMall model (deterministic, no network). "
                    "Set TINYAGENT_API_KEY to use a real model.")
        return f"Using a real model: {self.model} at {self.base_url}"

    @property
    def client(self) -> openai.OpenAI:
        if self._client is None:
            import openai

            http_client = None
            if self.offline:
                from .offline import offline_http_client

                http_client = offline_http_client()
            self._client = openai.OpenAI(api_key=self._api_key, base_url=self.base_url,
                                         timeout=self.timeout,
                                         max_retries=self.max_retries,
                                         http_client=http_client)
        return self._client

    def chat(self, messages: list[ChatMessage],
             tools: list[dict[str, Any]] | None = None) -> ChatResponse:
        """One Chat Completions call; LlmError says the cause and what to check."""
        if not messages:
            raise ValueError("chat() needs at least one message")
        request: dict[str, Any] = {"model": self.model,
                                   "messages": [m.to_dict() for m in messages]}
        if tools:
            request["tools"] = tools
        import openai

        try:
            completion = self.client.chat.completions.create(**request)
            choice = completion.choices[0].message
        except openai.APIStatusError as exc:
            secret = None if self.offline else self._api_key
            raise LlmError(f"model call failed: HTTP {exc.status_code} from "
                           f"{self._where()}: {_short(exc, secret)}. "
                           f"{_hint(exc.status_code)}") from None
        except openai.APITimeoutError:
            raise LlmError(f"model call timed out after {self.timeout:g}s at "
                           f"{self._where()}; check the network or raise timeout"
                           ) from None
        except openai.APIConnectionError:
            raise LlmError(f"cannot reach {self._where()}; check TINYAGENT_API_URL "
                           "and the network (or run offline)") from None
        except (openai.APIError, ValueError, TypeError, IndexError, AttributeError
                ) as exc:
            raise LlmError(f"the model at {self._where()} sent a response that is not "
                           f"valid Chat Completions JSON ({type(exc).__name__})"
                           ) from None
        calls = [ToolCall(c.id, c.function.name, parse_arguments(c.function.arguments))
                 for c in (choice.tool_calls or [])]
        usage = completion.usage
        return ChatResponse(
            content=choice.content or "", tool_calls=calls,
            usage=Usage(usage.prompt_tokens, usage.completion_tokens)
            if usage else Usage())

    def _where(self) -> str:
        if self.offline:
            return "the offline model"
        return f"{self.base_url} ({self.model})"


KEY_LIKE = re.compile(r"(sk-|Bearer\s+)[\w.-]+|\b[\w-]{32,}\b")


def _short(exc: Exception, api_key: str | None) -> str:
    """The provider's message, clipped, with our key and anything key-like masked.

    Providers echo part or all of a rejected key ("Incorrect API key provided:
    sk-abc…"); it must not reach a notebook output or a log line.
    """
    text = str(getattr(exc, "message", exc)).replace("\n", " ")
    if api_key:
        text = text.replace(api_key, "***")
    return KEY_LIKE.sub("***", text)[:200]


def _hint(status: int) -> str:
    return {400: "The provider rejected the request itself: check the messages sent "
                 "(e.g. a tool result without its call).",
            401: "Check TINYAGENT_API_KEY.", 403: "Check the key's permissions.",
            404: "Check TINYAGENT_API_URL and TINYAGENT_MODEL.",
            429: "Rate limited: wait, or lower the request rate."}.get(
        status, "Check the provider's status, TINYAGENT_API_URL and TINYAGENT_MODEL.")
