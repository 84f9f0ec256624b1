"""`tinyagent sessions list|show NAME|rebuild NAME|delete NAME --db URL`.

The terminal twin of notebook 07's SessionManager, with what an operator needs of a
session service: see which sessions a database holds, what one of them remembers (the
summary, its version and what it covers, and the verbatim tail), compress one again
from its full log, or delete it. `--db` takes a SQLite file name or a
postgresql:// URL (tinyagent.storage.open_store). `open_session` is also what
`tinyagent chat --session` uses: a session keeps the strategy it was created with.
Looking never creates a database; stored text is printed with its control characters
escaped (it must not drive the terminal); `delete` refuses a session used in the
last minute, which a chat may still hold, unless --force. Left out: renaming,
exporting, and filtering the list.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import cast

from ..memory.base import ChatMemory
from ..messages import clip
from ..production.sessions import Session, SessionManager
from ..storage import Store, StoreError, check_name, open_store, safe_url

DEFAULT_DB = "tinyagent.db"
SHOWN_TAIL = 20  # `show` prints the newest messages of the tail, not 200,000 of them
IN_USE_SECONDS = 60  # a session written to this recently may be open in a chat


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["list", "show", "rebuild", "delete"])
    parser.add_argument("name", nargs="?", help="the session (not for list)")
    parser.add_argument("--db", metavar="URL", default=DEFAULT_DB,
                        help="a SQLite file or postgresql://user@host/db "
                        f"(default: {DEFAULT_DB})")
    parser.add_argument("--force", action="store_true",
                        help=f"delete even a session used in the last "
                        f"{IN_USE_SECONDS} s (a chat may still be using it)")


def printable(text: str) -> str:
    """`text` with control characters (ESC, BEL, ...) shown as escapes: a stored
    name or message must not drive the terminal it is printed on."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


def open_session(store: Store, name: str, memory_name: str,
                 factories: dict[str, Callable[[], ChatMemory | None]],
                 say: Callable[[str], None] = print) -> Session:
    """Open or create a session; an existing one keeps the strategy it was made with.

    A different `memory_name` is not applied silently: `say` tells the user.
    """
    if not name.strip():
        raise StoreError("the session name is empty: give --session a name such as "
                         "alice")
    strategy = memory_name
    if store.has_session(name):
        strategy = store.session(name).strategy
        if strategy != memory_name:
            say(f"Session {name!r} was created with --memory {strategy}: using "
                f"{strategy}, not {memory_name} (start a new session to switch).")
        if strategy not in factories or strategy == "none":
            raise StoreError(f"session {name!r} uses the strategy {strategy!r}, which "
                             f"the command line does not offer: open it in Python")
    make = cast(Callable[[], ChatMemory], factories[strategy])  # "none" refused above
    return SessionManager(store, make, strategy).open(name)


def show(store: Store, name: str) -> None:
    info, state = store.session(name), store.summary(name)
    used = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(info.updated_at))
    print(f"Session {printable(repr(name))}: strategy {printable(info.strategy)}, "
          f"{info.messages} messages, last used {used}")
    covered = state.covered_up_to if state else 0
    if state is None or state.text is None:
        print("Summary: none yet")
    else:
        print(f"Summary: version {state.version}, covers messages 1-{covered} "
              f"({state.compression_count} compression"
              f"{'s' * (state.compression_count != 1)})")
        for line in state.text.splitlines():
            print(f"  {printable(line)}")
    last = info.messages
    first = max(covered, last - SHOWN_TAIL) + 1
    print(f"Verbatim tail: messages {covered + 1}-{last}" if last > covered
          else "Verbatim tail: none")
    if first > covered + 1:
        print(f"  ({first - covered - 1:,} older messages of the tail not shown)")
    for number, message in enumerate(store.messages(name, after=first - 1), first):
        prefix = f"{number:>4}. [{message.role.value}] "
        print(prefix + printable(clip(message.preview(300), 100 - len(prefix))))


def rebuild(store: Store, name: str) -> None:
    from ..llm import LlmClient
    from .catalogue import memory_factories

    strategy = store.session(name).strategy
    factory = memory_factories(LlmClient.from_env()).get(strategy)
    if factory is None or strategy == "none":
        raise StoreError(f"session {name!r} uses the strategy {strategy!r}, which the "
                         "command line does not offer: rebuild it in Python")
    make = cast(Callable[[], ChatMemory], factory)
    before = store.summary(name)
    SessionManager(store, make, strategy).rebuild_summary(name)
    state = store.summary(name)
    if state is None or state == before:
        print(f"Session {name!r} ({strategy}): nothing to rebuild, its turns fit in "
              "the verbatim tail (or the strategy keeps no summary).")
    else:
        print(f"Session {name!r}: summary rebuilt, version {state.version}, covers "
              f"messages 1-{state.covered_up_to}.")


def run(args: argparse.Namespace) -> int:
    """The `sessions` command; 1 with a one-line error on a bad database or name."""
    if args.action != "list" and not (args.name or "").strip():
        print(f"error: `tinyagent sessions {args.action}` needs a session name",
              file=sys.stderr)
        return 2
    try:
        if args.action != "list":
            check_name(args.name)
        with open_store(args.db, create=False) as store:  # looking creates nothing
            if args.action == "list":
                rows = store.sessions()
                print(f"{len(rows)} session{'s' * (len(rows) != 1)} in "
                      f"{safe_url(args.db)}")
                for row in rows:
                    used = time.strftime("%Y-%m-%d %H:%M", time.gmtime(row.updated_at))
                    print(f"  {printable(row.name):<20} {printable(row.strategy):<10} "
                          f"{row.messages:>6} messages  last used {used} UTC")
            elif args.action == "show":
                show(store, args.name)
            elif args.action == "rebuild":
                rebuild(store, args.name)
            else:
                delete(store, args.name, args.force)
    except (StoreError, KeyError, ValueError) as error:
        text = error.args[0] if isinstance(error, KeyError) else str(error)
        print(f"error: {printable(text)}", file=sys.stderr)
        return 1
    return 0


def delete(store: Store, name: str, force: bool) -> None:
    """Delete a session, unless it was used so recently that a chat may hold it."""
    idle = store.clock() - store.session(name).updated_at
    if idle < IN_USE_SECONDS and not force:
        raise StoreError(f"session {name!r} was used {idle:.0f} s ago and may be open "
                         "in a chat: end that chat first, or add --force")
    store.delete_session(name)
    print(f"Session {printable(repr(name))} deleted.")
