"""Checkers for notebook 10 (take it to your framework): a tool step as SDK items.

`10.step_items` asks for `step_items(message) -> list[dict]`, the part of the item
mapping that frameworks get wrong: an assistant message's tool calls become one
`function_call` item each (`call_id`, `name`, and `arguments` as JSON *text*), in
order; a tool result becomes a `function_call_output` with the call's `call_id` and
its `output`. Each case builds a fresh message (English or Chinese arguments) and
reads the learner's items back with the package's reader (agents_sdk/items.py), so
any equivalent JSON text passes. Left out: the assistant's words (notebook 10 shows
why they take the SDK's output-message shape) and the other item types.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ...lang import Pair, say
from ...messages import ChatMessage, ToolCall
from . import Case, Wrong, exercise

CALLS = Pair([ToolCall("call_7", "queryOrder", {"order_id": "90417"}),
              ToolCall("call_8", "applyRefund", {"order_id": "90417",
                                                 "reason": "left earbud silent"})],
             [ToolCall("call_7", "queryOrder", {"order_id": "90417"}),
              ToolCall("call_8", "applyRefund", {"order_id": "90417",
                                                 "reason": "左耳没有声音"})])
RESULT = '{"order_id": "90417", "status": "in transit"}'


def _items(step_items: Any, message: ChatMessage) -> list[dict[str, Any]]:
    items = step_items(message)
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise Wrong(say(f"step_items returned {items!r:.80}; expected a list of dicts",
                        f"step_items 返回：得到 {items!r:.80}；应为由 dict 组成的列表"))
    return items


def _calls_read_back(step_items: Any, count: int) -> bool:
    calls = CALLS.say()[:count]
    items = _items(step_items, ChatMessage.assistant("", calls))
    kinds = [i.get("type") for i in items]
    if kinds != ["function_call"] * count:
        raise Wrong(say(f"{count} call(s): got item types {kinds}; expected "
                        f"{['function_call'] * count}",
                        f"{count} 个调用：得到的条目类型 {kinds}；应为 "
                        f"{['function_call'] * count}"))
    for item, call in zip(items, calls, strict=True):
        if not isinstance(item.get("arguments"), str):
            got = type(item.get("arguments")).__name__
            raise Wrong(say(f"{call.id}: 'arguments' is a {got}; expected JSON text "
                            "(json.dumps)", f"{call.id}：'arguments' 得到 `{got}`；"
                            "应为 JSON 文本（`json.dumps`）"),
                        say("the Responses API carries arguments as a string",
                            "SDK 的条目用 JSON 字符串传递 `arguments`"))
        got = (item.get("call_id"), item.get("name"), json.loads(item["arguments"]))
        want = (call.id, call.name, call.arguments)
        if got != want:
            raise Wrong(say(f"(call_id, name, arguments): got {got}; expected {want}",
                            f"(`call_id`, `name`, `arguments`)：得到 {got}；"
                            f"应为 {want}"))
    return True


def _output_matches(step_items: Any) -> bool:
    items = _items(step_items, ChatMessage.tool("call_8", RESULT))
    want = [{"type": "function_call_output", "call_id": "call_8", "output": RESULT}]
    picked = [{k: i.get(k) for k in ("type", "call_id", "output")} for i in items]
    if picked != want:
        raise Wrong(say(f"a tool result: got {picked}; expected {want}",
                        f"工具结果：得到 {picked}；应为 {want}"))
    return True


@exercise("10.step_items")
def _step_items_cases(step_items: Any) -> Iterator[Case]:
    yield (say("one call: one function_call item with call_id, name, arguments",
               "一个调用：一个 `function_call` 条目，带 `call_id`、`name`、"
               "`arguments`"),
           lambda: _calls_read_back(step_items, 1),
           say("one item a call: type, call_id (the call's id), name, arguments",
               "每个调用一个条目：`type`、`call_id`（调用的 id）、`name`、"
               "`arguments`"))
    yield (say("two calls: two items, in the order called",
               "两个调用：两个条目，按调用顺序"),
           lambda: _calls_read_back(step_items, 2),
           say("loop over message.tool_calls", "遍历 `message.tool_calls`"))
    yield (say("a tool result: a function_call_output with its call's call_id",
               "工具结果：`function_call_output`，带对应调用的 `call_id`"),
           lambda: _output_matches(step_items),
           say("the result's tool_call_id is the call_id that pairs it with its call",
               "结果的 `tool_call_id` 就是把它和调用配对的 `call_id`"))
