"""Checkers for notebook 00 (setup and tour): what a memory keeps, and two guards.

`00.what_to_remember` takes the messages of finished turns (system prompt, questions,
tool calls, tool results, answers) and returns what the agent's memory keeps: the
user messages and the final answers, oldest first. `00.same_signature` is the
repeated-call guard's test that two steps made the same tool calls; `00.no_progress`
is the no-progress guard's test that the last three thoughts are pairwise alike
(Jaccard on character sets, the notebook's `jaccard`). Both are graded against the
agent's own tests, `guards.same_calls` and `guards.no_progress`: a learner's function
passes when it agrees with the guard the agent runs. Left out: the loop that calls
the guards, which the notebook runs on the agent, and memory objects (notebook 02).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ... import guards
from ...messages import ChatMessage, ToolCall
from ..language import say
from . import Case, exercise, expect
from ._dialogs import ORDERS, fresh_list, roles

# Thoughts the offline model really writes (notebook 00 prints them).
DITHER = ("I am still not sure, let me look again (1).",
          "I am still not sure, let me look again (2).",
          "I am still not sure, let me look again (3).")
WORKING = ("The customer asks about order 88231; I'll look up the order first.",
           "Order 88231 has shipped (SF1234567890); I'll check the logistics.",
           "The customer wants a refund for order 88231; I'll apply for it.")
# Neighbours alike (0.82), first and last not (0.67): every pair must be compared.
DRIFT = ("abcdefghij", "bcdefghijk", "cdefghijkl")
# "abcdefgxy" vs "abcdefgz": 7 shared of 10 distinct characters, exactly 0.7.
EDGE = ("abcdefgxy", "abcdefgz", "abcdefgxy")
# Just under: "abcdefgxyw" vs "abcdefgz": 7 of 11, 0.64, so not alike.
UNDER = ("abcdefgxyw", "abcdefgz", "abcdefgxyw")
# Nearer still, from below: 25 of 36 (0.694) passes "> 0.69" and a Jaccard rounded
# to one decimal; 2 of 3 (0.667) also rounds up to 0.7. Neither is alike.
NEAR = ("abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnopqrstuvwxy456789",
        "abcdefghijklmnopqrstuvwxyz0123")
TWO_THIRDS = ("abcdefgh", "abcdefghijkl", "abcdefgh")  # 8 of 12: 0.667
# Just above, from above: 12 of 17 (0.706) is alike.
ABOVE = ("abcdefghijklmno", "abcdefghijklpq", "abcdefghijklmno")
# The same words in other letters are other characters: jaccard() sees case.
SHOUTED = ("LOOK-AGAIN-88231", "look-again-88231", "LOOK-AGAIN-88231")


def _verdict(no_progress: Any, thoughts: tuple[str, ...], name: str) -> bool:
    """The learner's verdict must be the agent's own guard's verdict."""
    return expect(no_progress(list(thoughts)), guards.no_progress(thoughts),
                  say(f"with {name}", f"输入为{name}"))


@exercise("00.no_progress")
def _no_progress_cases(no_progress: Any) -> Iterator[Case]:
    every_pair = say("compare every pair of the last three: (1, 2), (1, 3) and (2, 3)",
                     "最后三条要两两比较：(1, 2)、(1, 3) 和 (2, 3)")
    blanks = say("a blank thought says nothing: the guard looks at the last three "
                 "that say something", "空白的思考什么也没说：守卫看的是最后三条"
                 "有内容的思考")
    dithering = say("three dithering thoughts", "三条原地打转的思考")
    yield (say("three dithering thoughts: no progress", "三条原地打转的思考：没有进展"),
           lambda: _verdict(no_progress, DITHER, dithering),
           say("jaccard() of each pair is 0.9 here, at least 0.7",
               "这里每一对的 jaccard() 都是 0.9，不低于 0.7"))
    yield (say("three working thoughts: progress", "三条在推进的思考：有进展"),
           lambda: _verdict(no_progress, WORKING, say("three working thoughts",
                                                      "三条在推进的思考")),
           say("two of their three pairs score below 0.7", "三对里有两对低于 0.7"))
    yield (say("fewer than three thoughts: too early to tell",
               "不到三条思考：还判断不了"),
           lambda: _verdict(no_progress, DITHER[:2], say("two dithering thoughts",
                                                         "两条原地打转的思考"))
           and _verdict(no_progress, (), say("no thoughts", "没有思考")),
           say("return False below three", "不到三条时返回 False"))
    yield (say("only the last three thoughts count", "只看最后三条思考"),
           lambda: _verdict(no_progress, (WORKING[0], *DITHER),
                            say("a working thought, then three dithering ones",
                                "一条在推进的思考，后面三条原地打转"))
           and _verdict(no_progress, (*DITHER, WORKING[0]),
                        say("three dithering thoughts, then a working one",
                            "三条原地打转的思考，后面一条在推进")),
           say("the guard asks whether the agent is stuck now, not at the start",
               "守卫问的是智能体现在是否卡住，不是一开始"))
    yield (say("blank thoughts are skipped", "空白的思考不算"),
           lambda: _verdict(no_progress, (DITHER[0], "", DITHER[1], "   ", DITHER[2]),
                            say("dithering thoughts with blanks between them",
                                "原地打转的思考，中间夹着空白"))
           and _verdict(no_progress, (DITHER[0], DITHER[1], "", " "),
                        say("two dithering thoughts, then two blank ones",
                            "两条原地打转的思考，后面两条空白")), blanks)
    yield (say("every pair must be alike, not only neighbours",
               "每一对都要相似，不只是相邻的两条"),
           lambda: _verdict(no_progress, DRIFT, f"{list(DRIFT)} (0.82, 0.67, "
                            "0.82)"), every_pair)
    yield (say("exactly 0.7 counts as alike (>=), just under does not",
               "恰好 0.7 算相似 (>=)，略低于 0.7 不算"),
           lambda: _verdict(no_progress, EDGE, say(f"{list(EDGE)} (each pair "
                                                   "0.7 or 1.0)",
                                                   f"{list(EDGE)}（每对 0.7 或 1.0）"))
           and _verdict(no_progress, UNDER, f"{list(UNDER)} (0.64)"),
           say("a pair scoring 0.7 is alike, one scoring less is not",
               "得分恰好 0.7 的一对算相似，低一点就不算"))
    yield (say("near 0.7 from both sides: 0.667 and 0.694 are not alike, 0.706 is",
               "从两边逼近 0.7：0.667 和 0.694 不算相似，0.706 算"),
           lambda: _verdict(no_progress, NEAR, f"{list(NEAR)} (0.694)")
           and _verdict(no_progress, TWO_THIRDS, f"{list(TWO_THIRDS)} (0.667)")
           and _verdict(no_progress, ABOVE, f"{list(ABOVE)} (0.706)"),
           say("the threshold is exactly 0.7, compared on the exact Jaccard: nothing "
               "rounded, no other cut-off", "阈值就是 0.7，比较的是精确的 Jaccard："
               "不取整，也不换别的阈值"))
    yield (say("letters in another case are other characters",
               "大小写不同的字母是不同的字符"),
           lambda: _verdict(no_progress, SHOUTED, f"{list(SHOUTED)}"),
           say("the guard compares the thoughts as they were written",
               "守卫比较的是原样写下的思考"))


def _call(call_id: str, name: str, **arguments: Any) -> ToolCall:
    return ToolCall(call_id, name, arguments)


def _same(same_signature: Any, a: list[ToolCall], b: list[ToolCall]) -> bool:
    """The learner's verdict must be the repeated-call guard's own verdict."""
    def show(calls: list[ToolCall]) -> str:
        return "[" + ", ".join(f"{c.id}:{c.signature()}" for c in calls) + "]"
    return expect(same_signature(list(a), list(b)), guards.same_calls(a, b),
                  say(f"with {show(a)} and {show(b)}",
                      f"输入为 {show(a)} 和 {show(b)}"))


@exercise("00.same_signature")
def _same_signature_cases(same_signature: Any) -> Iterator[Case]:
    rng = random.Random(0)
    one, other = rng.sample(ORDERS, 2)  # not always 88231: nothing to hard-code
    order = _call("call_1", "queryOrder", order_id=one)
    logistics = _call("call_2", "queryLogistics", order_id=one)

    def again(call: ToolCall, call_id: str = "call_9") -> ToolCall:
        return ToolCall(call_id, call.name, dict(call.arguments))

    yield (say("the same call with a new id is a repeat",
               "同一个调用换了新 id：算重复"),
           lambda: _same(same_signature, [order], [again(order)]),
           say("ids are new every step: compare name and arguments only",
               "每一步的 id 都是新的：只比较工具名和参数"))
    yield (say("another order number is not a repeat", "换了订单号：不算重复"),
           lambda: _same(same_signature, [order],
                         [_call("call_9", "queryOrder", order_id=other)]),
           say("the arguments are part of the signature", "参数是签名的一部分"))
    yield (say("another tool with the same arguments is not a repeat",
               "参数相同、换了工具：不算重复"),
           lambda: _same(same_signature, [order], [logistics]),
           say("the tool name is part of the signature", "工具名是签名的一部分"))
    yield (say("the calls of a step may come in any order",
               "同一步里的几个调用可以是任意顺序"),
           lambda: _same(same_signature, [order, logistics],
                         [again(logistics, "c8"), again(order)]),
           say("the model may list one step's calls in any order: still the same step",
               "模型列出同一步调用的先后是随意的：仍是同一步"))
    yield (say("argument order does not matter", "参数的先后顺序无关紧要"),
           lambda: _same(same_signature,
                         [_call("a", "applyRefund", order_id=one, reason="dock")],
                         [_call("b", "applyRefund", reason="dock", order_id=one)]),
           say("the same arguments written in another key order are the same call",
               "同样的参数换了键的顺序，仍是同一个调用"))
    yield (say("one call is not the same as that call twice",
               "调用一次和同一个调用两次不一样"),
           lambda: _same(same_signature, [order], [again(order), again(order, "c8")])
           and _same(same_signature, [order, order], [again(order)]),
           say("a set forgets how many times a call appears",
               "集合会忘掉一个调用出现了几次"))
    yield (say("the same calls in other numbers are not a repeat",
               "同样几个调用、次数不同：不算重复"),
           lambda: _same(same_signature, [order, order, logistics],
                         [again(order), again(logistics, "c8"), again(logistics, "c7")]),
           say("a step is a multiset of calls: two lists of three can hold the same "
               "calls and still differ in how often each appears",
               "一步里的调用是可重复的集合：两个都是三项的列表，可能调用种类相同、"
               "各自次数不同"))
    yield (say("the same names and the same arguments, paired otherwise, are not a "
               "repeat", "工具名相同、参数也相同，但配对不同：不算重复"),
           lambda: _same(same_signature,
                         [order, _call("call_3", "queryLogistics", order_id=other)],
                         [_call("c8", "queryOrder", order_id=other), again(logistics)]),
           say("a call is its name together with its arguments: compare whole calls",
               "一个调用是工具名连同它的参数：要整体比较"))
    yield (say("two calls of one tool, in either order, are a repeat",
               "同一个工具的两个调用，先后颠倒：仍算重复"),
           lambda: _same(same_signature,
                         [order, _call("call_3", "queryOrder", order_id=other)],
                         [_call("c8", "queryOrder", order_id=other), again(order)]),
           say("putting the calls in order by tool name alone leaves two calls of one "
               "tool in the order they came", "只按工具名排序，同一个工具的两个调用"
               "仍是原来的先后"))
    yield (say("a step with no calls repeats only another step with no calls",
               "没有调用的一步，只和同样没有调用的一步算重复"),
           lambda: _same(same_signature, [], [])
           and _same(same_signature, [], [order]),
           say("two empty lists of signatures are equal", "两个空的签名列表相等"))


# Thoughts and answers in several phrasings: what makes a message a step or an answer
# is its tool calls, never its words (an answer may say "I'll", a thought may not).
THOUGHTS = (("I'll look order {o} up.", "我先查一下订单 {o}。"),
            ("Checking order {o} in the system.", "查询订单 {o} 的状态。"),
            ("", ""),
            ("Asking the order system about {o}.", "答复之前，先查订单 {o}。"),
            ("Let me see where {o} is.", "看看订单 {o} 到哪了。"))
ANSWERS = (("Order {o} was delivered.", "订单 {o} 已签收。"),
           ("I'll refund order {o} today.", "我先为订单 {o} 办理退款。"),
           ("Answer: order {o} is on its way; I'll keep an eye on it.",
            "答：订单 {o} 在路上，我先帮您盯着。"),
           ("Your order {o} is with the courier.", "您的订单 {o} 在快递员手上。"))


def _turn(n: int, order: str, steps: int) -> list[ChatMessage]:
    """A finished turn as the agent's loop holds it: `steps` tool calls, an answer."""
    messages = [ChatMessage.user(say(f"Q{n}: where is my order {order}?",
                                     f"问{n}：我的订单 {order} 到哪了？"))]
    for step in range(steps):
        call = _call(f"call_{n}_{step}", ("queryOrder", "queryLogistics")[step % 2],
                     order_id=order)
        thought = say(*THOUGHTS[(n + step) % len(THOUGHTS)]).format(o=order)
        messages += [ChatMessage.assistant(thought, (call,)),
                     ChatMessage.tool(call.id, f'{{"order_id": "{order}"}}')]
    answer = say(*ANSWERS[n % len(ANSWERS)]).format(o=order)
    return messages + [ChatMessage.assistant(answer)]


def _remembered(what_to_remember: Any, steps: tuple[int, ...], seed: int) -> bool:
    rng = random.Random(seed)
    turns = [_turn(n, rng.choice(ORDERS), s) for n, s in enumerate(steps, 1)]
    system = ChatMessage.system(say("You are BitMall's customer-service assistant.",
                                    "你是比特严选的客服助手。"))
    messages = [system] + [m for t in turns for m in t]
    expected = [m for t in turns for m in (t[0], t[-1])]
    handed = list(messages)
    got = what_to_remember(handed)
    where = say("the result", "结果")
    fresh_list(got, handed, where)
    return expect(list(got), expected, say(
        f"with {len(turns)} turn(s) of {list(steps)} tool steps, {roles(messages)}",
        f"输入为 {len(turns)} 轮、工具步数 {list(steps)} 的对话 {roles(messages)}"),
        roles) and expect(got, expected, say("the same roles, but other messages",
                                             "角色都对，但消息不对"))


def _nothing(what_to_remember: Any) -> bool:
    given: list[ChatMessage] = []
    got = what_to_remember(given)
    where = say("with []", "输入为 []")
    return fresh_list(got, given, where) and expect(got, [], where)


def _input_unchanged(what_to_remember: Any) -> bool:
    messages = _turn(1, "55107", 2)
    handed = list(messages)
    what_to_remember(handed)
    return expect(roles(handed), roles(messages), say("your argument afterwards",
                                                      "调用之后，你的参数"), str)


@exercise("00.what_to_remember")
def _what_to_remember_cases(what_to_remember: Any) -> Iterator[Case]:
    keep = say("memory keeps what the customer asked and what the agent finally "
               "answered, nothing the loop did in between",
               "记忆只留顾客问了什么、智能体最后答了什么，不留循环中间做的事")
    yield (say("a turn without tools: the question and the answer",
               "没有调用工具的一轮：问题和回答"),
           lambda: _remembered(what_to_remember, (0,), 1), keep)
    yield (say("a turn with tool calls: still only the question and the answer",
               "调用了工具的一轮：仍然只有问题和回答"),
           lambda: _remembered(what_to_remember, (2,), 2),
           say("tool calls and tool results are not remembered (TinyAgent saves "
               "tokens)", "工具调用和工具结果不进记忆（TinyAgent 借此省 token）"))
    yield (say("a thought that comes with a tool call is not an answer",
               "跟着工具调用的思考不是回答"),
           lambda: _remembered(what_to_remember, (1,), 3),
           say("an assistant message with tool_calls is a step, even if it has text",
               "带 tool_calls 的助手消息是一个步骤，哪怕它有文字"))
    yield (say("what a message says does not make it a step or an answer",
               "一条消息说了什么，不决定它是步骤还是回答"),
           lambda: _remembered(what_to_remember, (2, 1, 3), 6)
           and _remembered(what_to_remember, (3, 0, 2, 1), 7),
           say("an answer may promise \"I'll…\"; a step may have no words at all: "
               "only its tool calls make a message a step",
               "回答里也可能说“我先……”，步骤也可能一个字都没有：只有工具调用才让"
               "一条消息成为步骤"))
    yield (say("several turns: every question and answer, oldest first",
               "多轮对话：每个问题和回答都在，最早的在前"),
           lambda: _remembered(what_to_remember, (1, 0, 3, 2), 4),
           say("walk the messages in order; don't sort or reverse them",
               "按顺序遍历消息，不要排序或反转"))
    yield (say("the system prompt is not remembered", "系统提示词不进记忆"),
           lambda: _remembered(what_to_remember, (0, 0), 5),
           say("the agent adds the system prompt to every request itself",
               "智能体每次请求都会自己加上系统提示词"))
    yield (say("nothing to remember gives an empty list", "没有可记的内容：返回空列表"),
           lambda: _nothing(what_to_remember),
           say("an empty input has no turns", "空输入里没有任何一轮"))
    yield (say("the list passed in is left unchanged", "传入的列表保持不变"),
           lambda: _input_unchanged(what_to_remember),
           say("build a new list; don't remove from the argument",
               "新建一个列表，不要从参数里删除"))
