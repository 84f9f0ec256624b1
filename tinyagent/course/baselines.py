"""A summarizer that writes nothing of use: the baseline a recall test must beat.

Introduced in notebook 06. `UselessSummaries` stands in for the model a summary
memory calls: whatever it is sent, it answers "- The customer chatted about some
orders." (in Chinese for a Chinese dialog), and reports the tokens a real call would
have cost. The memory's entity guard still appends every order, tracking and refund
number to its summary, so a test that asks only for ids scores this memory 3/3; only
the customer's own words ("only deliver after 6 pm", "error E12") tell it apart.
`useless_strategy(4, 8)` is it inside the hybrid memory, for `evaluate`, and
`with_baseline(llm, evaluation)` adds its score to an evaluation already run. Left out:
other poor summarizers (one that paraphrases and drifts is notebook 05's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..chat_model import ChatResponse, Usage
from ..lang import Pair
from ..llm import LlmClient
from ..memory.hybrid import HybridChatMemory
from ..messages import ChatMessage
from ..tokens import count_messages_tokens, count_tokens
from .catalogue import MemoryFactory
from .evaluation import Evaluation, evaluate

USELESS = Pair("- The customer chatted about some orders.", "- 顾客聊了一些订单的事。")
LABEL = "useless 4/8"  # the name tables give it: the hybrid's sizes, useless summaries


class UselessSummaries:
    """A stand-in model for summaries: the same empty line, whatever it is sent."""

    def chat(self, messages: Sequence[ChatMessage],
             tools: list[dict[str, Any]] | None = None) -> ChatResponse:
        """One fixed line in the dialog's language; usage counted as a real call's."""
        text = USELESS.say("auto", " ".join(m.content for m in messages))
        return ChatResponse(text, usage=Usage(count_messages_tokens(messages),
                                              count_tokens(text)))


def useless_strategy(recent_size: int = 4, summary_threshold: int = 8
                     ) -> dict[str, MemoryFactory]:
    """{label: factory} of a hybrid memory whose summaries are useless, to add to
    the strategies `evaluate` plays."""
    def make() -> HybridChatMemory:
        return HybridChatMemory(UselessSummaries(), recent_size, summary_threshold)
    return {LABEL: make}


def with_baseline(llm: LlmClient, evaluation: Evaluation) -> Evaluation:
    """`evaluation` with one more row: the useless summarizer on the same dialog
    (only it is played; the other rows are kept as they are)."""
    useless = evaluate(llm, evaluation.dialog, useless_strategy())
    return Evaluation(evaluation.dialog, [*evaluation.scores, *useless.scores],
                      evaluation.comparison)
