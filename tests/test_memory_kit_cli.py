"""`tinyagent grade` (the memory test kit in a terminal) and the chat's `/undo`."""

import functools
import io

import pytest

from tinyagent.course.cli import main
from tinyagent.storage import SqliteStore


@pytest.fixture
def kit(monkeypatch):
    """The kit, or a skip saying how to install the SDK (imported here, not at the
    top, so that a test worker running no grade never imports the SDK). It grades
    the English run only: the row and the exit status need no second language."""
    pytest.importorskip("agents", reason="the OpenAI Agents SDK is not installed: "
                        "pip install openai-agents (it is in the test extra)")
    from tinyagent.course import memory_kit
    english = functools.partial(memory_kit.grade, langs=("en",))
    monkeypatch.setattr(memory_kit, "grade", english)


def test_grade_prints_one_row_a_session_and_fails_on_a_broken_rule(kit, capsys):
    """The limited SQLiteSession's history starts with a call's output whose call
    was cut: the kit names the rule, and the exit status is 1."""
    status = main(["grade", "--memory", "sqlite", "--limit", "12", "--turns", "20"])
    out = capsys.readouterr().out
    rows = out.splitlines()[2:]
    assert status == 1 and len(rows) == 1 and rows[0].startswith("sqlite limit 12")
    assert "✗ tool pairs" in rows[0]


def test_grade_refuses_a_dialog_too_short_for_the_facts(kit):
    """--turns below 20 is refused with the reason (no fact would be planted)."""
    with pytest.raises(SystemExit, match="at least|>= 20"):
        main(["grade", "--turns", "10"])


def chat(lines, monkeypatch, capsys, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    status = main(["chat", "--memory", "inmemory", *args])
    return status, capsys.readouterr()


def test_undo_forgets_the_newest_turn(monkeypatch, capsys):
    """/undo pops the answer and its question: the next turn no longer knows the
    order, and /undo on an empty memory says there is nothing to undo."""
    status, out = chat(["Where is my order 88231?", "/undo",
                        "I want a refund, it won't go back to its dock", "/undo",
                        "/undo"], monkeypatch, capsys)
    lines = out.out.splitlines()
    assert lines[1] == "(undone: Where is my order 88231?)"
    assert "88231" not in lines[2]  # asked which order: the turn is gone
    assert "nothing to undo" in out.err


def test_undo_in_a_stored_session_is_kept_across_restarts(monkeypatch, capsys,
                                                          tmp_path):
    """With --session, /undo removes the turn from the file too."""
    db = str(tmp_path / "chat.db")
    chat(["Where is my order 88231?", "How much is the S20 Pro?", "/undo"],
         monkeypatch, capsys, "--session", "alice", "--db", db)
    held = [m.content for m in SqliteStore(db).messages("alice")]
    assert len(held) == 2 and held[0] == "Where is my order 88231?"
