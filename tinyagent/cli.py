"""The `tinyagent` command: demo, chat, compare and bench.

`tinyagent demo` replays the course in a terminal: the stateless failure, then the
six-turn hybrid-memory dialog of the original TinyAgent (SPEC §7) with the memory
printed at the end. `tinyagent chat` is a REPL with a memory of your choice; with
standard input from a pipe it reads one user message a line, so it can be scripted;
`--session NAME --db FILE` resumes it after a restart (notebook 07). Each command is
the terminal twin of a notebook: demo of 01 and 05, compare of 06, bench of 03's
cost argument. Left out: colours and readline history.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .agent import ReActAgent
from .llm import LlmClient, LlmError
from .memory.base import ChatMemory
from .messages import clip
from .tools import bitmall_tools

SIX_TURNS = {
    "en": ["Where is my order 88231?",
           "I want a refund, this vacuum won't go back to its dock",
           "How long until the refund arrives?",
           "Do you have any new robot vacuums to recommend?",
           "How much is the S20 Pro?",
           "By the way, what was that refund number again?"],
    "zh": ["帮我查一下订单 88231 的物流到哪了",
           "那我要退款呢，这个扫地机不回充了",
           "退款多久到账？",
           "你们有没有新款扫地机推荐一下",
           "S20 Pro 多少钱",
           "对了，刚才那个退款编号是多少来着"],
}


def memory_factories(llm: LlmClient) -> dict[str, Callable[[], ChatMemory | None]]:
    """Each strategy by its command-line name, with the sizes BitMall uses (SPEC §7)."""
    from . import memory as m
    from .production import IncrementalSummaryMemory

    return {
        "none": lambda: None,
        "inmemory": m.InMemoryChatMemory,
        "window": lambda: m.SlidingWindowChatMemory(max_messages=10),
        "tokens": lambda: m.TokenWindowChatMemory(max_tokens=1000),
        "summary": lambda: m.SummaryChatMemory(llm, threshold=10, keep_recent=4),
        "hybrid": lambda: m.HybridChatMemory(llm, recent_size=6, summary_threshold=10),
        "structured": lambda: IncrementalSummaryMemory(llm),  # notebook 07
    }


def print_memory(memory: ChatMemory | None, width: int = 80) -> None:
    """The memory, one line a message, cut at `width` characters (as TinyAgent does)."""
    if memory is None:
        print("(no memory)")
        return
    from .memory.summarizer import SUMMARY_FOOTER, SUMMARY_HEADER

    for i, message in enumerate(memory.messages(), 1):
        label, text = message.role.value, message.preview(10**6)
        if text.startswith(SUMMARY_HEADER):  # show the summary, not its fence
            label = "summary"
            text = text.removeprefix(SUMMARY_HEADER).removesuffix(SUMMARY_FOOTER)
        prefix = f"{i:>2}. [{label}] "
        print(prefix + clip(text, width - len(prefix)))


def demo(lang: str) -> int:
    llm = LlmClient.from_env()
    print(llm.describe())
    turns = SIX_TURNS[lang]
    print("\n== 1. No memory: every run() starts from scratch ==")
    agent = ReActAgent(llm, bitmall_tools())
    for text in turns[:2]:
        agent.run(text)
        print()
    print("== 2. Hybrid memory (recent_size=6, summary_threshold=10) ==")
    memory = memory_factories(llm)["hybrid"]()
    agent = ReActAgent(llm, bitmall_tools(), memory=memory)
    for text in turns:
        agent.run(text)
        print()
    print("== Memory after six turns ==")
    print_memory(memory)
    return 0


def chat(memory_name: str, session: str | None = None,
         db: str = "tinyagent.db") -> int:
    llm = LlmClient.from_env()
    factory = memory_factories(llm)[memory_name]
    memory = factory() if session is None else None
    interactive = sys.stdin.isatty()
    if interactive:
        print(llm.describe())
        print(f"Memory: {memory_name}. Type /memory to see it, /quit to leave.")
    if session is not None:  # notebook 07: each message is saved as it arrives
        from .sessions_cli import open_session
        from .storage import open_store

        def note(text: str) -> None:
            print(text, file=sys.stderr)

        stored = open_session(open_store(db), session, memory_name,
                              memory_factories(llm), note)
        memory = stored  # resumed from the file when the session exists
        if interactive:
            print(f"Session {session!r}: {len(stored.transcript())} messages so far.")
    agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    while True:
        try:
            text = input("you> " if interactive else "")
        except EOFError:
            return 0
        if not text.strip():
            continue
        if text.strip() in {"/quit", "/exit"}:
            return 0
        if text.strip() == "/memory":
            print_memory(memory)
            continue
        try:
            answer = agent.run(text)
        except LlmError as exc:  # the turn failed; memory is unchanged: say so, go on
            print(f"error: {exc}", file=sys.stderr)
            continue
        print(f"agent> {answer}" if interactive else answer)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tinyagent",
                                     description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("demo",
                       help="the stateless failure, then the six-turn hybrid demo")
    p.add_argument("--lang", choices=sorted(SIX_TURNS), default="en")
    p = sub.add_parser("chat", help="talk to the BitMall agent")
    p.add_argument("--memory", default="inmemory",
                   choices=["none", "inmemory", "window", "tokens", "summary",
                            "hybrid", "structured"])
    p.add_argument("--session", metavar="NAME",
                   help="save the conversation under NAME and resume it next time")
    p.add_argument("--db", metavar="URL", default="tinyagent.db",
                   help="the SQLite file or postgresql:// URL that holds the "
                   "sessions (with --session)")
    sub.add_parser("bench",
                   help="per-turn memory cost at 10 / 1,000 / 10,000 messages")
    from . import compare  # owns its options: --script, --strategies, --lang, ...

    compare.add_arguments(sub.add_parser("compare",
                                         help="every strategy on one script"))
    from . import sessions_cli

    sessions_cli.add_arguments(sub.add_parser("sessions", help="list, show, rebuild "
                                              "or delete stored sessions"))
    args = parser.parse_args(argv)
    if args.command == "sessions":
        return sessions_cli.run(args)
    if args.command == "demo":
        return demo(args.lang)
    if args.command == "chat":
        if args.session is not None and args.memory == "none":
            parser.error("--session needs a memory: choose --memory other than none")
        return chat(args.memory, args.session, args.db)
    if args.command == "compare":
        return compare.run(args)
    from .bench import main as bench_main

    return bench_main()


if __name__ == "__main__":
    sys.exit(main())
