"""What the offline clerk can see: the messages of one request, read once.

Introduced in notebook 00. The offline model is a pure function of the request, so
everything it "remembers" comes from here: the newest user message, the tool calls
and results of the current turn (the messages after that user message), and the
older messages, which it scans backwards to resolve "it" or "那个订单" (forwards for
"the first one", "最开始问的那个"). The first system prompt is instructions, not
conversation: only a summary folded into it (from "[Conversation summary]" on) is
scanned. Left out: images, and tool results that are
neither JSON nor plain text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..lang import is_chinese
from . import intents

SUMMARY_MARK = re.compile(r"summary|摘要|总结", re.I)


@dataclass(frozen=True)
class Step:
    """One tool call of the current turn and its result (None while unanswered)."""

    name: str
    arguments: dict[str, Any]
    result: dict[str, Any] | None
    thought: str  # the content of the assistant message that made the call


def parse_result(text: str) -> dict[str, Any]:
    """A tool result as a dict: JSON objects as they are, anything else as text."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return {"text": text}
    return value if isinstance(value, dict) else {"text": text}


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


@lru_cache(maxsize=1024)  # the history comes back every call (bounded: soak.py)
def _lines(text: str) -> tuple[str, ...]:
    """The lines of `text` that are not blank."""
    return tuple(line for line in text.splitlines() if line.strip())


@dataclass
class Conversation:
    """The request as the clerk reads it; build it with `Conversation.read`."""

    user_text: str  # the newest user message ("" when there is none)
    offered: set[str]  # names of the tools the request offers
    steps: list[Step] = field(default_factory=list)  # this turn's calls, in order
    segments: list[str] = field(default_factory=list)  # older text, oldest first
    roles: list[str] = field(default_factory=list)  # the role of each segment
    before_turn: int = 0  # how many segments precede the newest user message

    @property
    def lang(self) -> str:
        return "zh" if is_chinese(self.user_text) else "en"

    @classmethod
    def read(cls, messages: list[dict[str, Any]],
             tools: list[dict[str, Any]] | None) -> Conversation:
        offered = {t.get("function", {}).get("name", "") for t in tools or ()}
        last_user = next((i for i in range(len(messages) - 1, -1, -1)  # from the end:
                          if messages[i].get("role") == "user"), -1)  # it is near
        conv = cls(user_text=(messages[last_user].get("content") or "")
                   if last_user >= 0 else "", offered=offered)
        calls: dict[str, tuple[str, dict[str, Any], str]] = {}  # id -> call
        answered: dict[str, dict[str, Any]] = {}  # call id -> result
        for index, message in enumerate(messages):
            text, role = message.get("content") or "", message.get("role")
            if index == 0 and role == "system":
                mark = SUMMARY_MARK.search(text)  # instructions are not conversation
                text = text[mark.start():] if mark else ""
            for call in message.get("tool_calls") or ():
                function = call.get("function", {})
                args = _arguments(function.get("arguments"))
                arguments = json.dumps(args, ensure_ascii=False)
                text += f"\n{function.get('name')} {arguments}"  # ids in calls count
                if index > last_user:
                    calls[call.get("id", "")] = (function.get("name", ""), args,
                                                 message.get("content") or "")
            if role == "tool" and index > last_user:
                answered[message.get("tool_call_id", "")] = parse_result(text)
            if index == last_user:
                conv.before_turn = len(conv.segments)
            else:
                lines = _lines(text)
                conv.segments.extend(lines)
                conv.roles.extend([role or ""] * len(lines))
        if last_user < 0:  # no user message: every line is history
            conv.before_turn = len(conv.segments)
        conv.steps = [Step(name, args, answered.get(call_id), thought)
                      for call_id, (name, args, thought) in calls.items()]
        return conv

    # -- the current turn
    def result(self, name: str, **match: str) -> dict[str, Any] | None:
        """The newest result this turn of `name` called with arguments ⊇ `match`."""
        for step in reversed(self.steps):
            if step.name == name and step.result is not None and all(
                    str(step.arguments.get(k)) == v for k, v in match.items()):
                return step.result
        return None

    def can_call(self, name: str, arguments: dict[str, Any]) -> bool:
        """Offered, and not already called with these arguments in this turn."""
        return name in self.offered and not any(
            s.name == name and s.arguments == arguments for s in self.steps)

    # -- memory: the newest mention, scanning backwards through everything seen
    def newest(self, pattern: re.Pattern[str], near: re.Pattern[str] | None = None
               ) -> str | None:
        """The newest match of `pattern`: the user message first, then older lines.

        With `near` (a kind of product, say), a line that also matches `near` wins
        over a newer line that does not: "this vacuum" picks the vacuum order.
        """
        found = pattern.findall(self.user_text)
        if found:
            return found[0]
        fallback = None
        for line in reversed(self.segments):
            found = pattern.findall(line)
            if found:
                if near is None or near.search(line):
                    return found[-1]
                fallback = fallback or found[-1]
        return fallback

    def oldest(self, pattern: re.Pattern[str], near: re.Pattern[str] | None = None
               ) -> str | None:
        """The first match of `pattern` in the older lines, oldest first: "the first
        order I asked about". With `near`, a line that also matches it wins."""
        fallback = None
        for line in self.segments[: self.before_turn]:
            found = pattern.findall(line)
            if found:
                if near is None or near.search(line):
                    return found[0]
                fallback = fallback or found[0]
        return fallback

    def said(self, roles: tuple[str, ...]) -> list[tuple[str, str]]:
        """(role, line) of the older lines written by `roles`, newest first."""
        return [(r, line) for r, line in zip(reversed(self.roles),
                                             reversed(self.segments), strict=True)
                if r in roles]

    def order(self) -> str | None:
        """The order the customer means, or None when the messages name none: the
        one this message names, else the newest mention ("it", "那个订单") or, when
        the customer says so ("the first one", "最开始问的那个"), the oldest."""
        kind = intents.kind_of(self.user_text)
        near = intents.KINDS[kind] if kind else None
        if intents.FIRST.search(self.user_text) and not intents.order_ids(
                self.user_text):
            return self.oldest(intents.ORDER_ID, near) or self.newest(
                intents.ORDER_ID, near)
        return self.newest(intents.ORDER_ID, near)

    def products(self, count: int = 1) -> list[str]:
        """Up to `count` product names: the user message's, then newest older ones.

        "it" means what the conversation named before this message, never a name
        in this turn's own tool results (a feature such as "LiDAR" is no product);
        "the first one" / "最开始那款", the oldest name instead of the newest. "它和
        S20 Max 比" names "it" first, so "it" comes first.
        """
        own = intents.products(self.user_text)
        names = list(own)
        older = self.segments[: self.before_turn]
        first = intents.FIRST.search(self.user_text) is not None
        for line in older if first else reversed(older):
            if len(names) >= count:
                break
            in_line = intents.products(line)
            for name in in_line if first else reversed(in_line):
                if name not in names and len(names) < count:
                    names.append(name)
        if own and len(names) > len(own) and intents.pronoun_first(self.user_text):
            names = names[len(own):] + own
        return names[:count]

    def near(self, value: str, pattern: re.Pattern[str]) -> str | None:
        """The match of `pattern` on the newest line that mentions `value`."""
        for line in [self.user_text, *reversed(self.segments)]:
            if value in line:
                found = pattern.findall(line.replace(value, " "))
                if found:
                    return found[-1]
        return None
