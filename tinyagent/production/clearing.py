"""ToolClearingChatMemory: keep everything, but clear old tool results past a trigger.

Introduced in notebook 07 ("What you pay"); it lives with the production
memories, as compact does, because what it saves is the bill and the context
window. It is for an agent that remembers its tool calls
(`ReActAgent(..., remember_tool_calls=True)`). A tool result is the bulkiest part of
such a memory and the least read again: once the agent has answered from it, its
answer says what mattered. So, as Anthropic's API does with its
`clear_tool_uses_20250919` context edit (the knobs below keep its names and
meaning), once the memory holds more than `trigger` tokens the oldest tool results
are replaced by a short placeholder:

- `keep`: the newest tool results stay whole (they may still be read);
- `clear_at_least`: clear only if that many tokens go at once, else wait. A clearing
  changes the prompt where the first cleared result was, so the provider's cache
  misses from there on; clearing in big steps makes each miss pay for itself;
- `exclude_tools`: the results of these tools are never cleared.

The placeholder keeps the order, tracking and refund numbers the result held
(memory/entities.py), and its `tool_call_id`: the call keeps its one result, as
providers require. A cleared result is never touched again, so everything before
the newest clearing stays the cached prefix. Left out: clearing the calls'
arguments too (Anthropic's `clear_tool_inputs`), and a trigger counted on the whole
prompt (this one counts what the memory holds).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..checks import check_size
from ..lang import get_lang
from ..memory.base import BaseChatMemory
from ..memory.entities import find_ids
from ..messages import ChatMessage, Role
from ..tokens import count_message_tokens

CLEARED = {"en": "[tool result cleared to save space]",
           "zh": "[工具结果已清除以节省空间]"}
IDS = {"en": " ids: ", "zh": " 编号："}


def placeholder(result: str, lang: str = "en") -> str:
    """What a cleared result becomes: a note that keeps the result's ids.

    >>> placeholder('{"order_id": "88231", "tracking_number": "SF1234567890"}')
    '[tool result cleared to save space] ids: 88231, SF1234567890'
    """
    ids = find_ids(result)
    return CLEARED[lang] + (IDS[lang] + ", ".join(ids) if ids else "")


class ToolClearingChatMemory(BaseChatMemory):
    """Every message, oldest first; past `trigger` tokens, old tool results cleared."""

    _repr_fields = ("trigger", "keep", "clear_at_least", "cleared")

    def __init__(self, trigger: int = 1500, keep: int = 3, clear_at_least: int = 0,
                 exclude_tools: Iterable[str] = (), *, lang: str | None = None
                 ) -> None:
        check_size("trigger", trigger, 100, "a question and its answer take about "
                   "that", why_zh="一问一答大约就占这么多", lang=lang)
        check_size("keep", keep, 0, "0 keeps no result whole",
                   why_zh="0 表示一个也不留", lang=lang)
        check_size("clear_at_least", clear_at_least, 0, "0 means no minimum",
                   why_zh="0 表示不设下限", lang=lang)
        super().__init__()
        self.trigger, self.keep, self.clear_at_least = trigger, keep, clear_at_least
        self.exclude_tools = frozenset(exclude_tools)
        self.lang = get_lang(lang)
        self.clear()

    def clear(self) -> None:
        super().clear()
        self.cleared = 0  # tool results replaced by a placeholder
        self.cleared_tokens = 0  # the tokens those replacements saved
        self.clearings = 0  # how often: each one is a miss of the provider's cache
        self._read = 0  # messages looked at so far: each is looked at once
        self._names: dict[str, str] = {}  # call id -> tool name, of the latest step
        # results not cleared yet, oldest first: (index, message)
        self._results: deque[tuple[int, ChatMessage]] = deque()
        self._due: list[Due] = []  # old enough and worth clearing: waiting for
        self._due_tokens = 0  # clear_at_least, with the tokens they would save

    def _trim(self) -> None:
        for index in range(min(self._read, len(self)), len(self)):
            message = self._messages[index]
            if message.tool_calls:  # this step's calls: their results come next
                self._names = {call.id: call.name for call in message.tool_calls}
            elif message.role is Role.TOOL:
                name = self._names.get(message.tool_call_id or "")
                if name not in self.exclude_tools:
                    self._results.append((index, message))
        self._read = len(self)
        if self._tokens <= self.trigger:
            return
        # Every result older than the newest `keep` is due (if the placeholder is
        # shorter): but what a clearing saves must reach clear_at_least first.
        while len(self._results) > self.keep:
            result = due(*self._results.popleft(), self.lang)
            if result.saved > 0:
                self._due.append(result)
                self._due_tokens += result.saved
        if not self._due or self._due_tokens < self.clear_at_least:
            return  # not worth a cache miss yet: wait until it is
        for result in self._due:
            if self._messages[result.index] is result.message:  # still held
                self._messages[result.index] = result.placeholder
                self._tokens -= result.saved
                self.cleared += 1
                self.cleared_tokens += result.saved
        self.clearings += 1
        self._due, self._due_tokens = [], 0

    def stats(self) -> dict[str, Any]:
        return {**super().stats(), "cleared": self.cleared,
                "cleared_tokens": self.cleared_tokens, "clearings": self.clearings}


@dataclass(frozen=True)
class Due:
    """A tool result old enough to clear: where it is, and what it would become."""

    index: int
    message: ChatMessage
    placeholder: ChatMessage  # the same call's result, the placeholder its content
    saved: int  # tokens the clearing saves


def due(index: int, message: ChatMessage, lang: str) -> Due:
    """The result at `index`, with its placeholder and the tokens it would save."""
    new = ChatMessage.tool(message.tool_call_id or "",
                           placeholder(message.content, lang))
    return Due(index, message, new, count_message_tokens(message)
               - count_message_tokens(new))
