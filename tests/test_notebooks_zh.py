"""The Chinese edition (notebooks/zh) keeps in step with the English one.

Each Chinese notebook teaches the same lesson as its English twin: the same sections,
the same code cells and the same exercises, and what it shows is Chinese. nbval runs
both editions; these checks compare their structure and read the stored outputs
(word by word, with the prose and the commands, in test_zh_lint.py).
"""

import json
import re
from pathlib import Path

import pytest
from zh_text import english_sentences, stray_english

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CHINESE = sorted((NOTEBOOKS / "zh").glob("[0-9][0-9]_*.ipynb"))
CHECK = re.compile(r"""\bcheck\(\s*["'](\d\d\.\w+)["']""")


def cells(path: Path, kind: str) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == kind]


def outputs(path: Path) -> list[str]:
    """Every text a code cell shows: printed streams and plain-text results. A
    picture's plain-text stand-in ("<Figure size 800x450 with 1 Axes>") is not shown
    where the picture is, so it is left out."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    texts = []
    for cell in notebook["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            plain = "" if "image/png" in data else data.get("text/plain", "")
            for text in (out.get("text", ""), plain):
                texts.append("".join(text) if isinstance(text, list) else text)
    return texts


def headings(path: Path) -> list[int]:
    """The level of every markdown heading, in order."""
    return [len(m[1]) for source in cells(path, "markdown")
            for m in re.finditer(r"^(#{1,4}) ", source, re.M)]


def twin(path: Path) -> Path:
    return NOTEBOOKS / path.name


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.name)
def test_a_chinese_notebook_has_an_english_twin(path):
    """Every notebooks/zh notebook translates an English notebook of the same name."""
    assert twin(path).exists(), f"{path.name} has no English notebook of that name"


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.name)
def test_the_same_sections_in_the_same_order(path):
    """A Chinese notebook has its twin's headings, level by level, in order."""
    assert headings(path) == headings(twin(path))


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.name)
def test_the_same_code_cells_and_exercises(path):
    """As many code cells, and the same exercises checked in the same order."""
    chinese, english = cells(path, "code"), cells(twin(path), "code")
    assert len(chinese) == len(english)
    assert CHECK.findall("\n".join(chinese)) == CHECK.findall("\n".join(english))


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.name)
def test_the_setup_cell_sets_the_course_to_chinese(path):
    """The first code cell asks for Chinese output and a Chinese banner."""
    first = cells(path, "code")[0]
    assert 'set_lang("zh")' in first and 'describe(lang="zh")' in first


@pytest.mark.parametrize("path", CHINESE, ids=lambda p: p.name)
def test_no_english_sentence_in_the_stored_outputs(path):
    """What a Chinese notebook shows is Chinese: code names and model names aside."""
    found = [s for text in outputs(path) for s in english_sentences(text)]
    assert not found, f"{path.name} shows English: {found[:5]}"


@pytest.mark.parametrize("english", ["signed for by the recipient",
                                     "Approved refunds reach", "in-memory",
                                     "window 6", "[user]"])
def test_stray_english_catches_english_in_chinese_output(english):
    """A store text, a strategy label or a transcript's role tag left in English is
    caught, alone and inside a Chinese line."""
    assert stray_english(english)
    assert stray_english(f"最新物流：{english} 订单 88231")


@pytest.mark.parametrize("shown", [
    "0  user       帮我查一下订单 88231 的物流到哪了",   # a role column
    "角色： ['system', 'user', 'assistant', 'tool']",     # a list's repr
    '  "type": "function",',                              # a tool schema
    "承运商 顺丰速运，运单号 SF123456789…",                # an id cut by a preview
    "class ChatMemory(Protocol):",                        # source code
    "keep_recent 必须小于 threshold（当前 keep_recent=8, threshold=8）",
    "sqlite:///srv/bitmall/sessions.db  -> SqliteStore",
    "08.restore：还没有写。",
])
def test_stray_english_lets_identifiers_through(shown):
    """Identifiers the learner types, code, reprs and ids are not English prose."""
    assert stray_english(shown) == []


def test_every_english_notebook_has_a_chinese_twin():
    """The Chinese edition is complete: notebooks/zh holds every learner notebook."""
    english = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert [p.name for p in CHINESE] == english
