"""What every session store offers: the `Store` protocol and the records it returns.

Introduced in notebook 09. A store keeps, per session name, an append-only log of
messages numbered 1, 2, ... and the snapshots of its summary, newest last. Two
rules make it safe for many writers (threads, processes, servers) on one session:

- appending never conflicts: each message gets the next number, in one transaction
  (an undo is the one way a message leaves the log: a compare-and-swap too);
- a summary snapshot is saved only if the snapshot it was built on is still the
  newest, and only if it is newer than that one (`save_summary(...,
  base_version=...)` is a compare-and-swap in one transaction). A writer that loses
  reloads what the store holds and plans again, so no two snapshots of a session
  share a version and none covers a message it never saw.

The protocol is the contract, written once, here: what code that uses a store
(SessionManager, the sessions command) may rely on, and what a new kind of store
must keep. `SqlStore` (sql.py) keeps it in SQL once, for `SqliteStore` (sqlite.py)
and `PostgresStore` (postgres.py); `open_store(url)` picks one. Left out:
migrations, users, retention policies.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..lang import say
from ..messages import ChatMessage


class StoreError(RuntimeError):
    """The database cannot be used (bad path, corrupted file, lock, server down).

    The message is one line that names the database and what to do about it.
    """


@dataclass(frozen=True)
class SummaryState:
    """A summary and its record: what a store's snapshot holds (notebook 09)."""

    text: str | None = None
    covered_up_to: int = 0  # the summary includes messages 1..covered_up_to
    compression_count: int = 0
    version: int = 0  # +1 each time the summary changes


@dataclass(frozen=True)
class SessionInfo:
    """One row of `Store.sessions()`."""

    name: str
    strategy: str
    messages: int
    updated_at: float  # seconds since the epoch, from the store's clock


def check_name(name: object) -> str:
    """A session name: non-empty text that is not only spaces, without control
    characters (a NUL cannot be stored; ESC would drive the terminal that lists it)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(say(f"a session name must be non-empty text, got {name!r}: "
                             "give the session a name such as 'alice'",
                             f"会话名必须是非空文本，收到的是 {name!r}："
                             "请给会话起个名字，例如 'alice'"))
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        raise ValueError(say(f"a session name must not hold control characters, got "
                             f"{name!r}: give the session a name such as 'alice'",
                             f"会话名不能含控制字符，收到的是 {name!r}："
                             "请给会话起个名字，例如 'alice'"))
    return name


def missing(name: str) -> KeyError:
    # No Python call in the hint: the command line shows this message too.
    return KeyError(say(f"no session named {name!r}: check the name (it may have "
                        "been deleted), or create the session first",
                        f"没有名为 {name!r} 的会话：请检查名字（它可能已被删除），"
                        "或先创建这个会话"))


def decode(name: str, number: int, text: str) -> ChatMessage:
    """Message `number` of a session, from its stored JSON; a row this version cannot
    read (another program's, a newer layout's) is a StoreError, not a TypeError."""
    try:
        return ChatMessage.from_dict(json.loads(text))
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as error:
        raise StoreError(say(
            f"message {number} of session {name!r} cannot be read "
            f"({type(error).__name__}): it was written by another program or a newer "
            "TinyAgent; upgrade tinyagent",
            f"会话 {name!r} 的第 {number} 条消息无法读取（{type(error).__name__}）："
            "它由别的程序或更新版本的 TinyAgent 写入；请升级 tinyagent")) from None


@runtime_checkable
class Store(Protocol):
    """Sessions, their append-only messages and their summary snapshots. Each
    method that writes does so in one transaction: all of it, or nothing."""

    clock: Callable[[], float]  # seconds since the epoch: `updated_at`, expiry
    key: str  # which database, without secrets: handles with one key share sessions

    def create_session(self, name: str, strategy: str) -> None:
        """A new, empty session; ValueError if the name is blank or taken."""

    def has_session(self, name: str) -> bool:
        """Whether a session of that name exists."""

    def session(self, name: str) -> SessionInfo:
        """One session's row; KeyError if there is none."""

    def sessions(self) -> list[SessionInfo]:
        """Every session, by name."""

    def delete_session(self, name: str) -> None:
        """The session, its messages and its snapshots, gone."""

    def clear_session(self, name: str) -> None:
        """Its messages and snapshots gone; the session (and its strategy) kept."""

    def append(self, name: str, messages: Sequence[ChatMessage]) -> int:
        """Add messages at the end of a session; the number of the last one."""

    def messages(self, name: str, after: int = 0) -> list[ChatMessage]:
        """The messages numbered above `after`, oldest first."""

    def count(self, name: str) -> int:
        """How many messages the session holds."""

    def pop_messages(self, name: str, messages: Sequence[ChatMessage],
                     number: int) -> bool:
        """Undo (notebook 10): remove the newest messages if they are still
        `messages`, numbered up to `number`, and no snapshot covers them. False,
        and nothing removed, when another writer appended, undid or summarized
        first. The removed rows are not kept: there is no redo."""

    def save_summary(self, name: str, state: SummaryState,
                     base_version: int | None = None) -> bool:
        """Save `state` if the newest saved version is `base_version` (0: none)
        and `state.version` is above it.

        False, and nothing saved, when another writer saved a snapshot first, or
        when `state` is no newer than its base. `base_version=None` means
        `state.version - 1`.
        """

    def summaries(self, name: str, newest_only: bool = False
                  ) -> list[SummaryState]:
        """The snapshots, oldest first (or just the newest)."""

    def summary(self, name: str) -> SummaryState | None:
        """The newest snapshot, or None before the first compression."""

    def close(self) -> None:
        """Release the file or the connection."""
