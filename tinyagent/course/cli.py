"""The `tinyagent` command: demo, chat, compare, bench and sessions.

`tinyagent demo` replays the course in a terminal: the stateless failure, then the
six-turn hybrid-memory dialog of the original TinyAgent (notebook 05) with the memory
printed at the end. `tinyagent chat` is a REPL with a memory of your choice; with
standard input from a pipe it reads one user message a line, so it can be scripted;
`--session NAME --db FILE` resumes it after a restart (notebook 07). Each command is
the terminal twin of a notebook: demo of 01 and 05, compare of 06, bench of 03's
cost argument. `--timeout SECONDS` (or TINYAGENT_TIMEOUT) bounds a real model's wait;
closed pipes, Ctrl-C and bad input end in one line (terminal.py). Left out: colours
and readline history.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ..agent import ReActAgent, TurnNotSavedError
from ..llm import LlmClient, LlmError
from ..memory import HybridChatMemory
from ..production.sessions import SessionDeletedError
from ..settings import timeout_argument
from ..storage import StoreError
from ..tools import bitmall_tools
from .catalogue import SIX_TURNS, STRATEGIES, memory_factories, print_memory
from .terminal import is_text, run_guarded, say_error, say_waiting


def make_llm() -> LlmClient | None:
    """The model the environment chooses; None, after saying why, for a bad setting."""
    try:
        return LlmClient.from_env()
    except ValueError as exc:  # e.g. TINYAGENT_TIMEOUT=abc
        say_error(exc)
        return None


def demo(lang: str) -> int:
    if (llm := make_llm()) is None:
        return 2
    print(llm.describe())
    try:
        run_demo(llm, SIX_TURNS[lang], lang)
    except LlmError as exc:  # as chat does: one line, not a traceback
        say_error(exc)
        return 1
    return 0


DEMO_LINES = {  # the demo's own lines, in the language of its dialog
    "en": ("== 1. No memory: every run() starts from scratch ==",
           "== 2. Hybrid memory (recent_size=6, summary_threshold=10) ==",
           "  memory: compression {0}: older turns folded into the summary, {1} "
           "messages held now", "== Memory after six turns =="),
    "zh": ("== 1. 没有记忆：每次 run() 都从零开始 ==",
           "== 2. 混合记忆（recent_size=6，summary_threshold=10）==",
           "  记忆：第 {0} 次压缩，较早的轮次并入摘要，现存 {1} 条消息",
           "== 六轮之后的记忆 =="),
}


def run_demo(llm: LlmClient, turns: list[str], lang: str = "en") -> None:
    """Play `turns` without and with memory, over the store in `lang`."""
    stateless, hybrid, compressed, after = DEMO_LINES[lang]
    print(f"\n{stateless}")
    agent = ReActAgent(llm, bitmall_tools(lang=lang), labels=lang)
    for text in turns[:2]:
        say_waiting(llm)
        agent.run(text)
        print()
    print(hybrid)
    # notebook 05's sizes: this part replays that notebook's six turns
    # A Chinese dialog: the summarizer's prompt and the summary's fence in Chinese too
    memory = HybridChatMemory(llm, recent_size=6, summary_threshold=10, lang=lang)
    agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=memory, labels=lang)
    compressions = 0
    for text in turns:
        say_waiting(llm)
        agent.run(text)
        if getattr(memory, "compression_count", 0) > compressions:
            compressions = getattr(memory, "compression_count", 0)
            print(compressed.format(compressions, len(memory.messages())))
        print()
    print(after)
    print_memory(memory, lang=lang)


MAX_LINE_CHARS = 20_000  # a customer message; a longer line is refused, not stored
LEAVE = {"/quit", "/exit", "quit", "exit"}  # said alone on a line: not a question
HELP = ("Type a question for the BitMall agent. /memory shows what it remembers; "
        "/quit (or quit, exit, Ctrl-D) leaves.")


def chat(memory_name: str, session: str | None = None,
         db: str = "tinyagent.db") -> int:
    if (llm := make_llm()) is None:
        return 2
    factory = memory_factories(llm)[memory_name]
    memory = factory() if session is None else None
    interactive = sys.stdin.isatty()
    if interactive:
        print(llm.describe())
        print(f"Memory: {memory_name}. Type /memory to see it, /help for help, "
              "/quit to leave.")
    if session is not None:  # notebook 07: each message is saved as it arrives
        from ..storage import open_store
        from .sessions_cli import open_session

        def note(text: str) -> None:
            print(text, file=sys.stderr)

        stored = open_session(open_store(db), session, memory_name,
                              memory_factories(llm), note)
        memory = stored  # resumed from the file when the session exists
        if interactive:
            print(f"Session {session!r}: {len(stored.transcript())} messages so far.")
    agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    unsaved = 0  # turns answered but not stored: the exit status says so
    while True:
        try:
            text = input("you> " if interactive else "")
        except EOFError:
            break
        if not is_text(text):
            say_error("this line is not valid UTF-8 text, so it was skipped; save "
                      "the input as UTF-8")
            continue
        if not text.strip():
            continue
        if text.strip().lower() in LEAVE:
            break
        if text.strip() == "/memory":
            print_memory(memory)
            continue
        if text.strip() in {"/help", "/?"}:
            print(HELP)
            continue
        if len(text) > MAX_LINE_CHARS:
            say_error(f"this line has {len(text):,} characters, over the "
                      f"{MAX_LINE_CHARS:,} a message may have, so it was skipped; "
                      "send a shorter one")
            continue
        say_waiting(llm)
        try:
            answer = agent.run(text)
        except LlmError as exc:  # the turn failed; memory is unchanged: say so, go on
            say_error(exc)
            continue
        except TurnNotSavedError as exc:  # paid for: show it, then say it is not kept
            print(f"agent> {exc.answer}" if interactive else exc.answer, flush=True)
            if isinstance(exc.__cause__, SessionDeletedError):  # nothing is kept
                say_error(exc.__cause__)
                return 1
            say_error(f"{exc}; this turn is not remembered, earlier ones are kept")
            unsaved += 1
            continue
        print(f"agent> {answer}" if interactive else answer, flush=True)
    return 1 if unsaved else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "timeout", None) is not None:  # every from_env() then sees it
        os.environ["TINYAGENT_TIMEOUT"] = repr(args.timeout)
    return run_guarded(lambda: run_command(parser, args))


def build_parser() -> argparse.ArgumentParser:
    """The command line: a subparser a command; model options shared by `model`."""
    parser = argparse.ArgumentParser(prog="tinyagent",
                                     description=__doc__.split("\n")[0])
    model = argparse.ArgumentParser(add_help=False)
    model.add_argument("--timeout", metavar="SECONDS", type=timeout_argument,
                       help="wait at most this long for each attempt of a model call "
                       "(default 60, or TINYAGENT_TIMEOUT)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("demo", parents=[model],
                       help="the stateless failure, then the six-turn hybrid demo")
    p.add_argument("--lang", choices=sorted(SIX_TURNS), default="en",
                   help="the language of the demo's dialog and store (default: en)")
    p = sub.add_parser("chat", parents=[model], help="talk to the BitMall agent")
    p.add_argument("--memory", default="inmemory", choices=list(STRATEGIES),
                   help="the memory strategy (default: inmemory)")
    p.add_argument("--session", metavar="NAME",
                   help="save the conversation under NAME and resume it next time")
    p.add_argument("--db", metavar="URL", default="tinyagent.db",
                   help="the SQLite file or postgresql:// URL that holds the "
                   "sessions (with --session)")
    sub.add_parser("bench",
                   help="per-turn memory cost at 10 / 1,000 / 10,000 messages")
    from . import compare_cli  # owns its options: --script, --strategies, --lang, ...

    compare_cli.add_arguments(sub.add_parser("compare", parents=[model],
                                         help="every strategy on one script"))
    from . import sessions_cli

    sessions_cli.add_arguments(sub.add_parser("sessions", help="list, show, rebuild "
                                              "or delete stored sessions"))
    return parser


def run_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.command == "sessions":
        from . import sessions_cli

        return sessions_cli.run(args)
    if args.command == "demo":
        return demo(args.lang)
    if args.command == "chat":
        if args.session is not None and args.memory == "none":
            parser.error("--session needs a memory: choose --memory other than none")
        try:
            return chat(args.memory, args.session, args.db)
        except StoreError as exc:  # a bad --db or session name: one line, no traceback
            say_error(exc)
            return 1
    if args.command == "compare":
        from . import compare_cli

        return compare_cli.run(args)
    from .bench import main as bench_main

    return bench_main()


if __name__ == "__main__":
    sys.exit(main())
