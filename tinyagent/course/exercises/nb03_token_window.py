"""Checkers for notebook 03 (sliding window): a window counted in tokens.

`03.token_window` takes a function `token_window(messages, max_tokens)` that returns
the newest whole turns that fit in a token budget, as `TokenWindowChatMemory` holds
them; its budgets land exactly on the boundaries (a turn that fits to the token, and
one token less), on dialogs drawn from seeds. Like the rounds window (nb03.py), it
must never start the history with a tool result whose call is gone. Last, 60 drawn
dialogs of up to 60 turns (some of several tool steps, some answers long), each at
budgets up to 6,000 tokens, on and one token off the turns' boundaries.
Left out: summaries (notebooks 04 and 05).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from ...lang import say
from ...memory.token_window import TokenWindowChatMemory
from ...memory.turns import split_turns
from ...messages import ChatMessage
from ...tokens import count_messages_tokens
from . import Case, Wrong, exercise, expect
from ._dialogs import ORDERS, dialog, fresh_list, roles, size, tokens
from ._drawn import drawn
from ._drawn import size as drawn_size
from .nb00_remember import _turn
from .nb03 import well_formed

DRAWS, MOST_TURNS, MOST_TOKENS = 60, 60, 6_000  # named: 6 turns, budgets near 600

__all__ = ["boundaries", "reference_token_window"]


def reference_token_window(messages: list[ChatMessage],
                           max_tokens: int) -> list[ChatMessage]:
    """What the package's TokenWindowChatMemory(max_tokens) holds afterwards:
    the learner's function must agree with the real thing."""
    memory = TokenWindowChatMemory(max_tokens)
    for message in messages:
        memory.add(message)
    return memory.messages()


def boundaries(messages: list[ChatMessage]) -> list[int]:
    """The cost of the newest 1, 2, 3… turns: budgets that fit them to the token."""
    return list(accumulate(tokens(t) for t in reversed(split_turns(messages))))


def _slip(messages: list[ChatMessage], budget: int,
          got: list[ChatMessage]) -> str | None:
    """The cause, when `got` is what a known slip keeps: a turn measured with the
    request's reply priming, or a budget that must not be reached."""
    def window(cost: Any, fits: Any) -> list[ChatMessage]:
        kept: list[ChatMessage] = []
        used = 0
        for turn in reversed(split_turns(messages)):
            if kept and not fits(used + cost(turn), budget):
                break
            kept, used = turn + kept, used + cost(turn)
        return kept
    if got == window(count_messages_tokens, lambda u, b: u <= b):
        return say("your turns cost more than they do in memory: count each message's "
                   "own tokens; the few tokens a request adds for the reply are not "
                   "part of any turn", "你算出的每轮 token 比记忆里多：只数每条消息"
                   "自己的 token；一次请求为回复多加的几个 token 不属于任何一轮")
    if got == window(tokens, lambda u, b: u < b):
        return say("a turn that brings the total to exactly max_tokens still fits",
                   "加上这一轮后总数恰好等于 max_tokens，也放得下")
    return None


def _windows(token_window: Any, sizes: str, seed: int, budgets: Any) -> bool:
    """The learner's window agrees with the reference at each budget, returns a
    new list and leaves its argument as it was."""
    for budget in budgets(dialog(sizes, seed)):
        given = dialog(sizes, seed)  # fresh input every call
        got = token_window(given, budget)
        where = say(f"with max_tokens={budget}", f"max_tokens={budget} 时")
        expect(roles(given), roles(dialog(sizes, seed)), say(
            f"{where}, your argument afterwards", f"{where}，调用之后你的参数"), str)
        fresh_list(got, given, where)
        expected = reference_token_window(dialog(sizes, seed), budget)
        if got != expected:
            shape = roles(dialog(sizes, seed))
            raise Wrong(say(f"with max_tokens={budget} on a {len(sizes)}-turn dialog "
                            f"{shape}: kept {size(got)}; expected {size(expected)}",
                            f"max_tokens={budget}，{len(sizes)} 轮对话 {shape}：保留了 "
                            f"{size(got)}；应为 {size(expected)}"),
                        _slip(dialog(sizes, seed), budget, got))
    return True


def _fits(token_window: Any, sizes: str, seed: int) -> bool:
    messages = dialog(sizes, seed)
    for budget in range(boundaries(messages)[0], tokens(messages) + 1, 7):
        got = token_window(dialog(sizes, seed), budget)
        if tokens(got) > budget:
            raise Wrong(say(f"with max_tokens={budget}: kept {size(got)}, over budget",
                            f"max_tokens={budget}：得到 {size(got)}，超出预算；应为"
                            f"不超过 {budget} 个 token"))
        newest = dialog(sizes, seed)[len(messages) - len(got):]
        if not well_formed(got) or newest != got:
            raise Wrong(say(f"with max_tokens={budget}: kept {roles(got)}, not the "
                            "newest whole turns", f"max_tokens={budget}：得到 "
                            f"{roles(got)}；应为最新的完整几轮，不是这些"))
    return True


def _unchanged(token_window: Any) -> bool:
    """Under, at and over budget: the argument stays as it was, the result is new."""
    messages = dialog("tptp", 11)
    limits = boundaries(messages)
    for budget in (limits[1], limits[-1] + 50, 1):
        given = dialog("tptp", 11)
        got = token_window(given, budget)
        where = say(f"with max_tokens={budget}", f"max_tokens={budget} 时")
        expect(roles(given), roles(messages), say(f"{where}, your argument afterwards",
                                                  f"{where}，调用之后你的参数"), str)
        fresh_list(got, given, where)
    return True


def _drawn_dialog(rng: random.Random) -> list[ChatMessage]:
    """Up to MOST_TURNS turns: plain or with tool steps, some answers long."""
    messages: list[ChatMessage] = []
    for n in range(1, drawn_size(rng, MOST_TURNS) + 1):
        turn = _turn(n, rng.choice(ORDERS), drawn_size(rng, 4, 0)
                     if rng.random() < 0.5 else 0)
        if rng.random() < 0.2:  # a long answer: a product list, a policy
            turn[-1] = ChatMessage.assistant(turn[-1].content + " " + say(
                "The S20 Pro costs ¥2499 and the S20 Max ¥2999.",
                "S20 Pro 售价 ¥2499，S20 Max 售价 ¥2999。") * rng.randint(2, 12))
        messages += turn
    return messages


def _drawn_budgets(token_window: Any, rng: random.Random) -> bool:
    """One drawn dialog at a few budgets: on a boundary, one off, anywhere."""
    messages = _drawn_dialog(rng)
    limits = boundaries(messages)
    budgets = [rng.choice(limits), rng.choice(limits) - 1,
               rng.randint(1, MOST_TOKENS), rng.randint(1, max(limits[0], 2))]
    for budget in budgets:
        given = list(messages)
        got = token_window(given, budget)
        where = say(f"with max_tokens={budget} on a {len(split_turns(messages))}-turn "
                    f"dialog of {size(messages)}",
                    f"max_tokens={budget}，{len(split_turns(messages))} 轮的对话"
                    f"（{size(messages)}）")
        expect(roles(given), roles(messages), say(f"{where}, your argument afterwards",
                                                  f"{where}，调用之后你的参数"), str)
        fresh_list(got, given, where)
        expected = reference_token_window(messages, budget)
        if got != expected:
            raise Wrong(say(f"{where}: kept {size(got)}; expected {size(expected)}",
                            f"{where}：保留了 {size(got)}；应为 {size(expected)}"),
                        _slip(messages, budget, got))
    return True


@exercise("03.token_window")
def _token_window_cases(token_window: Any) -> Iterator[Case]:
    def exactly(messages: list[ChatMessage]) -> list[int]:
        return boundaries(messages)

    def one_less(messages: list[ChatMessage]) -> list[int]:
        return [b - 1 for b in boundaries(messages)[1:]]

    yield (say("a budget that fits everything returns every message",
               "预算装得下全部时，返回所有消息"),
           lambda: _windows(token_window, "tptpt", 1,
                            lambda m: [tokens(m) + 500, tokens(m)]),
           say("nothing to drop when the total fits, even to the token",
               "总量装得下就什么都不丢，恰好装下也算"))
    yield (say("the result fits in max_tokens, newest whole turns (budgets every 7 "
               "tokens)", "结果不超过 max_tokens，是最新的完整几轮（预算每隔 7 个 "
               "token 试一次）"),
           lambda: _fits(token_window, "tptpt", 2) and _fits(token_window, "ttpp", 3),
           say("a window keeps the newest turns, whole, as long as they fit",
               "窗口保留最新的几轮，整轮地保留，只要装得下"))
    yield (say("a budget that fits the newest turns to the token keeps them all",
               "预算恰好等于最新几轮的 token 数时，这几轮全部保留"),
           lambda: _windows(token_window, "tptpt", 4, exactly)
           and _windows(token_window, "pttptp", 5, exactly),
           say("a turn that brings the total to exactly max_tokens still fits",
               "加上这一轮后总数恰好等于 max_tokens，也放得下"))
    yield (say("one token less drops the oldest of those turns",
               "少一个 token，就丢掉这几轮里最早的一轮"),
           lambda: _windows(token_window, "tptpt", 6, one_less)
           and _windows(token_window, "pttptp", 7, one_less),
           say("stop at the first turn (going back in time) that does not fit",
               "往回数，遇到第一个放不下的轮次就停"))
    yield (say("a newest turn bigger than the budget is kept alone, whole",
               "最新一轮超出预算时，单独完整保留"),
           lambda: _windows(token_window, "pt", 8, lambda m: [10, 1])
           and _windows(token_window, "t", 9, lambda m: [5]),
           say("the newest turn is always kept, as TokenWindowChatMemory does",
               "最新一轮总是保留，和 TokenWindowChatMemory 一样"))
    yield (say("an empty list gives an empty list", "空列表得到空列表"),
           lambda: expect(token_window([], 100), [],
                          say("with [] and max_tokens=100",
                              "输入为 [] 和 max_tokens=100"), roles),
           say("no turns, nothing to keep", "没有轮次，没什么可保留"))
    yield (say("the list passed in is left unchanged, and the result is a new list",
               "传入的列表保持不变，结果是一个新列表"),
           lambda: _unchanged(token_window),
           say("the caller still holds its list: whatever you change in it, it sees",
               "调用方还拿着它的列表：你改了它，调用方就会看到"))
    yield (say(f"{DRAWS} drawn dialogs of up to {MOST_TURNS} turns, budgets up to "
               f"{MOST_TOKENS:,} tokens: the newest whole turns that fit",
               f"{DRAWS} 段抽取的对话（至多 {MOST_TURNS} 轮），预算至多 "
               f"{MOST_TOKENS:,} 个 token：装得下的最新几轮完整对话"),
           lambda: drawn("03.token_window", DRAWS,
                         lambda rng: _drawn_budgets(token_window, rng)),
           say("walk back from the newest turn, adding whole turns while the total "
               "stays within max_tokens; the newest turn is always kept",
               "从最新一轮往回走，总数不超过 max_tokens 就整轮加进来；"
               "最新一轮总是保留"))
