"""How long each notebook takes, measured from the notebook itself, by one rule.

    python scripts/timings.py            # print the table
    python scripts/timings.py --write    # write it into the READMEs and "Time" lines

The rule (a careful learner, reading every word and every line, running every cell):

- prose: the words of the markdown cells, answers to the end-of-notebook questions
  included, at 180 words a minute (a careful read of technical text);
- code: the non-blank lines of the code cells at 12 lines a minute (read the line,
  run the cell, match what it does to what it printed);
- outputs: the lines the cells print at 40 lines a minute (tables and traces are read,
  not skimmed);
- exercises: 10 minutes for each checked one (write, run the check, fix, rerun) and
  10 for each open one (an exercise with no checker: think, write the answer down).

On your own is the sum, rounded up to 5 minutes. In a workshop the instructor runs
the cells and explains them, and the exercises are homework: prose at 180 words a
minute, code at 24 lines and outputs at 40 lines a minute, rounded up to 5 minutes.
The English notebook is measured; its Chinese twin has the same cells and exercises
and shows the same figures. A test keeps the README's table and every notebook's
"Time" line equal to this script's output.
Left out: the time to install the course, and a real model's latency.
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS_PER_MINUTE = 180
CODE_LINES_PER_MINUTE = 12
WORKSHOP_CODE_LINES_PER_MINUTE = 24
OUTPUT_LINES_PER_MINUTE = 40
CHECKED_EXERCISE_MINUTES = 10
OPEN_EXERCISE_MINUTES = 10
WORD = re.compile(r"[A-Za-z0-9][\w'’.-]*")
CHECK = re.compile(r"^check\(", re.M)
OPEN = re.compile(r"^#+ .*no checker", re.M)  # an exercise's heading says it
TIME_LINE = re.compile(r"^\*\*(Time|时长|时间)：?:?\*\*.*$", re.M)


@dataclass(frozen=True)
class Timing:
    """One notebook's measures and the minutes they add up to."""

    name: str  # "03_sliding_window"
    words: int
    code_lines: int
    output_lines: int
    checked: int  # exercises with a checker
    open: int  # exercises without one

    @property
    def exercise_minutes(self) -> int:
        return self.checked * CHECKED_EXERCISE_MINUTES + \
            self.open * OPEN_EXERCISE_MINUTES

    @property
    def on_your_own(self) -> int:
        return _round_up(self.words / WORDS_PER_MINUTE
                         + self.code_lines / CODE_LINES_PER_MINUTE
                         + self.output_lines / OUTPUT_LINES_PER_MINUTE
                         + self.exercise_minutes)

    @property
    def workshop(self) -> int:
        return _round_up(self.words / WORDS_PER_MINUTE
                         + self.code_lines / WORKSHOP_CODE_LINES_PER_MINUTE
                         + self.output_lines / OUTPUT_LINES_PER_MINUTE)


def _round_up(minutes: float) -> int:
    return 5 * math.ceil(minutes / 5)


def measure(path: Path) -> Timing:
    """Count a notebook's words, code lines, output lines and exercises."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    words = code = printed = checked = opened = 0
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":  # the "Time" line itself is not counted
            words += len(WORD.findall(TIME_LINE.sub("", source)))
            opened += len(OPEN.findall(source))
            continue
        code += sum(1 for line in source.splitlines() if line.strip())
        checked += len(CHECK.findall(source))
        for output in cell.get("outputs", []):
            text = output.get("text") or output.get("data", {}).get("text/plain", "")
            printed += len("".join(text).splitlines())
    return Timing(path.stem, words, code, printed, checked, opened)


def timings() -> list[Timing]:
    return [measure(p) for p in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))]


# A notebook's number -> its Chinese title, for README.zh-CN's table.
TITLES_ZH = {"00": "环境与导览", "01": "无状态的失败", "02": "全量记忆",
             "03": "滑动窗口", "04": "摘要记忆", "05": "混合记忆", "06": "策略对比",
             "07": "实际付多少钱", "08": "生产级记忆（上）", "09": "生产级记忆（下）",
             "10": "带到你的框架里"}


def table(rows: list[Timing], lang: str = "en") -> str:
    """The README's table: the measures, then the minutes (`lang`: its README's)."""
    zh = lang == "zh"
    head = ("| 课 | 英文词数 | 代码行 | 输出行 | 练习 | 自学 "
            "| 工作坊 |" if zh else
            "| notebook | words | code lines | output lines | exercises | on your own "
            "| in a workshop |")
    lines = [head, "|---|---|---|---|---|---|---|"]
    opened = " 个开放题" if zh else " open"
    for t in rows:
        title = TITLES_ZH[t.name[:2]] if zh and t.name[:2] in TITLES_ZH else \
            t.name[3:].replace("in_memory", "in-memory").replace("_", " ")
        exercises = f"{t.checked}" + (f" + {t.open}{opened}" if t.open else "")
        lines.append(f"| {t.name[:2]} {title} | {t.words:,} | "
                     f"{t.code_lines} | {t.output_lines} | {exercises} | "
                     f"{t.on_your_own} min | {t.workshop} min |")
    own, ws = sum(t.on_your_own for t in rows), sum(t.workshop for t in rows)
    lines.append(f"| **{'合计' if zh else 'all'}** | {sum(t.words for t in rows):,} | "
                 f"{sum(t.code_lines for t in rows):,} | "
                 f"{sum(t.output_lines for t in rows):,} | "
                 f"{sum(t.checked for t in rows)} + {sum(t.open for t in rows)}"
                 f"{opened} | **{own} min** | **{ws} min** |")
    return "\n".join(lines)


def time_line(t: Timing, lang: str) -> str:
    """A notebook's "Time" line in its language."""
    count = t.checked + t.open
    if lang == "zh":
        return (f"**时长：** 自学约 {t.on_your_own} 分钟（其中 "
                f"{t.exercise_minutes} 分钟做 {count} 个练习）；工作坊中由讲师"
                f"运行单元格，约 {t.workshop} 分钟（练习留作课后作业）。")
    return (f"**Time:** about {t.on_your_own} minutes on your own "
            f"({t.exercise_minutes} of them for the "
            f"{f'{count} exercises' if count > 1 else 'exercise'}); about "
            f"{t.workshop} in a workshop, where the instructor runs the cells and the "
            "exercises are homework.")


def with_time_line(text: str, t: Timing, lang: str) -> str:
    """A notebook's JSON with its "Time" line (first cell) as the rule gives it."""
    nb = json.loads(text)
    source = "".join(nb["cells"][0]["source"])
    source = TIME_LINE.sub(lambda _: time_line(t, lang), source, count=1)
    nb["cells"][0]["source"] = source.splitlines(keepends=True)
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def with_table(readme: str, rows: list[Timing], lang: str = "en") -> str:
    return re.sub(r"<!-- timings -->.*?<!-- /timings -->",
                  lambda _: f"<!-- timings -->\n{table(rows, lang)}\n<!-- /timings -->",
                  readme, flags=re.S)


def main(argv: list[str]) -> int:
    rows = timings()
    print(table(rows))
    if "--write" in argv:
        for t in rows:
            for folder, lang in (("", "en"), ("zh", "zh")):
                path = ROOT / "notebooks" / folder / f"{t.name}.ipynb"
                path.write_text(with_time_line(path.read_text(encoding="utf-8"), t,
                                               lang), encoding="utf-8")
        for name, lang in (("README.md", "en"), ("README.zh-CN.md", "zh")):
            readme = ROOT / name
            readme.write_text(with_table(readme.read_text(encoding="utf-8"), rows,
                                         lang), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
