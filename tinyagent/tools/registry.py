"""Tools the agent can call, and the registry that runs them safely.

Introduced in notebook 00. A `Tool` is a Python function plus the JSON schema the model
sees. The registry validates arguments against that schema and turns every failure
(unknown tool, bad JSON, a missing argument, an exception inside the tool) into a tool
result the model can read and react to, never into an exception that ends the turn.
Left out: async tools, parallel execution and full JSON-Schema validation (only
required keys and basic types are checked).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..messages import ToolCall
from ..tokens import count_tools_tokens

T, U, V = TypeVar("T"), TypeVar("U"), TypeVar("V")
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float),
    "boolean": (bool,), "object": (dict,), "array": (list,),
}


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

    def check(self, arguments: dict[str, Any]) -> str | None:
        """What is wrong with these arguments, or None when they are fine."""
        if "__raw__" in arguments:
            return f"arguments are not valid JSON: {arguments['__raw__'][:80]!r}"
        props = self.parameters.get("properties", {})
        missing = [k for k in self.parameters.get("required", []) if k not in arguments]
        if missing:
            return f"missing required argument(s): {', '.join(missing)}"
        unknown = [k for k in arguments if k not in props]
        if unknown:
            return (f"unknown argument(s): {', '.join(unknown)}; "
                    f"expected {sorted(props)}")
        for key, value in arguments.items():
            expected = _JSON_TYPES.get(props[key].get("type", ""), (object,))
            if not isinstance(value, expected) or (
                    isinstance(value, bool) and bool not in expected):
                return f"argument {key!r} must be a {props[key]['type']}, got {value!r}"
        return None


class ToolRegistry:
    """Tools by name. `run(call)` always returns a string for the tool message."""

    def __init__(self, tools: list[Tool] | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        self._schema_tokens: int | None = None  # cached by schema_tokens()
        for tool in tools or []:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
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
        tool = self._tools.get(call.name)
        if tool is None:
            available = ", ".join(self._tools)
            return _error(f"unknown tool {call.name!r}; available: {available}")
        arguments = tool.coerce(call.arguments)
        problem = tool.check(arguments)
        if problem:
            return _error(f"{call.name}: {problem}")
        try:
            result = tool.function(**arguments)
        except Exception as exc:  # a tool bug must not kill the agent's turn
            return _error(f"{call.name} failed: {type(exc).__name__}: {exc}")
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
            raise TypeError(f"{name} must have a {method}() method, got "
                            f"{type(value).__name__}")
    return llm, tools, memory


def _error(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)
