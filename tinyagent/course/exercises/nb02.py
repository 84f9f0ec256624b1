"""Checkers for notebook 02 (in-memory memory): write a ChatMemory yourself.

`02.my_memory` takes a class (not an instance) with add / messages / clear, checks the
contract of `tinyagent.memory.base.ChatMemory` case by case, on short and long
dialogs (an unbounded memory keeps all 40 messages of a 20-turn dialog, not the
last few), then plugs a fresh one into a ReActAgent: turn 2 must refund the order
of turn 1 without looking it up again. Last, 40 drawn runs of up to 2,500 adds (ten
times the longest named one) on two memories at once, with reads, clears and
changes to the lists `messages()` handed out in between: what each memory gives
back must be what it was given since its last clear, whatever keeps it inside.
Left out: bounds and summaries (notebooks 03–05).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...lang import get_lang, say
from ...memory.base import ChatMemory
from ...messages import ChatMessage
from . import Case, Wrong, exercise, expect
from ._dialogs import dialog, roles
from ._drawn import drawn, size

DRAWS, MOST_ADDS = 40, 2_500  # the longest named run adds 250 messages


def _filled(memory_class: Any, messages: list[ChatMessage]) -> Any:
    memory = memory_class()
    for message in messages:
        memory.add(message)
    return memory


def _keeps(memory_class: Any, sizes: str, seed: int) -> bool:
    messages = dialog(sizes, seed)
    got = _filled(memory_class, messages).messages()
    where = say(f"after adding {len(messages)} messages, messages()",
                f"加入 {len(messages)} 条消息后，messages()")
    if len(got) != len(messages):
        raise Wrong(say(f"{where} held {len(got)}; expected all {len(messages)}",
                        f"{where}：得到 {len(got)} 条；应为全部 {len(messages)} 条"))
    return expect(got, messages, where, roles)


def _repeats(memory_class: Any) -> bool:
    thanks = [ChatMessage.user(say("Thanks!", "谢谢！")),
              ChatMessage.assistant(say("You're welcome.", "不客气。"))]
    messages = dialog("p", 8) + thanks + thanks + dialog("p", 9) + thanks
    got = _filled(memory_class, messages).messages()
    return expect(got, messages, say(f"after adding {len(messages)} messages, some "
                                     "of them said again, messages()",
                                     f"加入 {len(messages)} 条消息（有几条重复说了）"
                                     "后，messages()"), roles)


def _copy_is_safe(memory_class: Any) -> bool:
    messages = dialog("pp", 3)
    memory = _filled(memory_class, messages)
    handed_out = memory.messages()
    handed_out.append(ChatMessage.user(say("injected", "注入")))
    memory.messages().clear()
    return expect(len(memory.messages()), len(messages), say(
        "after appending to and clearing the lists messages() returned, the "
        "memory's length", "往 messages() 返回的列表里追加、再清空之后，记忆的长度"))


def _clear_then_add(memory_class: Any) -> bool:
    memory = _filled(memory_class, dialog("tpp", 4))
    memory.clear()
    expect(memory.messages(), [], say("after clear(), messages()",
                                      "clear() 之后，messages()"), roles)
    again = dialog("p", 5)
    for message in again:
        memory.add(message)
    return expect(memory.messages(), again, say("after clear() then 2 adds",
                                                "clear() 之后再 add 两次"), roles)


def _not_shared(memory_class: Any) -> bool:
    _filled(memory_class, dialog("pp", 6))
    return expect(memory_class().messages(), [], say(
        "a new memory, made after another was filled", "另一个记忆装满之后新建的记忆"),
        roles)


def _refunds_in_agent(memory_class: Any, order: str) -> bool:
    from ...agent import ReActAgent
    from ...tools import bitmall_tools
    from ._replies import Remembered

    agent = ReActAgent(Remembered(), bitmall_tools(lang=get_lang()),
                       memory=memory_class(), verbose=False)
    agent.run(say(f"Where is my order {order}?", f"我的订单 {order} 到哪了？"))
    agent.run(say("I want a refund, it won't go back to its dock",
                  "我要退款，它回不了充电座"))
    calls = [(c.name, c.arguments.get("order_id")) for c in agent.last_trace.tool_calls]
    return expect(calls, [("applyRefund", order)], say(
        f"turn 1 asked about order {order}; turn 2's tool calls",
        f"第 1 轮问的是订单 {order}；第 2 轮的工具调用"))


def _drawn_run(memory_class: Any, rng: Any) -> bool:
    """Two memories, one stream of operations; each must give back exactly what it
    was given since its last clear, in order, whatever was done to its copies."""
    pool = dialog("".join(rng.choice("pt") for _ in range(12)), rng.randint(1, 10**6))
    memories, models = [memory_class(), memory_class()], [[], []]
    adds = size(rng, MOST_ADDS)
    done = 0
    for step in range(adds):
        which = 0 if rng.random() < 0.8 else 1
        memories[which].add(message := rng.choice(pool))  # the same one, at times
        models[which].append(message)
        done += 1
        roll = rng.random()
        if roll < 0.002 and step < adds - 10:
            memories[which].clear()
            models[which] = []
        elif roll < 0.02:  # what the caller does with the copy is the caller's
            handed = memories[which].messages()
            handed.append(message) if rng.random() < 0.5 else handed.clear()
        elif roll < 0.04 or step == adds - 1:
            for n in (0, 1):
                got = memories[n].messages()
                where = say(f"memory {n + 1} of two, after {done} adds in all "
                            f"({len(models[n])} since its last clear), messages()",
                            f"两个记忆中的第 {n + 1} 个，一共加入 {done} 条消息之后"
                            f"（自上次 clear() 以来 {len(models[n])} 条），messages()")
                if len(got) != len(models[n]):
                    raise Wrong(say(f"{where} held {len(got)}; expected "
                                    f"{len(models[n])}",
                                    f"{where}：得到 {len(got)} 条；应为 "
                                    f"{len(models[n])} 条"))
                expect(got, models[n], where, roles)
    return True


@exercise("02.my_memory")
def _my_memory_cases(memory_class: Any) -> Iterator[Case]:
    yield (say("a new memory is empty", "新建的记忆是空的"),
           lambda: expect(memory_class().messages(), [], "messages()", roles),
           say("a memory nobody has added to holds nothing",
               "还没加过东西的记忆里什么都没有"))
    yield (say("messages() gives back what add() stored, oldest first",
               "messages() 按最早在前，返回 add() 存进去的消息"),
           lambda: _keeps(memory_class, "ptp", 1),
           say("a memory gives back every message it was given, in the order given",
               "记忆按给它的顺序，交还给它的每一条消息"))
    yield (say("it is unbounded: all 250 messages of a 125-turn dialog are kept",
               "它没有上限：125 轮对话的 250 条消息全部保留"),
           lambda: _keeps(memory_class, "p" * 125, 2),
           say("an unbounded memory has no limit of any size: bounds come in notebook "
               "03", "没有上限就是任何大小的上限都没有：上限在第 03 课才讲"))
    yield (say("the same message twice is kept twice", "同一条消息出现两次，就存两次"),
           lambda: _repeats(memory_class),
           say("a customer may say \"thanks\" twice: a memory records what was said, "
               "each time", "顾客可能说两次“谢谢”：记忆记下每一次说的话"))
    yield (say("messages() returns a copy: changing it leaves the memory as it was",
               "messages() 返回副本：改动它，记忆不受影响"),
           lambda: _copy_is_safe(memory_class),
           say("whoever holds the list messages() returned can change it; the memory "
               "must not change with it", "拿到 messages() 返回的列表的人可以改它；"
               "记忆不能跟着变"))
    yield (say("clear() empties it, and it still works afterwards",
               "clear() 清空记忆，之后还能照常使用"),
           lambda: _clear_then_add(memory_class),
           say("after clear() the memory is as new, and keeps working",
               "clear() 之后记忆就像新的一样，还能接着用"))
    yield (say("two memories don't share messages", "两个记忆不共享消息"),
           lambda: _not_shared(memory_class),
           say("a list made once for the class is one list shared by every memory "
               "of that class", "为整个类只建一次的列表，是这个类所有记忆"
               "共用的同一个列表"))
    yield (say("it satisfies the ChatMemory protocol", "它满足 ChatMemory 协议"),
           lambda: isinstance(memory_class(), ChatMemory),
           say("define all three methods: add, messages, clear",
               "三个方法都要定义：add、messages、clear"))
    yield (say("in a ReActAgent, turn 2 refunds the order of turn 1 without looking "
               "it up", "放进 ReActAgent：第 2 轮不再查询，直接给第 1 轮的订单退款"),
           lambda: _refunds_in_agent(memory_class, "88231")
           and _refunds_in_agent(memory_class, "55107"),
           say("the agent sends what the memory gives back: turn 2's request must hold "
               "turn 1", "智能体发送的是记忆交还的内容：第 2 轮的请求里必须有第 1 轮"))
    yield (say(f"{DRAWS} drawn runs of up to {MOST_ADDS:,} adds on two memories, with "
               "reads, clears and changed copies between them",
               f"{DRAWS} 次抽取的运行：两个记忆，至多加入 {MOST_ADDS:,} 条消息，中间"
               "夹着读取、clear() 和对副本的改动"),
           lambda: drawn("02.my_memory", DRAWS,
                         lambda rng: _drawn_run(memory_class, rng)),
           say("a memory gives back every message given to it since it was made or "
               "last cleared, however many, and nothing else",
               "记忆交还自创建或上次 clear() 以来给它的每一条消息，不管多少条，"
               "也不多出别的"))
