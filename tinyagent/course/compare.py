"""The harness: one scripted dialog through every memory strategy, turn by turn.

Introduced in notebook 06; also `tinyagent compare` (compare_cli.py).
`compare(llm, turns)` gives each strategy a fresh agent, fresh BitMall tools (refund
numbers restart at RF20260701001) and a fresh memory, plays the script, and records
per turn the answer, the prompt tokens of every model call, the tokens memory holds
and what the summarizer cost. The result, a `Comparison`, prints as text tables and
shows as HTML in a notebook (comparison.py); plots and the planted-fact evaluation
are in evaluation.py. `compare(..., lang="zh")` plays over the Chinese store, with
an agent whose system prompt is Chinese too; without `lang`, the package's language
(`set_lang`, TINYAGENT_LANG) at the time of the call decides. Each turn also records
what the model's usage said of every call (the summarizer's too): prompt, cached and
output tokens. Offline, `provider=` picks whose prompt-cache rule the usage follows,
each strategy starts with an empty cache, and `schedule=` (offline/clock.py) says how
long the customer pauses before each turn, on the clock the cache expires by. A
turn whose model call fails (a timeout, an HTTP error) is recorded as failed and
the run goes on: one slow call must not lose minutes of results. Left out: latency,
and parallel runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..agent import ReActAgent
from ..chat_model import LlmError, Usage
from ..lang import get_lang, say
from ..llm import LlmClient
from ..offline.cache_rules import RULES, CacheRule
from ..offline.clock import Clock, Schedule
from ..tokens import count_message_tokens
from ..tools import bitmall_tools
from .catalogue import SIX_TURNS, MemoryFactory, make_strategies
from .comparison import Comparison, StrategyRun, TurnRecord

Progress = Callable[[str, int, int], None]  # (strategy, turn, turns): after each turn
SUMMARIZER_STATS = ("summarizer_calls", "summarizer_tokens", "compressions")


def run_strategy(llm: LlmClient, turns: Sequence[str], name: str,
                 make: MemoryFactory, *, lang: str | None = None,
                 max_tokens: int = 8000, progress: Progress | None = None,
                 schedule: Schedule | None = None) -> StrategyRun:
    """Play `turns` with a fresh agent, tools (the store in `lang`, default: the
    package's language at the time of the call) and memory; record every turn.
    `schedule`: the customer's pauses, on the offline clock."""
    lang = get_lang(lang)
    memory = make()
    if hasattr(memory, "fence_lang"):  # the summary's fence in the store's language
        memory.fence_lang = lang
    agent = ReActAgent(llm, bitmall_tools(lang=lang), max_tokens=max_tokens,
                       memory=memory, verbose=False, lang=lang)
    records: list[TurnRecord] = []
    before: dict[str, int] = {}  # the memory's stats() after the previous turn
    if hasattr(llm, "forget_prompt_cache"):  # offline: every strategy starts cold
        llm.forget_prompt_cache()
    clock = _restart_clock(llm)
    for number, text in enumerate(turns, 1):
        if clock is not None:  # the prompt cache forgets what went unused too long
            clock.next_turn(schedule.before(number) if schedule else 0.0)
        used = getattr(llm, "usage_total", None)
        try:
            answer, error, trace = agent.run(text), "", agent.last_trace
            calls, cached = trace.prompt_tokens, trace.cached_tokens
        except LlmError as exc:  # recorded; the memory kept what it held before
            answer, error, calls, cached = "", str(exc), [], []
        spent = _spent(llm, used, calls, cached)
        held = memory.messages() if memory is not None else []
        after = getattr(memory, "stats", dict)()  # a memory without stats(): zeros
        extra = [after.get(k, 0) - before.get(k, 0) for k in SUMMARIZER_STATS]
        records.append(TurnRecord(text, answer, tuple(calls),
                                  sum(map(count_message_tokens, held)), *extra,
                                  input_tokens=spent.prompt_tokens,
                                  cached_tokens=spent.cached_tokens,
                                  output_tokens=spent.completion_tokens,
                                  written_tokens=spent.written_tokens, error=error))
        before = after
        if progress:
            progress(name, number, len(turns))
    return StrategyRun(name, records, memory)


def _restart_clock(llm: LlmClient) -> Clock | None:
    """The client's clock, back at the start of a conversation (one made if it
    has none yet); None for a client without one."""
    if not hasattr(llm, "clock"):
        return None
    if llm.clock is None:
        llm.clock = Clock()
    llm.clock.reset()
    return llm.clock


def _spent(llm: LlmClient, before: Usage | None, prompts: list[int],
           cached: list[int]) -> Usage:
    """Every call of the turn, the summarizer's too, as the usage reported it: the
    client's totals now less `before` (a client without totals: the agent's calls,
    from its trace)."""
    if before is None:
        return Usage(sum(prompts), 0, sum(cached))
    now = llm.usage_total
    return Usage(now.prompt_tokens - before.prompt_tokens,
                 now.completion_tokens - before.completion_tokens,
                 now.cached_tokens - before.cached_tokens,
                 now.written_tokens - before.written_tokens)


def compare(llm: LlmClient, turns: Sequence[str] | None = None,
            strategies: Mapping[str, MemoryFactory] | None = None, *,
            lang: str | None = None, provider: str | CacheRule | None = None,
            **options: Any) -> Comparison:
    """Every strategy on one script (default: the six-turn demo in `lang`) over the
    store in `lang` (default: the package's language at the time of the call, so
    under `set_lang("zh")` the Chinese dialog on the Chinese store); options go to
    `run_strategy` (`schedule=`: the pauses). `strategies`: {label: factory}, or
    `make_strategies(llm)`. `provider` (a rule of cache_rules.RULES): offline, the
    prompt-cache rule the usage follows; always, the prices it is billed at
    (default: the client's rule)."""
    lang = get_lang(lang)
    turns = list(SIX_TURNS[lang] if turns is None else turns)
    if not turns:
        raise ValueError(say("the script is empty: give at least one user message",
                             "脚本是空的：至少要有一条用户消息", lang))
    chosen = make_strategies(llm) if strategies is None else strategies
    offline = getattr(llm, "offline", True)
    if isinstance(provider, CacheRule) and RULES.get(provider.name) is provider:
        provider = provider.name  # a documented rule goes by its name
    if provider and offline and hasattr(llm, "cache_rule"):
        llm.cache_rule = provider  # read when its transport is built: next call
    provider = provider or getattr(llm, "cache_rule", "qwen")
    return Comparison([run_strategy(llm, turns, name, make, lang=lang, **options)
                       for name, make in chosen.items()], provider, not offline)
