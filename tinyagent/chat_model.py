"""A model as the agent and the memories see it: one `chat()` method and its reply.

Introduced in notebook 00, next to `LlmClient` (llm.py), which implements it over
HTTP. The agent and the summarizers need nothing more from a model than
`SupportsChat`: a list of messages in, a `ChatResponse` out (text, tool calls, token
`Usage`), or an `LlmError` saying why not. So they import this small module, never
the HTTP client, and a fake model in a test or an exercise is a class with one
method. `error_text` is how a failure is told without a secret in it. Left out:
streaming, async calls and multimodal replies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from .messages import ChatMessage, ToolCall

# An API key ("sk-…", "Bearer …") or any long token-like run of characters.
KEY_LIKE = re.compile(r"(sk-|Bearer\s+)[\w.-]+|\b[\w-]{32,}\b")


class LlmError(RuntimeError):
    """A model call failed. The message says why and what to check, never the key."""


@dataclass(frozen=True)
class Usage:
    """What a call cost in tokens, as the provider counted them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Of prompt_tokens, those the provider's prompt cache held (billed less; notebook
    # 06): OpenAI and Qwen say prompt_tokens_details.cached_tokens, DeepSeek says
    # prompt_cache_hit_tokens. 0 when the provider says nothing.
    cached_tokens: int = 0
    # Of prompt_tokens, those written to the cache at a premium (GPT-5.6 and later
    # say prompt_tokens_details.cache_write_tokens; notebook 06). 0 when not said;
    # left out of the repr, where notebook 00 shows a usage without a cache.
    written_tokens: int = field(default=0, repr=False)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.prompt_tokens + other.prompt_tokens,
                     self.completion_tokens + other.completion_tokens,
                     self.cached_tokens + other.cached_tokens,
                     self.written_tokens + other.written_tokens)


@dataclass(frozen=True)
class ChatResponse:
    """What one model call returned: text, tool calls (maybe none) and token usage.

    `finish_reason` is the provider's: "stop", "tool_calls", or "length" when the
    reply was cut at the reply-length cap (then `content` is incomplete).
    """

    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str = "stop"

    def to_message(self) -> ChatMessage:
        """The assistant message to append to the conversation."""
        return ChatMessage.assistant(self.content, tool_calls=tuple(self.tool_calls))


class SupportsChat(Protocol):
    """Anything with LlmClient's chat(): the real client, the offline one, a fake.
    The agent and the summarizers need nothing more from a model."""

    def chat(self, messages: list[ChatMessage],
             tools: list[dict[str, Any]] | None = None) -> ChatResponse: ...


def error_text(error: BaseException, secrets: list[str]) -> str:
    """What `error` says, on one line and clipped, with `secrets` and anything
    key-like masked: providers echo part or all of a rejected key ("Incorrect API
    key provided: sk-abc…"), and it must not reach a notebook output or a log line.

    >>> error_text(RuntimeError("bad key sk-abc123 for me"), [])
    'bad key *** for me'
    """
    text = str(getattr(error, "message", error)).replace("\n", " ")
    for secret in secrets:
        text = text.replace(secret, "***")
    return KEY_LIKE.sub("***", text)[:200]
