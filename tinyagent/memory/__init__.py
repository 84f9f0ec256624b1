"""Memory strategies: the ChatMemory contract and its implementations.

The contract is base.py's, the turn rule every strategy keeps turns.py's. One
strategy a file, in course order: in_memory (notebook 02), window and
token_window (03), summary (04) and hybrid (05). (Notebook 06's cache-aware compact
memory is tinyagent.production's: what it optimises is the bill; so is clearing,
old tool results cleared. fork.py, a summary asked on the cached prefix, is here:
summary and hybrid memory can fork too.)
Shared by summary and hybrid (and by the production memories of notebook 08):
summarizer.py, which writes a summary from the transcript (transcript.py), with
its guards (entities.py: no number lost or made up; budget.py: a bounded size),
fence.py, which marks it as reference data, and compressed.py, which holds it in
front of the verbatim messages. A model is whatever has chat_model.py's `chat()`:
memory never imports the HTTP client, nor draws itself (display.py does).
"""

from .base import (
    AddsTurns,
    BaseChatMemory,
    ChatMemory,
    SeesRequests,
    UndoError,
    add_turn,
)
from .budget import IDS_LINE, IDS_LINE_ZH
from .compressed import CompressedChatMemory
from .entities import find_ids, keep_ids
from .fence import (
    SUMMARY_FOOTER,
    SUMMARY_FOOTER_ZH,
    SUMMARY_HEADER,
    SUMMARY_HEADER_ZH,
    summary_message,
)
from .hybrid import HybridChatMemory
from .in_memory import InMemoryChatMemory
from .summarizer import PROMPT, PROMPT_ZH, Summarizer, fallback_summary
from .summary import SummaryChatMemory
from .token_window import TokenWindowChatMemory
from .transcript import render
from .turns import call_before, drop_orphans, split_turns, turn_sizes
from .window import SlidingWindowChatMemory

__all__ = ["IDS_LINE", "IDS_LINE_ZH", "PROMPT", "PROMPT_ZH", "SUMMARY_FOOTER",
           "SUMMARY_FOOTER_ZH", "SUMMARY_HEADER", "SUMMARY_HEADER_ZH", "AddsTurns",
           "BaseChatMemory", "ChatMemory", "CompressedChatMemory", "HybridChatMemory",
           "InMemoryChatMemory", "SeesRequests", "SlidingWindowChatMemory",
           "Summarizer", "SummaryChatMemory", "TokenWindowChatMemory", "UndoError",
           "add_turn", "call_before", "drop_orphans", "fallback_summary", "find_ids",
           "keep_ids", "render", "split_turns", "summary_message", "turn_sizes"]
