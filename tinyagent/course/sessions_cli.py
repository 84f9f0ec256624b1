"""`tinyagent sessions list|show NAME|rebuild NAME|delete NAME --db URL`.

The terminal twin of notebook 07's SessionManager, with what an operator needs of a
session service: see which sessions a database holds, what one of them remembers (the
summary, its version and what it covers, and the verbatim tail), compress one again
from its full log, or delete it. `--db` takes a SQLite file name or a
postgresql:// URL (tinyagent.storage.open_store). `open_session` is also what
`tinyagent chat --session` uses: a session keeps the strategy it was created with.
Left out: renaming, exporting, and filtering the list.
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
from ..storage import Store, StoreError, open_store, safe_url

DEFAULT_DB = "tinyagent.db"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["list", "show", "rebuild", "delete"])
    parser.add_argument("name", nargs="?", help="the session (not for list)")
    parser.add_argument("--db", metavar="URL", default=DEFAULT_DB,
                        help="a SQLite file or postgresql://user@host/db "
                        f"(default: {DEFAULT_DB})")


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
    print(f"Session {name!r}: strategy {info.strategy}, {info.messages} messages, "
          f"last used {used}")
    covered = state.covered_up_to if state else 0
    if state is None or state.text is None:
        print("Summary: none yet")
    else:
        print(f"Summary: version {state.version}, covers messages 1-{covered} "
              f"({state.compression_count} compression"
              f"{'s' * (state.compression_count != 1)})")
        for line in state.text.splitlines():
            print(f"  {line}")
    tail = store.messages(name, after=covered)
    first, last = covered + 1, covered + len(tail)
    print(f"Verbatim tail: messages {first}-{last}" if tail else "Verbatim tail: none")
    for number, message in enumerate(tail, first):
        prefix = f"{number:>4}. [{message.role.value}] "
        print(prefix + clip(message.preview(10**6), 100 - len(prefix)))


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
        with open_store(args.db) as store:
            if args.action == "list":
                rows = store.sessions()
                print(f"{len(rows)} session{'s' * (len(rows) != 1)} in "
                      f"{safe_url(args.db)}")
                for row in rows:
                    used = time.strftime("%Y-%m-%d %H:%M", time.gmtime(row.updated_at))
                    print(f"  {row.name:<20} {row.strategy:<10} {row.messages:>6} "
                          f"messages  last used {used} UTC")
            elif args.action == "show":
                show(store, args.name)
            elif args.action == "rebuild":
                rebuild(store, args.name)
            else:
                store.delete_session(args.name)
                print(f"Session {args.name!r} deleted.")
    except (StoreError, KeyError) as error:
        text = error.args[0] if isinstance(error, KeyError) else str(error)
        print(f"error: {text}", file=sys.stderr)
        return 1
    return 0
