"""Mend the Chinese edition's markdown so that it renders as written.

    python scripts/zh_prose_fix.py            # notebooks/zh, README.zh-CN, GLOSSARY
    python scripts/zh_prose_fix.py --check    # say what it would change; exit 1 if any
    python scripts/zh_prose_fix.py notebooks/zh/03_sliding_window.ipynb

Two mechanical slips, fixed in markdown only (a notebook's markdown cells, a .md
file), never in code blocks, inline code, link targets or HTML:

- a line break inside a Chinese sentence: a renderer turns it into a space ("把对话
  保存" shows as "把对话 保存"), so a line that ends with a Chinese character or
  punctuation mark and a next line of the same paragraph that starts with one are
  joined;
- ASCII , : ; ? ! right after a Chinese character: the full-width mark; straight
  quotes around Chinese: “”.

It is idempotent (a second run changes nothing), touches nothing else (code cells,
outputs, metadata, other lines), and writes a notebook back the way nbformat writes it
(`scripts/execute_notebooks.py`). Left out: judging wording; tests/test_zh_lint.py
checks what this cannot fix.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [*sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb")),
           ROOT / "notebooks" / "zh" / "GLOSSARY.md", ROOT / "README.zh-CN.md"]
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_MARKS = "，。、；：？！“”‘’（）《》【】「」…—"
CJK = f"[{HAN}{CJK_MARKS}]"
FULL_WIDTH = {",": "，", ":": "：", ";": "；", "?": "？", "!": "！"}
# A line that starts a block of its own: never the continuation of a paragraph.
BLOCK_START = re.compile(r"^\s*(?:#|[-*+]\s|\d+[.)]\s|>|\||```|~~~|<|$)")
# What is not prose on a line: inline code, a link's target, an HTML tag or comment.
NOT_PROSE = re.compile(r"`[^`\n]*`|\]\([^)\n]*\)|<[^>\n]*>|https?://\S+")
QUOTE = re.compile(r"^(\s*>\s?)")


def full_width(line: str) -> str:
    """ASCII , : ; ? ! after a Chinese character made full-width, outside code."""
    parts, last = [], 0
    for match in NOT_PROSE.finditer(line):
        parts.append(_marks(line[last:match.start()]))
        parts.append(match.group())
        last = match.end()
    parts.append(_marks(line[last:]))
    return "".join(parts)


def _marks(text: str) -> str:
    # "中文, 下一句" -> "中文，下一句": the full-width mark takes the space after it
    text = re.sub(rf"(?<=[{HAN}）”》」])([,:;?!]) ?",
                  lambda m: FULL_WIDTH[m.group(1)], text)
    # straight quotes around Chinese: “…”
    return re.sub(rf'"([^"\n]*[{HAN}][^"\n]*)"', r"“\1”", text)


def joins(line: str, following: str) -> bool:
    """Whether `following` continues `line`'s paragraph across a break that would
    render as a space between two Chinese characters."""
    if BLOCK_START.match(following) and not (QUOTE.match(line)
                                              and QUOTE.match(following)):
        return False
    if re.match(r"^\s*(?:#|\||```|~~~)", line) or line.endswith(("  ", "\\")):
        return False  # a heading, a table row, a fence, a hard break
    # Emphasis marks do not count ("**先预测**" starts with a Chinese character),
    # unless joining would stop them marking emphasis: CommonMark does not close
    # "**" between a punctuation mark and a letter ("。**下"), nor open it between a
    # letter and a punctuation mark ("行**“").
    this = QUOTE.sub("", line).rstrip("*_")
    that = QUOTE.sub("", following).lstrip().lstrip("*_")
    if (this != QUOTE.sub("", line) and re.search(f"[{CJK_MARKS}]$", this)) or (
            that != QUOTE.sub("", following).lstrip()
            and re.match(f"[{CJK_MARKS}]", that)):
        return False
    return (re.search(f"{CJK}$", this) is not None and re.match(CJK, that) is not None
            and bool(QUOTE.match(line)) == bool(QUOTE.match(following)))


def fix_markdown(text: str) -> str:
    """`text` with its Chinese line breaks joined and its marks made full-width."""
    lines, out, fenced = text.split("\n"), [], False
    for line in lines:
        if re.match(r"^\s*(?:```|~~~)", line):
            fenced = not fenced
            out.append(line)
            continue
        if fenced:
            out.append(line)
            continue
        line = full_width(line)
        if out and not fenced and joins(out[-1], line):
            out[-1] += QUOTE.sub("", line).lstrip()
        else:
            out.append(line)
    return "\n".join(out)


def fix_notebook(path: Path) -> bool:
    """Fix the markdown cells of a notebook in place; whether anything changed."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    changed = False
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        fixed = fix_markdown(source)
        if fixed != source:
            cell["source"] = fixed.splitlines(keepends=True)
            changed = True
    if changed:  # as nbformat writes it: indent 1, UTF-8, a final newline
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    return changed


def fix_file(path: Path) -> bool:
    if path.suffix == ".ipynb":
        return fix_notebook(path)
    text = path.read_text(encoding="utf-8")
    fixed = fix_markdown(text)
    if fixed != text:
        path.write_text(fixed, encoding="utf-8")
    return fixed != text


def needs_fix(path: Path) -> bool:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return any(fix_markdown(s) != s for s in ("".join(c["source"]) for c in cells
                                                   if c["cell_type"] == "markdown"))
    text = path.read_text(encoding="utf-8")
    return fix_markdown(text) != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path,
                        help="notebooks or .md files (default: the Chinese edition)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; list what would change, exit 1 if any")
    args = parser.parse_args(argv)
    paths = args.paths or DEFAULT
    touched = [p for p in paths if (needs_fix(p) if args.check else fix_file(p))]
    for path in touched:
        print(("would fix " if args.check else "fixed ") + str(path))
    return 1 if args.check and touched else 0


if __name__ == "__main__":
    sys.exit(main())
