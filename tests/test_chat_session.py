"""`tinyagent chat --session NAME --db FILE`: a conversation that survives a restart."""

import io
import os
import subprocess
import sys

import pytest

from tinyagent.course.cli import main

FIRST_RUN = ["Where is my order 88231?",
             "I want a refund, this vacuum won't go back to its dock",
             "How long until the refund arrives?",
             "Do you have any new robot vacuums to recommend?",
             "How much is the S20 Pro?"]


def chat_here(db, lines, monkeypatch, capsys):
    """This process: main(argv) over a piped stdin, a message a line until EOF."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    status = main(["chat", "--memory", "hybrid", "--session", "s1", "--db", str(db)])
    return status, capsys.readouterr()


def chat(db, lines):
    """A new process: stdin is a pipe, so it reads a message a line and exits at EOF."""
    env = {k: v for k, v in os.environ.items() if k != "TINYAGENT_API_KEY"}
    return subprocess.run(
        [sys.executable, "-m", "tinyagent.course.cli", "chat", "--memory", "hybrid",
         "--session", "s1", "--db", str(db)],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60,
        env={**env, "TINYAGENT_OFFLINE": "1"}, cwd=db.parent)


def test_a_second_process_resumes_the_session_from_sqlite(tmp_path, monkeypatch,
                                                          capsys):
    """Five turns in one process (the hybrid memory compresses on the fifth), then a
    new process asked "what was my refund number again?" answers from the file.
    The first run is this test's own process: the second one shares nothing with it
    but the file, which is the rule."""
    db = tmp_path / "chats.db"
    status, first = chat_here(db, FIRST_RUN, monkeypatch, capsys)
    assert status == 0 and first.err == ""
    assert len(first.out.strip().splitlines()) >= len(FIRST_RUN)
    second = chat(db, ["what was my refund number again?"])
    assert second.returncode == 0 and second.stderr == ""
    assert "RF20260701001" in second.stdout


def test_a_session_needs_a_memory(capsys):
    """--session with --memory none is refused with a clear message (exit 2)."""
    with pytest.raises(SystemExit) as stop:
        main(["chat", "--memory", "none", "--session", "s1"])
    assert stop.value.code == 2
    assert "--session needs a memory" in capsys.readouterr().err
