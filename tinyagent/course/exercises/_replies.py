"""The checkers' offline model: asked directly, and its replies remembered.

Used by every checker that calls the model (notebooks 01 to 06; 06's play whole
dialogs). The offline model is a pure function of the request: its answer, its
tool-call ids and its token counts come from the messages, the tools, the model's
name and the reply cap alone (only the prompt-cache part of the usage depends on
earlier calls). So the checkers ask it with `complete()`, the function behind the
SDK's in-process transport, without the round trip through the SDK; and a request
asked again gets the reply it got the first time. Rerunning a check, or another
memory that sends the same prompts (a strategy the decision is compared with), costs
no second play, and every verdict is the one LlmClient would give. The checkers read
the answers and the prompt and reply tokens, never the cached tokens (0 here); a
checker that bills a run under a provider's cache rule passes `record=[]` and gets
every request and reply, as course/billing.py's `bill` reads them.
Left out: a real model or a misbehaving "+mode" (asked through LlmClient.chat, and
nothing remembered), and a request the model refuses (LlmClient.chat raises its
usual error, so the report reads as it would in the learner's own code).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from ...chat_model import ChatResponse, Usage
from ...llm import LlmClient
from ...messages import ChatMessage
from ...offline.model import complete
from ...reply import parse_reply

# Enough for every play of a test session (about 100 calls per 50-turn dialog);
# the oldest replies go first. A key is a 16-byte digest, a value one short reply
# and the reply's message as the provider sent it (what billing reads).
MAX_REPLIES = 50_000
_REPLIES: dict[bytes, tuple[ChatResponse, dict[str, Any]]] = {}
Exchange = tuple[dict[str, Any], dict[str, Any]]  # (request body, reply message)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _message(message: ChatMessage) -> tuple[bytes, dict[str, Any]]:
    """(digest, dict) of the message as a request carries it, the dict parsed back
    from its JSON as the transport reads it. Kept on the message: a dialog resends
    its history every call, and each message is written and read once."""
    known = getattr(message, "_request_part", None)
    if known is None:
        text = json.dumps(message.to_dict(), ensure_ascii=False)
        known = _digest(text), json.loads(text)
        try:  # immutable, so both stay right; kept as the token count is
            object.__setattr__(message, "_request_part", known)
        except (AttributeError, TypeError):  # a learner's own kind of message
            pass
    return known


# id -> (the tools list, its digest, its dict parsed back). An agent builds its list
# of schemas anew every turn: a list equal to one seen is not written out again.
_TOOLS: dict[int, tuple[Any, bytes, list[dict[str, Any]]]] = {}


def _tools(tools: list[dict[str, Any]] | None) -> tuple[bytes, list[dict[str, Any]]]:
    known = _TOOLS.get(id(tools))
    if known is None or known[0] is not tools:
        known = next((k for k in reversed(_TOOLS.values()) if k[2] == (tools or [])),
                     None)
        if known is None:
            text = json.dumps(tools or [], ensure_ascii=False)
            known = (tools, _digest(text), json.loads(text))
        _TOOLS[id(tools)] = (tools, *known[1:])
        if len(_TOOLS) > 64:  # a few lists of schemas in a session
            del _TOOLS[next(iter(_TOOLS))]
    return known[1], known[2]


def _key(llm: LlmClient, messages: list[ChatMessage],
         tools: list[dict[str, Any]] | None) -> bytes:
    """The request's key: what LlmClient.chat would send, digested message by
    message (the same key whatever objects carry the same content)."""
    parts = [f"{llm.model}|{llm.max_reply_tokens}".encode(), _tools(tools)[0],
             *(_message(m)[0] for m in messages)]
    return hashlib.blake2b(b"".join(parts), digest_size=16).digest()


def _request(llm: LlmClient, messages: list[ChatMessage],
             tools: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The request body LlmClient.chat would send, as the transport reads it (its
    messages are shared between requests: read, never changed)."""
    request: dict[str, Any] = {"model": llm.model,
                               "messages": [_message(m)[1] for m in messages],
                               "max_tokens": llm.max_reply_tokens}
    if tools:
        request.update(tools=_tools(tools)[1], tool_choice="auto")
    return request


class Remembered:
    """An offline LlmClient that answers a request it has seen from memory.

    Anything but chat() (settings, describe(), forget_prompt_cache()) is the
    client's own; `usage_total` counts every reply handed out, remembered or not.
    """

    def __init__(self, llm: LlmClient | None = None,
                 record: list[Exchange] | None = None) -> None:
        self.llm = llm or LlmClient(offline=True)
        self.usage_total = Usage()
        self.record = record  # a list: every request and reply is appended to it

    def chat(self, messages: list[ChatMessage],
             tools: list[dict[str, Any]] | None = None) -> ChatResponse:
        if not self.llm.offline or "+" in self.llm.model or not messages:
            reply = self.llm.chat(messages, tools)  # nothing to remember
        else:
            key = _key(self.llm, list(messages), tools)
            reply, said = _REPLIES.get(key) or self._ask(key, messages, tools)
            if self.record is not None and said:
                self.record.append((_request(self.llm, list(messages), tools), said))
            # a copy: code that changes the reply it got cannot change the next one
            reply = dataclasses.replace(reply, tool_calls=list(reply.tool_calls))
        self.usage_total += reply.usage
        return reply

    def _ask(self, key: bytes, messages: list[ChatMessage],
             tools: list[dict[str, Any]] | None
             ) -> tuple[ChatResponse, dict[str, Any]]:
        try:
            answer = complete(_request(self.llm, list(messages), tools))
        except (ValueError, TypeError):  # refused: the client's own error, not kept
            return self.llm.chat(messages, tools), {}
        reply = parse_reply(json.dumps(answer, ensure_ascii=False),
                            self.llm.max_reply_tokens)
        if len(_REPLIES) >= MAX_REPLIES:
            del _REPLIES[next(iter(_REPLIES))]
        _REPLIES[key] = reply, answer["choices"][0]["message"]
        return _REPLIES[key]

    def __getattr__(self, name: str) -> Any:
        if name == "llm":  # not set yet (a copy being made): no endless lookup
            raise AttributeError(name)
        return getattr(self.llm, name)

    def __repr__(self) -> str:  # the learner's code may print the model it is given
        return repr(self.llm)
