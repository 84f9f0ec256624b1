"""The Chinese edition, read as a Chinese learner reads it: one lint over everything.

What the learner reads: the stored outputs and the prose of notebooks/zh, the README
and the glossary, what every command the README and the notebooks name prints (its
--help too), and the errors the package raises. Four rules, each an error:

1. no stray English word: ids, code, model names and a short list of proper names
   aside (tests/zh_text.py says which, and why);
2. no word the glossary retired (GLOSSARY.md, table "不用的说法");
3. no ASCII , : ; ? ! right after Chinese text;
4. in markdown, no line break between two Chinese characters: it renders as a space.

Rules 3 and 4 in markdown are mechanical: `python scripts/zh_prose_fix.py` fixes them.
"""

import io
import json
import re
import sys
from pathlib import Path

import pytest
from test_glossary import CODE, GLOSSARY, banned_words
from zh_text import stray_english

from tinyagent.course.cli import build_parser
from tinyagent.course.cli_args import typed_words
from tinyagent.lang import speaking

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import zh_prose_fix  # noqa: E402  (a script, not a package)

NOTEBOOKS = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
README = ROOT / "README.zh-CN.md"
TEXTS = [*NOTEBOOKS, README, GLOSSARY]
HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
HALF_WIDTH = re.compile(rf"[{HAN}）」』》][,:;?!]")  # after a full-width bracket too
BANNED = banned_words(GLOSSARY.read_text(encoding="utf-8"))
# What the learner types stays as typed: commands, memory names, actions.
TYPED = typed_words(build_parser("zh"))


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def texts(paths: list[Path]) -> list:
    """`paths` as test parameters, named by their path."""
    return [pytest.param(p, id=name(p)) for p in paths]


def markdown(path: Path) -> str:
    if path.suffix == ".md":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells
                       if c["cell_type"] == "markdown")


def prose(path: Path) -> str:
    """What a learner reads of the markdown: code, link targets and HTML out; in the
    glossary, the English edition's words (its column "英文版") and the original
    designs' words it quotes ("原文：…") out, since naming them is its purpose."""
    text = markdown(path)
    if path == GLOSSARY:
        lines = []
        for line in text.splitlines():
            if line.startswith("|") and "英文版" in line:
                english = line.split("|").index(" 英文版 ")
            elif not line.startswith("|"):
                english = None
            if line.startswith("|") and english is not None:
                cells = line.split("|")
                cells[english] = " "
                line = "|".join(cells)
            lines.append(re.sub(r"原文：[^）|]*", " ", line))
        text = "\n".join(lines)
    return re.sub(r"<[^>\n]+>|https?://\S+", " ", CODE.sub(" ", text))


def outputs(path: Path) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    shown = []
    for cell in notebook["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            plain = "" if "image/png" in data else data.get("text/plain", "")
            for text in (out.get("text", ""), plain):
                shown.append("".join(text) if isinstance(text, list) else text)
    return shown


def problems(text: str, allowed: frozenset[str] = frozenset(),
             retired: bool = True) -> list[str]:
    """What breaks rules 1-3 in `text`, line by line (rule 2 unless `retired` is
    False: the glossary names the retired words, to retire them)."""
    found = []
    for line in text.splitlines():
        found += [f"English {w!r}: {line.strip()[:70]}"
                  for w in stray_english(line, set(allowed))]
        found += [f"retired {m.group()!r}: {line.strip()[:70]}"
                  for patterns in BANNED.values() for p in patterns
                  for m in re.finditer(p, line) if retired]
        found += [f"half-width {m.group()!r}: {line.strip()[:70]}"
                  for m in HALF_WIDTH.finditer(line)]
    return found


# -- the notebooks, the README and the glossary
@pytest.mark.parametrize("path", texts(TEXTS))
def test_the_prose_reads_as_chinese(path):
    """Markdown: no stray English word, no retired word, no half-width mark."""
    found = problems(prose(path), retired=path != GLOSSARY)
    assert not found, f"{name(path)}:\n" + "\n".join(found[:12])


@pytest.mark.parametrize("path", texts(TEXTS))
def test_no_line_break_inside_a_chinese_sentence(path):
    """A line break between two Chinese characters renders as a space: the lines
    are joined, as scripts/zh_prose_fix.py joins them."""
    text = markdown(path)
    fixed = zh_prose_fix.fix_markdown(text)
    broken = [line for line in text.splitlines() if line not in fixed.splitlines()]
    assert not broken, (f"{name(path)}: run python scripts/zh_prose_fix.py\n"
                        + "\n".join(broken[:8]))


@pytest.mark.parametrize("path", texts(NOTEBOOKS))
def test_the_stored_outputs_read_as_chinese(path):
    """What a notebook shows: no stray English word, no retired word, no half-width
    mark after Chinese."""
    found = [p for text in outputs(path) for p in problems(text)]
    assert not found, f"{name(path)}:\n" + "\n".join(found[:12])


def test_the_fixer_is_idempotent_and_leaves_code_alone():
    """scripts/zh_prose_fix.py joins a broken Chinese line and makes a mark
    full-width, leaves code, tables, headings and list items as they are, and a
    second run changes nothing."""
    text = ("第一行\n第二行, 还有: 这些\n\n- 列表项\n- 第二项\n\n"
            "| 表 | 格 |\n| 中 | 文 |\n\n```\n代码\n中文\n```\n\n"
            "# 标题\n正文 `a, b`\n> 引用一\n> 引用二")
    fixed = zh_prose_fix.fix_markdown(text)
    assert "第一行第二行，还有：这些" in fixed and "> 引用一引用二" in fixed
    assert "- 列表项\n- 第二项" in fixed and "| 表 | 格 |\n| 中 | 文 |" in fixed
    assert "```\n代码\n中文\n```" in fixed and "# 标题\n正文 `a, b`" in fixed
    assert zh_prose_fix.fix_markdown(fixed) == fixed


@pytest.mark.parametrize("slip", ["订单 is delivered", "全量记忆（in-memory）",
                                  "计费 tokens", "Playground · 新对话",
                                  "用笔记本打开", "发送的 token 是全量记忆的, 一半",
                                  "注意: 退款"])
def test_the_rules_catch_the_slips_they_are_for(slip):
    """English words, a retired word and a half-width mark are each caught."""
    assert problems(slip)


# -- the commands
# Every command the README and the notebooks name, as the lint runs it: the same
# command, with fewer turns where it plays a long dialog (its words are the same).
COMMANDS = {
    "tinyagent demo": ["demo"],
    "tinyagent chat": ["chat", "--memory", "hybrid"],
    "tinyagent compare --turns": ["compare", "--turns", "20", "--provider", "openai"],
    "tinyagent compare": ["compare"],
    "tinyagent sessions": ["sessions", "list", "--db", "{db}"],
    # a session that breaks a rule (the limited SQLiteSession) and a course memory
    "tinyagent grade": ["grade", "--memory", "sqlite,window", "--limit", "12",
                        "--turns", "20"],
    "tinyagent bench": None,  # its own test (test_errors_zh.py) runs it small
    "python -m tinyagent.course.ratios": ["-m", "ratios"],
    "python -m tinyagent.course.evaluation": ["-m", "evaluation", "20"],
    "python -m tinyagent.course.longrun": ["-m", "longrun", "--turns", "24"],
}
CHAT = ["订单 88231 到哪了？", "它啥时候到", "我要退款，扫地机回不了充",
        "请只用微信联系我", "它和 S20 Max 比哪个好？", "/memory", "/help"]
MENTIONED = re.compile(r"`((?:tinyagent [a-z]|python -m tinyagent\.)[^`]*)`")


def mentioned() -> set[str]:
    """The commands the Chinese README and the Chinese notebooks' prose name."""
    return {m.group(1) for path in [README, *NOTEBOOKS]
            for m in MENTIONED.finditer(markdown(path))}


def test_every_command_the_learner_is_sent_to_is_linted():
    """Each command the README or a notebook names is in COMMANDS."""
    missing = [c for c in mentioned() if not any(c.startswith(k) for k in COMMANDS)]
    assert not missing, missing


def run(argv: list[str], monkeypatch, capsys) -> str:
    """A command's output, the package set to Chinese as TINYAGENT_LANG=zh sets it."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{s}\n" for s in CHAT)))
    with speaking("zh"):
        if argv[0] == "-m":
            module = __import__(f"tinyagent.course.{argv[1]}", fromlist=["main"])
            module.main(argv[2:])
        else:
            from tinyagent.course.cli import main
            main(argv)
    out, err = capsys.readouterr()
    return out + err


@pytest.mark.parametrize("command", [c for c, argv in COMMANDS.items() if argv])
def test_a_command_prints_chinese(command, monkeypatch, capsys, tmp_path):
    """Under the Chinese setting, everything a command prints reads as Chinese: the
    banner, the tables and the strategies' names, the dialog it plays, the answers."""
    argv = [a.format(db=tmp_path / "s.db") for a in COMMANDS[command]]
    out = run(argv, monkeypatch, capsys)
    allowed = TYPED | {str(tmp_path / "s.db")}
    found = problems(re.sub(r"\[结果\] \{.*", "", out.replace(str(tmp_path), "")),
                     frozenset(allowed))
    assert out.strip() and not found, "\n".join(found[:12]) + "\n" + out[:600]


@pytest.mark.parametrize("command", [[], ["demo"], ["chat"], ["compare"], ["bench"],
                                     ["sessions"], ["grade"], ["-m", "ratios"],
                                     ["-m", "evaluation"], ["-m", "longrun"]])
def test_a_commands_help_reads_as_chinese(command, monkeypatch, capsys):
    """--help of every command: Chinese headings with full-width colons, no retired
    word (笔记本, 提示缓存), no stray English."""
    with pytest.raises(SystemExit):
        run([*command, "--help"], monkeypatch, capsys)
    out = capsys.readouterr().out
    found = problems(out, frozenset(TYPED))
    assert out.startswith("用法：") and "选项：" in out and not found, found
