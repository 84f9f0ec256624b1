"""Cache breakpoints: where the client marks a request, and where a provider reads.

Introduced in notebook 07 ("What you pay"). Most providers find a cached prefix by
themselves. Anthropic's cache reads only up to a block the request marks with
`cache_control`, and its prompt-caching page says where the marks go: static
content first (tools, then the system prompt, then the messages), a breakpoint at
the end of what stays the same, and, for a conversation, automatic caching: one
`cache_control` at the top level of the request, which puts the breakpoint on the
last block and moves it forward as the conversation grows. From a breakpoint the
provider also checks the earlier block boundaries, about 20 blocks back, and reads
the longest prefix it holds. So a fork (memory/fork.py), the agent's last request
plus the answer and one instruction, reads the agent's request: that request's
breakpoint is two blocks back from the fork's.

`mark_breakpoints(request, rule)` adds the mark when the rule says the client places
it (`CacheRule.marked`); `breakpoints(request)` lists the marked blocks as the offline
cache reads them (0 is the tools, 1 the first message; a message whose content is a
list of parts may carry a mark of its own). Left out: separate breakpoints after the
tools and after the system prompt, which the page advises for static content that
changes at another pace than the conversation: the course's tools and system prompt
together are about 540 tokens, under the 1,024-token minimum of every Claude model
the course lists, so such a breakpoint would never be read (with a longer system
prompt, add one); the 4-breakpoint limit; TTLs other than 5 minutes and 1 hour.
"""

from __future__ import annotations

from typing import Any

EPHEMERAL = {"type": "ephemeral"}
ONE_HOUR = 3600  # a rule's expiry at or above this asks for the 1-hour cache


def mark_breakpoints(request: dict[str, Any], rule: Any) -> dict[str, Any]:
    """`request` (changed in place, and returned) with the breakpoints the client
    places under `rule` (a CacheRule: `marked`, `expiry_seconds`); unchanged under
    None, or a rule whose provider finds the prefix itself."""
    if rule is None:
        return request
    if not rule.marked:
        return request
    # the 1-hour cache is asked for by name; the 5-minute one is the default
    long = (rule.expiry_seconds or 0) >= ONE_HOUR
    request["cache_control"] = {**EPHEMERAL, "ttl": "1h"} if long else dict(EPHEMERAL)
    return request


def breakpoints(request: dict[str, Any]) -> list[int] | None:
    """The marked blocks of `request`, in order (0: the tools; 1 + i: message i),
    or None when nothing is marked (the provider places its own, at the end)."""
    messages = request.get("messages") or []
    tools = request.get("tools") or []
    marks = [0] if tools and isinstance(tools[-1], dict) \
        and tools[-1].get("cache_control") else []
    for index, message in enumerate(messages, 1):
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(
                isinstance(part, dict) and part.get("cache_control")
                for part in content):
            marks.append(index)
    if request.get("cache_control"):
        marks.append(len(messages))  # automatic caching: the last block
    return sorted(set(marks)) or None
