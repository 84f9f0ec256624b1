"""Two consecutive prompts drawn a cell a message, the cached prefix marked.

Introduced in notebook 07 ("What you pay"), through billing.picture. The drawing
shows why a memory that only appends is cached almost whole and a sliding window
is not: `=` under what the later prompt shares with the earlier one. Left out:
token-level detail inside a message (a cell is marked `==---` where the match ends
inside it).
"""

from __future__ import annotations

from typing import Any

from ..lang import say, text_width
from ..offline.prompt_cache import Block


def draw_prefix(old: dict[str, Any], new: dict[str, Any], blocks: list[Block],
                matched: int, hit: int, rule: str, lang: str | None = None) -> str:
    """The two requests' cells ("tools", "sys", "u", "a"; in Chinese 工具, 系统, 用户,
    客服), `=` under the first `matched` tokens of `new`, and how many were cached."""
    tools, *roles = say("tools|sys|u|a|t", "工具|系统|用户|客服|结果", lang).split("|")
    names = dict(zip(("system", "user", "assistant", "tool"), roles, strict=True))
    lines = []
    earlier, later, cached = say("earlier|next|cached", "上一次|下一次|缓存",
                                 lang).split("|")
    for label, body in ((earlier, old), (later, new)):
        cells = [tools] + [names[m["role"]] for m in body["messages"]]
        lines.append(f"{right(label, 8)} | " + " | ".join(centred(c, 5) for c in cells))
    marks, done = [], 0
    for block in blocks:
        marks.append("=====" if done + len(block) <= matched else
                     "==---" if done < matched else "-----")
        done += len(block)
    lines.append(f"{right(cached, 8)} | " + " | ".join(marks))
    lines.append(say(f"{hit:,} of {done + 3:,} prompt tokens cached ({rule} rule)",
                     f"{done + 3:,} 个提示词 token 中缓存命中 {hit:,} 个"
                     f"（{rule} 规则）",
                     lang))
    return "\n".join(lines)


def right(text: str, width: int) -> str:
    """`text` right-aligned in `width` terminal columns (a Chinese character: two)."""
    return " " * max(width - text_width(text), 0) + text


def centred(text: str, width: int) -> str:
    """`text` centred in `width` terminal columns (a Chinese character takes two)."""
    room = max(width - text_width(text), 0)
    return " " * (room // 2) + text + " " * (room - room // 2)
