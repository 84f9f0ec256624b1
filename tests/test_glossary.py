"""The Chinese edition speaks one vocabulary, with Chinese punctuation.

notebooks/zh/GLOSSARY.md is the single source: its table "不用的说法" lists, for each
concept, the words the course no longer uses for it. These tests read that table and
look for those words in the prose of the Chinese notebooks and of README.zh-CN.md.
Prose is markdown outside code: inline code, code blocks, link targets and HTML
comments keep what they hold (paths, commands, identifiers).
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "notebooks" / "zh" / "GLOSSARY.md"
CHINESE = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
README = ROOT / "README.zh-CN.md"
TEXTS = [*CHINESE, README]
HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CODE = re.compile(r"```.*?```|`[^`\n]*`|<!--.*?-->|\]\([^)]*\)", re.S)
# An ASCII , : ; ? between two Chinese characters, or after one and before a space
# and another.
ASCII_PUNCT = re.compile(rf"[{HAN}][,:;?] ?[{HAN}]")
STRAIGHT_QUOTES = re.compile(rf'"[^"\n]*[{HAN}][^"\n]*"')


def banned_words(glossary: str) -> dict[str, list[str]]:
    """{word the course uses: [regexes of the words it replaces]} from the table."""
    section = glossary.split("## 不用的说法", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:-1] for line in section.splitlines()
            if line.startswith("|") and "`" in line]
    return {cells[0].strip(): re.findall(r"`([^`]+)`", cells[1]) for cells in rows}


def prose(path: Path) -> str:
    """The markdown of a notebook or a README, code taken out."""
    if path.suffix == ".md":
        text = path.read_text(encoding="utf-8")
    else:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        text = "\n\n".join("".join(cell["source"]) for cell in notebook["cells"]
                           if cell["cell_type"] == "markdown")
    return CODE.sub(" ", text)


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_glossary_table_is_read():
    """The table has a row per replaced word, each with at least one variant."""
    table = banned_words(GLOSSARY.read_text(encoding="utf-8"))
    assert len(table) >= 5 and all(table.values()), table
    assert "检查程序" in table["检查器"]


@pytest.mark.parametrize("path", TEXTS, ids=name)
def test_no_replaced_word_in_the_prose(path):
    """No word the glossary retired appears in the Chinese prose."""
    text = prose(path)
    found = [(word, match[0]) for word, patterns
             in banned_words(GLOSSARY.read_text(encoding="utf-8")).items()
             for pattern in patterns for match in re.finditer(pattern, text)]
    assert not found, f"{name(path)}: use the glossary's word: {found[:8]}"


@pytest.mark.parametrize("path", TEXTS, ids=name)
def test_chinese_sentences_use_full_width_punctuation(path):
    """No ASCII , : ; ? inside a Chinese sentence, no straight quotes around Chinese."""
    text = prose(path)
    found = ASCII_PUNCT.findall(text) + STRAIGHT_QUOTES.findall(text)
    assert not found, f"{name(path)}: use ，：；？ and “” in Chinese: {found[:8]}"


def test_the_punctuation_rules_catch_the_usual_slips():
    """The patterns see a half-width comma, a spaced colon and straight quotes,
    and leave ids and code alone."""
    assert ASCII_PUNCT.search("订单,退款") and ASCII_PUNCT.search("注意: 退款")
    assert STRAIGHT_QUOTES.search('他说"这个扫地机"坏了')
    assert not ASCII_PUNCT.search("订单 88231, SF1234567890")
    assert not STRAIGHT_QUOTES.search(CODE.sub(" ", '运行 `print("退款")` 即可'))
