"""The caching lesson's figures cannot drift: prose, README and bill agree with code.

- Every number in the prose of notebook 07 ("What you pay", from its first section
  to its key takeaways), of notebook 06's pointer to it and of notebook 04's caching
  subsection (both editions) is printed by a cell of that notebook.
- The README's caching tables and crossover figures (both editions) are what
  notebook 07 printed, and its compact row for seed 0 is what
  scripts/seed_sweep.py --compact computes now.
- An independent pricer (a list of earlier prompts compared token by token, no
  tree, no reuse between variants) bills the recorded requests as the course does,
  within 1 %, under variants of the price, the minimum, the expiry and the chance
  of a hit.
"""

import json
import re
import runpy
from pathlib import Path

import pytest

from tinyagent.course.billing import RecordingClient, tally
from tinyagent.course.catalogue import make_strategies
from tinyagent.course.cheapest import FULL, play, variant
from tinyagent.course.compare import compare
from tinyagent.course.evaluation import planted_dialog
from tinyagent.course.names import strategy_title
from tinyagent.course.prices import price_for
from tinyagent.course.sensitivity import STEADY
from tinyagent.offline.clock import Schedule
from tinyagent.offline.prompt_cache import flat, request_tokens

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = "notebooks/07_what_you_pay.ipynb"  # "What you pay"
NOTEBOOK_ZH = "notebooks/zh/07_what_you_pay.ipynb"
NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
# Code, links and HTML; and a notebook's or a section's number, which is no figure
CODE = re.compile(r"```.*?```|`[^`]*`|\]\([^)]*\)|<[^>]+>|^#+ \d+\.|notebooks? \d+"
                  r"|sections? \d+(?: and \d+)?|第 \d+(?:、\d+)? [课节]", re.S | re.M)
SECTIONS = {  # notebook -> (first heading of the section, the heading after it)
    # notebook 06's section 7 is now a pointer to notebook 07: it must stay figureless
    "notebooks/06_compare_strategies.ipynb": ("## 7. What you pay", "## 8."),
    "notebooks/zh/06_compare_strategies.ipynb": ("## 7. 实际付多少钱", "## 8."),
    NOTEBOOK: ("## 1. The rules", "## Key takeaways"),
    NOTEBOOK_ZH: ("## 1. 规则", "## 要点回顾"),
    "notebooks/04_summary_memory.ipynb": ("### The break-even turn, with prompt",
                                          "### When the summary is full"),
    "notebooks/zh/04_summary_memory.ipynb": ("### 算上提示词缓存的回本轮次",
                                             "### 摘要满了"),
}


def notebook(path: str) -> dict:
    return json.loads((ROOT / path).read_text(encoding="utf-8"))


def outputs(nb: dict) -> str:
    """Every text a code cell of the notebook printed or showed."""
    texts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            texts.append("".join(out.get("text", "")) + "".join(
                data.get("text/plain", "")))
    return "\n".join(texts)


def section(nb: dict, first: str, after: str) -> str:
    """The markdown prose from the heading `first` to the heading `after`, the
    headings' own cells cut there (a cell may hold the end of one section and the
    start of the next)."""
    cells, inside = [], False
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        if not inside and first in text:
            inside, text = True, text[text.index(first):]
        if inside and after in text:
            cells.append(text[:text.index(after)])
            break
        if inside:
            cells.append(text)
    assert cells, f"no section {first!r}"
    return CODE.sub(" ", "\n".join(cells))


def unprinted(prose: str, printed: str) -> list[str]:
    """The numbers of `prose` that no output printed."""
    digits = set(re.findall(r"\d[\d,]*(?:\.\d+)?", printed))
    return [n for n in NUMBER.findall(prose) if n.rstrip(",.") not in digits]


@pytest.mark.parametrize("path", list(SECTIONS))
def test_every_number_in_the_caching_prose_is_printed_by_a_cell(path):
    """No number in the section's prose that the notebook does not print."""
    nb = notebook(path)
    assert unprinted(section(nb, *SECTIONS[path]), outputs(nb)) == []


def test_the_check_catches_a_number_nobody_printed():
    """A prose figure absent from the outputs is reported; a printed one is not, and
    neither is a notebook's or a section's number (no figure), in either language."""
    assert unprinted("billed 73 % and 1,234 tokens", "73% ... 4,321") == ["1,234"]
    prose = CODE.sub(" ", "## 7. As notebook 06 and sections 2 and 3 say (第 04 课、"
                          "第 8 节), it costs 12")
    assert unprinted(prose, "nothing") == ["12"]


def test_a_section_is_cut_at_its_headings_inside_a_cell():
    """The prose before the closing heading, in the same cell, is read; the prose
    after it is not, nor the prose before the opening heading."""
    nb = {"cells": [{"cell_type": "markdown",
                     "source": ["intro 5\n## 1. The rules\n1"]},
                    {"cell_type": "code", "source": ["x = 7"]},
                    {"cell_type": "markdown",
                     "source": ["closing 33\n\n## Key takeaways\n\n- 44"]}]}
    prose = section(nb, "## 1. The rules", "## Key takeaways")
    assert unprinted(prose, "") == ["1", "33"]


def readme_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the README table whose header line starts with `header`."""
    lines = text[text.index(header):].splitlines()[2:]
    table = lines[:next((i for i, line in enumerate(lines)
                         if not line.startswith("|")), len(lines))]
    return [[c.strip() for c in line.strip("|").split("|")] for line in table]


READMES = {"README.md": (NOTEBOOK, "| strategy | recall |", "en"),
           "README.zh-CN.md": (NOTEBOOK_ZH, "| 策略 | 召回 |", "zh")}


@pytest.mark.parametrize("readme", list(READMES))
def test_the_readme_caching_table_and_crossovers_are_the_notebooks(readme):
    """The 50-turn table (every cell) and the summary's crossovers quoted in the
    README are in the stored output of notebook 07 ("What you pay") of the same
    language."""
    path, header, lang = READMES[readme]
    text = (ROOT / readme).read_text(encoding="utf-8")
    printed = outputs(notebook(path))
    rows = readme_rows(text, header)
    names = ["in-memory", "window 6", "summary 10/4", "hybrid 4/8"]
    assert [r[0] for r in rows] == [strategy_title(n, lang) for n in names]
    caption = "50 turns: tokens sent, and the input bill" if lang == "en" else \
        "50 轮：发送的 token 与输入账单"
    table = printed[printed.index(caption):]
    for row in rows:
        line = next(t for t in table.splitlines() if t.startswith(row[0] + " "))
        assert line.split()[-len(row) + 1:] == [c.replace(" ", "") for c in row[1:]]
    start = strategy_title("summary 10/4", lang) + ("：" if lang == "zh" else ":")
    summary = [line for line in printed.splitlines() if line.startswith(start)]
    quoted = re.findall(r"(\d+) ?%", text[text.index(header):])
    assert len(summary) >= 2
    for line in summary[:2]:  # minimum 256, then 1,024
        for figure in re.findall(r"(\d+) ?%", line):
            assert figure in quoted


def test_the_readme_seed_0_figures_are_the_notebooks_and_the_sweeps():
    """README's compact bills for seed 0 at 50 turns are what notebook 07 printed
    and what scripts/seed_sweep.py --compact records now (course/cheapest.py's
    play, under the rules it names), rule by rule."""
    sweep = runpy.run_path(str(ROOT / "scripts" / "seed_sweep.py"))
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    said = text[text.index("On seed 0 at 50 turns"):].split("of in-memory's")[0]
    quoted = dict(re.findall(r"([\w@.-]+) (\d+\.\d) %", said.replace("\n", " ")))
    assert list(quoted) == list(sweep["RULES"])
    printed = outputs(notebook(NOTEBOOK))
    table = printed[printed.index("50 turns, compact sized for each rule"):]
    for rule, figure in quoted.items():
        line = next(t for t in table.splitlines() if t.startswith(rule + " "))
        assert line.split()[5] == f"{figure}%"
    # compact_rows' runs, but for summary's and hybrid's (no part of this figure)
    played = play(50, 0, sweep["RULES"], (STEADY,), others=("inmemory",))

    def to_full(rule):  # Row.to_full, as tests/test_cheapest.py checks it
        bills = [played.bills(run, variant(rule), STEADY)[0]
                 for run in (played.compact[rule, STEADY.name], FULL)]
        return bills[0] / bills[1]
    assert {rule: f"{100 * to_full(rule):.1f}" for rule in sweep["RULES"]} == quoted


def independent_bill(run, share, minimum, expiry, hit, times, output_share):
    """The bill of a recorded run, priced from scratch: each prompt against the list
    of earlier ones still alive, token by token (any prefix, step 1)."""
    kept: list[tuple[tuple[int, ...], float]] = []  # (prompt, last used)
    total = 0.0
    for (body, _), at, call in zip(run, times, run.calls, strict=True):
        prompt = flat(request_tokens(body))
        kept = [(p, used) for p, used in kept if at - used <= expiry]
        best = max((next((i for i, (a, b) in enumerate(zip(prompt, p, strict=False))
                          if a != b), min(len(prompt), len(p))) for p, _ in kept),
                   default=0)
        read = best if best >= minimum else 0
        total += (len(prompt) + 3 - hit * read + hit * read * share
                  + call.output * output_share)
        kept = [(p, at if prompt[:len(p)] == p[:len(prompt)] and len(p) <= best
                 else used) for p, used in kept] + [(prompt, at)]
    return total


@pytest.fixture(scope="module")
def recorded():
    recorder = RecordingClient()
    compare(recorder, planted_dialog(20, 3).turns,
            make_strategies(recorder, ["inmemory", "window", "summary"]))
    return recorder.runs


@pytest.mark.parametrize("share,minimum,expiry,hit,pause",
                         [(0.1, 1024, 1e9, 1.0, 0), (0.5, 256, 300, 1.0, 30),
                          (0.02, 512, 120, 0.5, 60), (1.0, 4096, 1e9, 1.0, 0)])
def test_an_independent_pricer_agrees_within_one_percent(recorded, share, minimum,
                                                         expiry, hit, pause):
    """Re-priced by a naive pricer, the recorded requests of three memories cost
    what the course bills them, within 1 %, under each variant."""
    schedule = Schedule(pause, {11: 2700})
    for run in recorded:
        course = tally(run, "qwen", cached_share=share, min_tokens=minimum,
                       expiry_seconds=expiry, schedule=schedule,
                       hit_chance=hit).billed
        naive = independent_bill(run, share, minimum, expiry, hit,
                                 run.times(schedule), price_for("qwen").output_share)
        assert naive == pytest.approx(course, rel=0.01)
