"""TokenWindowChatMemory: keep the newest turns that fit in a token budget.

Introduced in notebook 03, after the message window. Messages differ wildly in size
(a tool result can be 300 tokens, "thanks!" is 5), so a window of 10 messages can
cost anything; a budget in tokens is what the provider bills and what the context
window limits. Counts come from tiktoken (cl100k), cached on each message, and the
running total means a turn never recounts the history.

Whole turns only, as in window.py: a single turn larger than the whole budget is
kept alone rather than cut in half, so `tokens` can exceed `max_tokens` until the
next turn starts.

`max_tokens` is the name the course gives this budget: the tokens of the messages
held, not the reply's length cap that the API calls max_tokens (LlmClient's
`max_reply_tokens`). Its errors speak the package's language at the time. Left out:
the system prompt and tool schemas, which the agent's own budget counts
(ReActAgent's max_tokens), and remembering what fell out (summary.py, hybrid.py).
"""

from __future__ import annotations

from ..checks import check_size
from .base import BaseChatMemory


class TokenWindowChatMemory(BaseChatMemory):
    """The newest whole turns whose token count fits in `max_tokens`."""

    _repr_fields = ("max_tokens",)

    def __init__(self, max_tokens: int) -> None:
        check_size("max_tokens", max_tokens, 1, "a budget of prompt tokens",
                   why_zh="提示词的 token 预算")
        super().__init__()
        self.max_tokens = max_tokens

    def _trim(self) -> None:
        # The message window's loop: only the measure differs.
        while self.tokens > self.max_tokens:
            if not self._pop_oldest_turn():
                break  # only the newest turn is left: kept whole, even if too long
