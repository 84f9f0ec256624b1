"""Checkers for notebook 06 (compare strategies): tune a hybrid to a token target.

`06.tune_hybrid` takes a function `llm -> HybridChatMemory` and plays the 50-turn
planted-fact dialog (seed 0) with it, on the offline model. Notebook 05's sizes,
recent_size=6 and summary_threshold=10, peak at 1,195 prompt tokens and send 97,790
tokens in all; the notebook's own table shows hybrid 4/8 (1,128 and 93,963), which
misses the targets too: a peak of at most 1,120, at most 90,000 tokens in all
(summarizer included), at most 25 summarizer calls (each is a wait for the
customer), and everything planted recalled, on seed 0 and on a dialog drawn from
another seed, so a memory that writes seed 0's facts in by hand does not pass:
the ids (order, tracking, refund) and the customer's own words (the reason, a
delivery time, a contact channel, a budget), because the entity guard restores ids
whatever the summary says, and notebook 06 itself teaches that ids prove little. The
costs are measured at the source: the factory gets a metered model, every
summarizer call must go through it and its tokens count whatever the memory's
stats() say; each call of the factory must give a new, empty memory (judged by what
it gives back), and the summary must say more than its ids.
`06.cheapest_recall` is in nb06_cheapest.py. Left out: a real model (the figures
are the offline model's).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...llm import SupportsChat
from ...memory import HybridChatMemory
from ...memory.summarizer import IDS_LINE, IDS_LINE_ZH
from ..compare import run_strategy
from ..evaluation import Score, planted_dialog, score
from ..language import get_lang, say
from . import Case, Wrong, exercise
from ._dialogs import dialog, roles
from ._drawn import generator
from ._replies import Remembered

PEAK_TARGET = 1_120  # peak prompt tokens of any call (4/8, on screen: 1,128)
TOTAL_TARGET = 90_000  # every token sent, summarizer included (4/8: 93,963)
# The Chinese notebook plays the Chinese dialog, and its numbers are the ones on its
# screen (4/8: 1,399 and 115,403): the same targets, just under 4/8's, in Chinese.
PEAK_TARGET_ZH, TOTAL_TARGET_ZH = 1_395, 110_000
CALLS_TARGET = 25  # summarizer calls: a terse summary is cheap, but each call waits
# Another dialog: another order, another tracking number, other words to recall
OTHER_SEED = generator("06.tune_hybrid", 1).randint(1, 999)


def _play(llm: SupportsChat, make: Any, turns: int, seed: int,
          lang: str | None = None) -> Score:
    """Score `make`'s memory on the planted dialog in `lang` (default: the report's
    language, so a Chinese report's numbers are the Chinese notebook's)."""
    dialog = planted_dialog(turns=turns, seed=seed, lang=get_lang(lang))
    return score(run_strategy(llm, dialog.turns, "yours", make, lang=get_lang(lang)),
                 dialog)


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


def _measure(make_hybrid: Any, llm: SupportsChat, seed: int) -> Measured:
    metered = Metered(llm)
    memory = make_hybrid(metered)
    _is_hybrid(memory)
    dialog = planted_dialog(turns=50, seed=seed, lang=get_lang())
    got = score(run_strategy(llm, dialog.turns, "yours", lambda: memory,
                             lang=get_lang()), dialog)
    if memory.compression_count and not metered.calls:
        raise Wrong(say(f"on the 50-turn dialog (seed {seed}): the memory compressed "
                        f"{memory.compression_count} times, and the model it was "
                        "given was called 0 times",
                        f"在 50 轮对话上（种子 {seed}）：记忆压缩了 "
                        f"{memory.compression_count} 次，交给它的模型调用次数：得到 0；"
                        "应为至少 1"),
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


def _fresh_each_time(make_hybrid: Any, llm: SupportsChat) -> bool:
    """Two calls, two memories: the second gives back nothing after the first is
    filled, and then only what it is given (behaviour, not attributes)."""
    first = make_hybrid(Metered(llm))
    _is_hybrid(first)
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


def _is_hybrid(memory: Any) -> bool:
    if not isinstance(memory, HybridChatMemory):  # don't play 50 turns for it
        raise Wrong(say(f"got {type(memory).__name__}, not HybridChatMemory",
                        f"得到 `{type(memory).__name__}`；应为 `HybridChatMemory`"))
    return True


def _missed(recalled: tuple[bool, ...], seed: int) -> str:
    """What a play failed to recall: "refund RF20260701001, budget ¥2000"."""
    dialog = planted_dialog(50, seed, lang=get_lang())
    probes = [*dialog.probes, *dialog.fact_probes]
    return say(", ", "、").join(p.label() for p, ok in zip(probes, recalled,
                                                          strict=True) if not ok)


def _recalls(make_hybrid: Any, llm: SupportsChat, seed: int) -> bool:
    got = _measure(make_hybrid, llm, seed)
    if not all(got.recalled):
        facts = planted_dialog(50, seed, lang=get_lang()).facts
        order, tracking = facts["order"], facts["tracking"]
        n, total = sum(got.recalled), len(got.recalled)
        raise Wrong(say(f"on the 50-turn dialog with seed {seed} (order {order}, "
                        f"tracking {tracking}): recalled {n}/{total} (missed: "
                        f"{_missed(got.recalled, seed)})",
                        f"在种子 {seed} 的 50 轮对话上（订单 {order}，运单号 "
                        f"{tracking}）：记住的得到 {n}/{total}（漏掉："
                        f"{_missed(got.recalled, seed)}）；应为 {total}/{total}"))
    return True


@exercise("06.tune_hybrid", write_it=False)  # choosing sizes, not writing one
def _tune_hybrid_cases(make_hybrid: Any) -> Iterator[Case]:
    llm = Remembered()  # what any check asked before is answered from memory
    # The dialog is played once, by the first case that needs it, and not at all
    # when the memory is not a fresh hybrid; seed 5 only once seed 0 meets every
    # target. What went wrong first is kept, so that no case plays it again.
    played: list[Measured | Wrong] = []
    passed = {"memory": True, "targets": True}

    def scored() -> Measured:
        if not passed["memory"]:
            raise Wrong(say("not played: the memory must pass the checks above first",
                            "没有运行：记忆的检查得到未通过；应为先通过上面的检查"))
        if not played:
            try:
                played.append(_measure(make_hybrid, llm, 0))
            except Wrong as wrong:
                played.append(wrong)
        if isinstance(played[0], Wrong):
            raise played[0]
        return played[0]

    def noted(test: Any, key: str) -> Any:
        def run() -> bool:
            try:
                ok = bool(test())
            except Exception:
                passed[key] = False
                raise
            passed[key] = passed[key] and ok
            return ok
        return run

    def other_dialog() -> bool:
        if not passed["memory"] or not passed["targets"]:
            raise Wrong(say("not played: the targets on seed 0 come first",
                            "没有运行：种子 0 上的目标得到未达到；应为先全部达到"))
        return _recalls(make_hybrid, llm, OTHER_SEED)

    def at_most(value: int, target: int, what: str) -> bool:
        if value > target:
            raise Wrong(say(f"on the 50-turn dialog (seed 0): {what} {value:,}; "
                            f"expected at most {target:,}",
                            f"在 50 轮对话上（种子 0）：{what}得到 {value:,}；"
                            f"应为不超过 {target:,}"))
        return True

    def at_least_all(recalled: tuple[bool, ...]) -> bool:
        if not all(recalled):
            raise Wrong(say(f"on the 50-turn dialog (seed 0): recalled "
                            f"{sum(recalled)}/{len(recalled)} planted ids and facts "
                            f"(missed: {_missed(recalled, 0)})",
                            f"在 50 轮对话上（种子 0）：记住的埋入编号和事实得到 "
                            f"{sum(recalled)}/{len(recalled)}（漏掉："
                            f"{_missed(recalled, 0)}）；应为 "
                            f"{len(recalled)}/{len(recalled)}"),
                        say("the ids come back anyway (the entity guard); the "
                            "customer's own words only if the summary keeps them: "
                            "its budget, and what the summarizer writes, decide",
                            "编号总会被补回来（实体守卫）；顾客自己的话只有摘要"
                            "留着才在：由摘要的预算和摘要器写了什么决定"))
        return True

    yield (say("it returns a HybridChatMemory", "返回一个 HybridChatMemory"),
           noted(lambda: _is_hybrid(make_hybrid(Metered(llm))), "memory"),
           say("the exercise tunes the hybrid of notebook 05, not another memory",
               "这个练习调的是第 05 课的混合记忆，不是别的记忆"))
    yield (say("each call gives a new, empty memory", "每次调用都给出一个新的空记忆"),
           noted(lambda: _fresh_each_time(make_hybrid, llm), "memory"),
           say("each conversation gets its own memory", "每段对话都有自己的记忆"))
    yield (say("every planted id and fact is recalled (50 turns, seed 0)",
               "埋下的编号和事实全部记住（50 轮，种子 0）"),
           noted(lambda: at_least_all(scored().recalled), "targets"),
           say("a fact is recalled only if the summary still holds it when asked",
               "只有被问到时摘要里还留着，事实才算记住"))
    peak, total = say((PEAK_TARGET, TOTAL_TARGET), (PEAK_TARGET_ZH, TOTAL_TARGET_ZH))
    yield (say(f"peak prompt tokens <= {peak:,}",
               f"提示词 token 峰值 <= {peak:,}"),
           noted(lambda: at_most(scored().peak_prompt_tokens, peak,
                                 say("peak prompt", "提示词峰值")), "targets"),
           say("6/10 peaks at 1,195 and 4/8 at 1,128: the peak comes when the most "
               "is held verbatim", "中文对话上 4/8 的峰值是 1,399：原样保留得"
               "最多的时候，就是峰值"))
    yield (say(f"tokens sent over the dialog <= {total:,}",
               f"整段对话发送的 token <= {total:,}"),
           noted(lambda: at_most(scored().total_tokens, total,
                                 say("tokens sent", "发送的 token")), "targets"),
           say("6/10 sends 97,790 and 4/8 93,963: what is held verbatim is resent "
               "on every call", "中文对话上 4/8 共发送 115,403：原样保留的内容，"
               "每次调用都要重发"))
    yield (say(f"summarizer calls <= {CALLS_TARGET}",
               f"摘要器调用 <= {CALLS_TARGET} 次"),
           noted(lambda: at_most(scored().summarizer_calls, CALLS_TARGET,
                                 say("summarizer calls", "摘要器调用次数")),
                 "targets"),
           say("leave a gap between recent_size and summary_threshold, or the "
               "summarizer runs every turn", "recent_size 和 summary_threshold "
               "之间要留出间隔，否则每轮都要调用摘要器"))
    yield (say(f"every id and fact is recalled on another dialog too (seed "
               f"{OTHER_SEED})", f"换一段对话（种子 {OTHER_SEED}）也全部记住"),
           other_dialog,
           say("other orders, other numbers, other words: remember what the dialog "
               "says, not seed 0's", "订单不同、编号不同、说法也不同：要记住对话里"
               "说的，而不是种子 0 的"))
