"""What a summary costs against what it stands for: `python -m tinyagent.course.ratios`.

Introduced in notebook 04 (sections 4 and 6), which prints the same figures. Plays
notebook 04's twelve-turn dialog through `SummaryChatMemory(llm, 10, 4)` next to an
unbounded memory, and the Chinese six-turn demo through the demo's hybrid (6/10).
For every compression it prints the summary's tokens against the tokens of all the
messages it now stands for; then the tokens each memory sent in all, the
summarizer's calls included, and the turn by which the summary memory had paid for
itself. Left out: real models' summaries (set TINYAGENT_API_KEY to measure them).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..agent import ReActAgent
from ..llm import LlmClient
from ..memory import HybridChatMemory, InMemoryChatMemory, SummaryChatMemory
from ..tokens import count_tokens
from ..tools import bitmall_tools
from .catalogue import SIX_TURNS

TWELVE_TURNS = (
    "Where is my order 88231?",
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
    "By the way, what was that refund number again?")


def play(llm: LlmClient, memory: object, script: Sequence[str]
         ) -> tuple[list[str], list[int]]:
    """(a line per compression, tokens sent so far after each turn)."""
    agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    lines, spent, sent = [], [], 0
    summarizer = getattr(memory, "summarizer", None)
    for turn, text in enumerate(script, 1):
        fired = getattr(memory, "compression_count", 0)
        agent.run(text)
        sent += sum(agent.last_trace.prompt_tokens)
        spent.append(sent + (summarizer.tokens if summarizer else 0))
        if getattr(memory, "compression_count", 0) > fired:
            size, history = count_tokens(memory.summary), memory.summarized_tokens
            lines.append(f"  after turn {turn:>2}: summary {size:>3} / {history:>4} "
                         f"tokens it stands for = {size / history:.0%}")
    return lines, spent


def main() -> int:
    llm = LlmClient.from_env()
    print(f"{llm.describe()}\n\nNotebook 04's twelve turns, SummaryChatMemory 10/4:")
    lines, summary = play(llm, SummaryChatMemory(llm, 10, 4), TWELVE_TURNS)
    _, unbounded = play(llm, InMemoryChatMemory(), TWELVE_TURNS)
    print("\n".join(lines))
    ahead = [s <= u for s, u in zip(summary, unbounded, strict=True)]
    paid = next((t for t in range(2, len(ahead) + 1)  # behind, then caught up
                 if ahead[t - 1] and not ahead[t - 2]), None)
    print(f"  tokens sent in 12 turns: summary {summary[-1]:,} (summarizer included), "
          f"unbounded {unbounded[-1]:,}; paid for itself by turn {paid}")
    print("\nThe Chinese six-turn demo, HybridChatMemory 6/10:")
    print("\n".join(play(llm, HybridChatMemory(llm, 6, 10), SIX_TURNS["zh"])[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
