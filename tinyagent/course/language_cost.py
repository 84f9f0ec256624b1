"""Token cost by language: the same dialog in English and in Chinese, measured.

Introduced in notebook 06, section 6. `by_language(llm)` plays the six-turn demo in
both languages, each over its own store (the same orders, prices and policies) and
with the agent's system prompt in that language, through every strategy of the
comparison. Its tables: tokens per turn, the fixed part of every call, what the
summary memories save against the full buffer, and characters against tokens for
the questions and the answers. `show_tokens(text)` cuts a text where cl100k cuts
it, so you can see why a Chinese character often costs a token or two while a
common English word, with its leading space, costs one.

Everything is counted with the package's tiktoken counter (cl100k), the counter the
offline model reports in `usage`. Left out: other tokenizers (Qwen's, DeepSeek's),
whose counts only a real provider's `usage` tells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..agent import SYSTEM_PROMPTS
from ..lang import LANGS, say
from ..llm import LlmClient
from ..messages import ChatMessage
from ..tokens import count_message_tokens, count_tokens, encoding
from ..tools import bitmall_tools
from .catalogue import SIX_TURNS, MemoryFactory
from .compare import compare
from .comparison import Comparison, StrategyRun
from .names import LANG_NAMES, strategy_title
from .table import Table

FULL = "in-memory"  # the baseline a summary is measured against: keep everything


def _label(text: str, lang: str) -> str:
    """A column or row label tagged with its language: "memory (zh)", "记忆（中）"."""
    return say(f"{text} ({lang})", text + ("（英）" if lang == "en" else "（中）"))


def _name(lang: str) -> str:
    """A language's name in the notebook's language."""
    return LANG_NAMES[lang].say()


def _share(part: int, whole: int) -> str:
    return f"{part:,} ({part / whole:.0%})"


@dataclass(repr=False)
class LanguageCost:
    """The six turns through every strategy, once per language: {lang: Comparison}."""

    comparisons: dict[str, Comparison]

    def per_turn(self, strategy: str = FULL) -> Table:
        """A row per turn: the question's tokens, what memory holds after the turn,
        and the turn's first prompt, side by side for each language."""
        runs = {lang: c[strategy] for lang, c in self.comparisons.items()}
        parts = say("question|memory held|first prompt", "问题|记忆|首次提示词")
        header = [say("turn", "轮次")] + [_label(part, lang)
                                          for part in parts.split("|") for lang in runs]

        def cells(number: int) -> list[str]:
            turns = {lang: run.turns[number] for lang, run in runs.items()}
            question = {lang: count_message_tokens(ChatMessage.user(t.question))
                        for lang, t in turns.items()}
            return ([f"{question[lang]:,}" for lang in runs]
                    + [f"{t.memory_tokens:,}" for t in turns.values()]
                    + [f"{t.context_tokens:,}" for t in turns.values()])

        count = len(next(iter(runs.values())).turns)
        caption = say(f"Tokens per turn, {strategy}",
                      f"每轮的 token 数：{strategy_title(strategy, 'zh')}")
        return Table(caption, header, [[str(n + 1), *cells(n)] for n in range(count)])

    def fixed_part(self) -> Table:
        """What every call sends before memory and question, per language: the
        system prompt, the six tool schemas, and the first prompt of the run without
        memory minus its question (what was really sent)."""
        sent = {lang: _question_free(c["none"]) for lang, c in self.comparisons.items()}
        rows = [[say("system prompt", "系统提示词"),
                 *(count_tokens(SYSTEM_PROMPTS.say(lang)) for lang in sent)],
                [say("tool schemas", "工具定义"),
                 *(bitmall_tools(lang=lang).schema_tokens() for lang in sent)],
                [say("sent without memory", "不带记忆时实际发送"), *sent.values()]]
        return Table(say("The fixed part of every call, in tokens",
                         "每次调用的固定部分（token）"),
                     [say("part", "部分"), *(_name(lang) for lang in sent)],
                     [[row[0], *(f"{n:,}" for n in row[1:])] for row in rows])

    def savings(self, names: Sequence[str] = ("summary 10/4", "hybrid 4/8")) -> Table:
        """Each summary memory against the full buffer, per language: the memory
        held at the end and every token sent (summarizer included), with the ratio."""
        parts = say("memory at the end|tokens sent", "结束时的记忆|发送总数")
        header = [say("strategy", "策略")] + [_label(part, lang)
                                             for part in parts.split("|")
                                             for lang in self.comparisons]
        rows = []
        for name in [FULL, *names]:
            held, sent = [], []
            for comparison in self.comparisons.values():
                run, full = comparison[name], comparison[FULL]
                held.append(_share(_held(run), _held(full)))
                sent.append(_share(_sent(run), _sent(full)))
            rows.append([strategy_title(name), *held, *sent])
        return Table(say(f"What a summary saves, against {FULL} (= 100%)",
                         f"摘要省下多少：与{strategy_title(FULL, 'zh')}相比（= 100%）"),
                     header, rows)

    def characters(self, strategy: str = FULL) -> Table:
        """Characters against tokens for the six questions and the six answers, per
        language: how much text one token carries."""
        rows = []
        for lang, comparison in self.comparisons.items():
            turns = comparison[strategy].turns
            for kind, texts in [(say("questions", "问题"), [t.question for t in turns]),
                                (say("answers", "回答"), [t.answer for t in turns])]:
                chars, tokens = sum(map(len, texts)), sum(map(count_tokens, texts))
                rows.append([_label(kind, lang), f"{chars:,}", f"{tokens:,}",
                             f"{chars / tokens:.1f}"])
        return Table(say("Characters and tokens (cl100k)", "字符与 token（cl100k）"),
                     say("text|characters|tokens|characters a token",
                         "文本|字符|token|每个 token 的字符数").split("|"), rows)


def _question_free(run: StrategyRun) -> int:
    """A first prompt without its question: system prompt, tools and overhead."""
    first = run.turns[0]
    return first.context_tokens - count_message_tokens(ChatMessage.user(first.question))


def _held(run: StrategyRun) -> int:
    return run.turns[-1].memory_tokens


def _sent(run: StrategyRun) -> int:
    return run.total("cost_tokens")


def by_language(llm: LlmClient, strategies: Mapping[str, MemoryFactory] | None = None
                ) -> LanguageCost:
    """The six-turn demo in each language, over that language's store."""
    return LanguageCost({lang: compare(llm, SIX_TURNS[lang], strategies, lang=lang)
                         for lang in LANGS})


def token_pieces(text: str) -> list[str]:
    """`text` cut where cl100k cuts it. A piece is the shortest run of tokens that
    ends on a whole character; "扫×2" is one character that took two tokens."""
    pieces, pending, count = [], b"", 0
    for token in encoding().encode(text):
        pending += encoding().decode_single_token_bytes(token)
        count += 1
        try:
            piece = pending.decode("utf-8")
        except UnicodeDecodeError:  # a character's bytes split over tokens: go on
            continue
        pieces.append(piece if count == 1 else f"{piece}×{count}")
        pending, count = b"", 0
    return pieces


def show_tokens(*texts: str) -> None:
    """For each text: characters, tokens and characters a token, then its pieces
    joined by "|" (a space inside a piece is the word's leading space)."""
    for text in texts:
        chars, tokens = len(text), count_tokens(text)
        print(say(f"{chars} characters, {tokens} tokens: "
                  f"{chars / tokens:.1f} characters a token",
                  f"{chars} 个字符，{tokens} 个 token："
                  f"每个 token {chars / tokens:.1f} 个字符"))
        print("  " + "|".join(token_pieces(text)))


__all__ = ["LanguageCost", "by_language", "show_tokens", "token_pieces"]
