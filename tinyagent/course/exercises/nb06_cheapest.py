"""Checkers for notebook 06 (compare strategies): choose the cheapest memory.

`06.cheapest_recall` asks for a decision under a constraint: a function
`choose_memory(llm, turns, rule) -> ChatMemory | None` that returns the memory billed
least under a provider's prompt-cache rule ("openai", "deepseek", "qwen" or "none")
that still recalls everything planted in a conversation of `turns` turns: the three
ids, and from 20 turns on the customer's own words too (a reason, a delivery time, a
contact channel, a budget). The bill is the whole bill, as notebook 06's "What you
pay" counts it (course/billing.py): every prompt token at its share (untouched, read
from the cache, written to it) and every reply token at the model's output price,
the summarizer's calls and the summaries they write included: what a memory costs is
what the provider charges for it. Each run is recorded as it is played and billed
from a cold cache, with no pause between turns (no cache expires).

It is played on four named dialogs and on eight drawn ones (each rule once up to 19
turns and once from 22 to 60, seeds the notebook does not show), in the report's
language (the Chinese edition plays the Chinese dialog), and compared with the
cheapest of the memories that can keep what was said: in-memory, summary 10/4,
hybrid 4/8 and compact 1800/500, each played on the same dialog and billed under the
same rule. A window is left out of that reference: it recalls only when the
questions happen to fall inside it, which no one can promise a customer; so up to
12 turns the learner's memory must also recall on dialogs of that length that ask
their questions last. Within 10 % of the cheapest counts as the cheapest: near a
crossover the cheapest one changes from seed to seed, and a rule of thumb cannot
know the seed (over seeds 0-29 and 6-60 turns, in both languages, the best single
choice at a length is up to 4 % above a seed's cheapest, and the worked solution's
crossovers up to 7 %).
Left out: a real model (the figures are the offline model's), and tuning one
strategy's sizes (nb06.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from typing import Any

from ...lang import get_lang, say, speaking
from ...production.compact import CompactChatMemory
from ..billing import Call, RecordedRun, bill
from ..catalogue import STRATEGIES
from ..compare import run_strategy
from ..evaluation import score
from ..names import strategy_title
from ..planted import Dialog, planted_dialog
from . import Case, Wrong, exercise
from ._drawn import generator
from ._replies import Remembered

RULES = ("openai", "deepseek", "qwen", "none")  # the offline provider's cache rules
CANDIDATES = ("inmemory", "summary", "hybrid", "compact")  # they keep what was said
# (turns, rule, seed) of the named dialogs: short, middling and long chats
NAMED = ((6, "none", 3), (14, "none", 11), (30, "none", 6), (30, "openai", 6))
DRAWS = 8  # each rule on both sides of its crossover
SHORT = 12  # up to here a window may recall by luck: more dialogs are played
PROMISED = 8  # dialogs of a short chat's length, its questions asked last
TOLERANCE = 1.10  # within 10 % of the cheapest counts as the cheapest


def drawn_dialogs() -> list[tuple[int, str, int]]:
    """The drawn (turns, rule, seed), the same on every run: each rule twice, once
    up to 19 turns and once from 22 to 60, so that a crossover is tried on both of
    its sides. The first four are a short chat (6-12 turns), a middling one (13-19)
    and two long ones; the next four give each rule the other side. Turns 20 and 21
    are left out: there the planted dialog can ask for a statement before the
    customer has made it (a probe may land on a statement's turn)."""
    spans = ((6, 12), (13, 19), (22, 60), (22, 60))
    rules = list(RULES)
    generator("06.cheapest_recall", 0).shuffle(rules)
    other_side = [(22, 60) if high < 20 else (6, 19) for _, high in spans]
    found = []
    for number, ((low, high), rule) in enumerate(
            zip(spans + tuple(other_side), rules + rules, strict=True), 1):
        rng = generator("06.cheapest_recall", number)
        found.append((rng.randint(low, high), rule, rng.randint(1, 999)))
    return found


class Recording(Remembered):
    """The checkers' remembered model, keeping each call as a bill reads it: the
    request, the reply, the clock and the reply's tokens (course/billing.py)."""

    def __init__(self) -> None:
        super().__init__(record=[])
        self.run = RecordedRun()

    def chat(self, messages: Any, tools: Any = None) -> Any:
        start = len(self.record)
        reply = super().chat(messages, tools)
        clock = self.clock  # run_strategy's: the turn, and no pause between turns
        for request, said in self.record[start:]:
            self.run.calls.append(Call(request, said, clock.turn if clock else 1,
                                       clock.seconds if clock else 0.0,
                                       reply.usage.completion_tokens))
        return reply


@cache  # deterministic offline, and the slowest part: measured once a session
def _played(name: str, turns: int, seed: int, lang: str, rule: str | None = None
            ) -> tuple[bool, RecordedRun]:
    """(everything recalled, the run's calls) for one package strategy, on the
    dialog in `lang` (the report's), its summaries in `lang` too; compact is sized
    for `rule`, as a learner who picks it for that rule would size it."""
    llm = Recording()
    make = (lambda: CompactChatMemory.for_rule(llm, rule)) if name == "compact" \
        else (lambda: STRATEGIES[name].make(llm))
    with speaking(lang):  # the summaries are written in the report's language
        recalled = _recall(llm, make, turns, seed)
    return recalled, llm.run


def _recall(llm: Any, make: Any, turns: int, seed: int, last: bool = False) -> bool:
    """Everything planted recalled, on the dialog in the report's language (with its
    questions asked last, if `last`)."""
    dialog = planted_dialog(turns=turns, seed=seed, lang=get_lang())
    if last:
        dialog = _questions_last(dialog)
    run = run_strategy(llm, dialog.turns, "yours", make, lang=get_lang())
    got = score(run, dialog)
    return all(got.recalled) and all(got.facts_recalled)


def cheapest(turns: int, rule: str, seed: int) -> tuple[str, float]:
    """The candidate that recalls everything for the least billed under `rule`, its
    summaries in the report's language, as the learner's are."""
    return _cheapest(turns, rule, seed, get_lang())


@cache
def _cheapest(turns: int, rule: str, seed: int, lang: str) -> tuple[str, float]:
    billed = []  # a tie goes to the simpler memory, the first in CANDIDATES
    for order, name in enumerate(CANDIDATES):
        recalled, run = _played(name, turns, seed, lang,
                                rule if name == "compact" else None)
        if recalled:
            billed.append((bill(run, rule), order, name))
    total, _, name = min(billed)
    return name, total


def _questions_last(dialog: Dialog) -> Dialog:
    """The same turns with the questions moved after everything else: the dialog of
    that length that is hardest for a memory that lets the start go."""
    asked = [p.turn - 1 for p in dialog.probes + dialog.fact_probes]
    rest = [t for i, t in enumerate(dialog.turns) if i not in asked]
    moved = {turn: len(rest) + n + 1 for n, turn in enumerate(sorted(asked))}
    return replace(dialog, turns=(*rest, *(dialog.turns[i] for i in sorted(asked))),
                   probes=tuple(replace(p, turn=moved[p.turn - 1])
                                for p in dialog.probes),
                   fact_probes=tuple(replace(p, turn=moved[p.turn - 1])
                                     for p in dialog.fact_probes))


def _promised(choose_memory: Any, turns: int, rule: str, seed: int) -> int | None:
    """A short chat's memory must recall what a customer can be promised: on this
    dialog and PROMISED - 1 more of its length, each with its questions asked last. A
    window recalls only when the questions happen to fall inside it (a window of 6
    messages does on about 3 in 5 such dialogs of 6 turns). The seed it forgot on."""
    if turns > SHORT:
        return None
    for other in range(seed, seed + 1000 * PROMISED, 1000):
        llm = Remembered()
        if not _recall(llm, lambda llm=llm: choose_memory(llm, turns, rule), turns,
                       other, last=True):
            return other
    return None


def _decides(choose_memory: Any, turns: int, rule: str, seed: int) -> bool:
    llm = Recording()
    recalled = _recall(llm, lambda: choose_memory(llm, turns, rule), turns, seed)
    promise = None if not recalled else _promised(choose_memory, turns, rule, seed)
    name, best = cheapest(turns, rule, seed)
    title = strategy_title(STRATEGIES[name].label)
    where = say(f"with {turns} turns under the {rule!r} rule (seed {seed})",
                f"{turns} 轮对话，缓存规则 {rule!r}（种子 {seed}）")
    if not recalled or promise is not None:
        on = "" if not recalled else say(
            f" on a dialog of {turns} turns that asks its questions last (seed "
            f"{promise})",
            f"在一段把问题都放到最后的 {turns} 轮对话上（种子 {promise}）")
        raise Wrong(say(f"{where}: your memory forgot something planted{on}; "
                        f"expected everything recalled ({title} does, billed "
                        f"{best:,.0f})",
                        f"{where}：你的记忆{on}得到的是漏掉了埋下的内容；应为全部记住"
                        f"（{title} 做得到，计费 {best:,.0f}）"),
                    say("a memory that recalls only when the questions happen to fall "
                        "inside it (a window) cannot be promised to a customer",
                        "只有问题碰巧落在窗口里才记得住的记忆（窗口），没法向顾客"
                        "保证") if recalled else None)
    yours = bill(llm.run, rule)
    if yours > best * TOLERANCE:
        raise Wrong(say(f"{where}: your memory was billed {yours:,.0f} input-token "
                        f"equivalents, replies included; {title} recalls everything "
                        f"for {best:,.0f} (expected at most {best * TOLERANCE:,.0f})",
                        f"{where}：你的记忆计费得到 {yours:,.0f}（按输入 token 折算，"
                        f"含回复）；应为不超过 {best * TOLERANCE:,.0f}（{title} 全部"
                        f"记住只要 {best:,.0f}）"))
    return True


@exercise("06.cheapest_recall", write_it=False)  # a decision, not code to write
def _cheapest_recall_cases(choose_memory: Any) -> Iterator[Case]:
    hints = {"none": say("no cache: every token is billed in full; from how many "
                         "turns does a summary's saving outweigh its calls?",
                         "没有缓存：每个 token 都全价计费；从第几轮起，摘要省下的抵得"
                         "过它的调用？"),
             "openai": say("a prefix cache bills a resent history at a tenth: what "
                           "only appends stays cached; what rewrites its start does "
                           "not", "前缀缓存让重发的历史只按一成计费：只追加的内容"
                           "一直命中缓存，改写开头的就不行")}
    rules = say("which memory is cheapest depends on the rule and the length: "
                "measure both with the cell above, then write the crossover down",
                "哪种记忆最便宜，取决于缓存规则和对话长度：用上面的单元格把两者都"
                "量一量，再把分界点写进代码")
    for turns, rule, seed in NAMED:
        yield (say(f"{turns} turns, the {rule!r} rule: everything recalled, billed "
                   "least", f"{turns} 轮，{rule!r} 规则：全部记住，计费最少"),
               lambda t=turns, r=rule, s=seed: _decides(choose_memory, t, r, s),
               hints[rule])
    dialogs = drawn_dialogs()
    shown = say(", ", "，").join(f"{t}/{r!r}" for t, r, _ in dialogs)
    yield (say(f"{DRAWS} drawn dialogs (turns/rule: {shown}): everything recalled, "
               "billed least", f"{DRAWS} 段抽取的对话（轮数/规则：{shown}）：全部记住，"
               "计费最少"),
           lambda: all(_decides(choose_memory, t, r, s) for t, r, s in dialogs), rules)


__all__ = ["CANDIDATES", "NAMED", "RULES", "TOLERANCE", "cheapest",
           "drawn_dialogs"]
