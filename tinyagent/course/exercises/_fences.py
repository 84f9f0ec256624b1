"""The summary's fence as the checkers of notebooks 08 and 09 see it.

A fenced summary is a system message between a header line and a footer line
(memory/fence.py), in English or, in the Chinese edition, with the Chinese markers
(SUMMARY_HEADER_ZH, SUMMARY_FOOTER_ZH): either language's fence passes. `fence_of`
says which one a message uses; `show` writes a value for a report, and in a Chinese
report names the English markers (SUMMARY_HEADER) instead of quoting their words.
Left out: the cases themselves (nb08.py and nb09.py).
"""

from __future__ import annotations

from typing import Any

from ...lang import get_lang
from ...memory.fence import HEADER, SUMMARY_FOOTER, SUMMARY_HEADER


def show(value: Any) -> str:
    """repr(value); in a Chinese report the fence's English markers go by name."""
    text = repr(value)
    if get_lang() == "zh":
        for name, marker in (("SUMMARY_HEADER", SUMMARY_HEADER),
                             ("SUMMARY_FOOTER", SUMMARY_FOOTER)):
            text = text.replace(marker, f"{{{name}}}").replace(
                marker.strip("[]"), f"{{{name}.strip('[]')}}")
    return text


def fence_of(message: Any) -> str:
    """"zh" when `message` is fenced with the Chinese markers, else "en"."""
    content = getattr(message, "content", "")
    return "zh" if isinstance(content, str) and content.startswith(HEADER.zh) \
        else "en"


__all__ = ["fence_of", "show"]
