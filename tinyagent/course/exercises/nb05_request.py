"""What notebook 05's merge step sends: one call, the prompt, the two labelled parts.

Used by nb05.py's first cases. A fake model records the request; each check raises
Wrong with what was sent and what was expected. Either language's prompt and labels
pass ("Previous summary:" or the Chinese edition's "之前的摘要："), as long as the
labels are the prompt's language: the offline summarizer reads both. Left out: what
the model replies (nb05.py).
"""

from __future__ import annotations

from typing import Any

from ...lang import get_lang, say
from ...memory.summarizer import PROMPTS
from ...memory.transcript import MARKERS, render
from ...messages import ChatMessage
from . import Wrong
from .nb05_inputs import Recorder, overflow, previous


def _request(merge_summary: Any, previous: str | None) -> tuple[list[ChatMessage], Any]:
    model = Recorder()
    merge_summary(model, previous, overflow())
    if len(model.requests) != 1:
        raise Wrong(say(f"model calls: got {len(model.requests)}; expected 1",
                        f"模型调用次数：得到 {len(model.requests)} 次；应为 1 次"))
    return model.requests[0]


def _prompt(merge_summary: Any) -> bool:
    """One call, no tools, a summarizer prompt (either language's) as the system
    message; otherwise Wrong, showing what was sent and what was expected."""
    messages, tools = _request(merge_summary, previous())
    first = messages[0] if messages else None
    if first is not None and first.role.value == "system" and \
            first.content in (PROMPTS.en, PROMPTS.zh) and not tools:
        return True
    got = (f"{first.role.value}: {first.content[:60]!r}" if first else "[]") + \
        (say(f" with {len(tools)} tools", f"，带 {len(tools)} 个工具") if tools else "")
    expected = f"system: {PROMPTS.say()[:60]!r}"
    raise Wrong(say(f"the first message: got {got}; expected {expected}, no tools",
                    f"第一条消息：得到 {got}；应为 {expected}，不带工具"))


def _markers(merge_summary: Any) -> tuple[str, str, str]:
    """(previous, none, new) labels of the language the learner's prompt is in: the
    Chinese edition writes "之前的摘要：", "无", "新消息："; the notebook's own
    language when the prompt is neither."""
    messages, _ = _request(merge_summary, previous())
    sent = messages[0].content if messages else ""
    lang = "zh" if sent == PROMPTS.zh else "en" if sent == PROMPTS.en else get_lang()
    before, none, new = (marker.say(lang) for marker in MARKERS)
    return before, none, new


def _text(merge_summary: Any, previous: str | None) -> str:
    messages, _ = _request(merge_summary, previous)
    return "\n".join(m.content for m in messages)


def _labelled(merge_summary: Any, old: str | None, which: str) -> bool:
    """The request holds the previous summary (or "none") and the new messages,
    each after its label in the prompt's language."""
    before, none, new = _markers(merge_summary)
    text = _text(merge_summary, old)
    where = say("the request's text", "请求的文字")
    if which == "previous":
        return _holds(text, f"{before}\n{previous()}", where)
    if which == "new":
        return _holds(text, f"{new}\n{render(overflow())}", where)
    first = say("with previous=None, the request's text",
                "previous=None 时，请求的文字")
    return _holds(text, f"{before}\n{none}", first, absent="None")


def _holds(text: str, part: str, where: str, absent: str | None = None) -> bool:
    """`part` is in `text` (and `absent` is not); otherwise Wrong, showing both."""
    if part in text and (absent is None or absent not in text):
        return True
    for prompt in (PROMPTS.en, PROMPTS.zh):  # the prompt is checked on its own
        text = text.removeprefix(prompt)
    shown = text.lstrip()
    shown = shown if len(shown) <= 160 else shown[:160] + "…"
    wanted = say(f"expected it to hold {part!r}", f"应为包含 {part!r} 的文字") \
        if part not in text else say(f"expected no {absent!r}",
                                     f"应为不含 {absent!r} 的文字")
    raise Wrong(say(f"{where}: got {shown!r}; {wanted}", f"{where}：得到 {shown!r}；"
                    f"{wanted}"))
