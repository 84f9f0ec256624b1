"""What production memory adds to the strategies: notebook 07 (the Nexus Agent design).

One idea a module: structured (a summary with seven capped sections), incremental
(batches of whole turns and a record of what the summary covers), background
(compression on a thread pool), sessions (persistence, isolation, restarts, many
writers; the stores themselves live in tinyagent.storage). The notebook's widget
playground is course harness: tinyagent.course.playground.
"""

from .background import BackgroundSummaryMemory, shared_executor
from .incremental import (
    Batch,
    IncrementalSummaryMemory,
    SummaryState,
    plan_batch,
)
from .sessions import Session, SessionManager, snapshot
from .sqlite_store import SessionInfo, SqliteStore
from .structured import (
    SECTIONS,
    StructuredSummarizer,
    StructuredSummary,
    cap_items,
    fallback_document,
)

__all__ = ["SECTIONS", "BackgroundSummaryMemory", "Batch", "IncrementalSummaryMemory",
           "Session", "SessionInfo", "SessionManager", "SqliteStore",
           "StructuredSummarizer", "StructuredSummary", "SummaryState", "cap_items",
           "fallback_document", "plan_batch", "shared_executor",
           "snapshot"]
