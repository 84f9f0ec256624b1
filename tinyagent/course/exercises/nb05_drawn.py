"""The drawn chains of notebook 05's checker (nb05.py): merges while a model fails.

Chains of up to 40 merges, each on the learner's own previous result: drawn
overflows (up to 20 messages, long answers, ids drawn) and a scripted model that
replies (with the ids or without), replies blank, or fails as a provider does (an
HTTP error, a timeout), in runs of up to 8 failures. Each result must be what the
exercise asks: the reply stripped, or `fallback_summary(previous, overflow)`, then
the guard's ids, in the prompt's language. Left out: the named cases (nb05.py).
"""

from __future__ import annotations

import random
from typing import Any

from ...chat_model import ChatResponse, LlmError
from ...lang import get_lang, say
from ...memory.budget import IDS_LINE, IDS_LINE_ZH
from ...memory.entities import find_ids
from ...memory.summarizer import PROMPTS
from ...memory.transcript import render
from ...messages import ChatMessage
from . import Wrong
from ._dialogs import ORDERS
from ._drawn import first_difference, size
from .nb05_inputs import (
    LONG_ANSWER,
    LONG_ANSWER_ZH,
    PREVIOUS,
    PREVIOUS_ZH,
    Recorder,
    overflow,
    previous,
    reference_merge,
)

CHAINS, MOST_MERGES, MOST_OVERFLOW = 12, 40, 20  # named: 25 merges, 2 messages


class Scripted:
    """A fake model that does what it is told, one call at a time: reply with a
    text, or fail as a provider does (an HTTP error, a timeout)."""

    def __init__(self, outcome: str | Exception) -> None:
        self.outcome = outcome

    def chat(self, messages: list[ChatMessage], tools: Any = None) -> ChatResponse:
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return ChatResponse(self.outcome)


def prompt_lang(merge_summary: Any) -> str:
    """The language of the prompt the learner's merge sends ("en" or "zh")."""
    model = Recorder()
    merge_summary(model, previous(), overflow())
    sent = model.requests[0][0][0].content if model.requests and \
        model.requests[0][0] else ""
    return "zh" if sent == PROMPTS.zh else "en" if sent == PROMPTS.en else get_lang()


def _drawn_ids(rng: random.Random) -> tuple[str, str, str]:
    """An order, a tracking and a refund number, drawn."""
    return (rng.choice(ORDERS), f"SF{rng.randint(10**9, 10**10 - 1)}",
            f"RF20260701{rng.randint(1, 999):03d}")


def _drawn_overflow(rng: random.Random) -> list[ChatMessage]:
    """Up to MOST_OVERFLOW messages: requests, answers (some long), ids drawn."""
    messages = []
    for _ in range(size(rng, MOST_OVERFLOW // 2)):
        order, tracking, refund = _drawn_ids(rng)
        messages.append(ChatMessage.user(rng.choice((
            say(f"Where is my order {order}?", f"我的订单 {order} 到哪了？"),
            say(f"I want a refund for {order}, it won't charge",
                f"订单 {order} 充不上电，我要退款")))))
        answer = say(f"Order {order} was shipped with SF Express, tracking {tracking}.",
                     f"订单 {order} 已由顺丰发出，运单号 {tracking}。")
        if rng.random() < 0.4:  # a long answer: the fallback clips it
            answer = say(LONG_ANSWER, LONG_ANSWER_ZH).replace(
                "RF20260701003", refund).replace("SF9988776655", tracking)
        messages.append(ChatMessage.assistant(answer))
    return messages


def _reply(rng: random.Random) -> str | Exception:
    """What the model does this time: a reply (with or without the ids), a blank
    one, or a failure."""
    order, tracking, refund = _drawn_ids(rng)
    return rng.choice((
        say(f"  - Order {order}: refund {refund}.\n",
            f"  - 订单 {order}：退款 {refund}。\n"),
        say("- The customer asked about an order.", "- 顾客问了一个订单。"),
        "", " \n ", LlmError(say("model call failed: HTTP 500 from the offline model",
                                  "模型调用失败：离线模型返回 HTTP 500")),
        TimeoutError(say("the model did not answer within 60 s",
                         "模型 60 秒内没有回答"))))


def _without_ids_line(text: str) -> list[str]:
    return [line for line in str(text).splitlines()
            if not line.startswith((IDS_LINE, IDS_LINE_ZH))]


def _merged_right(merge_summary: Any, lang: str, old: str | None,
                  new: list[ChatMessage], outcome: str | Exception, where: str) -> str:
    """The learner's merge against the exercise's, one step; the learner's result."""
    got = merge_summary(Scripted(outcome), old, list(new))
    expected = reference_merge(Scripted(outcome), old, new, lang)
    required = find_ids(f"{old or ''}\n{render(new)}")
    missing = [i for i in required if i not in str(got)]
    lines, wanted = _without_ids_line(got), _without_ids_line(expected)
    if not missing and lines == wanted:
        return got
    what = say("the model failed", "模型调用失败") if isinstance(outcome, Exception) \
        else say(f"the model replied {outcome!r}", f"模型回复 {outcome!r}")
    at = first_difference(lines, wanted)
    shown = [(x[at] if at < len(x) else say("(nothing)", "（没有）"))
             for x in (lines, wanted)]
    detail = say(f"ids missing {missing}", f"缺少编号 {missing}") if missing else \
        say(f"{len(lines)} lines, expected {len(wanted)}; line {at + 1}: got "
            f"{shown[0]!r}; expected {shown[1]!r}",
            f"得到 {len(lines)} 行，应为 {len(wanted)} 行；第 {at + 1} 行：得到 "
            f"{shown[0]!r}；应为 {shown[1]!r}")
    raise Wrong(say(f"{where}, {what}: {detail}", f"{where}，{what}：{detail}"),
                say("the reply, stripped, when there is one; the exercise's "
                    "fallback_summary(previous, overflow) when the call fails or the "
                    "reply is blank; then keep_ids on the text you sent",
                    "有回复时用去掉首尾空白的回复；调用失败或回复为空时用练习给的 "
                    "fallback_summary(previous, overflow)；最后对发出的文字做 "
                    "keep_ids"))


def drawn_chain(merge_summary: Any, lang: str, rng: random.Random) -> bool:
    """Merges in a row, each on the learner's own previous result."""
    summary: str | None = None if rng.random() < 0.5 else say(
        PREVIOUS, PREVIOUS_ZH)
    merges = size(rng, MOST_MERGES)
    streak = 0
    for number in range(1, merges + 1):
        outcome = _reply(rng)
        if streak or rng.random() < 0.2:  # failures come in runs, as outages do
            streak = streak - 1 if streak else rng.randint(1, 8)
            outcome = LlmError(say("model call failed: HTTP 503 from the offline "
                                   "model", "模型调用失败：离线模型返回 HTTP 503"))
        where = say(f"merge {number} of {merges}", f"第 {number} 次合并（共 {merges} "
                    "次）")
        summary = _merged_right(merge_summary, lang, summary, _drawn_overflow(rng),
                                outcome, where)
    return True


__all__ = ["CHAINS", "MOST_MERGES", "drawn_chain", "prompt_lang"]
