"""The `tinyagent` command: demo, chat, bench and --help (offline, in-process)."""

import functools
import io
import re

import pytest

import tinyagent.bench
from tinyagent.cli import SIX_TURNS, main

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
    asked and turn 6 answered with the refund number; then the memory, one numbered
    line a message."""
    status, out = run_cli(["demo"] if lang == "en" else ["demo", "--lang", lang],
                          capsys)
    assert status == 0
    stateless, hybrid, memory = re.split(r"^== ", out, flags=re.M)[1:]
    turns = SIX_TURNS[lang]
    assert stateless.startswith("1. No memory")
    asked = [line[len("User: "):] for line in stateless.splitlines()
             if line.startswith("User: ")]
    assert asked == turns[:2]
    assert stateless.index(f"User: {turns[1]}") < stateless.index(
        f"Agent: {WHICH_ORDER[lang]}")
    assert hybrid.startswith("2. Hybrid memory")
    asked = [line[len("User: "):] for line in hybrid.splitlines()
             if line.startswith("User: ")]
    assert asked == turns
    assert f"Agent: {WHICH_ORDER[lang]}" not in hybrid
    assert REFUND in hybrid[hybrid.index(f"User: {turns[5]}"):]
    assert memory.startswith("Memory after six turns")
    lines = memory.splitlines()[1:]
    assert [line[:4] for line in lines] == [f"{i:>2}. " for i in
                                            range(1, len(lines) + 1)]
    assert len(lines) == 9 and "[summary]" in lines[0]  # summary + turns 3-6


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
    monkeypatch.setattr(tinyagent.bench, "SIZES", (10, 100))
    monkeypatch.setattr(tinyagent.bench, "main",
                        functools.partial(tinyagent.bench.main, adds=50, repeats=1,
                                          calls=3))
    status, out = run_cli(["bench"], capsys)
    assert status in (0, 1)  # 1 = above the bar: timing is not judged here
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
