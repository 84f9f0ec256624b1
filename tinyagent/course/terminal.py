"""Running a command in a terminal that misbehaves: closed pipes, Ctrl-C, odd bytes.

Used by the `tinyagent` command (cli.py), the terminal twin of the notebooks. A
learner pipes the demo into `head`, presses Ctrl-C mid-answer, or feeds a file that is
not UTF-8; each ends with one line on standard error and a shell-style exit status,
never a Python traceback. What a turn already committed stays committed: the agent
writes a turn to memory only when it ends. Its lines are in the package's language
(`--lang zh` sets it). Left out: Windows console code pages and readline history.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..lang import say

if TYPE_CHECKING:
    from ..llm import LlmClient

EXIT_FAILED = 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT: what a shell reports after Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader (head, less) went away


def say_error(message: object, *, new_line: bool = False) -> None:
    """One line on standard error, if there is one (on a line of its own)."""
    if sys.stderr is not None:
        try:
            print("\n" * new_line + say("error: ", "错误：") + str(message),
                  file=sys.stderr, flush=True)
        except OSError:  # stderr closed or gone too: nothing left to tell
            pass


def make_llm() -> LlmClient | None:
    """The model the environment chooses; None, after saying why, for a bad setting."""
    from ..llm import LlmClient

    try:
        return LlmClient.from_env()
    except ValueError as exc:  # e.g. TINYAGENT_TIMEOUT=abc
        say_error(exc)
        return None


def say_waiting(llm: LlmClient) -> None:
    """Before a turn of a real model, tell a person watching how long it may take
    (timeout x attempts, plus back-off): a slow model is never a silent one."""
    if not llm.offline and sys.stderr is not None and sys.stderr.isatty():
        print(say(f"(waiting for {llm.model}: at most {llm.max_wait:.0f}s a call)",
                  f"（等待 {llm.model}：每次调用最多 {llm.max_wait:.0f} 秒）"),
              file=sys.stderr, flush=True)


def run_guarded(command: Callable[[], int]) -> int:
    """`command()`'s exit status, or the status of the way the terminal ended it."""
    if sys.stdout is None or sys.stdout.closed:
        # Started with `>&-`: answers would go nowhere (or into a file that took fd 1).
        say_error(say("standard output is closed; give the command somewhere to "
                      "write, e.g. `tinyagent chat > answers.txt`",
                      "标准输出已关闭：请给命令一个输出的地方，比如 "
                      "`tinyagent chat > answers.txt`"))
        return EXIT_FAILED
    prepare_streams()
    try:
        status = command()
        sys.stdout.flush()  # here, not at exit, where a closed pipe cannot be caught
        return status
    except KeyboardInterrupt:
        # new_line: the prompt or a half-written answer may hold the cursor
        say_error(say("interrupted; the turns answered before Ctrl-C are kept",
                      "已中断：按 Ctrl-C 之前回答过的轮次都保留着"), new_line=True)
        return EXIT_INTERRUPTED
    except OSError as exc:
        if exc.errno in (errno.EPIPE, errno.EBADF):
            mute_stdout()  # so the interpreter's last flush does not fail again
            return EXIT_BROKEN_PIPE
        return unexpected(exc)
    except Exception as exc:  # the commands catch what they expect; this is the net
        return unexpected(exc)


def unexpected(exc: Exception) -> int:
    """One line for an error no command expected; TINYAGENT_DEBUG=1 shows it whole."""
    if os.environ.get("TINYAGENT_DEBUG", "").strip() in {"1", "true", "yes"}:
        raise exc
    text = " ".join(str(exc).split())[:200]
    say_error(f"{type(exc).__name__}: {text} " + say(
        "(run again with TINYAGENT_DEBUG=1 to see where)",
        "（用 TINYAGENT_DEBUG=1 再运行一次，可以看到出错的位置）"))
    return EXIT_FAILED


def prepare_streams() -> None:
    """Read any bytes from stdin, and write any text to stdout, without crashing.

    Bytes that are not UTF-8 arrive as surrogates (and `is_text` rejects the line);
    a character the terminal's encoding lacks is printed as "?".
    """
    if sys.stdin is None:  # started with `<&-`: no input is an empty input
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (for the process)
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="surrogateescape")
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and encoding != "utf8":
        reconfigure(errors="replace")


def is_text(line: str) -> bool:
    """Whether `line` is valid text (it was valid UTF-8 when read)."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def mute_stdout() -> None:
    """Point stdout at /dev/null (the recipe of Python's signal documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout
        pass
