"""Checkers for notebook 06 (compare strategies): choose the cheapest memory.

`06.cheapest_recall` asks for a decision under a constraint: a function
`choose_memory(llm, turns, rule) -> ChatMemory | None` that returns the memory billed
least under a provider's prompt-cache rule ("openai", "deepseek", "qwen" or "none",
course/billing.py), the summarizer's calls included, that still recalls everything
planted in a conversation of `turns` turns: the three ids, and from 20 turns on the
customer's own words too (a reason, a delivery time, a contact channel, a budget).
It is played on four named dialogs and on four drawn ones (a turn count from 6 to
60, each rule once, seeds the notebook does not show), in the report's language (the
Chinese edition plays the Chinese dialog), and compared with the cheapest of
the memories that can keep what was said: in-memory, summary 10/4, hybrid 4/8 and
compact 1800/500, each played on the same dialog and billed under the same rule. A
window is left out of that reference: it recalls only when the questions happen to
fall inside it, which no one can promise a customer; so up to 12 turns the learner's
memory must also recall on two more dialogs of that length. Within 10 % of the cheapest
counts as the cheapest: near a crossover the cheapest one changes from seed to seed
by up to 9 % (measured over seeds 0-19), and a rule of thumb cannot know the seed.
Left out: a real model (the figures are the offline model's), and tuning one
strategy's sizes (nb06.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from ...lang import get_lang, say, speaking
from ..billing import bill
from ..catalogue import STRATEGIES
from ..compare import run_strategy
from ..evaluation import score
from ..names import strategy_title
from ..planted import planted_dialog
from . import Case, Wrong, exercise
from ._drawn import generator
from ._replies import Remembered

RULES = ("openai", "deepseek", "qwen", "none")  # the offline provider's cache rules
CANDIDATES = ("inmemory", "summary", "hybrid", "compact")  # they keep what was said
# (turns, rule, seed) of the named dialogs: short, middling and long chats
NAMED = ((6, "none", 3), (14, "none", 11), (30, "none", 6), (30, "openai", 6))
DRAWS = 4
SHORT = 12  # up to here a window may recall by luck: two more dialogs are played
TOLERANCE = 1.10  # within 10 % of the cheapest counts as the cheapest


def drawn_dialogs() -> list[tuple[int, str, int]]:
    """The drawn (turns, rule, seed), the same on every run: a short chat (6-12
    turns), a middling one (13-19), two long ones (22-60); each rule once. Turns 20
    and 21 are left out: there the planted dialog can ask for a statement before the
    customer has made it (a probe may land on a statement's turn)."""
    spans = ((6, 12), (13, 19), (22, 60), (22, 60))
    rules = list(RULES)
    generator("06.cheapest_recall", 0).shuffle(rules)
    found = []
    for number, ((low, high), rule) in enumerate(zip(spans, rules, strict=True), 1):
        rng = generator("06.cheapest_recall", number)
        found.append((rng.randint(low, high), rule, rng.randint(1, 999)))
    return found


@cache  # deterministic offline, and the slowest part: measured once a session
def _played(name: str, turns: int, seed: int, lang: str) -> tuple[bool, tuple]:
    """(everything recalled, the run's requests) for one package strategy, on the
    dialog in `lang` (the report's), its summaries in `lang` too."""
    requests: list = []
    llm = Remembered(record=requests)
    with speaking(lang):  # the summaries are written in the report's language
        recalled = _recall(llm, lambda: STRATEGIES[name].make(llm), turns, seed)
    return recalled, tuple(requests)


def _recall(llm: Any, make: Any, turns: int, seed: int) -> bool:
    """Everything planted recalled, on the dialog in the report's language."""
    dialog = planted_dialog(turns=turns, seed=seed, lang=get_lang())
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
        recalled, requests = _played(name, turns, seed, lang)
        if recalled:
            billed.append((bill(list(requests), rule), order, name))
    total, _, name = min(billed)
    return name, total


def _promised(choose_memory: Any, turns: int, rule: str, seed: int) -> int | None:
    """A short chat's memory must recall on two more dialogs of its length: a window
    recalls there only when the questions fall inside it. The seed it forgot on."""
    if turns > SHORT:
        return None
    for other in (seed + 1000, seed + 2000):
        llm = Remembered()
        if not _recall(llm, lambda llm=llm: choose_memory(llm, turns, rule), turns,
                       other):
            return other
    return None


def _decides(choose_memory: Any, turns: int, rule: str, seed: int) -> bool:
    requests: list = []
    llm = Remembered(record=requests)
    recalled = _recall(llm, lambda: choose_memory(llm, turns, rule), turns, seed)
    forgot = seed if not recalled else _promised(choose_memory, turns, rule, seed)
    recalled = forgot is None
    name, best = cheapest(turns, rule, seed)
    title = strategy_title(STRATEGIES[name].label)
    where = say(f"with {turns} turns under the {rule!r} rule (seed {seed})",
                f"{turns} 轮对话，缓存规则 {rule!r}（种子 {seed}）")
    if not recalled:
        on = "" if forgot == seed else say(
            f" on another dialog of {turns} turns (seed {forgot})",
            f"在另一段 {turns} 轮对话上（种子 {forgot}）")
        raise Wrong(say(f"{where}: your memory forgot something planted{on}; "
                        f"expected everything recalled ({title} does, billed "
                        f"{best:,.0f})",
                        f"{where}：你的记忆{on}得到的是漏掉了埋下的内容；应为全部记住"
                        f"（{title} 做得到，计费 {best:,.0f}）"),
                    say("a memory that recalls only when the questions happen to fall "
                        "inside it (a window) cannot be promised to a customer",
                        "只有问题碰巧落在窗口里才记得住的记忆（窗口），没法向顾客"
                        "保证") if forgot != seed else None)
    yours = bill(requests, rule)
    if yours > best * TOLERANCE:
        raise Wrong(say(f"{where}: your memory was billed {yours:,.0f} input-token "
                        f"equivalents; {title} recalls everything for {best:,.0f} "
                        f"(expected at most {best * TOLERANCE:,.0f})",
                        f"{where}：你的记忆计费得到 {yours:,.0f}（按输入 token 折算）；"
                        f"应为不超过 {best * TOLERANCE:,.0f}（{title} 全部记住只要 "
                        f"{best:,.0f}）"))
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
