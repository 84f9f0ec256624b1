"""Numbers in prose come from code: each one is printed by a cell or a command.

A number a notebook's markdown states must be one the same notebook prints (its
outputs, and its code: a size the learner types is in a code cell), or one the
checker of an exercise it checks prints (a case, a hint), or the output of a
command the cell cites (tests/outputs/, recorded by scripts/record_outputs.py), or
a constant the package defines (CONSTANTS, each read from the code). A Chinese
notebook may also cite its English twin's code. The README is read block by block:
the figures under a command are checked against that command's output; every other
paragraph's numbers against CONSTANTS, or it is listed in README_ELSEWHERE with the
test that keeps it (the timing table, the core's size) or why it is no figure.
prose_numbers.py says what a claim is and what holds it. A drifted number fails,
naming the file, the cell or line, the number and the nearest printed ones.

What is left out, and why, is short and listed (NOT_CLAIMS): a year in a citation,
a status code's name, a date a model invented, quoted as it wrote it.
"""

import inspect
import json
import re
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest
from prose_numbers import Claim, claims, holds, nearest, printed, ratios

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
OUTPUTS = ROOT / "tests" / "outputs"
FILES = [*sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")),
         *sorted((NOTEBOOKS / "zh").glob("[0-9][0-9]_*.ipynb")),
         *sorted((NOTEBOOKS / "solutions").glob("[0-9][0-9]_*.ipynb"))]
# (notebook, number): not a quantity the course measures (both editions, solutions)
NOT_CLAIMS = {
    ("00_setup_and_tour", "2025"): "the year of a cited paper",
    ("04_summary_memory", "2019"): 'part of a date a small model made up ("2019-365"), '
                                  "quoted as it wrote it",
    ("04_summary_memory", "365"): "the same made-up date",
    ("04_summary_memory", "50"): '"from turn 1 to turn 50": how long a fact can last, '
                                 "an illustration",
    ("08_production_memory", "500"): "HTTP 500: a status code's name",
}


@cache
def constants() -> frozenset[Decimal]:
    """Numbers the package defines, as the prose may cite them: each read from the
    code, so a changed default changes what the prose may say."""
    from tinyagent import LlmClient, ReActAgent, bitmall_tools, count_messages_tokens
    from tinyagent.memory.budget import DEFAULT_SUMMARY_TOKENS
    from tinyagent.offline.cache_rules import get_rule

    agent = inspect.signature(ReActAgent).parameters
    client = inspect.signature(LlmClient).parameters
    found = {agent["max_tokens"].default, agent["max_steps"].default,
             DEFAULT_SUMMARY_TOKENS, get_rule("openai").min_tokens,
             get_rule("openai").step_tokens, get_rule("qwen").min_tokens,
             *(client[name].default for name in ("timeout", "max_retries",
                                                 "max_reply_tokens"))}
    for script in ("tinyagent/course/longrun.py", "tinyagent/course/soak.py",
                   "scripts/load_test.py"):
        source = (ROOT / script).read_text(encoding="utf-8")  # their options' defaults
        found |= {int(n) for n in re.findall(r"type=int, default=([\d_]+)", source)}
    from tinyagent.offline import prompt_cache  # what the offline provider keeps
    found |= {prompt_cache.BLOCK, prompt_cache.MAX_BLOCKS}
    for path in (ROOT / "tinyagent").rglob("*.py"):  # the bounded caches' sizes
        source = path.read_text(encoding="utf-8")
        found |= {int(n) for n in re.findall(r"lru_cache\(maxsize=(\d+)\)", source)}
    timing = (ROOT / "scripts" / "timings.py").read_text(encoding="utf-8")  # its rule
    found |= {int(n) for n in re.findall(r"^[A-Z_]+_MINUTES? = (\d+)$", timing, re.M)}
    from tinyagent.course import bench, planted
    from tinyagent.course.catalogue import STRATEGIES
    found |= {*bench.SIZES, planted.PROBE_SPAN, planted.FACT_TURNS, planted.FACT_SPAN}
    found |= {size for strategy in STRATEGIES.values()
              for size in strategy.sizes.values()}  # the course's memory sizes
    for lang in ("en", "zh"):  # what every call carries: system prompt, tool schemas
        tools = bitmall_tools(lang=lang)
        system = ReActAgent(LlmClient(offline=True), tools, verbose=False,
                            lang=lang).build_messages("")
        found.add(count_messages_tokens(system[:1]) + tools.schema_tokens())
    return frozenset(Decimal(n) for n in found)


def recorded(name: str) -> str:
    return (OUTPUTS / f"{name}.txt").read_text(encoding="utf-8")


@cache
def commands() -> dict[str, tuple[str, list[str]]]:
    """name -> (the command as cited, its arguments): scripts/record_outputs.py's."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "record_outputs", ROOT / "scripts" / "record_outputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.COMMANDS


def language(extra: list[str]) -> str:
    """The language a run plays: its `--lang`, else English (the recordings unset
    TINYAGENT_LANG)."""
    return extra[extra.index("--lang") + 1] if "--lang" in extra else "en"


def cited_outputs(text: str) -> str:
    """The recorded outputs of the commands `text` cites (with their arguments, if
    it names them; without, the command's plain run). A command cited only with
    `--lang X` in its own code span is held to its runs in that language: a Chinese
    figure is not held by the English run of the same command, unless the text
    cites the command without `--lang` too."""
    found = []
    for name, (cited, extra) in commands().items():
        if f"`{cited}" not in text:
            continue
        said = all(arg in text for arg in extra)
        spans = re.findall(r"`" + re.escape(cited) + r"[^`]*`", text)
        named = {lang for span in spans
                 for lang in re.findall(r"--lang (\w+)", span)}
        plain = any("--lang" not in span for span in spans)
        if (said or not extra) and (plain or not named or language(extra) in named):
            found.append(recorded(name))
    return "\n".join(found)


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def shown(cell: dict) -> str:
    """What a code cell holds and prints: its source, streams, plain text and HTML
    (tags out)."""
    parts = ["".join(cell["source"])]
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        parts.append("".join(out.get("text", "")) + "".join(data.get("text/plain", "")))
        parts.append(re.sub(r"<[^>]+>", " ", "".join(data.get("text/html", ""))))
    return "\n".join(parts)


def checked(source: str, lang: str) -> str:
    """What the checker of each exercise `source` checks prints: its cases and hints,
    in the notebook's language."""
    from tinyagent.course.exercises import CHECKS, _load_all
    from tinyagent.lang import speaking

    _load_all()

    def stub(*args, **kwargs):
        raise NotImplementedError
    lines = []
    for name in re.findall(r"""check\(\s*["'](\d\d\.\w+)["']""", source):
        with speaking(lang):
            lines += [f"{text}\n{hint}" for text, _, hint in CHECKS[name](stub)]
    return "\n".join(lines)


@cache
def notebook_numbers(path: Path) -> frozenset:
    """Every number `path` prints or holds in code, its checkers print, and the
    constants; a Chinese notebook also its English twin's code."""
    code = [c for c in cells(path) if c["cell_type"] == "code"]
    lang = "zh" if path.parent.name == "zh" else "en"
    text = "\n".join(shown(c) for c in code)
    text += checked("\n".join("".join(c["source"]) for c in code), lang)
    if lang == "zh":
        twin = NOTEBOOKS / path.name
        text += "\n".join("".join(c["source"]) for c in cells(twin)
                          if c["cell_type"] == "code")
    return frozenset(printed(text) | constants())


def unheld(path: Path, where: str | None = None) -> list[str]:
    """A report line for each number `path`'s prose states and nothing prints."""
    stem, where = path.stem, where or str(path.relative_to(ROOT))
    numbers = notebook_numbers(path)
    found = []
    for index, cell in enumerate(cells(path)):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        extra = printed(cited_outputs(text))
        held = numbers | extra if extra else numbers  # one set, read once, mostly
        for claim in claims(text):
            if (stem, claim.text) in NOT_CLAIMS or holds(claim, held):
                continue
            found.append(report(f"{where}, markdown cell {index}", claim, held))
    return found


def report(where: str, claim: Claim, numbers) -> str:
    return (f"{where}: {claim.text} in {claim.line[:100]!r} is printed by no cell or "
            f"command; the nearest printed: {', '.join(nearest(claim, numbers))}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_every_number_in_a_notebooks_prose_is_printed(path):
    """Each number a notebook's markdown states is printed by one of its cells (or
    its checker, or a command it cites), or is a constant read from the code."""
    assert unheld(path) == [], "\n" + "\n".join(unheld(path))


# -- the README: a block under a command, checked against that command's output
# Paragraphs whose numbers no command prints, by their first words: where they are
# kept, or why they are no figure.
README_ELSEWHERE = {
    "| notebook | words": "the timing table: tests/test_timings.py",
    "| 课 | 英文词数": "the timing table: tests/test_timings.py",
    "That core (memory/": "the core's size: tests/test_core_size.py",
    "这部分核心": "the core's size: tests/test_core_size.py",
    "| minutes | what |": "a workshop's plan, in minutes of the session",
    "| 分钟 | 内容 |": "a workshop's plan, in minutes of the session",
    "**The real-model check.**": "a real model's run on one machine, with its load",
    "**真实模型检查。**": "a real model's run on one machine, with its load",
    "Learners put the printed": "the room of the instructor notes (30 learners)",
    "**Flat over 10,000 turns.**": "a timing run (CPU seconds, RSS) on one machine, "
                                   "with its load: it varies from run to run, as "
                                   "`tinyagent bench` does; the command checks its "
                                   "own bar (1.5×)",
    "| memory (course sizes) |": "the same run's table",
    "**The background memory's add()": "the same command's timing of add()",
    "**一万轮也平稳。**": "a timing run (CPU seconds, RSS) on one machine",
    "| 记忆（课程里的大小） |": "the same run's table",
    "**后台记忆的 `add()`": "the same command's timing of add()",
    "**How many learners one server takes.**": "a real server's load test on one "
                                               "machine, with its load",
    "**一台服务器能带多少学员。**": "a real server's load test on one machine",
    "学员把打印出来的": "the room of the instructor notes (30 learners)",
}
# A duration, a download's size or a screen's width (seconds, minutes, MB, px): how
# long a command ran, what it fetches, the page a check sets up; a Python version; a
# year (of a citation); a count up to 12 (turns, compressions, probes: structure
# whose drift the notebook showing it catches).
NOT_FIGURES = re.compile(r"^\s*(?:(?:s|ms|min|minutes?|seconds?|hours?|MB|KB|GB|px|"
                         r"-minute)\b|秒|分钟|小时)|^-minute")  # no \b after Chinese


def not_a_figure(claim: Claim, after: str, before: str) -> bool:
    value = claim.text.replace(",", "")
    version = "." in value and re.search(r"`[a-z][\w-]*` $", before)  # `pkg` 0.24
    year = re.fullmatch(r"(?:19|20)\d\d", value)
    return bool(NOT_FIGURES.match(after) or before.endswith("Python ") or version
                or year) or (value.isdigit() and int(value) <= 12)


def paragraphs(text: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", text) if p.strip()]


def cited_notebooks(text: str, folder: Path = NOTEBOOKS) -> str:
    """The outputs of the notebooks a paragraph names ("notebook 06's", "第 06 课"),
    in `folder`: the Chinese README's figures are its Chinese notebooks'."""
    found = []
    for number in sorted(set(re.findall(r"(?:[Nn]otebooks? |第 )(\d\d)", text))):
        for path in sorted(folder.glob(f"{number}_*.ipynb")):
            found.append("\n".join(shown(c) for c in cells(path)
                                   if c["cell_type"] == "code"))
    return "\n".join(found)


def readme_blocks(text: str, folder: Path = NOTEBOOKS) -> list[tuple[str, str]]:
    """(a paragraph, the outputs it is checked against): a paragraph that cites a
    recorded command, or names a notebook (of `folder`), starts a block, which runs
    until the next bold title or heading; a paragraph in it that names other
    arguments of the command ("With `--budget 80`"), or cites another command, adds
    that run's output."""
    blocks, cited, named = [], "", ""
    for paragraph in paragraphs(text):
        if paragraph.startswith(("#", "**")):
            cited, named = "", ""
        if cited_outputs(paragraph):
            cited = f"{cited}\n{paragraph}"  # the block's commands, all of them
        named = cited_notebooks(paragraph, folder) or named
        outputs = cited_outputs(cited + paragraph) if cited else ""
        blocks.append((paragraph, outputs + "\n" + named))
    return blocks


def timings_table(text: str) -> str:
    """The README without its timing table (tests/test_timings.py keeps that)."""
    return re.sub(r"<!-- timings -->.*?<!-- /timings -->", "", text, flags=re.S)


@cache  # a block's paragraphs share their outputs: their numbers are read once
def readme_numbers(outputs: str) -> frozenset:
    """What holds a README figure: the numbers of the outputs it is checked against
    and the constants."""
    return printed(outputs) | constants()


def paragraph_ratios(paragraph: str, numbers: frozenset) -> frozenset:
    """The percentages that the paragraph's own printed numbers make of each other
    ("14 % (424 / 2,942)"): a ratio holds a figure only when the paragraph shows
    what it is computed from, not any two of a printout's numbers (those make
    almost every percentage)."""
    return ratios(printed(paragraph) & numbers)


@pytest.mark.parametrize("name", ["README.md", "README.zh-CN.md"])
def test_every_figure_in_the_readme_is_printed_by_its_command(name):
    """Each number in a README paragraph under a command is in that command's
    (recorded) output, or a percentage of two of them that the paragraph shows; a
    paragraph under none
    holds only constants, or says in README_ELSEWHERE which test keeps it."""
    full = (ROOT / name).read_text(encoding="utf-8")
    text = timings_table(full)
    found = []
    folder = NOTEBOOKS / "zh" if name == "README.zh-CN.md" else NOTEBOOKS
    for paragraph, outputs in readme_blocks(text, folder):
        if paragraph.lstrip().startswith(tuple(README_ELSEWHERE)):
            continue
        for claim in claims(paragraph):
            at = paragraph.find(claim.text)
            after, before = paragraph[at + len(claim.text):], paragraph[:at]
            if not_a_figure(claim, after, before) or holds(claim,
                                                           readme_numbers(outputs)):
                continue
            numbers = readme_numbers(outputs)
            numbers = numbers | paragraph_ratios(paragraph, numbers)
            if holds(claim, numbers):
                continue
            line = full[:full.index(claim.line)].count("\n") + 1 \
                if claim.line in full else 0
            found.append(report(f"{name}, line {line}", claim, numbers))
    assert found == [], "\n" + "\n".join(found)


def test_a_drifted_number_fails_naming_the_cell_and_what_is_printed(tmp_path):
    """The rule bites: notebook 08's "92 tokens into 60" changed to 93 in its prose
    is reported with the file, the cell and the printed numbers nearest it."""
    path = NOTEBOOKS / "08_production_memory.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    index = next(i for i, c in enumerate(notebook["cells"])
                 if c["cell_type"] == "markdown" and "## 2." in "".join(c["source"]))
    notebook["cells"][index]["source"].append("\nThe five lines held 93 tokens.\n")
    broken = tmp_path / "notebooks" / path.name
    broken.parent.mkdir()
    broken.write_text(json.dumps(notebook), encoding="utf-8")
    found = unheld(broken, "notebooks/08_production_memory.ipynb")
    assert len(found) == 1, found
    assert f"08_production_memory.ipynb, markdown cell {index}: 93 in" in found[0]
    assert "the nearest printed: 92" in found[0]


def test_approximate_numbers_and_formats_are_read_as_one_number():
    """1,234 and 1234 are one number, 12.3 % is 12.3, a figure said with fewer
    decimals is held by one that rounds to it, "about" allows 10 %; structure
    (section numbers, notebooks, exercises, code) is no claim."""
    numbers = printed("1234 12.34 0.5 2026-07-15")
    said = {c.text: holds(c, numbers) for c in claims(
        "## 3. Costs\n\nNotebook 04 and `max_tokens=99` aside: 1,234 tokens, "
        "12.3 %, 0.5, about 1,300, 1,300, on 2026-07-15 (06.tune_hybrid).")}
    assert said == {"1,234": True, "12.3": True, "0.5": True, "1,300": False,
                    "2026-07-15": True}
    assert [c.approximate for c in claims("about 1,300 and 1,300")] == [True, False]


@pytest.mark.parametrize("name", ["ratios", "ratios_zh"])
def test_a_cheap_commands_recording_is_what_it_prints_now(name, capsys):
    """The recordings of the cheap commands are kept fresh here (each runs in about
    a second): what the README checks is what the command prints today. The others
    take seconds to minutes: scripts/record_outputs.py re-records them, and its
    docstring says when."""
    from tinyagent.course import ratios

    cited, extra = commands()[name]
    assert cited == "python -m tinyagent.course.ratios"
    ratios.main(extra)
    lines = recorded(name).split("\n", 1)
    assert lines[0] == f"$ {' '.join([cited, *extra])}"
    assert capsys.readouterr().out == lines[1], (
        f"tests/outputs/{name}.txt is stale: run python scripts/record_outputs.py "
        f"{name}, then fix the figures the README quotes from it")


def test_a_command_cited_with_its_language_is_held_to_that_run():
    """`… --lang zh` in the command's own code span is checked against the Chinese
    run alone (an English figure fails there); the plain command against the
    English run; a `--lang zh` said apart ("With `--lang zh`"), or the command cited
    both ways, adds the Chinese run to the English one."""
    chinese = cited_outputs("`python -m tinyagent.course.evaluation --lang zh`")
    assert chinese == recorded("evaluation_zh")
    assert cited_outputs("`python -m tinyagent.course.evaluation`") == \
        recorded("evaluation")
    both = cited_outputs("`python -m tinyagent.course.ratios`; with `--lang zh`")
    assert both == recorded("ratios") + "\n" + recorded("ratios_zh")
    assert cited_outputs("`python -m tinyagent.course.evaluation --lang zh`; in "
                         "English, `python -m tinyagent.course.evaluation`") == \
        recorded("evaluation") + "\n" + recorded("evaluation_zh")
    english_only = printed(recorded("evaluation")) - printed(recorded("evaluation_zh"))
    claim = claims(f"`python -m tinyagent.course.evaluation --lang zh`: "
                   f"{max(n for n in english_only if not isinstance(n, str)):,}")[0]
    assert not holds(claim, printed(chinese))
