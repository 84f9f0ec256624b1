"""The `tinyagent` command: demo, chat, compare, bench, sessions and grade.

`tinyagent demo` replays the course in a terminal: the stateless failure, then the
six-turn hybrid-memory dialog of the original TinyAgent (notebook 05) with the memory
printed at the end. `tinyagent chat` is a REPL with a memory of your choice; with
standard input from a pipe it reads one user message a line, so it can be scripted;
`--session NAME --db FILE` resumes it after a restart (notebook 09). Each command is
the terminal twin of a notebook: demo of 01 and 05, compare of 06, bench of 03's
cost argument, grade of 09's memory test kit. `--timeout SECONDS` (or
TINYAGENT_TIMEOUT) bounds a real model's wait; closed pipes, Ctrl-C and bad input
end in one line (terminal.py). `--lang zh` (or TINYAGENT_LANG=zh) makes every
command Chinese: its help (`build_parser`, with cli_args.py's Parser), prompts,
banners and errors, and the BitMall store the agent asks, so answers are Chinese
too. Left out: colours and readline history.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence

from ..agent import ReActAgent
from ..chat_model import LlmError
from ..lang import Pair, get_lang, say, speaking
from ..llm import LlmClient
from ..memory import HybridChatMemory
from ..settings import timeout_argument
from ..storage import StoreError
from ..tools import bitmall_tools
from . import compare_cli, memory_kit_cli, sessions_cli
from .catalogue import SIX_TURNS, STRATEGIES, memory_factories, print_memory
from .chat_cli import HELP, LEAVE, MAX_LINE_CHARS, chat
from .cli_args import Parser, chosen_lang, lang_option
from .terminal import make_llm, run_guarded, say_error, say_waiting


def demo(lang: str | None = None) -> int:
    lang = get_lang(lang)
    if (llm := make_llm()) is None:
        return 2
    print(llm.describe(lang))
    try:
        run_demo(llm, SIX_TURNS[lang], lang)
    except LlmError as exc:  # as chat does: one line, not a traceback
        say_error(exc)
        return 1
    return 0


DEMO_LINES = Pair(  # the demo's own lines, in the language of its dialog
    ("== 1. No memory: every run() starts from scratch ==",
     "== 2. Hybrid memory (recent_size=6, summary_threshold=10) ==",
     "  memory: compression {0}: older turns folded into the summary, {1} "
     "messages held now", "== Memory after six turns =="),
    ("== 1. 没有记忆：每次 run() 都从零开始 ==",
     "== 2. 混合记忆（recent_size=6，summary_threshold=10）==",
     "  记忆：第 {0} 次压缩，较早的轮次并入摘要，现存 {1} 条消息",
     "== 六轮之后的记忆 =="))


def run_demo(llm: LlmClient, turns: list[str], lang: str = "en") -> None:
    """Play `turns` without and with memory, over the store in `lang`."""
    stateless, hybrid, compressed, after = DEMO_LINES.say(lang)
    print(f"\n{stateless}")
    agent = ReActAgent(llm, bitmall_tools(lang=lang), lang=lang)
    for text in turns[:2]:
        say_waiting(llm)
        agent.run(text)
        print()
    print(hybrid)
    # notebook 05's sizes: this part replays that notebook's six turns
    # A Chinese dialog: the summarizer's prompt and the summary's fence in Chinese too
    memory = HybridChatMemory(llm, recent_size=6, summary_threshold=10, lang=lang)
    agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=memory, lang=lang)
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


def build_parser(lang: str | None = None) -> Parser:
    """The command line in `lang` (default: the setting): a subparser a command,
    model options shared by `model`, --lang on every command."""
    lang = get_lang(lang)

    def text(en: str, zh: str) -> str:
        return say(en, zh, lang)

    parser = Parser(prog="tinyagent", lang=lang, description=text(
        "The `tinyagent` command: demo, chat, compare, bench, sessions and grade.",
        "`tinyagent` 命令：demo、chat、compare、bench、sessions 和 grade，"
        "每个都是某一课在终端里的版本。"))
    lang_option(parser, lang)
    common = Parser(add_help=False, lang=lang)
    lang_option(common, lang)
    model = Parser(add_help=False, lang=lang)
    model.add_argument("--timeout", metavar="SECONDS", type=timeout_argument,
                       help=text("wait at most this long for each attempt of a model "
                                 "call (default 60, or TINYAGENT_TIMEOUT)",
                                 "每次调用模型最多等待的秒数（默认 60，或 "
                                 "TINYAGENT_TIMEOUT）"))
    sub = parser.add_subparsers(
        dest="command", required=True, title=text("commands", "命令"),
        metavar="{demo,chat,bench,compare,sessions,grade}",
        parser_class=functools.partial(Parser, lang=lang))
    sub.add_parser("demo", parents=[model, common], help=text(
        "the stateless failure, then the six-turn hybrid demo",
        "先看没有记忆的失败，再看六轮混合记忆演示"))
    p = sub.add_parser("chat", parents=[model, common], help=text(
        "talk to the BitMall agent", "和比特严选客服对话"))
    p.add_argument("--memory", default="inmemory", choices=list(STRATEGIES),
                   help=text("the memory strategy (default: inmemory)",
                             "记忆策略（默认：inmemory）"))
    p.add_argument("--session", metavar="NAME", help=text(
        "save the conversation under NAME and resume it next time",
        "把对话保存为会话 NAME，下次接着聊"))
    p.add_argument("--db", metavar="URL", default="tinyagent.db", help=text(
        "the SQLite file or postgresql:// URL that holds the sessions (with "
        "--session)",
        "保存会话的 SQLite 文件或 `postgresql://` 地址（配合 --session）"))
    sub.add_parser("bench", parents=[common], help=text(
        "per-turn memory cost at 10 / 1,000 / 10,000 messages",
        "记忆在 10 / 1,000 / 10,000 条消息时每轮的开销"))
    compare_cli.add_arguments(sub.add_parser("compare", parents=[model, common],
                                             help=text("every strategy on one script",
                                                       "同一段对话上比较每种策略")),
                              lang)
    sessions_cli.add_arguments(sub.add_parser("sessions", parents=[common], help=text(
        "list, show, rebuild or delete stored sessions",
        "列出、查看、重建或删除保存的会话")), lang)
    memory_kit_cli.add_arguments(sub.add_parser("grade", parents=[common], help=text(
        "grade memories and Agents SDK sessions on the planted dialog",
        "在埋入事实的对话上给记忆和 SDK 会话打分")), lang)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The `tinyagent` command. --lang sets the package language while it runs."""
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = chosen_lang(argv)
    # so help, prompts, errors and memories all speak it; main(argv) called from
    # Python leaves the setting as it was
    with speaking(lang):
        parser = build_parser(lang)
        args = parser.parse_args(argv)
        if getattr(args, "timeout", None) is not None:  # every from_env() sees it
            os.environ["TINYAGENT_TIMEOUT"] = repr(args.timeout)
        return run_guarded(lambda: run_command(parser, args))


def run_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.command == "sessions":
        return sessions_cli.run(args)
    if args.command == "demo":
        return demo(args.lang)
    if args.command == "chat":
        if args.session is not None and args.memory == "none":
            parser.error(say("--session needs a memory: choose --memory other than "
                             "none", "--session 需要记忆：请选 none 以外的 --memory"))
        try:
            return chat(args.memory, args.session, args.db, args.lang)
        except StoreError as exc:  # a bad --db or session name: one line, no traceback
            say_error(exc)
            return 1
    if args.command == "compare":
        return compare_cli.run(args)
    if args.command == "grade":  # notebook 10's memory test kit
        from . import memory_kit_cli

        return memory_kit_cli.run(args)
    from .bench import main as bench_main

    return bench_main()


__all__ = ["DEMO_LINES", "HELP", "LEAVE", "MAX_LINE_CHARS", "build_parser", "chat",
           "demo", "main", "memory_factories", "run_demo"]

if __name__ == "__main__":
    sys.exit(main())
