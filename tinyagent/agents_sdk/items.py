"""Items both ways: the Agents SDK's Responses-shaped items and this package's messages.

Introduced in notebook 10. The OpenAI Agents SDK keeps a conversation as *items*:
`{"role": "user", "content": ...}` messages, an assistant's `{"type": "message",
...}` with output-text parts, one `{"type": "function_call", "call_id", "name",
"arguments"}` per tool call, and `{"type": "function_call_output", "call_id",
"output"}` for its result. A Chat Completions message puts the assistant's words and
its calls in one message, so:

- items -> messages: an assistant message and the function calls right after it
  become one `ChatMessage.assistant(text, tool_calls)`; a call's output becomes
  `ChatMessage.tool(call_id, output)`, matched by `call_id`;
- messages -> items: the inverse, the words first (as the SDK's own assistant
  output message), then one item per call.

A summary, a system message, goes back as a `{"role": "system"}` item: the Responses
input accepts it, and the SDK's chat-completions model sends it as the system
message it is, word for word, fence included (the fence says it is reference data,
not instructions). It is not folded into the instructions (those belong to the
SDK's `Agent`), and not dressed as a user question and an assistant answer (that
would put words in the customer's or the clerk's mouth). Left out: reasoning items,
images, files and the hosted tools' items (web search...): a text course has none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..messages import ChatMessage, Role, ToolCall, parse_arguments

Item = dict[str, Any]  # one Responses input item, as the SDK passes them
FAKE_ID = "__fake_id__"  # agents.models.fake_id.FAKE_RESPONSES_ID


def text_of(content: Any) -> str:
    """An item's content as text: a string, or the text of its parts joined."""
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    return "".join(str(p.get("text") or p.get("refusal") or "") for p in parts
                   if isinstance(p, dict))


def from_items(items: Iterable[Item]) -> list[ChatMessage]:
    """The messages these items hold, in order; an assistant's calls join it."""
    messages: list[ChatMessage] = []
    for item in items:
        if not isinstance(item, dict):  # the SDK's typed items are dicts by now
            item = dict(item)
        kind = item.get("type", "message")
        if kind == "function_call":
            call = ToolCall(str(item["call_id"]), str(item["name"]),
                            parse_arguments(item.get("arguments")))
            last = messages[-1] if messages else None
            if last is not None and last.role is Role.ASSISTANT:  # its words, or
                messages[-1] = ChatMessage.assistant(last.content,
                                                     (*last.tool_calls, call))
                # ...its calls so far: one model reply, one message
            else:
                messages.append(ChatMessage.assistant("", [call]))
        elif kind == "function_call_output":
            messages.append(ChatMessage.tool(str(item["call_id"]),
                                             text_of(item.get("output"))))
        elif kind == "message" and item.get("role") in ("user", "assistant",
                                                         "system", "developer"):
            role = "system" if item["role"] == "developer" else item["role"]
            messages.append(ChatMessage(Role(role), text_of(item.get("content"))))
    return messages


def to_items(messages: Iterable[ChatMessage]) -> list[Item]:
    """The items the SDK gets for these messages (from_items' inverse)."""
    items: list[Item] = []
    for message in messages:
        if message.role is Role.TOOL:
            items.append({"type": "function_call_output",
                          "call_id": message.tool_call_id, "output": message.content})
            continue
        if message.role is Role.ASSISTANT and (message.content or
                                               not message.tool_calls):
            items.append(said(message.content))
        elif message.role is not Role.ASSISTANT:
            items.append({"role": message.role.value, "content": message.content})
        items += [{"type": "function_call", "call_id": call.id, "name": call.name,
                   "arguments": json.dumps(call.arguments, ensure_ascii=False)}
                  for call in message.tool_calls]
    return items


def said(text: str) -> Item:
    """An assistant's words as the SDK's own output message, the shape its
    chat-completions model joins with the calls after it into one message. The id
    is the SDK's placeholder for items that did not come from the Responses API."""
    return {"id": FAKE_ID, "type": "message", "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}
