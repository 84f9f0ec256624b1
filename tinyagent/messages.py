"""Chat messages: the one data shape every other module passes around.

Introduced in notebook 02 (in-memory memory). A `ChatMessage` is immutable, so a
memory can hand out its list without anyone changing what it holds. The module also
converts to and from the Chat Completions dicts the `openai` SDK sends, tool calls
included. It leaves out images, audio and multi-part content: the course is text only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

# Tool-call arguments are a few small fields; past these limits they are refused as a
# readable error for the model rather than parsed, printed and stored.
MAX_ARGUMENT_CHARS = 20_000
MAX_DEPTH = 20


class Role(str, Enum):
    """Who wrote a message. The values are the Chat Completions role strings."""

    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"

    def __str__(self) -> str:  # print(Role.USER) -> "user", not "Role.USER"
        return self.value


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for: `arguments` is already parsed JSON."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not isinstance(self.name, str):
            raise TypeError(f"a ToolCall's id and name must be text, got {self.id!r} "
                            f"and {self.name!r}")
        if not isinstance(self.arguments, dict):
            raise TypeError(f"a ToolCall's arguments must be a dict, got "
                            f"{clip(repr(self.arguments), 60)}: parse JSON text with "
                            "parse_arguments() first")

    def signature(self) -> str:
        """Name plus canonical arguments: equal signatures mean a repeated call."""
        return f"{self.name}({json.dumps(self.arguments, sort_keys=True)})"

    def to_dict(self) -> dict[str, Any]:
        args = json.dumps(self.arguments, ensure_ascii=False)
        return {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": args}}


@dataclass(frozen=True)
class ChatMessage:
    """One message of a conversation.

    `tool_calls` is set on an assistant message that asks for tools; `tool_call_id`
    on the tool message that answers one of those calls.
    """

    role: Role
    content: str
    tool_call_id: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    # The ids a turn's tool results returned, set by the agent on the messages it
    # remembers of that turn (notebook 08): an id the agent wrote that is not among
    # them is its own claim, which a summary must not keep as a fact. None: not
    # known (a hand-built or older message), every id it names counts. Kept by the
    # stores (`to_record`), never sent to a model (`to_dict`), not part of equality.
    grounded_ids: tuple[str, ...] | None = field(default=None, compare=False,
                                                 repr=False)
    # Filled in by tokens.count_message_tokens the first time it counts this message,
    # so a message is tokenized once however often a memory asks: a turn then costs
    # the same with ten messages held or ten thousand.
    _tokens: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.role) is not Role:  # accept "user" too (Role() only when needed)
            object.__setattr__(self, "role", Role(self.role))
        object.__setattr__(self, "tool_calls", tuple(self.tool_calls))  # immutable
        if not isinstance(self.content, str):
            raise TypeError(f"content must be a str, got {type(self.content).__name__}")
        bad = next((c for c in self.tool_calls if not isinstance(c, ToolCall)), None)
        if bad is not None:  # a dict here would break every memory that reads it
            raise TypeError(f"tool_calls must hold ToolCall objects, got "
                            f"{type(bad).__name__}: ToolCall(id, name, arguments)")
        if self.grounded_ids is not None:
            object.__setattr__(self, "grounded_ids", tuple(self.grounded_ids))
        if self.role is Role.TOOL and not self.tool_call_id:
            raise ValueError("a tool message needs tool_call_id (the id of its call)")

    # -- factories: ChatMessage.user("hi") reads better than the full constructor
    @classmethod
    def system(cls, content: str) -> ChatMessage:
        return cls(Role.SYSTEM, content)

    @classmethod
    def user(cls, content: str) -> ChatMessage:
        return cls(Role.USER, content)

    @classmethod
    def assistant(cls, content: str = "",
                  tool_calls: tuple[ToolCall, ...] | list[ToolCall] = (),
                  grounded_ids: tuple[str, ...] | None = None) -> ChatMessage:
        return cls(Role.ASSISTANT, content, tool_calls=tuple(tool_calls),
                   grounded_ids=grounded_ids)

    @classmethod
    def tool(cls, tool_call_id: str, content: str) -> ChatMessage:
        return cls(Role.TOOL, content, tool_call_id=tool_call_id)

    # -- Chat Completions wire format
    def to_dict(self) -> dict[str, Any]:
        """The dict the Chat Completions API expects for this message."""
        d: dict[str, Any] = {"role": self.role.value, "content": self.content}
        if self.tool_calls:
            d["tool_calls"] = [call.to_dict() for call in self.tool_calls]
        if self.tool_call_id is not None:
            d["tool_call_id"] = self.tool_call_id
        return d

    def to_record(self) -> dict[str, Any]:
        """What a store keeps: `to_dict`, and the ids the turn's tools returned.

        A real provider rejects a message key it does not know, so `grounded_ids`
        is in the record only, never in what `to_dict` sends.
        """
        record = self.to_dict()
        if self.grounded_ids is not None:
            record["grounded_ids"] = list(self.grounded_ids)
        return record

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ChatMessage:
        """Build a message from a Chat Completions dict (the inverse of to_dict), or
        from a stored record (the inverse of to_record)."""
        if not isinstance(d, dict) or d.get("role") not in {r.value for r in Role}:
            role = d.get("role") if isinstance(d, dict) else None
            raise ValueError(f"a message dict needs a 'role' of system, user, "
                             f"assistant or tool, got {clip(repr(role), 40)}")
        calls = tuple(
            ToolCall(c["id"], c["function"]["name"],
                     parse_arguments(c["function"].get("arguments")))
            for c in d.get("tool_calls") or ()
        )
        grounded = d.get("grounded_ids")
        if grounded is not None and not (isinstance(grounded, list) and all(
                isinstance(i, str) for i in grounded)):
            raise ValueError(f"a message's grounded_ids must be a list of ids, got "
                             f"{clip(repr(grounded), 40)}")
        return cls(Role(d["role"]), d.get("content") or "",
                   tool_call_id=d.get("tool_call_id"), tool_calls=calls,
                   grounded_ids=None if grounded is None else tuple(grounded))

    def preview(self, width: int = 80) -> str:
        """One line for tables and printouts, cut at `width` characters."""
        calls = ", ".join(c.signature() for c in self.tool_calls)
        return clip(f"{self.content} {calls}", width)


def clip(text: str, width: int) -> str:
    """`text` on one line, at most `width` characters; "…" marks a cut."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def parse_arguments(raw: str | dict[str, Any] | None) -> dict[str, Any]:
    """Tool-call arguments as a dict; bad JSON keeps the raw text so it can be reported.

    Models do send malformed arguments. Raising here would kill the turn, so the
    registry sees `{"__raw__": text}` and answers the model with a readable error.
    """
    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        return raw if depth(raw) <= MAX_DEPTH else {
            "__raw__": f"(an object nested deeper than {MAX_DEPTH} levels)"}
    if len(raw) > MAX_ARGUMENT_CHARS:  # kept whole, a trace would print megabytes
        return {"__raw__": f"({len(raw):,} characters, over the "
                           f"{MAX_ARGUMENT_CHARS:,} a call may take) {raw[:40]}…"}
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):  # RecursionError: nested too deep
        return {"__raw__": raw[:1000]}
    if isinstance(value, dict) and depth(value) > MAX_DEPTH:
        return {"__raw__": f"(nested deeper than {MAX_DEPTH} levels) {clip(raw, 60)}"}
    return value if isinstance(value, dict) else {"__raw__": raw}


def depth(value: Any) -> int:
    """How deeply lists and dicts nest in `value` (counted without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            todo += [(v, level + 1) for v in (item.values() if isinstance(item, dict)
                                              else item)]
    return deepest
