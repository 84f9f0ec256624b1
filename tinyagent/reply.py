"""Reading a model's reply: the one place where a Chat Completions body is checked.

Introduced in notebook 00, next to `LlmClient`. Real providers send replies that the
happy path does not expect: a tool call with no id or with `function: null`, content
as a list of parts, a reply with nothing in it, or megabytes of text. Each is either
accepted in a documented way or rejected as `BadReply` naming what was wrong, and
`LlmClient` turns that into an `LlmError`. Left out: streaming chunks, refusals,
logprobs and audio or image parts.
"""

from __future__ import annotations

import json
from typing import Any

from .chat_model import ChatResponse, Usage
from .messages import ToolCall, parse_arguments


class BadReply(ValueError):
    """The server answered, but not with a usable Chat Completions reply."""


def parse_reply(body: bytes | str, max_reply_tokens: int) -> ChatResponse:
    """The reply in `body`, checked; content over about 2 x `max_reply_tokens` is cut.

    The cap has slack because the provider counts with its own tokenizer; a server
    that ignores the request's max_tokens still cannot fill the memory with megabytes
    of text.
    """
    try:
        data = json.loads(body)
    except ValueError as exc:  # JSONDecodeError, or bytes that are not UTF-8
        raise BadReply(f"the body is not JSON ({exc})") from None
    except RecursionError:
        raise BadReply("the body nests objects too deeply to read") from None
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices:
        raise BadReply("no 'choices' in the reply")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        raise BadReply("choices[0] has no 'message' object")
    content = whole_text(read_content(message.get("content")))
    finish = choice.get("finish_reason")
    finish = finish if isinstance(finish, str) and finish else "stop"
    content, cut = cap_text(content, 2 * max_reply_tokens)
    if cut:
        finish = "length"
    calls = read_tool_calls(message.get("tool_calls"))
    return ChatResponse(content, calls, read_usage(data.get("usage")), finish)


def read_content(content: Any) -> str:
    """Text content; a list of parts (as some providers send) joins its text parts."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list):
        texts = [part.get("text") for part in content
                 if isinstance(part, dict) and part.get("type") in ("text", None)]
        if all(isinstance(text, str) for text in texts):
            return "".join(texts)
    raise BadReply(f"content must be text or a list of text parts, got "
                   f"{json.dumps(content)[:60]}")


def read_tool_calls(raw: Any) -> list[ToolCall]:
    """Tool calls with an id and a function name each, ids unique.

    Malformed arguments are kept (as {"__raw__": text}): the tool then tells the
    model what was wrong, which a real model can act on.
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise BadReply(f"tool_calls must be a list, got {type(raw).__name__}")
    calls: list[ToolCall] = []
    for index, call in enumerate(raw):
        where = f"tool_calls[{index}]"
        if not isinstance(call, dict):
            raise BadReply(f"{where} is not an object")
        function, call_id = call.get("function"), call.get("id")
        if not isinstance(call_id, str) or not call_id:
            # Without an id its result cannot be sent back: the next request would
            # be rejected, so the reply is refused here instead.
            raise BadReply(f"{where} has no id")
        if not isinstance(function, dict):
            raise BadReply(f"{where} has no 'function' object (got {function!r})")
        name = function.get("name")
        if not isinstance(name, str) or not name:
            raise BadReply(f"{where} has no function name")
        if any(c.id == call_id for c in calls):
            raise BadReply(f"{where} repeats the id {call_id!r}")
        arguments = function.get("arguments")
        if not isinstance(arguments, (str, dict, type(None))):
            arguments = json.dumps(arguments)  # a number or a list: reported as raw
        if isinstance(arguments, dict):  # as text, checked like the text form
            try:
                arguments = json.dumps(arguments, ensure_ascii=False)
            except RecursionError:
                arguments = "(an object nested too deeply)"
        if isinstance(arguments, str):
            arguments = whole_text(arguments)
        calls.append(ToolCall(call_id, name, parse_arguments(arguments)))
    return calls


def read_usage(raw: Any) -> Usage:
    """Token usage; a missing or odd `usage` counts as unknown (zeros), not an error."""
    if not isinstance(raw, dict):
        return Usage()
    prompt, completion = raw.get("prompt_tokens"), raw.get("completion_tokens")
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
               for n in (prompt, completion)):
        return Usage()
    details = raw.get("prompt_tokens_details")
    cached = (details.get("cached_tokens") if isinstance(details, dict) else None
              ) or raw.get("prompt_cache_hit_tokens")
    written = details.get("cache_write_tokens") if isinstance(details, dict) else 0
    cached, written = (n if isinstance(n, int) and not isinstance(n, bool) and n > 0
                       else 0 for n in (cached, written))
    return Usage(prompt, completion, min(cached, prompt),
                 min(written, prompt - min(cached, prompt)))


def cap_text(text: str, limit: int) -> tuple[str, bool]:
    """`text` cut to `limit` tokens, and whether it was cut.

    Characters are cut first (a token holds at most a few dozen), so a 5 MB reply is
    never tokenized whole.
    """
    from .tokens import encoding

    if len(text.encode("utf-8", "surrogatepass")) <= limit:  # a token is 1+ bytes:
        return text, False  # it fits without counting (most replies do)
    clipped = text[: 32 * limit]
    tokens = encoding().encode(clipped, disallowed_special=())
    if len(tokens) <= limit:
        return clipped, len(clipped) < len(text)
    return encoding().decode(tokens[:limit]), True


def whole_text(text: str) -> str:
    """`text` with any lone surrogate (a reply cut inside an emoji: "\\ud83d")
    replaced by U+FFFD: such a string cannot be printed, stored or sent again."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:  # pairs rejoin, lone halves become "\ufffd"
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
