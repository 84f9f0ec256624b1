"""Tool calls for a model whose chat template knows nothing of tools.

Used by scripts/local_model.py, the small server a workshop runs on one laptop.
SmolLM2-135M-Instruct's template (plain ChatML) has no tool support of its own, so
this module defines the format and keeps both directions in one place:

- requests: the tools are described in the system turn, a past tool call becomes
  the text the model is asked to write, `<tool_call>{"name": .., "arguments": {..}}
  </tool_call>`, and the whole dialog is rendered with the model's OWN template
  (Jinja, no HTML escaping: a quote stays a quote);
- replies: that format, or a bare JSON object naming a known tool, is parsed back
  into OpenAI `tool_calls`; anything else is the model's prose, left as it is.

Pure text in, text out: tests/test_chat_template.py runs it without a model.
Left out: parallel tool calls in one reply (the first call only, enough for a
two-step agent), streaming, images.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from jinja2.sandbox import ImmutableSandboxedEnvironment

OPEN, CLOSE = "<tool_call>", "</tool_call>"
CALL = re.compile(re.escape(OPEN) + r"\s*(.*?)\s*(?:" + re.escape(CLOSE) + r"|$)",
                  re.S)
HOW_TO_CALL = (  # {tools} is replaced; the other braces are the JSON to write
    "\n\nYou can call these tools:\n{tools}\n"
    "To call one, reply with one line and nothing else:\n"
    + OPEN + '{"name": "<tool name>", "arguments": {"<name>": "<value>"}}' + CLOSE +
    "\nWhen a tool result is given, or no tool is needed, answer the user in plain "
    "sentences.")
_ids = itertools.count(1)  # call ids: unique for the server's lifetime


def describe(tools: list[dict[str, Any]]) -> str:
    """One line a tool: `- name(arg: type, ...): description` (JSON schemas are
    long, and every token of the system turn is paid on every call)."""
    lines = []
    for tool in tools:
        f = tool.get("function") or {}
        props = (f.get("parameters") or {}).get("properties") or {}
        args = ", ".join(f"{k}: {v.get('type', 'string')}" for k, v in props.items())
        lines.append(f"- {f.get('name')}({args}): {f.get('description', '')}")
    return "\n".join(lines)


def as_text(call: dict[str, Any]) -> str:
    """An OpenAI tool call written the way the model is asked to write one."""
    f = call.get("function") or {}
    try:
        args = json.loads(f.get("arguments") or "{}")
    except json.JSONDecodeError:
        args = f.get("arguments")
    return OPEN + json.dumps({"name": f.get("name"), "arguments": args},
                             ensure_ascii=False) + CLOSE


def template_messages(messages: list[dict[str, Any]],
                      tools: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The request's messages as plain role/content pairs the template can render."""
    out = []
    for m in messages:
        content = m.get("content") or ""
        if isinstance(content, list):  # content parts: their text, joined
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        calls = "".join(as_text(c) for c in m.get("tool_calls") or [])
        out.append({"role": m.get("role", "user"),
                    "content": f"{content}{calls}" if content and calls else
                    content or calls})
    if tools:
        extra = HOW_TO_CALL.replace("{tools}", describe(tools))
        if out and out[0]["role"] == "system":
            out[0] = {"role": "system", "content": out[0]["content"] + extra}
        else:
            out.insert(0, {"role": "system", "content": extra.strip()})
    return out


def render(template: str, messages: list[dict[str, str]], bos: str = "",
           eos: str = "") -> str:
    """The prompt, by the model's own template. Autoescape stays off: the template
    writes a chat, not HTML (an escaped quote, `&#34;`, is copied by the model)."""
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.filters["tojson"] = lambda value, **_: json.dumps(value, ensure_ascii=False)

    def raise_exception(message: str) -> None:
        raise ValueError(f"the chat template refused the request: {message}")

    return env.from_string(template).render(
        messages=messages, add_generation_prompt=True, bos_token=bos, eos_token=eos,
        raise_exception=raise_exception)


def _calls_in(text: str, names: set[str]) -> list[dict[str, Any]]:
    """The OpenAI tool calls in one JSON object (or list of them), or []."""
    try:
        value, _ = json.JSONDecoder().raw_decode(text.strip())
    except json.JSONDecodeError:
        return []
    calls = []
    for item in value if isinstance(value, list) else [value]:
        if not isinstance(item, dict) or item.get("name") not in names:
            continue  # an unknown tool is not a call: the text stays as it is
        args = item.get("arguments", item.get("parameters", {}))
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                continue
        if isinstance(args, dict):
            calls.append({"id": f"call_{next(_ids)}", "type": "function", "function":
                          {"name": item["name"], "arguments": json.dumps(args)}})
    return calls[:1]


def parse(text: str, names: set[str]) -> tuple[str | None, list[dict[str, Any]]]:
    """(content, tool_calls) from the model's text. A call is `<tool_call>` + JSON
    (the closing tag may be cut), or a bare JSON object naming a known tool."""
    calls: list[dict[str, Any]] = []
    for body in CALL.findall(text):
        calls = calls or _calls_in(body, names)
    if not calls and text.lstrip().startswith("{"):
        calls = _calls_in(text, names)
    if not calls:
        return text.strip(), []
    before = text.split(OPEN)[0].strip() if OPEN in text else ""
    return before or None, calls
