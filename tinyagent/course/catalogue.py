"""The course's data, in one place: the scripts, the strategies, and two helpers.

Used from notebook 03 on, and by `tinyagent demo`, `chat` and `compare`, the
comparison harness and the notebook 09 playground, so all of them play the same
six turns and build each memory with the same sizes. `SIX_TURNS` is the dialog of
the original TinyAgent, in English and Chinese: an order, a refund, a question
about that refund, two about products, then the refund number again. The sizes are
small on purpose, so that six turns are enough to see each strategy forget or
compress; the token window gets about what the hybrid holds at its fullest, so the
two compare at equal memory (notebook 06). Left out: sizes for a real deployment
(tune them on your own dialogs with the harness).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agent import ReActAgent
from ..chat_model import SupportsChat
from ..display import WIDTH, memory_lines
from ..lang import get_lang, say
from ..memory.base import ChatMemory
from ..memory.hybrid import HybridChatMemory
from ..memory.in_memory import InMemoryChatMemory
from ..memory.summary import SummaryChatMemory
from ..memory.token_window import TokenWindowChatMemory
from ..memory.window import SlidingWindowChatMemory
from ..messages import clip
from ..production import IncrementalSummaryChatMemory
from ..production.compact import CompactChatMemory
from .names import STRATEGY_NAMES, typed_with_title

SIX_TURNS = {
    "en": ["Where is my order 88231?",
           "I want a refund, this vacuum won't go back to its dock",
           "How long until the refund arrives?",
           "Do you have any new robot vacuums to recommend?",
           "How much is the S20 Pro?",
           "By the way, what was that refund number again?"],
    "zh": ["帮我查一下订单 88231 的物流到哪了",
           "那我要退款呢，这个扫地机不回充了",
           "退款多久到账？",
           "你们有没有新款扫地机推荐一下",
           "S20 Pro 多少钱",
           "对了，刚才那个退款编号是多少来着"],
}

MemoryFactory = Callable[[], "ChatMemory | None"]  # a fresh memory (None: no memory)


@dataclass(frozen=True)
class Strategy:
    """One memory strategy as the course runs it: a class and the sizes it gets."""

    title: str  # what tables call it: "in-memory"
    build: Callable[..., ChatMemory | None]  # (llm, **sizes) -> a fresh memory
    sizes: dict[str, int] = field(default_factory=dict)  # parameter -> course value
    # True: `build` takes lang=, the language its summaries are written in
    speaks: bool = False

    @property
    def label(self) -> str:
        """The title with the sizes, so every table says what it compares."""
        sizes = "/".join(str(v) for v in self.sizes.values())
        return f"{self.title} {sizes}" if sizes else self.title

    def make(self, llm: SupportsChat, lang: str | None = None, **sizes: int
             ) -> ChatMemory | None:
        """A fresh memory with the course's sizes, or with those given here; one
        that `speaks` writes its summaries in `lang` (default: the notebook's)."""
        if self.speaks:
            return self.build(llm, lang=get_lang(lang), **{**self.sizes, **sizes})
        return self.build(llm, **{**self.sizes, **sizes})


def _compact(llm: SupportsChat, **sizes: Any) -> CompactChatMemory:
    """Compact sized for the client's cache rule, or with the marks given."""
    if {"high_tokens", "low_tokens"} & sizes.keys():
        return CompactChatMemory(llm, **sizes)
    return CompactChatMemory.for_rule(llm, **sizes)


def _titled(name: str, build: Callable[..., ChatMemory | None],
            sizes: dict[str, int] | None = None, speaks: bool = False) -> Strategy:
    """The strategy a learner types as `name`, titled from names.py's one table."""
    return Strategy(STRATEGY_NAMES[name][0], build, sizes or {}, speaks)


# The command-line names (`tinyagent chat --memory NAME`), in the tables' order.
STRATEGIES: dict[str, Strategy] = {
    "none": _titled("none", lambda llm: None),
    "inmemory": _titled("inmemory", lambda llm: InMemoryChatMemory()),
    "window": _titled("window", lambda llm, **s: SlidingWindowChatMemory(**s),
                      {"max_messages": 6}),
    "tokens": _titled("tokens", lambda llm, **s: TokenWindowChatMemory(**s),
                      {"max_tokens": 400}),
    "summary": _titled("summary", lambda llm, **s: SummaryChatMemory(llm, **s),
                       {"threshold": 10, "keep_recent": 4}, speaks=True),
    "hybrid": _titled("hybrid", lambda llm, **s: HybridChatMemory(llm, **s),
                      {"recent_size": 4, "summary_threshold": 8}, speaks=True),
    # notebook 07, "What you pay": verbatim to a high-water mark, then one
    # compaction to a low-water mark; the marks read off the client's cache rule
    # (production/sizing.py), unless sizes are given
    "compact": _titled("compact", _compact, speaks=True),
    # notebook 08: kept out of the comparison, whose strategies all come from 02-05
    "structured": _titled("structured",
                          lambda llm, **s: IncrementalSummaryChatMemory(llm, **s),
                          {"keep_recent_turns": 2, "batch_turns": 6}, speaks=True),
}
NAMES = ("none", "inmemory", "window", "tokens", "summary", "hybrid")  # compared


def make_strategies(llm: SupportsChat, names: Sequence[str] = NAMES
                    ) -> dict[str, MemoryFactory]:
    """{label: factory} for command-line names, in the order given."""
    unknown = [n for n in names if n not in STRATEGIES]
    if unknown or not names:
        given = ", ".join(unknown) or "(none given)"
        given_zh = (f"没有叫 {'、'.join(unknown)} 的策略" if unknown
                    else "没有给出策略")
        raise ValueError(say(f"unknown strategy {given}: choose from "
                             f"{', '.join(STRATEGIES)}", f"{given_zh}：请从 "
                             f"{typed_with_title(list(STRATEGIES), 'zh')} 中选择"))
    return {STRATEGIES[n].label: _factory(STRATEGIES[n], llm) for n in names}


def memory_factories(llm: SupportsChat, lang: str | None = None
                     ) -> dict[str, MemoryFactory]:
    """{command-line name: factory} for every strategy, as `tinyagent chat` offers;
    those that write summaries write them in `lang` (None: the notebook's)."""
    return {name: _factory(strategy, llm, lang)
            for name, strategy in STRATEGIES.items()}


def _factory(strategy: Strategy, llm: SupportsChat,
             lang: str | None = None) -> MemoryFactory:
    return lambda: strategy.make(llm, lang)


def print_memory(memory: ChatMemory | None, width: int = WIDTH,
                 lang: str | None = None) -> None:
    """The memory, one line a message of at most `width` characters: number, role
    (or "summary"), tokens, then the text; labels in the notebook's language."""
    lang = get_lang(lang)
    if memory is None:
        print(say("(no memory)", "（没有记忆）"))
    else:
        print("\n".join(memory_lines(memory.messages(), width, lang)))


def talk(agent: ReActAgent, script: Sequence[str]) -> list[str]:
    """Run each message of `script` through `agent`; print it; return the answers."""
    answers = []
    for n, text in enumerate(script, 1):
        answers.append(agent.run(text))
        print(say(f"turn {n}  user:  {text}\n        agent: {clip(answers[-1], 90)}",
                  f"第 {n} 轮  用户：{text}\n        客服：{clip(answers[-1], 60)}"))
    return answers
