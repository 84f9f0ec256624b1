"""Strategy titles: what a strategy is called on screen, in the notebook's language."""

import pytest

from tinyagent.course.names import TITLES_ZH, strategy_title


@pytest.mark.parametrize("name, title", [
    ("in-memory", "全量记忆"), ("window 6", "窗口 6"), ("hybrid 4/8", "混合 4/8"),
    ("summary 10/4", "摘要 10/4"), ("tokens 400", "token 窗口 400"),
    ("none", "无记忆"), ("structured 2/6", "结构化 2/6")])
def test_a_chinese_notebook_shows_the_chinese_title_with_the_sizes(name, title):
    """In Chinese a strategy keeps its sizes and takes the Chinese notebooks' term."""
    assert strategy_title(name, "zh") == title


def test_english_titles_are_the_names_and_unknown_names_stay():
    """In English a title is the name; a name it does not know (the learner's own)
    is shown as it is in both languages."""
    assert strategy_title("hybrid 4/8", "en") == "hybrid 4/8"
    assert strategy_title("yours", "zh") == "yours"
    assert all(title for title in TITLES_ZH.values())


def test_the_glossary_lists_the_same_names():
    """The Chinese glossary's table "策略的名字" is the package's one table: every
    command-line name with its Chinese and English title, none missing."""
    import re
    from pathlib import Path

    from tinyagent.course.names import STRATEGY_NAMES

    glossary = (Path(__file__).resolve().parent.parent / "notebooks" / "zh"
                / "GLOSSARY.md").read_text(encoding="utf-8")
    section = glossary.split("## 策略的名字", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|$", section, re.M)
    assert {typed: (en.strip(), zh.strip()) for typed, zh, en in rows} == STRATEGY_NAMES
