"""What a summary costs against what it stands for: `python -m tinyagent.course.ratios`.

Introduced in notebook 04 (sections 4 and 6), which prints the same figures. Plays
notebook 04's twelve-turn dialog through `SummaryChatMemory(llm, 10, 4)` next to an
unbounded memory, and the Chinese six-turn demo through the demo's hybrid (6/10).
For every compression it prints the summary's tokens against the tokens of all the
messages it now stands for; then the tokens each memory sent in all, the
summarizer's calls included, and the turn by which the summary memory had paid for
itself. In Chinese (`--lang zh`, or TINYAGENT_LANG=zh) it plays the Chinese twelve
turns over the Chinese store, with Chinese summaries (notebooks/zh/04 prints them),
and says so in Chinese: the same relation holds. Left out:
real models' summaries (set TINYAGENT_API_KEY to measure them).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..agent import ReActAgent
from ..lang import get_lang, say, speaking
from ..llm import LlmClient
from ..memory import HybridChatMemory, InMemoryChatMemory, SummaryChatMemory
from ..tokens import count_tokens
from ..tools import bitmall_tools
from .catalogue import SIX_TURNS
from .cli_args import Parser, chosen_lang, lang_option

# Notebook 04's dialog: the six turns' intents, then two more orders and products.
TWELVE_TURNS = {
    "en": ("Where is my order 88231?",
           "I want a refund, this vacuum won't go back to its dock",
           "How long until the refund arrives?",
           "Do you have any new robot vacuums to recommend?",
           "How much is the S20 Pro?",
           "What's the difference between the S20 Pro and the S20 Max?",
           "Is there any discount on the S20 Max?",
           "Where is my order 90417?",
           "When will it arrive?",
           "Where is my order 55107?",
           "How much is the BandPro?",
           "By the way, what was that refund number again?"),
    "zh": ("帮我查一下订单 88231 的物流到哪了",
           "那我要退款呢，这个扫地机不回充了",
           "退款多久到账？",
           "你们有没有新款扫地机推荐一下",
           "S20 Pro 多少钱",
           "S20 Pro 和 S20 Max 有什么区别？",
           "S20 Max 有优惠活动吗？",
           "我的订单 90417 到哪了？",
           "什么时候能送到？",
           "订单 55107 到哪了？",
           "BandPro 多少钱？",
           "对了，刚才那个退款编号是多少来着"),
}


def play(llm: LlmClient, memory: object, script: Sequence[str],
         lang: str | None = None) -> tuple[list[str], list[int]]:
    """(a line per compression, tokens sent so far after each turn), over the
    store in `lang` (default: the package's language)."""
    lang = get_lang(lang)
    agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=memory, verbose=False,
                       lang=lang)  # "zh": the Chinese system prompt too
    lines, spent, sent = [], [], 0
    summarizer = getattr(memory, "summarizer", None)
    for turn, text in enumerate(script, 1):
        fired = getattr(memory, "compression_count", 0)
        agent.run(text)
        sent += sum(agent.last_trace.prompt_tokens)
        spent.append(sent + (summarizer.tokens if summarizer else 0))
        if getattr(memory, "compression_count", 0) > fired:
            size, history = count_tokens(memory.summary), memory.summarized_tokens
            ratio = f"{size / history:.0%}"
            lines.append(say(f"  after turn {turn:>2}: summary {size:>3} / "
                             f"{history:>4} tokens it stands for = {ratio}",
                             f"  第 {turn:>2} 轮之后：摘要 {size:>3} / 它所代表的 "
                             f"{history:>4} 个 token = {ratio}", lang))
    return lines, spent


def paid_by(summary: Sequence[int], unbounded: Sequence[int]) -> int | None:
    """The turn by which the summary memory had sent no more than the unbounded one,
    having been behind the turn before (None: it never caught up)."""
    ahead = [s <= u for s, u in zip(summary, unbounded, strict=True)]
    return next((t for t in range(2, len(ahead) + 1)  # behind, then caught up
                 if ahead[t - 1] and not ahead[t - 2]), None)


def payoff(llm: LlmClient, lang: str | None = None
           ) -> tuple[list[str], list[int], list[int]]:
    """Notebook 04's twelve turns in `lang` (default: the package's language): (a
    line per compression, tokens sent so far by the summary memory, by the unbounded
    memory)."""
    lang = get_lang(lang)
    memory = SummaryChatMemory(llm, 10, 4, lang=lang)
    lines, summary = play(llm, memory, TWELVE_TURNS[lang], lang)
    _, unbounded = play(llm, InMemoryChatMemory(), TWELVE_TURNS[lang], lang)
    return lines, summary, unbounded


def main(argv: Sequence[str] | None = None) -> int:
    """Print the ratios, in the package's language (TINYAGENT_LANG) unless --lang
    says otherwise; the dialog and the store follow the same language."""
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = chosen_lang(argv)
    with speaking(lang):
        parser = Parser(prog="python -m tinyagent.course.ratios", lang=lang,
                        description=say(__doc__.splitlines()[0],
                                        "摘要和它所代表的内容相比有多大："
                                        "python -m tinyagent.course.ratios", lang))
        lang_option(parser, lang)
        lang = parser.parse_args(argv).lang
        report(LlmClient.from_env(), lang)
    return 0


def report(llm: LlmClient, lang: str) -> None:
    """Print the twelve turns' compressions and payoff, then the six-turn demo's."""
    print(f"{llm.describe(lang=lang)}\n\n" + say(
        "Notebook 04's twelve turns, SummaryChatMemory 10/4:",
        "第 04 课的十二轮对话，摘要记忆（SummaryChatMemory 10/4）：", lang))
    lines, summary, unbounded = payoff(llm, lang)
    print("\n".join(lines))
    paid = paid_by(summary, unbounded)
    print(say(f"  tokens sent in 12 turns: summary {summary[-1]:,} (summarizer "
              f"included), unbounded {unbounded[-1]:,}; paid for itself by turn {paid}",
              f"  12 轮共发送 token：摘要记忆 {summary[-1]:,}（含摘要调用），"
              f"全量记忆 {unbounded[-1]:,}；到第 {paid} 轮已回本", lang))
    print(say("\nThe Chinese six-turn demo, HybridChatMemory 6/10:",
              "\n中文六轮演示对话，混合记忆（HybridChatMemory 6/10）：", lang))
    demo = HybridChatMemory(llm, 6, 10, lang=lang)
    print("\n".join(play(llm, demo, SIX_TURNS["zh"], lang)[0]))


if __name__ == "__main__":
    raise SystemExit(main())
