"""`tinyagent chat`: a REPL with the BitMall agent and a memory of your choice.

The terminal twin of notebooks 02-05 (and of 07 with `--session NAME --db FILE`,
which resumes a conversation after a restart). With standard input from a pipe it
reads one user message a line, so it can be scripted. In Chinese (`--lang zh`) the
prompts, help and errors are Chinese, the agent asks the Chinese BitMall store, and
the memories that summarize write Chinese summaries; `/memory` shows the memory and
its stats() with their keys as labels in the chat's language; `/undo` forgets the
newest turn (notebook 10's pop(); with --session, in the file too). Left out: colours,
readline history and multi-line messages.
"""

from __future__ import annotations

import sys

from ..agent import ReActAgent, TurnNotSavedError
from ..chat_model import LlmError
from ..lang import Pair, get_lang, say
from ..llm import LlmClient
from ..memory import ChatMemory
from ..messages import Role
from ..production.sessions import SessionDeletedError
from ..storage import StoreError
from ..tools import bitmall_tools
from .catalogue import memory_factories, print_memory
from .terminal import is_text, make_llm, say_error, say_waiting


def chat(memory_name: str, session: str | None = None,
         db: str = "tinyagent.db", lang: str | None = None) -> int:
    """The REPL over the BitMall store in `lang` (default: the setting)."""
    lang = get_lang(lang)
    if (llm := make_llm()) is None:
        return 2
    factories = memory_factories(llm, lang)
    memory = factories[memory_name]() if session is None else None
    interactive = sys.stdin.isatty()
    if interactive:
        print(llm.describe(lang))
        print(say(f"Memory: {memory_name}. Type /memory to see it, /help for help, "
                  "/quit to leave.", f"记忆：{memory_name}。输入 `/memory` 查看记忆，"
                  "`/help` 查看帮助，`/quit` 退出。", lang))
    if session is not None:  # notebook 09: each message is saved as it arrives
        from ..storage import open_store
        from .sessions_cli import open_session

        def note(text: str) -> None:
            print(text, file=sys.stderr)

        stored = open_session(open_store(db), session, memory_name, factories, note)
        memory = stored  # resumed from the file when the session exists
        if interactive:
            count = len(stored.transcript())
            print(say(f"Session {session!r}: {count} messages so far.",
                      f"会话 {session!r}：已有 {count} 条消息。", lang))
    # the store and the agent's prompt speak the chat's language, so its answers do
    agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=memory, verbose=False,
                       lang=lang)
    return converse(agent, llm, memory, lang, interactive)


def converse(agent: ReActAgent, llm: LlmClient, memory: ChatMemory | None,
             lang: str, interactive: bool) -> int:
    """Read a line, answer it, until the input ends; 1 if a turn was not saved."""
    you, clerk = PROMPTS.say(lang)
    unsaved = 0  # turns answered but not stored: the exit status says so
    while True:
        try:
            text = input(you if interactive else "")
        except EOFError:
            break
        command = text.strip()
        if not is_text(text):
            say_error(say("this line is not valid UTF-8 text, so it was skipped; save "
                          "the input as UTF-8", "这一行不是有效的 UTF-8 文本，已跳过；"
                          "请把输入保存为 UTF-8", lang))
            continue
        if not command:
            continue
        if command.lower() in LEAVE:
            break
        if command == "/memory":
            print_memory(memory, lang=lang)
            print(stats_line(memory, lang))
            continue
        if command == "/undo":
            undo(memory, lang)
            continue
        if command in {"/help", "/?"}:
            print(say(HELP, HELP_ZH, lang))
            continue
        if len(text) > MAX_LINE_CHARS:
            say_error(say(f"this line has {len(text):,} characters, over the "
                          f"{MAX_LINE_CHARS:,} a message may have, so it was "
                          "skipped; send a shorter one",
                          f"这一行有 {len(text):,} 个字符，超过一条消息最多的 "
                          f"{MAX_LINE_CHARS:,} 个，已跳过；请发短一些", lang))
            continue
        say_waiting(llm)
        try:
            answer = agent.run(text)
        except LlmError as exc:  # the turn failed; memory is unchanged: say so, go on
            say_error(exc)
            continue
        except TurnNotSavedError as exc:  # paid for: show it, then say it is not kept
            print(f"{clerk}{exc.answer}" if interactive else exc.answer, flush=True)
            if isinstance(exc.__cause__, SessionDeletedError):  # nothing is kept
                say_error(exc.__cause__)
                return 1
            say_error(say(f"{exc}; this turn is not remembered, earlier ones are kept",
                          f"{exc}；这一轮没有记住，之前的轮次都还在", lang))
            unsaved += 1
            continue
        print(f"{clerk}{answer}" if interactive else answer, flush=True)
    return 1 if unsaved else 0


def undo(memory: ChatMemory | None, lang: str) -> None:
    """/undo: forget the newest turn (the answer, then the question that asked it)."""
    if memory is None or not hasattr(memory, "pop"):
        say_error(say("this chat has no memory to undo: start it with --memory",
                      "这个对话没有记忆可以撤销：请用 --memory 启动", lang))
        return
    try:
        while (message := memory.pop()).role is not Role.USER:
            pass
    except (IndexError, StoreError) as exc:  # empty, folded into the summary, or
        say_error(exc)  # another writer changed the stored session: nothing undone
        return
    print(say(f"(undone: {message.preview(60)})", f"（已撤销：{message.preview(60)}）",
              lang), flush=True)


MAX_LINE_CHARS = 20_000  # a customer message; a longer line is refused, not stored
LEAVE = {"/quit", "/exit", "quit", "exit", "退出"}  # alone on a line: not a question
HELP = ("Type a question for the BitMall agent. /memory shows what it remembers; "
        "/undo forgets the last turn; /quit (or quit, exit, Ctrl-D) leaves.")
HELP_ZH = ("输入您想问 BitMall 客服的问题。`/memory` 显示它记住了什么；"
           "`/undo` 撤销上一轮；`/quit`（或 `quit`、`exit`、退出、`Ctrl-D`）离开。")
PROMPTS = Pair(("you> ", "agent> "), ("你> ", "客服> "))
# The memory's stats() keys stay identifiers; a person reads them as these labels.
STAT_LABELS = {"messages": "消息", "tokens": "token", "dropped": "已丢弃",
               "compressions": "压缩次数", "summarizer_calls": "摘要器调用",
               "summarizer_tokens": "摘要器 token", "fallbacks": "兜底摘要",
               "evicted": "摘要移出的条目"}  # summary lines and ids, not messages
def stats_line(memory: ChatMemory | None, lang: str) -> str:
    """The memory's stats() in one line, its keys as labels in `lang`."""
    stats = getattr(memory, "stats", dict)()
    if lang == "zh":
        return "统计：" + "，".join(f"{STAT_LABELS.get(k, k)} {v}"
                                   for k, v in stats.items())
    return "stats: " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                 for k, v in stats.items())
