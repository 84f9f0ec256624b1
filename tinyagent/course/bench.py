"""The O(1) benchmark: what one `add` costs at 10, 1,000 and 10,000 messages held.

Run `tinyagent bench` or `python -m tinyagent.course.bench` (about a second). A memory
operation must cost the same per turn at 10 messages and at 10,000, or a long
conversation gets slower every turn: token counts are cached on each message, totals
kept running, and a deque drops from the left. This measures `add()`, the operation a
memory does every turn. The table's last column divides its cost at 10,000 messages
by its cost at 10: near 1.00 means constant time, and the bar is 1.5. The command
reports and exits 0 whatever the ratios; it fails only on an error.

How each strategy is made to hold N messages: the window keeps N, the token window
the tokens of N messages, summary and hybrid compress at N (keeping N - 4 verbatim)
with an instant fake summarizer, so their bookkeeping is timed but no model is.
In-memory simply grows from N. `messages()` is left out on purpose: it returns a
copy, which is O(N) for every strategy by contract.
It also times one offline model call, alone and through the openai SDK. The tables
speak the package's language (`--lang zh`), strategies by their Chinese titles.
Left out: a real model's latency (notebook 06 counts summarizer calls and tokens).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from itertools import cycle, islice
from typing import Any

from ..chat_model import ChatResponse, Usage
from ..lang import get_lang, say, text_width
from ..memory import (
    BaseChatMemory,
    HybridChatMemory,
    InMemoryChatMemory,
    SlidingWindowChatMemory,
    SummaryChatMemory,
    TokenWindowChatMemory,
)
from ..messages import ChatMessage, ToolCall
from ..tokens import count_message_tokens
from .names import strategy_title

SIZES = (10, 1_000, 10_000)
MAX_RATIO = 1.5  # cost at 10,000 messages / cost at 10: at most this
CALLS_ZH = {"offline model alone (20 messages)": "只调用离线模型（20 条消息）",
            "through the openai SDK (2 messages)": "经由 openai SDK（2 条消息）",
            "through the openai SDK (20 messages)": "经由 openai SDK（20 条消息）"}


class InstantSummarizer:
    """A stand-in model that answers at once: the benchmark times memory, not I/O."""

    def chat(self, messages: list[ChatMessage],
             tools: list[dict[str, Any]] | None = None) -> ChatResponse:
        return ChatResponse("- order 88231 delivered; refund RF20260701001 approved",
                            usage=Usage(60, 15))


def conversation(length: int) -> list[ChatMessage]:
    """`length` messages cycling plain and tool-call turns; a few distinct objects,
    so tokens are counted once here and read from each message's cache later."""
    call = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
    pool = [ChatMessage.user("Where is my order 88231?"),
            ChatMessage.assistant("", [call]),
            ChatMessage.tool("call_1", '{"order_id": "88231", "status": "delivered"}'),
            ChatMessage.assistant("Order 88231 was delivered on 2026-06-22."),
            ChatMessage.user("How long until the refund arrives?"),
            ChatMessage.assistant("1-3 business days to the original payment method.")]
    for message in pool:
        count_message_tokens(message)
    return list(islice(cycle(pool), length))


def strategies(n: int, stream: Sequence[ChatMessage]
               ) -> dict[str, Callable[[], BaseChatMemory]]:
    """A factory per strategy, sized so that the memory holds about n messages."""
    budget = sum(count_message_tokens(m) for m in stream[:n])
    llm = InstantSummarizer()
    return {
        "in-memory": InMemoryChatMemory,
        "window": lambda: SlidingWindowChatMemory(n),
        "token window": lambda: TokenWindowChatMemory(budget),
        "summary": lambda: SummaryChatMemory(llm, threshold=n, keep_recent=n - 4),
        "hybrid": lambda: HybridChatMemory(llm, recent_size=n - 4,
                                           summary_threshold=n),
    }


def time_adds(make: Callable[[], BaseChatMemory], stream: Sequence[ChatMessage],
              held: int, adds: int) -> float:
    """Microseconds per add(), timed over `adds` adds starting from `held` messages."""
    memory = make()
    for message in stream[:held]:  # fill up: not timed
        memory.add(message)
    timed = stream[held:held + adds]
    gc.disable()  # as timeit does: a collection mid-run is noise, not cost
    try:
        start = time.perf_counter()
        for message in timed:
            memory.add(message)
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed / adds * 1e6


def run(sizes: Sequence[int] = SIZES, adds: int = 2_000,
        repeats: int = 5) -> dict[str, list[float]]:
    """{strategy: [µs per add at each size]}, the best of `repeats` runs each.

    Rounds go over every size in turn, so a burst of load on a shared machine
    slows all sizes alike instead of skewing the ratio.
    """
    stream = conversation(max(sizes) + adds)
    makers = [strategies(n, stream) for n in sizes]
    best = {name: [float("inf")] * len(sizes) for name in makers[0]}
    for _ in range(repeats):
        for i, n in enumerate(sizes):
            for name, make in makers[i].items():
                best[name][i] = min(best[name][i], time_adds(make, stream, n, adds))
    return best


def title(name: str, lang: str | None = None) -> str:
    """A strategy's name as the table shows it: its Chinese title in Chinese."""
    if get_lang(lang) != "zh":
        return name
    return strategy_title("tokens" if name == "token window" else name, "zh")


def pad(text: str, width: int) -> str:
    """`text` filled to `width` columns (a Chinese character takes two)."""
    return text + " " * max(width - text_width(text), 0)


def report(results: dict[str, list[float]], sizes: Sequence[int],
           lang: str | None = None) -> str:
    """The table: one row a strategy, the last column the ratio largest / smallest."""
    head = "".join(f"{f'N={n:,}':>10}" for n in sizes)
    lines = [f"{pad(say('strategy', '策略', lang), 14)}{head}"
             f"{f'{sizes[-1]:,}/{sizes[0]:,}':>12}"]
    for name, costs in results.items():
        cells = "".join(f"{c:>10.2f}" for c in costs)
        ratio = costs[-1] / costs[0]
        lines.append(f"{pad(title(name, lang), 14)}{cells}{ratio:>12.2f}")
    return "\n".join(lines)


def legend(sizes: Sequence[int], lang: str | None = None) -> str:
    """What the table's last column means, printed under it."""
    big, small, ratio = sizes[-1], sizes[0], sizes[-1] / sizes[0]
    return say(f"Last column: one add()'s cost with {big:,} messages held / with "
               f"{small:,}.\n1.00: a turn costs the same at any length; "
               f"{ratio:,.0f}: it grows with the history. The bar is {MAX_RATIO}.",
               f"最后一列：持有 {big:,} 条消息时一次 add() 的耗时 / 持有 {small:,} 条时"
               f"的耗时。\n1.00：每轮耗时与对话长度无关；{ratio:,.0f}：耗时随历史增长。"
               f"门槛是 {MAX_RATIO}。", lang)


def offline_call_ms(calls: int = 200) -> dict[str, float]:
    """Median milliseconds of one offline model call, after warm-up: the model
    alone, and the full round trip through the openai SDK for a first-turn request
    (2 messages) and a long one (20 messages, as after nine remembered turns)."""
    from statistics import median

    from ..agent import ReActAgent
    from ..llm import LlmClient
    from ..offline import complete
    from ..tools import bitmall_tools

    llm, tools = LlmClient(offline=True), bitmall_tools()
    agent = ReActAgent(llm, tools, memory=InMemoryChatMemory(), verbose=False)
    first = agent.build_messages("Where is my order 88231?")
    for text in ["Where is my order 88231?", "I want a refund for it",
                 "How much is the S20 Pro?"] * 3:
        agent.run(text)
    long = agent.build_messages("What was my refund number again?")
    schemas = tools.schemas()
    request = {"model": llm.model, "messages": [m.to_dict() for m in long],
               "tools": schemas}
    cases = {"offline model alone (20 messages)": lambda: complete(request),
             "through the openai SDK (2 messages)": lambda: llm.chat(first, schemas),
             "through the openai SDK (20 messages)": lambda: llm.chat(long, schemas)}
    times = {}
    for name, call in cases.items():
        for _ in range(20):  # warm-up: imports, regexes, the tokenizer
            call()
        samples = []
        for _ in range(calls):
            start = time.perf_counter()
            call()
            samples.append(time.perf_counter() - start)
        times[name] = median(samples) * 1e3
    return times


def main(adds: int = 2_000, repeats: int = 5, calls: int = 200,
         sizes: Sequence[int] | None = None) -> int:
    """Print the tables, in the package's language, and return exit status 0.

    A benchmark reports: a ratio above the bar is a figure to read (on a busy,
    shared machine the 10-message timing is the noisiest), said in words, not a
    failed command; only an error (an exception) makes a non-zero status. Smaller
    `adds`, `repeats`, `calls` and `sizes` run faster."""
    zh, sizes = get_lang() == "zh", SIZES if sizes is None else sizes  # SIZES, read now
    print(say("One offline model call, median ms after warm-up:",
              "一次离线模型调用，预热后的中位耗时（毫秒）："))
    for name, ms in offline_call_ms(calls).items():
        print(f"  {pad(CALLS_ZH[name] if zh else name, 38)}{ms:>6.2f}")
    print()
    results = run(sizes, adds, repeats)
    print(say(f"Cost of one add() in µs with N messages held (best of {repeats} runs "
              f"of {adds:,} adds; no model time)",
              f"持有 N 条消息时一次 add() 的耗时（微秒；{repeats} 轮、每轮 {adds:,} 次"
              " add()，取最好的一轮；不含模型耗时）"))
    print(report(results, sizes))
    print(legend(sizes))
    slow = [title(name) for name, c in results.items() if c[-1] / c[0] > MAX_RATIO]
    if slow:
        print(say(f"Above the {MAX_RATIO} bar: {', '.join(slow)} (on a busy machine, "
                  "run it again before you read growth into it)",
                  f"超过 {MAX_RATIO} 门槛的策略：{'、'.join(slow)}（机器繁忙时，"
                  "先再跑一次，再判断是否真的随长度增长）"))
        return 0
    print(say(f"Every strategy within the {MAX_RATIO} bar: a turn costs the same at "
              "any length.",
              f"所有策略都在 {MAX_RATIO} 门槛以内：每轮耗时与对话长度无关。"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
