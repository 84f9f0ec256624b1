"""Checkers for notebook 05 (hybrid memory): the incremental merge step.

`05.merge_step` takes a function `merge_summary(llm, previous, overflow)` that sends
the summarizer the previous summary and only the newly overflowed messages, and
returns the new summary: with the numbers guarded (notebook 04's entity guard) and
never raising when the model fails (a rule-based fallback instead). Fake models
record what they are sent; the last cases use the offline model, and check size as
well as content: 25 merges in a row must stay near what the package's own merge
holds, not grow with the dialog. Last, 12 drawn chains of up to 40 merges each, on
drawn summaries and overflows (up to 20 messages, long answers, ids drawn), with a
model that works, fails (an HTTP error, a timeout) or replies blank at random, often
several times in a row: each result must be the model's reply, or the exercise's
fallback, with every id guarded (nb05_drawn.py). Left out: when to merge (notebook
04's exercise) and structured summaries (notebook 08).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...lang import say
from ...memory.entities import find_ids
from ...memory.transcript import MARKERS, render
from ...messages import ChatMessage
from ...tokens import count_tokens
from . import Case, Wrong, exercise
from ._drawn import drawn
from .nb05_drawn import CHAINS, MOST_MERGES, drawn_chain, prompt_lang
from .nb05_inputs import (
    IDS,
    LONG_ANSWER,
    LONG_ANSWER_ZH,
    Broken,
    Recorder,
    long_overflow,
    overflow,
    previous,
    reference_merge,
)
from .nb05_request import _holds, _labelled, _prompt


def _first_fact(got: str) -> bool:
    return _holds(got, previous().splitlines()[0], say("your summary", "你的摘要"))


def _all_ids(got: str) -> bool:
    missing = [i for i in IDS if i not in got]
    if missing:
        raise Wrong(say(f"your summary: got {got[:120]!r}; expected it to hold "
                        f"{missing} too", f"你的摘要：得到 {got[:120]!r}；应为还包含 "
                        f"{missing}"))
    return True


def _offline(merge_summary: Any) -> bool:
    """Two dialogs, two orders: the old summary's ids and the new ones survive."""
    from ._replies import Remembered

    other_previous = say("- User: Can you track order 55107?\n- Assistant: order "
                         "55107 (BitMall BandPro Fitness Band) was delivered; tracking "
                         "ZT3344556677.",
                         "- 用户：能查一下订单 55107 的物流吗？\n- 助手：订单 55107"
                         "（比特严选 BandPro 运动手环）已签收；运单号 ZT3344556677。")
    other = [ChatMessage.user(say("I'd like to return order 55107.",
                                  "我想退掉订单 55107。")),
             ChatMessage.assistant(say("Done: refund number RF20260701002 for order "
                                       "55107, amount ¥699.", "已办好：订单 55107 的"
                                       "退款编号 RF20260701002，金额 ¥699。"))]
    for old, new in ((previous(), overflow()), (other_previous, other)):
        got = merge_summary(Remembered(), old, list(new))
        ids = find_ids(old + render(new))
        missing = [i for i in ids if i not in got]
        if missing:
            raise Wrong(say(f"merging {find_ids(old)} with {find_ids(render(new))}: "
                            f"got a summary without {missing}; expected every id "
                            f"{ids}", f"把 {find_ids(old)} 与 {find_ids(render(new))} "
                            f"合并：得到的摘要缺少 {missing}；应为每个编号都在 {ids}"))
    return True


def _bounded(merge_summary: Any) -> bool:
    """25 merges in a row: the summary stays near the package's, it does not grow."""
    from ._replies import Remembered

    llm = Remembered()
    yours = ours = None
    for n, batch in enumerate(long_overflow(), 1):
        yours = merge_summary(llm, yours, list(batch))
        ours = reference_merge(llm, ours, list(batch))
        if count_tokens(yours) > 2 * count_tokens(ours) + 100:
            raise Wrong(say(f"after {n} merges of 4 messages each: got a summary of "
                            f"{count_tokens(yours):,} tokens; expected at most about "
                            f"{2 * count_tokens(ours) + 100:,} (the package's merge "
                            f"holds {count_tokens(ours):,})",
                            f"每次合并 4 条消息，合并 {n} 次后：得到 "
                            f"{count_tokens(yours):,} 个 token 的摘要；应为至多约 "
                            f"{2 * count_tokens(ours) + 100:,} 个（包里的合并只有 "
                            f"{count_tokens(ours):,} 个）"))
    return True


def _returns_reply(merge_summary: Any) -> bool:
    reply = say("- Refund RF20260701001 for order 88231.",
                "- 订单 88231 的退款 RF20260701001。")
    got = merge_summary(Recorder(reply), previous(), overflow())
    if not got.startswith(reply):
        raise Wrong(say(f"the model replied {reply!r}: got {got[:80]!r}; expected "
                        "the reply itself", f"模型回复的是 {reply!r}：得到 "
                        f"{got[:80]!r}；应为这条回复本身"))
    # The entity guard may add one line with the ids the reply dropped: nothing more.
    extra = got[len(reply):].strip()
    if count_tokens(extra) > 20:
        raise Wrong(say(f"got {count_tokens(got)} tokens, {extra[:60]!r}… after "
                        f"the reply; expected the reply's {count_tokens(reply)} and "
                        "at most one line of ids",
                        f"得到 {count_tokens(got)} 个 token，回复后面多了 "
                        f"{extra[:60]!r}…；应为回复的 {count_tokens(reply)} 个，"
                        "最多再加一行编号"))
    return True


def _fallback_keeps_the_new(merge_summary: Any) -> bool:
    """A failing model: the old facts, the new requests' words and every id stay,
    even ids that come after the fallback's clip of a long answer."""
    asked = say("My vacuum 61554 keeps beeping and won't charge, please take it back",
                "我的扫地机 61554 一直响还充不上电，请帮我退掉")
    new = [ChatMessage.user(asked), ChatMessage.assistant(say(LONG_ANSWER,
                                                              LONG_ANSWER_ZH))]
    got = merge_summary(Broken(), previous(), list(new))
    where = say("with a failing model, a request and a long answer to merge",
                "模型调用失败时，合并一条请求和一条很长的回答")
    ids = find_ids(previous() + render(new))
    missing = [i for i in ids if i not in got]
    lost = [text for text in (previous().splitlines()[0], asked) if text not in got]
    if lost or missing:
        raise Wrong(say(f"{where}: got {got[:160]!r}…; expected it to hold "
                        f"{lost + missing} too", f"{where}：得到 {got[:160]!r}…；"
                        f"应为还包含 {lost + missing}"),
                    say("without a model, the summary must still say what happened: "
                        "the old facts, what the customer asked now, and every "
                        "number, also those a clipped line cut off",
                        "没有模型时，摘要也要说清发生了什么：旧的事实、顾客这次要什么，"
                        "还有每一个编号，包括被截断的那行后面的编号"))
    return True


@exercise("05.merge_step")
def _merge_step_cases(merge_summary: Any) -> Iterator[Case]:
    form = say("the summarizer is one plain model call: its instructions as the "
               "system message, the material as the user message",
               "摘要器就是一次普通的模型调用：指令作为 system 消息，材料作为用户消息")
    yield (say("one model call, no tools, the summarizer prompt as the system message",
               "只调用模型一次，不带工具，摘要提示词作为 system 消息"),
           lambda: _prompt(merge_summary), form)
    before, none, new = (marker.say() for marker in MARKERS)
    yield (say(f"the request holds the previous summary after {before!r}",
               f"请求里 {before!r} 后面是之前的摘要"),
           lambda: _labelled(merge_summary, previous(), "previous"),
           say("the old summary goes back in: that is what makes it incremental",
               "旧摘要要放回请求里：这才叫增量"))
    yield (say(f"the request holds the new messages, rendered, after {new!r}",
               f"请求里 {new!r} 后面是渲染好的新消息"),
           lambda: _labelled(merge_summary, previous(), "new"),
           say("the model reads the new messages as text, one line each, the way the "
               "notebook renders them", "模型把新消息当文字读，每条一行，和 notebook "
               "里渲染的一样"))
    yield (say(f"first merge (previous=None): {none!r}, never the word None",
               f"第一次合并 (previous=None)：写 {none!r}，不能出现 None 这个词"),
           lambda: _labelled(merge_summary, None, "none"),
           say("before the first merge there is no summary yet, and the model reads "
               "the request as text", "第一次合并之前还没有摘要，而模型把请求当文字读"))
    yield (say("it returns the model's summary", "返回模型写的摘要"),
           lambda: _returns_reply(merge_summary),
           say("the new summary is what the model wrote, plus only the numbers it "
               "dropped", "新摘要就是模型写的内容，只再补上它漏掉的编号"))
    yield (say("a reply that drops the numbers gets them back (the entity guard)",
               "回复漏掉的编号会被补回来（实体守卫）"),
           lambda: _all_ids(merge_summary(Recorder(), previous(), overflow())),
           say("a model may drop a number; the guard puts back every id of the "
               "request the summary lacks", "模型可能漏掉编号；守卫会把请求里有、"
               "摘要里没有的编号补回来"))
    yield (say("a failing model does not raise: the previous facts and new ids are "
               "kept", "模型调用失败也不抛异常：之前的事实和新编号都保留"),
           lambda: _first_fact(got := merge_summary(Broken(), previous(), overflow()))
           and _all_ids(got),
           say("an outage must not lose the conversation: without a model, fall back "
               "on a summary written by rule", "服务故障不能丢掉对话：没有模型时，改用"
               "按规则写的摘要"))
    yield (say("a failing model keeps the new messages too, and every id past a "
               "long answer's clip", "模型调用失败时，新消息也要留下，长回答被截断"
               "之后的编号也不能丢"),
           lambda: _fallback_keeps_the_new(merge_summary),
           say("a fallback is a summary too, and what the guard checks of a summary "
               "it checks of a fallback", "兜底摘要也是摘要：守卫对摘要查的，对兜底"
               "摘要也要查"))
    yield (say("an empty reply counts as a failure, not as an empty summary",
               "空回复算失败，不算空摘要"),
           lambda: _first_fact(merge_summary(Recorder("  "), previous(), overflow())),
           say("a blank reply holds no summary: treat it as a failed call",
               "空白回复里没有摘要：当作调用失败处理"))
    yield (say("with the offline model, two orders: every order, tracking and refund "
               "number survives",
               "用离线模型跑两个订单：订单号、运单号、退款编号一个不少"),
           lambda: _offline(merge_summary),
           say(f"the offline summarizer reads {before!r} and {new!r}",
               f"离线摘要器认得 {before!r} 和 {new!r}"))
    yield (say("after 25 merges the summary is still small (it replaces, not "
               "appends)", "合并 25 次后摘要依然很小（是替换，不是追加）"),
           lambda: _bounded(merge_summary),
           say("return the model's new summary alone; it already merges the old one",
               "只返回模型给的新摘要：它已经合并了旧摘要"))
    yield (say(f"{CHAINS} drawn chains of up to {MOST_MERGES} merges, the model "
               "failing at random, often several times in a row: the reply or the "
               "fallback, every id kept", f"{CHAINS} 条抽取的合并链（每条至多 "
               f"{MOST_MERGES} 次合并），模型随机失败、常常连续失败：用回复或兜底"
               "摘要，编号一个不丢"),
           lambda: drawn("05.merge_step", CHAINS, lambda rng: drawn_chain(
               merge_summary, prompt_lang(merge_summary), rng)),
           say("an outage can last many merges: each one must still give the "
               "exercise's fallback, not a growing copy of the messages",
               "服务故障可能持续好几次合并：每一次都要给出练习规定的兜底摘要，"
               "而不是越来越长的消息副本"))
