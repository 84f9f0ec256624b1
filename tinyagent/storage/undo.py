"""Undo in a store: the newest messages taken back, if they are still the ones meant.

Introduced in notebook 10 (a framework session's `pop_item`, the chat's `/undo`).
The log is append-only for everything else; an undo is the one way a message
leaves it, so that a restart does not bring it back. It is a compare-and-swap in
one transaction, like `save_summary` (base.py): the newest messages are removed
only if they are exactly the ones the writer undoes, numbered up to where it thinks
the log ends, and no summary snapshot covers them yet. A writer that lost (another
one appended, undid or summarized first) gets False, reloads and says so. Both
stores run this with their own placeholders (`?` for SQLite, `%s` for psycopg) and
table names. Left out: redo (the removed rows are not kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..messages import ChatMessage
from .base import decode


def pop_rows(db: Any, session: int, name: str, messages: Sequence[ChatMessage],
             number: int, tables: tuple[str, str], mark: str) -> bool:
    """Delete rows number-len(messages)+1..number of `session` inside the caller's
    transaction, if they are the newest, hold `messages` and no snapshot covers
    them; whether they were deleted."""
    log, snapshots = tables
    first = number - len(messages) + 1
    where = f"WHERE session_id = {mark}"
    newest = db.execute(f"SELECT COALESCE(MAX(seq), 0) FROM {log} {where}",
                        (session,)).fetchone()[0]
    covered = db.execute(f"SELECT COALESCE(MAX(covered_up_to), 0) FROM {snapshots} "
                         f"{where}", (session,)).fetchone()[0]
    if not messages or first < 1 or newest != number or covered >= first:
        return False  # someone appended or summarized first: nothing to take back
    rows = db.execute(f"SELECT seq, message FROM {log} {where} AND seq >= {mark} "
                      "ORDER BY seq", (session, first)).fetchall()
    if [decode(name, seq, text) for seq, text in rows] != list(messages):
        return False  # another writer undid these and wrote others in their place
    db.execute(f"DELETE FROM {log} {where} AND seq >= {mark}", (session, first))
    return True
