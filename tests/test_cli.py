"""The `tinyagent` command: demo, chat, bench and --help (offline, in-process)."""

import functools
import io
import re
import sqlite3
import subprocess
import sys
import time

import pytest
from fake_server import (
    Reply,
    call,
    completion,
    fake_server_fixture,  # noqa: F401  (the fixture)
)

import tinyagent.course.bench
from tinyagent.course.catalogue import SIX_TURNS
from tinyagent.course.cli import DEMO_LINES, main
from tinyagent.memory import InMemoryChatMemory

REFUND = "RF20260701001"
# The offline clerk's question when it does not know which order is meant.
WHICH_ORDER = {"en": "Which order do you mean?", "zh": "请问是哪个订单？"}


def run_cli(argv, capsys):
    """main(argv) and what it printed: (exit status, stdout)."""
    status = main(argv)
    return status, capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_demo_shows_the_stateless_failure_then_the_six_turns_then_the_memory(
        lang, capsys):
    """`demo` exits 0 and prints three sections: without memory turn 2 is asked
    "which order?"; with hybrid memory the six turns in order, turn 2 no longer
    asked, a line when the memory compresses, and turn 6 answered with the refund
    number; then the memory, one numbered line a message."""
    status, out = run_cli(["demo"] if lang == "en" else ["demo", "--lang", lang],
                          capsys)
    assert status == 0
    user, agent = ("User: ", "Agent: ") if lang == "en" else ("[用户] ", "[回复] ")
    stateless, hybrid, memory = re.split(r"^== ", out, flags=re.M)[1:]
    turns = SIX_TURNS[lang]
    headings = DEMO_LINES.say(lang)
    assert stateless.startswith(headings[0].removeprefix("== "))
    asked = [line[len(user):] for line in stateless.splitlines()
             if line.startswith(user)]
    assert asked == turns[:2]
    assert stateless.index(f"{user}{turns[1]}") < stateless.index(
        f"{agent}{WHICH_ORDER[lang]}")
    assert hybrid.startswith(headings[1].removeprefix("== "))
    asked = [line[len(user):] for line in hybrid.splitlines()
             if line.startswith(user)]
    assert asked == turns
    assert f"{agent}{WHICH_ORDER[lang]}" not in hybrid
    assert headings[2].format(1, 7) in hybrid
    assert REFUND in hybrid[hybrid.index(f"{user}{turns[5]}"):]
    assert memory.startswith(headings[3].removeprefix("== "))
    lines = memory.splitlines()[1:]
    assert [line[1:3] for line in lines] == [f"{i:>2}" for i in
                                             range(1, len(lines) + 1)]
    summary = "摘要" if lang == "zh" else "summary"  # labels in the demo's language
    assert len(lines) == 9 and lines[0].startswith(f"★ 1  {summary}")  # + turns 3-6


def test_the_demo_prints_the_same_twice(capsys):
    """The demo is deterministic: two runs print exactly the same."""
    assert run_cli(["demo"], capsys) == run_cli(["demo"], capsys)


def chat_over_stdin(memory, lines, monkeypatch, capsys):
    """`chat --memory <memory>` reading `lines` from a pipe (not a terminal)."""
    stdin = io.StringIO("".join(f"{line}\n" for line in lines))
    assert not stdin.isatty()
    monkeypatch.setattr("sys.stdin", stdin)
    return run_cli(["chat", "--memory", memory], capsys)


def test_chat_from_a_pipe_answers_each_line_and_remembers(monkeypatch, capsys):
    """Piped input: one answer a line, no prompt or banner, exit 0 at EOF; with
    hybrid memory the second line's refund is for the order named in the first."""
    status, out = chat_over_stdin("hybrid", SIX_TURNS["en"][:2], monkeypatch, capsys)
    assert status == 0
    first, second = out.splitlines()
    assert "88231" in first and "delivered" in first
    assert "refund" in second and "order 88231" in second and REFUND in second


def test_chat_without_memory_forgets_the_order(monkeypatch, capsys):
    """`--memory none`: the second line is answered without the first, so the clerk
    asks which order instead of refunding."""
    status, out = chat_over_stdin("none", SIX_TURNS["en"][:2], monkeypatch, capsys)
    assert status == 0
    first, second = out.splitlines()
    assert "88231" in first
    assert second.startswith(WHICH_ORDER["en"]) and REFUND not in out


def test_bench_prints_a_ratio_for_every_strategy(monkeypatch, capsys):
    """`bench` (made small here: 10 and 100 messages, 50 adds, one run) prints a
    row per strategy: cost at each size, then the ratio largest / smallest."""
    monkeypatch.setattr(tinyagent.course.bench, "SIZES", (10, 100))
    monkeypatch.setattr(tinyagent.course.bench, "main",
                        functools.partial(tinyagent.course.bench.main, adds=50,
                                          repeats=1, calls=3))
    status, out = run_cli(["bench"], capsys)
    assert status == 0  # a benchmark reports; above the bar is no failure
    rows = {m["name"]: float(m["ratio"]) for m in re.finditer(
        r"^(?P<name>[a-z -]+?) +\d+\.\d\d +\d+\.\d\d +(?P<ratio>\d+\.\d\d)$", out,
        flags=re.M)}
    assert set(rows) == {"in-memory", "window", "token window", "summary", "hybrid"}
    assert all(ratio > 0 for ratio in rows.values())
    assert "100/10" in out
    assert re.search(r"through the openai SDK \(2 messages\) +\d+\.\d\d", out)


def test_help_lists_every_command(capsys):
    """--help exits 0 and names demo, chat, compare and bench."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ["demo", "chat", "compare", "bench"]:
        assert re.search(rf"^\s+{command}\s", out, flags=re.M), command


# -- hardening: bad replies, slow models, broken terminals, unsaved turns

def use_server(monkeypatch, server, tmp_path):
    """The CLI's model is the fake server, with no retries and no .env."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TINYAGENT_OFFLINE")
    monkeypatch.delenv("TINYAGENT_TIMEOUT", raising=False)
    for name, value in [("API_KEY", "sk-cli-test-key"), ("API_URL", server.url),
                        ("MODEL", "fake"), ("MAX_RETRIES", "0")]:
        monkeypatch.setenv(f"TINYAGENT_{name}", value)


def test_demo_with_a_failing_model_ends_in_one_line(fake_server, monkeypatch,
                                                    tmp_path, capsys):
    """`demo` catches LlmError as chat does: one error line, exit 1."""
    use_server(monkeypatch, fake_server, tmp_path)
    fake_server.script = [Reply(completion(None, [call(call_id=None)]))]
    assert main(["demo"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "has no id" in err


def test_chat_survives_a_bad_reply_and_goes_on(fake_server, monkeypatch, tmp_path,
                                               capsys):
    """A reply with function: null costs its line (an error) but not the rest."""
    use_server(monkeypatch, fake_server, tmp_path)
    fake_server.script = [Reply(completion(None, [{"id": "c", "function": None}])),
                          Reply(completion("Second answer."))]
    monkeypatch.setattr("sys.stdin", io.StringIO("first\nsecond\n"))
    assert main(["chat"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Second answer.\n" and "no 'function'" in captured.err


def test_timeout_flag_bounds_a_slow_model(fake_server, monkeypatch, tmp_path,
                                          capsys):
    """`chat --timeout 0.2` against a 3 s model: an error naming the timeout after
    about 0.2 s, and the chat goes on."""
    use_server(monkeypatch, fake_server, tmp_path)
    fake_server.script = [Reply(completion(), delay=3)]
    monkeypatch.setattr("sys.stdin", io.StringIO("Where is my order 88231?\n"))
    started = time.monotonic()
    assert main(["chat", "--timeout", "0.2"]) == 0
    assert time.monotonic() - started < 2
    assert "timed out after 0.2s" in capsys.readouterr().err


@pytest.mark.parametrize("argv,env,text", [
    (["demo", "--timeout", "nan"], None, "--timeout must be a number of seconds"),
    (["demo", "--timeout", "-1"], None, "--timeout must be a number of seconds"),
    (["demo"], "abc", "TINYAGENT_TIMEOUT must be a number of seconds"),
    (["demo"], "inf", "TINYAGENT_TIMEOUT must be a number of seconds"),
])
def test_a_bad_timeout_is_one_clear_line(argv, env, text, monkeypatch, capsys):
    """A bad --timeout or TINYAGENT_TIMEOUT: exit 2 and one line naming it."""
    monkeypatch.delenv("TINYAGENT_TIMEOUT", raising=False)
    if env is not None:
        monkeypatch.setenv("TINYAGENT_TIMEOUT", env)
    try:
        status = main(argv)
    except SystemExit as exit_info:  # argparse's own exit for a bad option
        status = exit_info.code
    assert status == 2 and text in capsys.readouterr().err


class InterruptedStdin(io.StringIO):
    """Piped lines, then Ctrl-C at the prompt."""

    def readline(self, *args):
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_at_the_prompt_ends_quietly_and_keeps_the_turns(monkeypatch, capsys,
                                                               tmp_path):
    """Ctrl-C: exit 130, one line, and the turn answered before it stays saved."""
    from tinyagent.storage import SqliteStore

    db = tmp_path / "chat.db"
    monkeypatch.setattr("sys.stdin", InterruptedStdin("Where is my order 88231?\n"))
    status = main(["chat", "--session", "s", "--db", str(db)])
    captured = capsys.readouterr()
    assert status == 130 and "88231" in captured.out
    assert captured.err.strip() == ("error: interrupted; the turns answered before "
                                    "Ctrl-C are kept")
    assert len(SqliteStore(db).messages("s")) == 2


def test_ctrl_c_during_a_turn_ends_quietly(monkeypatch, capsys):
    """Ctrl-C while the agent works: exit 130, no traceback."""
    def interrupted(self, text):
        raise KeyboardInterrupt
    monkeypatch.setattr("tinyagent.course.cli.ReActAgent.run", interrupted)
    status, _ = chat_over_stdin("inmemory", ["hello"], monkeypatch, capsys)
    assert status == 130


def test_invalid_utf8_on_stdin_skips_that_line_only(monkeypatch, capsys):
    """Under a strict UTF-8 stdin, a line of bad bytes gets one error line; the
    lines around it are answered."""
    raw = b"Where is my order 88231?\n\xff\xfe broken\nHow much is the S20 Pro?\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw), "utf-8",
                                                      errors="strict"))
    status = main(["chat"])
    captured = capsys.readouterr()
    assert status == 0 and len(captured.out.splitlines()) == 2
    assert captured.err == ("error: this line is not valid UTF-8 text, so it was "
                            "skipped; save the input as UTF-8\n")


def test_closed_stdout_is_one_line_and_exit_1(monkeypatch, capsys):
    """Started with stdout closed, the command says so and exits 1."""
    monkeypatch.setattr("sys.stdout", None)
    assert main(["demo"]) == 1
    assert "standard output is closed" in capsys.readouterr().err


def test_a_broken_pipe_ends_quietly():
    """`tinyagent demo | head` whose reader has gone: exit 141, no traceback."""
    process = subprocess.Popen([sys.executable, "-m", "tinyagent.course.cli", "demo"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader goes away before the first line
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141 and "Traceback" not in err


class ReadOnlyMemory(InMemoryChatMemory):
    def add(self, message):
        raise sqlite3.OperationalError("attempt to write a readonly database")


def test_an_answer_that_cannot_be_saved_is_shown_then_reported(monkeypatch, capsys):
    """When the store refuses the turn, the answer is printed, then a line says it
    was not saved; the exit status is 1."""
    monkeypatch.setattr("tinyagent.course.chat_cli.memory_factories",
                        lambda llm, lang=None: {"inmemory": ReadOnlyMemory})
    monkeypatch.setattr("sys.stdin", io.StringIO("Where is my order 88231?\n"))
    assert main(["chat"]) == 1
    captured = capsys.readouterr()
    assert "88231" in captured.out and captured.err.startswith(
        "error: the answer was not saved (OperationalError: attempt to write a "
        "readonly database)")


def test_an_unexpected_error_is_one_line_unless_debugging(monkeypatch, capsys):
    """An error no command expected: exit 1 and one line naming it; with
    TINYAGENT_DEBUG=1 it propagates, traceback and all."""
    def broken(**options):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr("tinyagent.course.cli.bitmall_tools", broken)
    monkeypatch.delenv("TINYAGENT_DEBUG", raising=False)
    assert main(["demo"]) == 1
    assert capsys.readouterr().err.endswith(
        "error: RuntimeError: disk on fire (run again with TINYAGENT_DEBUG=1 to "
        "see where)\n")
    monkeypatch.setenv("TINYAGENT_DEBUG", "1")
    with pytest.raises(RuntimeError, match="disk on fire"):
        main(["demo"])


def test_closed_stdin_reads_as_no_input(monkeypatch, capsys):
    """Started with stdin closed, chat has nothing to answer and exits 0."""
    monkeypatch.setattr("sys.stdin", None)
    assert main(["chat"]) == 0


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_person_at_a_terminal_is_told_how_long_a_real_model_may_take(
        fake_server, monkeypatch, tmp_path):
    """Before each turn of a real model, stderr (a terminal) states the worst-case
    wait: timeout x attempts plus back-off, from the settings in force."""
    use_server(monkeypatch, fake_server, tmp_path)
    monkeypatch.setenv("TINYAGENT_MAX_RETRIES", "1")
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n"))
    monkeypatch.setattr("sys.stderr", Terminal())
    assert main(["chat", "--timeout", "5"]) == 0
    assert "(waiting for fake: at most 10s a call)" in sys.stderr.getvalue()


# -- hardening: the command line's rough edges


def test_quit_and_help_are_commands_not_customer_messages(capsys, monkeypatch):
    """`/help` prints the commands and `quit` leaves: neither reaches the agent."""
    import io

    from tinyagent.course.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("/help\nquit\nWhere is my order "
                                                 "88231?\n"))
    assert main(["chat"]) == 0
    out = capsys.readouterr().out
    assert "/memory" in out and "88231" not in out  # help shown; nothing after quit


def test_a_line_over_the_limit_is_skipped_and_the_next_is_answered(capsys,
                                                                   monkeypatch):
    """A 50 MB-like line (here 100,000 characters) is refused in one line; the
    chat goes on and answers the next line."""
    import io

    from tinyagent.course.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("x" * 100_000 + "\nWhere is my "
                                                 "order 88231?\n"))
    assert main(["chat"]) == 0
    out, err = capsys.readouterr()
    assert "over the 20,000" in err and "88231" in out


def test_the_top_level_help_names_every_command_and_every_option_has_help(capsys):
    """`tinyagent --help` names sessions; demo's --lang and chat's --memory say
    what they are."""
    from tinyagent.course.cli import build_parser

    parser = build_parser()
    assert "sessions" in parser.description
    sub = next(a for a in parser._actions if a.dest == "command")
    for command in ("demo", "chat"):
        for action in sub.choices[command]._actions:
            assert action.help, f"{command} {action.option_strings} has no help"
