"""The summary request as a fork of the conversation: its cached prefix + one turn.

Introduced in notebook 07 ("What you pay"). Notebook 04's
summarizer sends a request of its own: its own system prompt, no tools, the old turns
written out as a transcript. Not one token of it is what the provider saw before,
so every token is billed in full, and the model reads again what it has just read.

A fork sends instead the agent's last request exactly as it was (the same system
prompt, the same tool schemas, the same history in the same order), then the
agent's answer, then one user turn that asks for the summary. The provider has just
read all of that but the last turn: it bills the prefix as cached, and only the
instruction and the summary are new. The instruction names the part to summarize
("the first 7 turns"), so the request says by itself what is wanted.

Who hands the memory that request: the agent does, through the memory's optional
`see_request(messages, tools)` at the end of each turn, just before it stores the
turn. Why the agent hands it over rather than drives the compaction: only the
memory knows when to compact and which turns (its trigger, its cut, its budget),
and a compaction belongs inside `add()`, where a failed summary loses nothing; an
agent that drove it would need every memory's rules. Why the memory does not build
the request itself: the agent builds it (its system prompt, the memory hint, the
summaries folded in, the tool schemas), and the memory must stay below the agent,
reading a list of messages, never importing the agent. A memory that is never
handed a request (a script that calls `add()`), or whose history no longer opens
the request, summarizes as notebook 04 does.

The guards are the summarizer's, unchanged: the same ids required, the same budget,
the same fallback when the call fails. Left out: a summarizer's own `prompt=` (the
fork's instruction is its own), a tool the model should call instead of writing
text, and a provider that bills tool schemas apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..lang import Lang, Pair
from ..messages import ChatMessage, Role
from .summarizer import Summarizer
from .turns import split_turns

# The summary instruction, the fork's one new turn. "{turns}" names the span; the
# merge clause is there only when an earlier summary is merged in.
ASK = Pair("Do not answer the customer now and call no tool: write a summary of "
           "the first {turns} turns of this conversation for your memory (a "
           "turn is a customer message and everything up to the next one).{merge}"
           " Keep order numbers, product names, amounts, tracking and refund "
           "numbers, operation results and the customer's requests, reasons and "
           "preferences; drop pleasantries and repetition. Plain text, one fact "
           "per line starting with '- '.",
           "先不要回复客户，也不要调用工具：请为你的记忆总结本次对话的前 {turns} 轮"
           "（一轮是客户的一条消息，以及到下一条客户消息之前的全部内容）。{merge}"
           "保留订单号、商品名称、金额、运单号和退款编号、操作结果，以及客户的诉求、"
           "原因和偏好；去掉寒暄和重复的话。"
           "输出纯文本，每行一条事实，以 '- ' 开头。")
MERGE = Pair(" Merge them with the conversation summary in the system message "
             "into one summary.", "并与系统消息中的对话摘要合并成一份摘要。")


def fork_request(seen: Sequence[ChatMessage], span: Sequence[ChatMessage],
                 merge: bool, lang: Lang = "en") -> list[ChatMessage] | None:
    """`seen` (the agent's last request and its answer) + the instruction to
    summarize `span`, or None when `span` does not open `seen`'s history.

    The history is what follows the leading system message; `span` must be its
    first messages, whole turns, so that "the first N turns" names exactly them.
    """
    if not seen or seen[0].role is not Role.SYSTEM or not span:
        return None
    start, end = 1, 1 + len(span)
    if list(seen[start:end]) != list(span) or end >= len(seen) \
            or seen[end].role is not Role.USER:
        return None  # the history changed since, or the cut is inside a turn
    ask = ASK.say(lang).format(turns=len(split_turns(span)),
                               merge=MERGE.say(lang) if merge else "")
    return [*seen, ChatMessage.user(ask)]


class ForkSummarizer(Summarizer):
    """A `Summarizer` that forks the agent's request when it has been handed one.

    `see(messages, tools)` keeps the request; the next `summarize` uses it once (a
    compaction changes the history, so a request seen before it is stale after it).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seen: tuple[list[ChatMessage], list[dict[str, Any]] | None] | None = None
        self._tools: list[dict[str, Any]] | None = None  # of the request being sent
        self.forks = 0  # summaries asked for by a fork (the others: notebook 04's way)

    def see(self, messages: Sequence[ChatMessage],
            tools: list[dict[str, Any]] | None = None) -> None:
        """The agent's last request, its answer appended, and the tools it offered."""
        self._seen = list(messages), tools

    def forget_request(self) -> None:
        """Drop the request seen: the next summary is asked for by a request of its
        own (after a long pause the provider has forgotten that prefix anyway)."""
        self._seen = None

    def summarize(self, previous: str | None,
                  messages: Sequence[ChatMessage]) -> str:
        try:
            return super().summarize(previous, messages)
        finally:
            self._seen = None  # used once: the history is not the same any more

    def request(self, previous: str | None,
                messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        """The fork, if the request seen opens with `messages`; else notebook 04's."""
        self._tools = None
        if self._seen is not None:
            seen, tools = self._seen
            fork = fork_request(seen, messages, previous is not None,
                                self.language(previous, messages))
            if fork is not None:
                self._tools = tools
                self.forks += 1
                return fork
        return super().request(previous, messages)

    def send(self, request: list[ChatMessage]) -> Any:
        """The call, with the tools of the forked request: they open its prefix."""
        if self._tools:
            return self.llm.chat(request, tools=self._tools)
        return super().send(request)

    def clear(self) -> None:
        super().clear()
        self._seen, self.forks = None, 0
