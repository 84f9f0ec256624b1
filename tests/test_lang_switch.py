"""One switch: what the course plays and prints follows the language at the call.

`set_lang`, TINYAGENT_LANG and `--lang` are one setting; with `lang=None` every
function reads it when it is called (not when its module was imported or its object
built), so a notebook's `set_lang("zh")` reaches the dialog that `compare`, the
evaluation, ratios and longrun play, and the words they print.
"""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tinyagent
from tinyagent import LlmClient, ToolRegistry, bitmall_tools
from tinyagent.course.catalogue import SIX_TURNS, make_strategies
from tinyagent.course.compare import compare, run_strategy
from tinyagent.course.evaluation import evaluate, planted_dialog
from tinyagent.lang import is_chinese, speaking
from tinyagent.messages import ToolCall

LLM = LlmClient(offline=True)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_compare_plays_the_dialog_of_the_language_set(lang):
    """compare(llm) with no `lang`: the six turns in the language set at the call,
    over that language's store."""
    with speaking(lang):
        result = compare(LLM, strategies=make_strategies(LLM, ["none", "inmemory"]))
    turns = result.runs[0].turns
    assert [t.question for t in turns] == SIX_TURNS[lang]
    assert all(is_chinese(t.answer) == (lang == "zh") for t in turns)


def test_the_setting_at_the_call_not_at_the_import():
    """Switching after the objects exist still switches: a run, a dialog and a
    registry's error made after set_lang("zh") are Chinese; a store keeps the
    language it was opened in (its data is in it), and so do its errors."""
    registry = ToolRegistry([])  # no store: its errors follow the setting
    english_store = bitmall_tools()
    make = make_strategies(LLM, ["none"])["none"]
    with speaking("zh"):
        run = run_strategy(LLM, ["订单 88231 到哪了？"], "none", make)
        assert "承运商为" in run.turns[0].answer
        assert planted_dialog(12).lang == "zh"
        assert "没有名为" in registry.run(ToolCall("1", "nope", {}))
        assert "unknown tool" in english_store.run(ToolCall("1", "nope", {}))
        assert "没有名为" in bitmall_tools().run(ToolCall("1", "nope", {}))
    assert "unknown tool" in registry.run(ToolCall("1", "nope", {}))


def test_the_evaluation_plays_the_dialog_of_the_language_set():
    """evaluate(llm) with no dialog: the planted dialog in the language set."""
    with speaking("zh"):
        result = evaluate(LLM, strategies=make_strategies(LLM, ["none"]))
        assert str(result).startswith("埋入的事实")  # printed in the setting too
    assert result.dialog.lang == "zh" and all(map(is_chinese, result.dialog.turns))
    assert str(result).startswith("Planted facts")


def test_a_fresh_process_reads_tinyagent_lang(tmp_path):
    """With TINYAGENT_LANG=zh and no --lang, a course command started as a fresh
    process plays the Chinese dialog and speaks Chinese: the package reads the
    variable when it loads (the installed command, ratios: the cheapest to run)."""
    root = str(Path(tinyagent.__file__).parents[1])  # this checkout's package
    env = {**os.environ, "TINYAGENT_LANG": "zh", "TINYAGENT_OFFLINE": "1",
           "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    env.pop("TINYAGENT_API_KEY", None)
    done = subprocess.run([sys.executable, "-m", "tinyagent.course.ratios"],
                          capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("使用离线的") and "摘要" in done.stdout, done.stdout


@pytest.mark.parametrize("module, argv", [
    ("evaluation", ["12"]), ("longrun", ["--turns", "24"])])
def test_a_course_command_follows_the_setting(module, argv, tmp_path, monkeypatch,
                                              capsys):
    """Under the setting TINYAGENT_LANG=zh gives a process (here set in this one)
    and no --lang, the other course commands play the Chinese dialog and speak
    Chinese too: main(argv), in this process."""
    monkeypatch.chdir(tmp_path)  # no .env of the checkout's
    command = importlib.import_module(f"tinyagent.course.{module}")
    with speaking("zh"):
        status = command.main(argv)
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("使用离线的") and "摘要" in out, out
