"""One step of the offline clerk: its reply, and the tool calls it may make.

Introduced in notebook 00, which traces one ReAct turn. A step either answers (text
only) or asks for facts (text, the "thought", plus tool calls). The clerk asks only
for tools the request offers and never repeats a call within a turn, so every turn
ends. Left out: parallel calls to different tools in one step, beyond comparing two
products.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import replies
from .conversation import Conversation

Call = tuple[str, dict[str, Any]]  # (tool name, arguments)
Found = list[dict[str, Any]]  # catalog items or help articles from a tool result


@dataclass(frozen=True)
class Reply:
    """What the model says this step: text, and tool calls when it wants facts."""

    content: str
    calls: tuple[Call, ...] = ()


def ask_tools(c: Conversation, thought: str, *calls: Call, about: Any = ()
              ) -> Reply | None:
    """A tool-calling reply, or None when none of the calls may be made."""
    allowed = tuple(call for call in calls if c.can_call(*call))
    if not allowed:
        return None
    return Reply(replies.thought(c.lang, thought, *about), allowed)


def found(result: dict[str, Any] | None) -> Found:
    """The items of a search result ("results"), or none."""
    items = (result or {}).get("results")
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def best_match(items: Found, name: str) -> dict[str, Any] | None:
    """The catalog item whose name contains `name`; the only item if just one."""
    for item in items:
        if name.lower() in str(item.get("name", "")).lower():
            return item
    return items[0] if len(items) == 1 else None
