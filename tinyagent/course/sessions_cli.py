"""`tinyagent sessions list|show NAME|rebuild NAME|delete NAME --db URL`.

The terminal twin of notebook 09's SessionManager, with what an operator needs of a
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
import time
from collections.abc import Callable
from typing import cast

from ..display import LABELS  # the roles as the Chinese notebooks name them
from ..lang import get_lang
from ..lang import say as tell
from ..memory.base import ChatMemory
from ..messages import clip
from ..production.sessions import Session, SessionManager
from ..storage import Store, StoreError, check_name, open_store, safe_url
from .catalogue import memory_factories
from .terminal import say_error

DEFAULT_DB = "tinyagent.db"
SHOWN_TAIL = 20  # `show` prints the newest messages of the tail, not 200,000 of them
IN_USE_SECONDS = 60  # a session written to this recently may be open in a chat


def add_arguments(parser: argparse.ArgumentParser, lang: str | None = None) -> None:
    """The sessions command's options; --lang comes with every command."""
    def text(en: str, zh: str) -> str:
        return tell(en, zh, lang)

    parser.add_argument("action", choices=["list", "show", "rebuild", "delete"],
                        help=text("what to do", "要做的操作"))
    parser.add_argument("name", nargs="?", metavar="NAME", help=text(
        "the session (not for list)", "会话名（list 不需要）"))
    parser.add_argument("--db", metavar="URL", default=DEFAULT_DB, help=text(
        f"a SQLite file or postgresql://user@host/db (default: {DEFAULT_DB})",
        f"SQLite 文件或 `postgresql://user@host/db`（默认：{DEFAULT_DB}）"))
    parser.add_argument("--force", action="store_true", help=text(
        f"delete even a session used in the last {IN_USE_SECONDS} s (a chat may "
        "still be using it)",
        f"即使会话在最近 {IN_USE_SECONDS} 秒内用过（可能还有对话在用）也删除"))


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
        raise StoreError(tell("the session name is empty: give --session a name such "
                              "as alice",
                              "会话名为空：请给 --session 一个名字，比如 alice"))
    strategy = memory_name
    if store.has_session(name):
        strategy = store.session(name).strategy
        if strategy != memory_name:
            say(tell(f"Session {name!r} was created with --memory {strategy}: "
                     f"using {strategy}, not {memory_name} (start a new session to "
                     "switch).", f"会话 {name!r} 创建时用的是 --memory {strategy}："
                     f"继续用 {strategy}，不用 {memory_name}（要换策略请新建会话）。"))
        if strategy not in factories or strategy == "none":
            raise StoreError(offered_not(name, strategy, "open"))
    make = cast(Callable[[], ChatMemory], factories[strategy])  # "none" refused above
    return SessionManager(store, make, strategy).open(name)


def offered_not(name: str, strategy: str, verb: str) -> str:
    """The error for a session whose strategy the command line cannot rebuild."""
    return tell(f"session {name!r} uses the strategy {strategy!r}, which the command "
                f"line does not offer: {verb} it in Python",
                f"会话 {name!r} 用的策略 {strategy!r} 命令行不提供：请在 Python 里"
                + ("打开" if verb == "open" else "重建"))


def show(store: Store, name: str) -> None:
    info, state = store.session(name), store.summary(name)
    used = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(info.updated_at))
    print(tell(f"Session {printable(repr(name))}: strategy "
               f"{printable(info.strategy)}, {info.messages} messages, last used "
               f"{used}", f"会话 {printable(repr(name))}：策略 "
               f"{printable(info.strategy)}，{info.messages} 条消息，最近使用 {used}"))
    covered = state.covered_up_to if state else 0
    if state is None or state.text is None:
        print(tell("Summary: none yet", "摘要：还没有"))
    else:
        count = state.compression_count
        print(tell(f"Summary: version {state.version}, covers messages 1-{covered} "
                   f"({count} compression{'s' * (count != 1)})",
                   f"摘要：版本 {state.version}，覆盖第 1-{covered} 条消息"
                   f"（压缩 {count} 次）"))
        for line in state.text.splitlines():
            print(f"  {printable(line)}")
    last = info.messages
    first = max(covered, last - SHOWN_TAIL) + 1
    print(tell(f"Verbatim tail: messages {covered + 1}-{last}",
               f"原样保留的最近消息：第 {covered + 1}-{last} 条") if last > covered
          else tell("Verbatim tail: none", "原样保留的最近消息：没有"))
    if first > covered + 1:
        print(tell(f"  ({first - covered - 1:,} older messages of the tail not shown)",
                   f"  （较早的 {first - covered - 1:,} 条没有显示）"))
    for number, message in enumerate(store.messages(name, after=first - 1), first):
        role = message.role.value
        role = LABELS.get(role, role) if get_lang() == "zh" else role
        prefix = f"{number:>4}. [{role}] "
        print(prefix + printable(clip(message.preview(300), 100 - len(prefix))))


def rebuild(store: Store, name: str) -> None:
    from ..llm import LlmClient

    strategy = store.session(name).strategy
    # as chat makes them: in the command's language
    factory = memory_factories(LlmClient.from_env(), get_lang()).get(strategy)
    if factory is None or strategy == "none":
        raise StoreError(offered_not(name, strategy, "rebuild"))
    make = cast(Callable[[], ChatMemory], factory)
    before = store.summary(name)
    SessionManager(store, make, strategy).rebuild_summary(name)
    state = store.summary(name)
    if state is None or state == before:
        print(tell(f"Session {name!r} ({strategy}): nothing to rebuild, its turns "
                   "fit in the verbatim tail (or the strategy keeps no summary).",
                   f"会话 {name!r}（{strategy}）：没有可重建的，它的轮次都在原样保留的"
                   "最近消息里（或这种策略不保存摘要）。"))
    else:
        print(tell(f"Session {name!r}: summary rebuilt, version {state.version}, "
                   f"covers messages 1-{state.covered_up_to}.",
                   f"会话 {name!r}：摘要已重建，版本 {state.version}，覆盖第 "
                   f"1-{state.covered_up_to} 条消息。"))


def run(args: argparse.Namespace) -> int:
    """The `sessions` command; 1 with a one-line error on a bad database or name."""
    if args.action != "list" and not (args.name or "").strip():
        say_error(tell(f"`tinyagent sessions {args.action}` needs a session name",
                       f"`tinyagent sessions {args.action}` 需要一个会话名"))
        return 2
    try:
        if args.action != "list":
            check_name(args.name)
        with open_store(args.db, create=False) as store:  # looking creates nothing
            if args.action == "list":
                rows = store.sessions()
                print(tell(f"{len(rows)} session{'s' * (len(rows) != 1)} in "
                           f"{safe_url(args.db)}",
                           f"{safe_url(args.db)} 里有 {len(rows)} 个会话"))
                for row in rows:
                    used = time.strftime("%Y-%m-%d %H:%M", time.gmtime(row.updated_at))
                    print(f"  {printable(row.name):<20} {printable(row.strategy):<10} "
                          + tell(f"{row.messages:>6} messages  last used {used} UTC",
                                 f"{row.messages:>6} 条消息  最近使用 {used} UTC"))
            elif args.action == "show":
                show(store, args.name)
            elif args.action == "rebuild":
                rebuild(store, args.name)
            else:
                delete(store, args.name, args.force)
    except (StoreError, KeyError, ValueError) as error:
        text = error.args[0] if isinstance(error, KeyError) else str(error)
        say_error(printable(text))
        return 1
    return 0


def delete(store: Store, name: str, force: bool) -> None:
    """Delete a session, unless it was used so recently that a chat may hold it."""
    idle = store.clock() - store.session(name).updated_at
    if idle < IN_USE_SECONDS and not force:
        raise StoreError(tell(f"session {name!r} was used {idle:.0f} s ago and may be "
                              "open in a chat: end that chat first, or add --force",
                              f"会话 {name!r} 在 {idle:.0f} 秒前用过，可能还有对话"
                              "在用：请先结束那个对话，或加 --force"))
    store.delete_session(name)
    print(tell(f"Session {printable(repr(name))} deleted.",
               f"会话 {printable(repr(name))} 已删除。"))
