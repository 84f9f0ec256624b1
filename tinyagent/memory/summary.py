"""SummaryChatMemory: compress the old part of the conversation instead of dropping it.

Introduced in notebook 04. A window forgets; this memory has the model write down
what matters first. Once `threshold` messages are held, everything but the newest
`keep_recent` is compressed into one summary, the old summary going back in with
those messages, so a fact from turn 1 can survive to turn 50. The price: a model
call per compression (`stats()` counts calls and tokens), and a summary can lose
facts (the entity guard in summarizer.py keeps the numbers).

`messages()` starts with the summary, a system message fenced as reference data,
then the recent messages verbatim; only those count toward `threshold`. Cuts fall
between turns: the newest turns holding at least `keep_recent` messages stay
verbatim. `threshold_tokens` adds a second trigger (off by default): compress as
soon as the messages held reach that many tokens, for conversations whose messages
are long. The summary itself never exceeds `max_summary_tokens` (budget.py), so
the memory stays bounded however long the chat. `lang` ("en", "zh", "auto": the
customer's language, or None: the package's at the time, `set_lang`) is the
language of the summarizer's prompt, of the fence around the summary
(notebooks/zh/04) and of the errors. `fork=True` asks for each summary on the
conversation's own cached prefix (fork.py: the agent's last request + one turn)
instead of a request of its own. Holding the summary is compressed.py's, saving it
production's. Left out: structured summaries (notebook 08) and background
compression (09).
"""

from __future__ import annotations

from typing import Any, Literal

from ..chat_model import SupportsChat
from ..checks import check_size
from ..lang import Lang, say
from ..messages import ChatMessage
from .budget import DEFAULT_SUMMARY_TOKENS
from .compressed import CompressedChatMemory, compression_cut
from .fork import ForkSummarizer
from .summarizer import Summarizer
from .turns import turn_sizes

__all__ = ["SummaryChatMemory", "check_sizes", "compression_cut"]


def check_sizes(threshold: int, keep_recent: int, names: tuple[str, str],
                lang: Lang | Literal["auto"] | None = None) -> None:
    """The one set of rules for a summary memory's two sizes, in the memory's own
    `names` for them: keep_recent >= 2 (a question and its answer), and a threshold
    above it (else a compression could never keep fewer messages than it found)."""
    threshold_name, keep_name = names
    check_size(keep_name, keep_recent, 2, "the last question and its answer",
               why_zh="最后一问和它的回答", lang=lang)
    check_size(threshold_name, threshold, 3, f"more than {keep_name}",
               why_zh=f"要大于 {keep_name}", lang=lang)
    if keep_recent >= threshold:
        got = f"{keep_name}={keep_recent}, {threshold_name}={threshold}"
        raise ValueError(say(f"{keep_name} must be < {threshold_name} (got {got}): "
                             "otherwise compression never fires",
                             f"{keep_name} 必须小于 {threshold_name}（当前 {got}）："
                             "否则永远不会压缩", lang))


class SummaryChatMemory(CompressedChatMemory):
    """A summary of the old turns + the newest `keep_recent` messages verbatim."""

    _repr_fields = ("threshold", "keep_recent", "compression_count")
    # What errors call the two sizes: HybridChatMemory names them its own way.
    _size_names = ("threshold", "keep_recent")

    def __init__(self, llm: SupportsChat, threshold: int = 10, keep_recent: int = 4,
                 *, max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 threshold_tokens: int | None = None,
                 lang: Lang | Literal["auto"] | None = None,
                 fork: bool = False) -> None:
        check_sizes(threshold, keep_recent, self._size_names, lang)
        summarizer = ForkSummarizer if fork else Summarizer
        super().__init__(summarizer(llm, max_summary_tokens, lang=lang),
                         threshold_tokens=threshold_tokens)
        self.threshold, self.keep_recent = threshold, keep_recent

    def see_request(self, messages: list[ChatMessage],
                    tools: list[dict[str, Any]] | None = None) -> None:
        """The agent's last request and answer: with fork=True, the next summary
        request forks it (fork.py); without, it is not needed."""
        if isinstance(self.summarizer, ForkSummarizer):
            self.summarizer.see(messages, tools)

    def _trim(self) -> None:
        # ">=": the agent commits a turn when it ends, so memory holding `threshold`
        # messages means the next request would be past it (a memory that stored the
        # user message first would compress at threshold + 1: the same moment).
        if self._held_past(self.threshold):
            self._compress_oldest(compression_cut(
                turn_sizes(self._messages), len(self._messages), self.keep_recent))
