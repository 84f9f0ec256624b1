"""What production memory adds to the strategies: notebooks 08-09 (Nexus Agent).

One idea a module: structured (a summary with seven capped sections), eviction
(the ladder that fits a full summary: settled facts go before open ones), incremental
(batches of whole turns), persistent (the record of what a summary covers, for
any summary memory), background
(compression on a thread pool), compact (the cache-aware memory of notebook 07,
"What you pay": what it optimises is the bill; sizing reads its marks off the cache
rule), clearing (old tool results replaced by a placeholder past a trigger: the same
notebook), sessions (persistence,
isolation, restarts, many writers; the stores themselves, and `SummaryState`, the
record of a summary they keep, live in tinyagent.storage). The notebook's widget
playground is course harness: tinyagent.course.playground.
"""

from .background import (
    BackgroundSummaryChatMemory,
    shared_executor,
)
from .clearing import ToolClearingChatMemory, placeholder
from .compact import CompactChatMemory
from .eviction import fit as ladder_fit
from .incremental import (
    Batch,
    IncrementalSummaryChatMemory,
    plan_batch,
)
from .persistent import PersistentChatMemory, Recorded, recorded
from .restore import load_memory, snapshot
from .sessions import Session, SessionManager
from .sizing import Marks, marks_for
from .structured import (
    SECTIONS,
    SECTIONS_ZH,
    StructuredSummarizer,
    StructuredSummary,
    cap_items,
    fallback_document,
    section_titles,
)

__all__ = ["BackgroundSummaryChatMemory", "Batch", "CompactChatMemory",
           "IncrementalSummaryChatMemory", "Marks", "PersistentChatMemory", "Recorded",
           "SECTIONS", "SECTIONS_ZH", "Session", "SessionManager",
           "StructuredSummarizer", "StructuredSummary", "ToolClearingChatMemory",
           "cap_items", "fallback_document", "ladder_fit", "load_memory", "marks_for",
           "placeholder", "plan_batch", "recorded", "section_titles",
           "shared_executor", "snapshot"]
