"""Checkers for notebook 05 (hybrid memory): the incremental merge step.

`05.merge_step` takes a function `merge_summary(llm, previous, overflow)` that sends
the summarizer the previous summary and only the newly overflowed messages, and
returns the new summary: with the numbers guarded (notebook 04's entity guard) and
never raising when the model fails (a rule-based fallback instead). Fake models
record what they are sent; the last cases use the offline model, and check size as
well as content: 25 merges in a row must stay near what the package's own merge
holds, not grow with the dialog. Left out: when to merge (notebook 04's exercise)
and structured summaries (notebook 07).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...llm import ChatResponse, LlmError
from ...memory.summarizer import PROMPT, fallback_summary, find_ids, keep_ids, render
from ...messages import ChatMessage
from ...tokens import count_tokens
from . import Case, Wrong, exercise
from ._dialogs import ORDERS

PREVIOUS = ("- User: Where is my order 88231?\n"
            "- Assistant: order 88231 (BitMall S10 Pro Robot Vacuum) was delivered; "
            "tracking SF1234567890.")
OVERFLOW = [ChatMessage.user("I want a refund, this vacuum won't go back to its dock"),
            ChatMessage.assistant("I've applied for a refund for order 88231: refund "
                                  "number RF20260701001, amount ¥1999.")]
IDS = ("88231", "SF1234567890", "RF20260701001")


class Recorder:
    """A fake model: records each request, answers with a fixed text."""

    def __init__(self, reply: str = "- The customer wants a refund.") -> None:
        self.reply, self.requests = reply, []

    def chat(self, messages: list[ChatMessage], tools: Any = None) -> ChatResponse:
        self.requests.append((list(messages), tools))
        return ChatResponse(self.reply)


class Broken:
    """A fake model whose every call fails, as a provider outage would."""

    def chat(self, messages: list[ChatMessage], tools: Any = None) -> ChatResponse:
        raise LlmError("model call failed: HTTP 500 from the offline model")


def _request(merge_summary: Any, previous: str | None) -> tuple[list[ChatMessage], Any]:
    model = Recorder()
    merge_summary(model, previous, list(OVERFLOW))
    if len(model.requests) != 1:
        raise AssertionError(f"expected 1 model call, got {len(model.requests)}")
    return model.requests[0]


def _text(merge_summary: Any, previous: str | None) -> str:
    messages, _ = _request(merge_summary, previous)
    return "\n".join(m.content for m in messages)


def _offline(merge_summary: Any) -> bool:
    """Two dialogs, two orders: the old summary's ids and the new ones survive."""
    from ...llm import LlmClient

    other_previous = ("- User: Can you track order 55107?\n- Assistant: order 55107 "
                      "(BitMall BandPro Fitness Band) was delivered; tracking "
                      "ZT3344556677.")
    other = [ChatMessage.user("I'd like to return order 55107."),
             ChatMessage.assistant("Done: refund number RF20260701002 for order "
                                   "55107, amount ¥699.")]
    for previous, overflow in ((PREVIOUS, OVERFLOW), (other_previous, other)):
        got = merge_summary(LlmClient(offline=True), previous, list(overflow))
        ids = find_ids(previous + render(overflow))
        missing = [i for i in ids if i not in got]
        if missing:
            raise Wrong(f"merging {find_ids(previous)} with "
                        f"{find_ids(render(overflow))}: your summary lost {missing}")
    return True


def reference_merge(llm: Any, previous: str | None,
                    overflow: list[ChatMessage]) -> str:
    """The merge step as HybridChatMemory does it (the solutions notebook's code)."""
    text = f"Previous summary:\n{previous or '(none)'}\n\nNew messages:\n" + \
        render(overflow)
    try:
        summary = llm.chat([ChatMessage.system(PROMPT), ChatMessage.user(text)])
        summary = summary.content.strip()
    except Exception:  # a failed summary must not lose the conversation
        summary = ""
    return keep_ids(summary or fallback_summary(previous, overflow), find_ids(text))


def long_overflow(turns: int = 50) -> list[list[ChatMessage]]:
    """Batches of two turns about many orders and products, as a long chat sends."""
    chat = []
    for n in range(turns):
        order = ORDERS[n % 5]
        chat += [ChatMessage.user(f"Where is my order {order}? (turn {n + 1})"),
                 ChatMessage.assistant(f"Order {order} is in transit with SF Express; "
                                       f"it should arrive in {1 + n % 3} days.")]
    return [chat[i:i + 4] for i in range(0, len(chat), 4)]


def _bounded(merge_summary: Any) -> bool:
    """25 merges in a row: the summary stays near the package's, it does not grow."""
    from ...llm import LlmClient

    llm = LlmClient(offline=True)
    yours = ours = None
    for n, batch in enumerate(long_overflow(), 1):
        yours = merge_summary(llm, yours, list(batch))
        ours = reference_merge(llm, ours, list(batch))
        if count_tokens(yours) > 2 * count_tokens(ours) + 100:
            raise Wrong(f"after {n} merges of 4 messages each, your summary holds "
                        f"{count_tokens(yours):,} tokens; the package's merge holds "
                        f"{count_tokens(ours):,}")
    return True


def _returns_reply(merge_summary: Any) -> bool:
    reply = "- Refund RF20260701001 for order 88231."
    got = merge_summary(Recorder(reply), PREVIOUS, list(OVERFLOW))
    if not got.startswith(reply):
        raise Wrong(f"the model replied {reply!r}; you returned {got[:80]!r}")
    # The entity guard may add one line with the ids the reply dropped: nothing more.
    extra = got[len(reply):].strip()
    if count_tokens(extra) > 20:
        raise Wrong(f"the reply has {count_tokens(reply)} tokens; you returned "
                    f"{count_tokens(got)}: {extra[:60]!r}…")
    return True


def _keeps_everything(summary: str) -> bool:
    """The previous summary's first fact and every id, old and new, are there."""
    return PREVIOUS.splitlines()[0] in summary and all(i in summary for i in IDS)


@exercise("05.merge_step")
def _merge_step_cases(merge_summary: Any) -> Iterator[Case]:
    form = ("send [ChatMessage.system(PROMPT), ChatMessage.user('Previous summary:\\n"
            "…\\n\\nNew messages:\\n' + render(overflow))]")
    yield ("one model call, no tools, the summarizer prompt as the system message",
           lambda: (lambda req: req[0][0] == ChatMessage.system(PROMPT)
                    and not req[1])(_request(merge_summary, PREVIOUS)), form)
    yield ("the request holds the previous summary after 'Previous summary:'",
           lambda: "Previous summary:\n" + PREVIOUS in _text(merge_summary, PREVIOUS),
           "the old summary goes back in: that is what makes it incremental")
    yield ("the request holds the new messages, rendered, after 'New messages:'",
           lambda: "New messages:\n" + render(OVERFLOW)
           in _text(merge_summary, PREVIOUS),
           "render(overflow) gives one '[role] text' line a message")
    yield ("first merge (previous=None): '(none)', never the word None",
           lambda: "Previous summary:\n(none)" in _text(merge_summary, None)
           and "None" not in _text(merge_summary, None),
           "previous or '(none)'")
    yield ("it returns the model's summary",
           lambda: _returns_reply(merge_summary),
           "return the reply's content (stripped), plus the ids it dropped")
    yield ("a reply that drops the numbers gets them back (the entity guard)",
           lambda: all(i in merge_summary(Recorder(), PREVIOUS, list(OVERFLOW))
                       for i in IDS),
           "keep_ids(summary, find_ids(request text)) appends the missing ones")
    yield ("a failing model does not raise: the previous facts and new ids are kept",
           lambda: _keeps_everything(merge_summary(Broken(), PREVIOUS, list(OVERFLOW))),
           "catch the error and use fallback_summary(previous, overflow)")
    yield ("an empty reply counts as a failure, not as an empty summary",
           lambda: PREVIOUS.splitlines()[0] in merge_summary(
               Recorder("  "), PREVIOUS, list(OVERFLOW)),
           "if not text.strip(): fall back")
    yield ("with the offline model, two orders: every order, tracking and refund "
           "number survives", lambda: _offline(merge_summary),
           "the offline summarizer reads 'Previous summary:' and 'New messages:'")
    yield ("after 25 merges the summary is still small (it replaces, not appends)",
           lambda: _bounded(merge_summary),
           "return the model's new summary alone; it already merges the old one")
