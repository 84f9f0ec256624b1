"""The `tinyagent` command in Chinese: every command, its help and its errors.

Each test runs the real entry point (`main(argv)`, once as a subprocess) and checks
that what a Chinese learner reads holds no stray English (tests/zh_text.py).
"""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from zh_text import stray_english

import tinyagent
from tinyagent.course.cli import build_parser, main
from tinyagent.course.cli_args import PIECE, typed_words, wrap_chinese
from tinyagent.lang import get_lang, text_width
from tinyagent.tools.store import ORDERS

# What the learner types stays as typed: commands, memory names, actions and the
# other values of a choice (`--memory hybrid`, `sessions show`), read off the parser.
TYPED = typed_words(build_parser("zh"))
# The agent's trace (agent.py) prints the stop reason as the identifier a learner
# compares it with in code (`trace.stop_reason == "answer"`).
STOP_REASON = {"answer"}
SESSION = "alice"  # a session name the learner typed


def run(argv, capsys, monkeypatch, lines=()):
    """main(argv) with `lines` piped on stdin: (exit status, stdout + stderr)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{s}\n" for s in lines)))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out + err


def english_in(text, allowed=frozenset()):
    """Stray English, once the trace's raw JSON tool results (code) are taken out."""
    return stray_english(re.sub(r"\[结果\] \{.*", "", text), allowed)


DIALOG = ["订单 88231 到哪了？", "它多少钱买的？", "退款多久到账？", "那我要退货",
          "有什么优惠活动吗", "保修多久？", "/memory", "/help"]


def test_chat_in_chinese_answers_in_chinese(capsys, monkeypatch):
    """`chat --lang zh` over a pipe: every answer, the memory and the help are
    Chinese, and the pronoun follow-up is answered with that order's price."""
    status, out = run(["chat", "--lang", "zh", "--memory", "hybrid"], capsys,
                      monkeypatch, DIALOG)
    assert status == 0
    assert english_in(out, TYPED) == []
    assert "比特严选 S10 Pro 扫地机器人" in out and "¥1999" in out
    assert "统计：" in out and "输入您想问 BitMall 客服的问题" in out
    assert "摘要移出的条目" in out  # what it counts: summary lines, not messages
    assert get_lang() == "en"  # main(argv) leaves the package setting as it found it


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_at_a_terminal_the_prompts_and_banner_are_chinese(capsys, monkeypatch):
    """At a terminal, `chat --lang zh` greets in Chinese and prompts 你> / 客服>."""
    monkeypatch.setattr("sys.stdin", Terminal("订单 88231 到哪了？\n退出\n"))
    assert main(["chat", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "你> 客服> 您的订单 88231" in out and "输入 `/memory` 查看记忆" in out
    assert english_in(out, TYPED) == []


@pytest.mark.parametrize("order", list(ORDERS))
@pytest.mark.parametrize("follow_up", ["它多少钱买的？", "那单是多少钱买的",
                                       "这单我花了多少钱？"])
def test_a_pronoun_follow_up_gets_that_orders_price(order, follow_up, capsys,
                                                   monkeypatch):
    """After asking about any order, 它 / 那单 / 这单 is that order: the follow-up
    is answered with the price it was bought at."""
    _, out = run(["chat", "--lang", "zh"], capsys, monkeypatch,
                 [f"查一下订单 {order}", follow_up])
    answer = out.strip().splitlines()[-1]
    assert order in answer and f"¥{ORDERS[order]['price']}" in answer, answer


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chinese_questions_over_the_english_store_get_chinese_answers(
        lang, capsys, monkeypatch):
    """The English store (`--lang en`) or the Chinese one: a Chinese question is
    answered in Chinese, English data in the clerk's own Chinese words."""
    _, out = run(["chat", "--lang", lang], capsys, monkeypatch, DIALOG[:6])
    assert english_in(out, TYPED) == [], out
    assert "1–3 个工作日" in out and "¥1999" in out


def test_demo_in_chinese(capsys, monkeypatch):
    """`demo --lang zh`: banner, headings, trace and answers are Chinese."""
    status, out = run(["demo", "--lang", "zh"], capsys, monkeypatch)
    assert status == 0 and out.startswith("使用离线的")
    assert english_in(out, STOP_REASON) == []


def test_compare_in_chinese(capsys, monkeypatch, tmp_path):
    """`compare --lang zh` on a short script: the table and the notes are Chinese."""
    script = tmp_path / "script.txt"
    script.write_text("订单 88231 到哪了？\n它多少钱买的？\n", encoding="utf-8")
    status, out = run(["compare", "--lang", "zh", "--script", str(script),
                       "--strategies", "none,inmemory"], capsys, monkeypatch)
    assert status == 0 and "策略：无记忆、全量记忆；" in out
    assert english_in(out, TYPED) == []


def test_sessions_show_after_a_chinese_chat(capsys, monkeypatch, tmp_path):
    """A Chinese chat saved in a session: `sessions show`, `list` and `rebuild` are
    Chinese, the structured summary headed as the Chinese notebooks head it."""
    db = str(tmp_path / "zh.db")
    turns = [f"查一下订单 {order}" for order in ORDERS] + DIALOG[1:4]
    status, _ = run(["chat", "--lang", "zh", "--memory", "structured", "--session",
                     SESSION, "--db", db], capsys, monkeypatch, turns)
    assert status == 0
    status, out = run(["sessions", "show", SESSION, "--db", db, "--lang", "zh"],
                      capsys, monkeypatch)
    assert status == 0 and "## 滚动摘要" in out and "原样保留的最近消息" in out
    assert english_in(out, TYPED | {SESSION}) == []
    status, listed = run(["sessions", "list", "--db", db, "--lang", "zh"], capsys,
                         monkeypatch)
    listed = listed.replace(db, "")  # the file name the learner typed
    assert "个会话" in listed and english_in(listed, TYPED | {SESSION}) == []
    status, rebuilt = run(["sessions", "rebuild", SESSION, "--db", db, "--lang", "zh"],
                          capsys, monkeypatch)
    assert status == 0 and "摘要已重建" in rebuilt
    assert english_in(rebuilt, TYPED | {SESSION}) == []


@pytest.mark.parametrize("command", [[], ["demo"], ["chat"], ["bench"], ["compare"],
                                     ["sessions"]])
def test_help_in_chinese(command, capsys):
    """`--help` of every command in Chinese: argparse's headings too."""
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--lang", "zh", "--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0 and out.startswith("用法：")
    assert english_in(out, TYPED) == []


def test_a_bad_option_is_reported_in_chinese(capsys):
    """A bad value: usage and one Chinese error line, exit status 2."""
    with pytest.raises(SystemExit) as exit_info:
        main(["chat", "--lang", "zh", "--memory", "bogus"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "错误：参数 --memory：无效的选项" in err
    assert english_in(err, TYPED | {"bogus"}) == []


def test_the_environment_sets_the_language(tmp_path):
    """TINYAGENT_LANG=zh, no --lang: the installed command's help is Chinese."""
    package_root = str(Path(tinyagent.__file__).parents[1])  # this checkout's
    env = {**os.environ, "TINYAGENT_LANG": "zh", "PYTHONPATH": os.pathsep.join(
        [package_root, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "tinyagent.course.cli", "--help"],
                          capture_output=True, text=True, env=env, timeout=60,
                          cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("用法：")
    assert english_in(done.stdout, TYPED) == []


@given(st.lists(st.sampled_from(["记忆", "、", "（", "）", "，", "token 窗口", "sqlite",
                                 "SessionSettings(limit=N)", "：", "会话 "]),
                max_size=40),
       st.integers(min_value=12, max_value=60))
def test_chinese_help_wraps_between_characters_never_inside_a_word(pieces, width):
    """wrap_chinese: every line fits `width` columns (a Chinese character takes two)
    unless it is one unbreakable piece, no line but the first starts with a closing
    mark, a Latin word is never cut, and the lines hold the whole text. (Chinese
    puts no space before a closing mark, and neither do these texts.)"""
    text = "".join(pieces)
    lines = wrap_chinese(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    words = set(re.findall(r"[!-~]+", " ".join(text.split())))
    for number, line in enumerate(lines):
        assert text_width(line) <= width or len(PIECE.findall(line)) == 1, line
        assert number == 0 or not line.startswith(("、", "，", "）", "：")), line
        assert set(re.findall(r"[!-~]+", line)) <= words, line
