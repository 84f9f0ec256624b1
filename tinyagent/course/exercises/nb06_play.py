"""Playing notebook 06's tuned hybrid: the model metered, the memory measured.

Used by nb06.py. The learner's factory gets a `Metered` model: every summarizer call
and its tokens are counted where they are spent, whatever the memory's stats() say.
`measure` plays the 50-turn planted dialog of a seed and returns what the exercise's
targets read: what was recalled (the ids, then the customer's own words), the peak
prompt, every token sent and the summarizer's calls. A memory that compressed
without calling the model it was given, or whose summary is its ids alone, fails
there, with the evidence. Left out: the targets themselves (nb06.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...chat_model import SupportsChat
from ...lang import get_lang, say
from ...memory import HybridChatMemory
from ...memory.budget import IDS_LINE, IDS_LINE_ZH
from ...messages import Role
from ..compare import run_strategy
from ..evaluation import planted_dialog, score
from . import Wrong
from ._dialogs import dialog, roles


class Metered:
    """The model handed to the learner's factory: counts each call and its tokens
    where they are spent, so what a memory's stats() report does not matter."""

    def __init__(self, llm: SupportsChat) -> None:
        self.llm, self.calls, self.tokens = llm, 0, 0

    def chat(self, *args: Any, **kwargs: Any) -> Any:
        reply = self.llm.chat(*args, **kwargs)
        self.calls += 1
        self.tokens += reply.usage.total_tokens if reply.usage else 0
        return reply

    def __getattr__(self, name: str) -> Any:  # settings, describe(): the real one's
        return getattr(self.llm, name)


@dataclass(frozen=True)
class Measured:
    """One play of the dialog, the summarizer's cost counted at the source."""

    recalled: tuple[bool, ...]  # the ids, then the customer's words, one per probe
    peak_prompt_tokens: int
    total_tokens: int  # the agent's prompts + every token the metered model spent
    summarizer_calls: int


def measure(make_hybrid: Any, llm: SupportsChat, seed: int) -> Measured:
    metered = Metered(llm)
    memory = make_hybrid(metered)
    is_hybrid(memory)
    dialog = planted_dialog(turns=50, seed=seed, lang=get_lang())
    got = score(run_strategy(llm, dialog.turns, "yours", lambda: memory,
                             lang=get_lang()), dialog)
    # a summary shows in what the memory gives back, whatever it says it counted
    summarized = memory.compression_count or any(
        m.role is Role.SYSTEM for m in memory.messages())
    if summarized and not metered.calls:
        raise Wrong(say(f"on the 50-turn dialog (seed {seed}): the memory gives back "
                        f"a summary (it counts {memory.compression_count} "
                        "compressions), and the model it was given was called 0 "
                        "times",
                        f"在 50 轮对话上（种子 {seed}）：记忆交回的内容里有摘要（它自己"
                        f"记的压缩次数是 {memory.compression_count}），交给它的模型调用"
                        "次数：得到 0；应为至少 1"),
                    say("the memory must summarize with the llm passed to your "
                        "function: that is the one whose cost is counted",
                        "记忆必须用传给你的函数的那个 `llm` 来写摘要："
                        "算成本算的就是它"))
    summary = "\n".join(line for line in (memory.summary or "").splitlines()
                        if not line.startswith((IDS_LINE, IDS_LINE_ZH)))
    if memory.compression_count and len(summary.split()) < 5:
        raise Wrong(say(f"on the 50-turn dialog (seed {seed}): after "
                        f"{memory.compression_count} compressions the summary is "
                        f"{(memory.summary or '')[:80]!r}",
                        f"在 50 轮对话上（种子 {seed}）：压缩 "
                        f"{memory.compression_count} 次之后，摘要得到 "
                        f"{(memory.summary or '')[:80]!r}；应为说出发生了什么的几行，"
                        "不只是编号"),
                    say("a summary that says nothing but the ids saves tokens by "
                        "forgetting what happened", "只剩编号的摘要省下 token，靠的是"
                        "忘掉发生过的事"))
    return Measured(got.recalled + got.facts_recalled, got.peak_prompt_tokens,
                    got.prompt_tokens + metered.tokens, metered.calls)


def fresh_each_time(make_hybrid: Any, llm: SupportsChat) -> bool:
    """Two calls, two memories: the second gives back nothing after the first is
    filled, and then only what it is given (behaviour, not attributes)."""
    first = make_hybrid(Metered(llm))
    is_hybrid(first)
    for message in dialog("pp", 4):
        first.add(message)
    second = make_hybrid(Metered(llm))
    held = second.messages()
    one = dialog("p", 5)[0]
    if second is not first and not held:
        second.add(one)
        held = second.messages()
        if held == [one]:
            return True
    same = say("the same memory", "同一个记忆") if second is first else \
        say("a memory", "一个记忆")
    raise Wrong(say(f"a second call of your function, after the first memory held 4 "
                    f"messages: {same} whose messages() gives {roles(held)}",
                    f"第一个记忆装了 4 条消息后，第二次调用你的函数：得到{same}，"
                    f"它的 messages() 是 {roles(held)}；应为一个新的空记忆"),
                say("each conversation gets its own memory: one shared between "
                    "sessions mixes their customers", "每段对话都有自己的记忆："
                    "几个会话共用一个，顾客的事就混在一起了"))


def is_hybrid(memory: Any) -> bool:
    if not isinstance(memory, HybridChatMemory):  # don't play 50 turns for it
        raise Wrong(say(f"got {type(memory).__name__}, not HybridChatMemory",
                        f"得到 `{type(memory).__name__}`；应为 `HybridChatMemory`"))
    return True


def missed(recalled: tuple[bool, ...], seed: int) -> str:
    """What a play failed to recall: "refund RF20260701001, budget ¥2000"."""
    dialog = planted_dialog(50, seed, lang=get_lang())
    probes = [*dialog.probes, *dialog.fact_probes]
    return say(", ", "、").join(p.label() for p, ok in zip(probes, recalled,
                                                          strict=True) if not ok)


def recalls(make_hybrid: Any, llm: SupportsChat, seed: int) -> bool:
    got = measure(make_hybrid, llm, seed)
    if not all(got.recalled):
        facts = planted_dialog(50, seed, lang=get_lang()).facts
        order, tracking = facts["order"], facts["tracking"]
        n, total = sum(got.recalled), len(got.recalled)
        raise Wrong(say(f"on the 50-turn dialog with seed {seed} (order {order}, "
                        f"tracking {tracking}): recalled {n}/{total} (missed: "
                        f"{missed(got.recalled, seed)})",
                        f"在种子 {seed} 的 50 轮对话上（订单 {order}，运单号 "
                        f"{tracking}）：记住的得到 {n}/{total}（漏掉："
                        f"{missed(got.recalled, seed)}）；应为 {total}/{total}"))
    return True


__all__ = ["Measured", "Metered", "fresh_each_time", "is_hybrid", "measure", "missed",
           "recalls"]
