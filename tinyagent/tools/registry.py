"""Tools the agent can call, and the registry that runs them safely.

Introduced in notebook 00. A `Tool` is a Python function plus the JSON schema the model
sees. The registry validates arguments against that schema and turns every failure
(unknown tool, bad JSON, a missing argument, an exception inside the tool) into a tool
result the model can read and react to, never into an exception that ends the turn.
Those results speak the registry's language (`lang`: the BitMall store's, or the
package's setting at the time of the call), so a Chinese clerk never reads an English
error. Left out: async tools, parallel execution and full JSON-Schema validation
(only required keys and basic types are checked).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..lang import get_lang, say
from ..messages import ToolCall
from ..tokens import count_tools_tokens

T, U, V = TypeVar("T"), TypeVar("U"), TypeVar("V")
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float),
    "boolean": (bool,), "object": (dict,), "array": (list,),
}
_TYPES_ZH = {"string": "字符串", "integer": "整数", "number": "数字",
             "boolean": "布尔值", "object": "对象", "array": "数组"}


@dataclass(frozen=True)
class Tool:
    """A function the model may call. `parameters` is a JSON schema (an object)."""

    name: str
    description: str
    function: Callable[..., Any] = field(repr=False)  # a repr would show an address
    parameters: dict[str, Any] = field(
        default_factory=lambda: {"type": "object", "properties": {}, "required": []})

    def schema(self) -> dict[str, Any]:
        """The entry for the request's `tools` list (Chat Completions format)."""
        return {"type": "function", "function": {
            "name": self.name, "description": self.description,
            "parameters": self.parameters}}

    def coerce(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Forgive one common model slip: a number where the schema says string
        (order 88231 instead of "88231"). Anything else is left for check()."""
        props = self.parameters.get("properties", {})
        return {k: str(v) if props.get(k, {}).get("type") == "string"
                and isinstance(v, int) and not isinstance(v, bool) else v
                for k, v in arguments.items()}

    def check(self, arguments: dict[str, Any], lang: str | None = None) -> str | None:
        """What is wrong with these arguments (in `lang`), or None when fine."""
        def text(en: str, zh: str) -> str:
            return say(en, zh, lang)
        if "__raw__" in arguments:
            raw = repr(arguments["__raw__"][:80])
            return text(f"arguments are not valid JSON: {raw}",
                        f"参数不是有效的 JSON（{raw}）")
        props = self.parameters.get("properties", {})
        missing = [k for k in self.parameters.get("required", []) if k not in arguments]
        if missing:
            return text(f"missing required argument(s): {', '.join(missing)}",
                        f"缺少必需的参数 {'、'.join(missing)}")
        unknown = [k for k in arguments if k not in props]
        if unknown:
            return text(f"unknown argument(s): {', '.join(unknown)}; "
                        f"expected {sorted(props)}",
                        f"没有参数 {'、'.join(unknown)}（可用的参数："
                        f"{'、'.join(sorted(props)) or '无'}）")
        for key, value in arguments.items():
            kind = props[key].get("type", "")
            expected = _JSON_TYPES.get(kind, (object,))
            if not isinstance(value, expected) or (
                    isinstance(value, bool) and bool not in expected):
                return text(f"argument {key!r} must be a {kind}, got {value!r}",
                            f"参数 {key!r} 应为{_TYPES_ZH.get(kind, kind)}，"
                            f"收到的是 {value!r}")
        return None


class ToolRegistry:
    """Tools by name. `run(call)` always returns a string for the tool message."""

    def __init__(self, tools: list[Tool] | None = None,
                 lang: str | None = None) -> None:
        # the language of its error results; None: the setting at each call
        self.lang = lang
        self._tools: dict[str, Tool] = {}
        self._schema_tokens: int | None = None  # cached by schema_tokens()
        for tool in tools or []:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(say(f"a tool named {tool.name!r} is already registered",
                                 f"已经注册过名为 {tool.name!r} 的工具", self.lang))
        self._tools[tool.name] = tool
        self._schema_tokens = None  # the schemas changed: count again when asked

    def names(self) -> list[str]:
        return list(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolRegistry({', '.join(self._tools)})"

    def schema_tokens(self) -> int:
        """Tokens the schemas add to every request: counted once, not every turn."""
        if self._schema_tokens is None:
            self._schema_tokens = count_tools_tokens(self.schemas())
        return self._schema_tokens

    def schemas(self) -> list[dict[str, Any]]:
        """Every tool's schema, for the request's `tools` parameter."""
        return [tool.schema() for tool in self._tools.values()]

    def run(self, call: ToolCall) -> str:
        """Run one call. Errors come back as JSON text the model can read."""
        lang = get_lang(self.lang)
        tool = self._tools.get(call.name)
        if tool is None:
            return _error(say(f"unknown tool {call.name!r}; available: "
                              f"{', '.join(self._tools)}",
                              f"没有名为 {call.name!r} 的工具；可用的工具："
                              f"{'、'.join(self._tools)}", lang))
        arguments = tool.coerce(call.arguments)
        problem = tool.check(arguments, lang)
        if problem:
            return _error(say(f"{call.name}: {problem}",
                              f"调用 {call.name} 出错：{problem}", lang))
        try:
            result = tool.function(**arguments)
        except Exception as exc:  # a tool bug must not kill the agent's turn
            kind = type(exc).__name__
            return _error(say(f"{call.name} failed: {kind}: {exc}",
                              f"{call.name} 执行失败（{kind}：{exc}）", lang))
        if isinstance(result, str):
            return result
        return json.dumps(result, ensure_ascii=False)


def check_agent_parts(llm: T, tools: U, memory: V) -> tuple[T, U, V]:
    """What ReActAgent is built from, checked when it is built (ReActAgent(llm=None),
    tools=None or memory="hybrid" would fail only at the first turn); the three."""
    for name, value, method in (("llm", llm, "chat"), ("tools", tools, "run"),
                                ("memory", memory, "messages")):
        if (value is not None or name != "memory") and not callable(
                getattr(value, method, None)):
            kind = type(value).__name__
            raise TypeError(say(f"{name} must have a {method}() method, got {kind}",
                                f"{name} 必须有 {method}() 方法，当前是 {kind}"))
    return llm, tools, memory


def _error(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)
