"""`complete()`: the offline model as one pure function, request in, response out.

Introduced in notebook 00. It takes a Chat Completions request body and returns the
response body a real provider would send, `usage` counted with tiktoken. Nothing is
kept between calls but what reading.py remembers of each message (its parse and its
token count, the same whatever the call), and nothing depends on the clock: the same
request always gives the same bytes. A suffix on the model name makes the model
misbehave on purpose ("bitmall-offline+repeat"), for the agent's guards and the
reliability lessons; the suffixes that fail at the HTTP level live in `transport.py`.
Left out: streaming, `n > 1`, temperature and every other sampling parameter (they
are ignored).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..messages import ChatMessage, ToolCall
from ..tokens import count_message_tokens, count_tools_tokens
from . import clerk
from .clerk import Reply
from .conversation import Conversation
from .fork import summary_request
from .reading import message_key, prompt_tokens
from .replies import say
from .summarize import is_summary_request, summarize

OFFLINE_MODEL = "bitmall-offline"
# "bitmall-offline+<mode>": these fail in the transport, before any answer exists...
FAILURE_MODES = ("error", "ratelimit", "timeout", "malformed")
# ...and these answer, but badly: an empty reply, a stubborn or a dithering model.
BEHAVIOUR_MODES = ("empty", "repeat", "dither")
MODES = FAILURE_MODES + BEHAVIOUR_MODES


def model_mode(model: str) -> str:
    """The behaviour a model name selects: "" (normal) or one of MODES.

    Raises ValueError naming the valid suffixes for an unknown one.
    """
    _, _, mode = model.partition("+")
    if mode and mode not in MODES:
        valid = ", ".join(f"+{m}" for m in MODES)
        raise ValueError(f"unknown offline model mode {model!r}: use {OFFLINE_MODEL!r} "
                         f"or add one of {valid}")
    return mode


def check_messages(messages: Any) -> None:
    """Reject what real providers reject, in their words (notebook 03's lesson).

    A tool result must answer a call of the assistant message just before it, and
    every call must be answered before the conversation goes on: a window that cuts
    a turn in the middle breaks one of these rules. Content is text: the offline
    model reads no list of parts (images, audio).
    """
    if not isinstance(messages, list) or not messages:
        raise ValueError("'messages' must be a non-empty list of messages")
    waiting: list[str] = []  # call ids of the last assistant message, unanswered
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ("system", "user", "assistant", "tool"):
            raise ValueError(f"messages[{index}]: role must be system, user, assistant "
                             f"or tool, got {role!r}")
        content = message.get("content")
        if content is not None and not isinstance(content, str):
            raise ValueError(f"messages[{index}]: the offline model reads text content "
                             f"only (a string or null), got {type(content).__name__}")
        if role == "tool":
            if message.get("tool_call_id") not in waiting:
                raise ValueError(
                    f"messages[{index}]: messages with role 'tool' must be a response "
                    "to a preceding message with 'tool_calls' (tool_call_id "
                    f"{message.get('tool_call_id')!r})")
            waiting.remove(message["tool_call_id"])
            continue
        if waiting:
            break
        if role == "assistant":
            waiting = [str(c.get("id")) for c in message.get("tool_calls") or ()]
    if waiting:
        raise ValueError("an assistant message with 'tool_calls' must be followed by "
                         "tool messages responding to each 'tool_call_id'; missing: "
                         + ", ".join(waiting))


def digest(text: str, length: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def dither(c: Conversation) -> Reply:
    """No progress: a new query every step, the same doubt every step, no answer."""
    attempt = 1 + sum(step.result is not None for step in c.steps)
    thought = say(c.lang, f"I am still not sure, let me look again ({attempt}).",
                  f"我还是不确定，让我再查一下（{attempt}）。")
    if "searchKnowledge" not in c.offered:
        return Reply(thought)
    query = say(c.lang, f"{c.user_text} (attempt {attempt})",
                f"{c.user_text}（第 {attempt} 次）")
    return Reply(thought, (("searchKnowledge", {"query": query}),))


def reply_for(mode: str, messages: list[dict[str, Any]],
              tools: list[dict[str, Any]]) -> Reply:
    """What the model says: summary, misbehaviour, or the clerk's next step."""
    if mode == "empty":
        return Reply("")
    if is_summary_request(messages, tools):
        return Reply(summarize(messages))
    forked = summary_request(messages)  # a summary asked for at the end (a fork)
    if forked is not None:
        return Reply(summarize(forked))
    conversation = Conversation.read(messages, tools)
    if mode == "repeat" and conversation.steps:
        # Stubborn: whatever the results say, call again what it called first.
        first = conversation.steps[0]
        return Reply(first.thought, ((first.name, first.arguments),))
    if mode == "dither":
        return dither(conversation)
    return clerk.respond(conversation)


def complete(request: dict[str, Any]) -> dict[str, Any]:
    """Answer a Chat Completions request body with a response body (both dicts).

    Raises ValueError, which the transport turns into HTTP 400, for messages a real
    provider would reject, an unknown mode, or a failure mode (only the transport
    can fail).
    """
    model = str(request.get("model") or OFFLINE_MODEL)
    mode = model_mode(model)
    if mode in FAILURE_MODES:
        raise ValueError(f"model {model!r} fails at the HTTP level: call it through "
                         "offline_http_client(), not complete()")
    messages: list[dict[str, Any]] = request.get("messages") or []
    check_messages(messages)
    tools: list[dict[str, Any]] = request.get("tools") or []
    reply = reply_for(mode, messages, tools)

    # Ids come from hashes of the request: unique per conversation, same every run.
    calls = []
    if reply.calls:  # the history is serialized only when an id needs it
        history = json.dumps(messages, sort_keys=True, ensure_ascii=False)
        for name, arguments in reply.calls:
            args = json.dumps(arguments, ensure_ascii=False)
            calls.append(ToolCall(f"call_{digest(history + name + args, 8)}", name,
                                  arguments))
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if calls:
        message["tool_calls"] = [call.to_dict() for call in calls]

    prompt = prompt_tokens(messages) + count_tools_tokens(tools)
    completion = count_message_tokens(ChatMessage.assistant(reply.content, calls))
    # The id needs only to differ between conversations: the messages as parsing
    # reads them (no JSON written out again on every call).
    canonical = repr((model, [message_key(m) or json.dumps(m, sort_keys=True)
                              for m in messages]))
    return {
        "id": f"chatcmpl-offline-{digest(canonical, 12)}",
        "object": "chat.completion",
        "created": 0,  # no clock: identical requests give identical bytes
        "model": model,
        "choices": [{"index": 0, "message": message,
                     "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                  "total_tokens": prompt + completion},
    }
