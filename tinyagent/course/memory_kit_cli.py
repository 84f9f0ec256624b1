"""`tinyagent grade`: the memory test kit in a terminal, and its table.

The terminal twin of notebook 10's last sections. `--memory` grades the course's
strategies through the Agents SDK bridge, `sqlite` the SDK's own SQLiteSession
(`--limit N`: with SessionSettings(limit=N)), and `--session MODULE:NAME` any
session of yours: a function in an importable module that returns an object with
the SDK's Session protocol (called with the kit's model client if it takes an
argument). The exit status is 1 when a session breaks one of the kit's rules. In
Chinese (--lang zh) the rows are named as the course's tables name them ("混合 4/8",
"SQLite 会话"), and so are the help and the errors.
`kit_table` is the table notebook 10 shows. Left out: a real model (the kit runs
offline; memory_kit.py says why).
"""

from __future__ import annotations

import argparse
import importlib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..lang import say
from .catalogue import STRATEGIES
from .names import LANG_NAMES, strategy_title, typed_with_title
from .table import Table

if TYPE_CHECKING:  # the kit imports the Agents SDK (a second or two): only on use
    from .memory_kit import Grade

# Whose summaries follow the dialog's language ("auto"); structured: the package's.
AUTO = {"summary", "hybrid", "compact"}
KIT_NAMES = [name for name in STRATEGIES if name != "none"]


def kit_table(grades: Sequence[Grade], lang: str | None = None) -> Table:
    """One row a session: recall in each language, peak, bill under each rule."""
    from .memory_kit import RULES

    langs = list(grades[0].recall) if grades else ["en"]
    header = [say("session", "会话", lang)]
    for code in langs:
        zh = LANG_NAMES[code].zh if code in LANG_NAMES else code
        header += [say(f"ids {code}", f"编号（{zh}）", lang),
                   say(f"facts {code}", f"事实（{zh}）", lang)]
    header += [say("peak tokens", "峰值 token", lang), say("bounded", "有界", lang),
               *[say(f"billed {r}", f"计费（{r}）", lang) for r in RULES],
               say("rules", "规则", lang)]
    rows = []
    for g in grades:
        row = [g.name]
        for code in langs:
            ids, of, facts, of_facts = g.recall[code]
            row += [f"{ids}/{of}", f"{facts}/{of_facts}"]
        row += [f"{g.peak_tokens:,}", say("yes", "是", lang) if g.bounded
                else say("no", "否", lang),
                *[f"{g.billed[r]:,.0f}" for r in RULES],
                say("ok", "通过", lang) if g.passed else
                "✗ " + say("; ", "；", lang).join(problem_text(p, lang)
                                                 for p in g.problems)]
        rows.append(row)
    first = LANG_NAMES[langs[0]].say(lang) if langs[0] in LANG_NAMES else langs[0]
    return Table(say(f"The memory test kit: the planted dialog with an injected "
                     f"instruction, offline (bill: the {first} run, in input-token "
                     "equivalents)",
                     f"记忆测试套件：埋入事实的对话，外加一条注入的指令，离线运行"
                     f"（计费按{first}对话算，折合输入 token）", lang), header, rows)


RULES_ZH = {"newest turn": "最新一轮", "tool pairs": "工具配对", "fence": "围栏"}


def problem_text(problem: str, lang: str | None = None) -> str:
    """A broken rule as the table says it: "newest turn (turn 1, en)", or in
    Chinese "最新一轮（第 1 轮，英文对话）"."""
    found = re.fullmatch(r"(.+) \(turn (\d+), (\w+)\)", problem)
    if found is None or say("en", "zh", lang) == "en":
        return problem
    rule, turn, code = found.groups()
    dialog = f"{LANG_NAMES[code].zh}对话" if code in LANG_NAMES else code
    return f"{RULES_ZH.get(rule, rule)}（第 {turn} 轮，{dialog}）"


def strategy(name: str) -> Any:
    """A factory the kit calls with its client: the course's sizes for `name`."""
    def make(llm: Any) -> Any:
        chosen = STRATEGIES[name]
        if name in AUTO:
            return chosen.build(llm, lang="auto", **chosen.sizes)
        return chosen.make(llm)
    make.__name__ = name
    return make


def imported(path: str) -> Any:
    """`module:name`, imported: the factory of a learner's own session (a bad
    `path` ends the command with one line, as a bad --memory does)."""
    module, _, name = path.partition(":")
    if not name:
        raise SystemExit(say(f"--session needs MODULE:NAME, got {path!r}",
                             f"--session 要写成 MODULE:NAME（模块和其中的函数），"
                             f"当前为 {path!r}"))
    return getattr(importlib.import_module(module), name)


def add_arguments(parser: argparse.ArgumentParser, lang: str | None = None) -> None:
    def text(en: str, zh: str) -> str:
        return say(en, zh, lang)

    parser.add_argument("--memory", default="inmemory,summary,hybrid,compact",
                        metavar="LIST", help=text(
                            f"comma-separated from {', '.join(KIT_NAMES)}, sqlite",
                            "用英文逗号分隔，可选 "
                            f"{typed_with_title(KIT_NAMES, 'zh')}、"
                            "sqlite（SDK 自带的 SQLite 会话）"))
    parser.add_argument("--limit", type=int, metavar="N", help=text(
        "sqlite with SessionSettings(limit=N)",
        "给 sqlite 加上 SessionSettings(limit=N)：每次运行只读最新的 N 个条目"))
    parser.add_argument("--session", action="append", default=[],
                        metavar="MODULE:NAME", help=text(
                            "a function returning your own SDK session",
                            "模块 MODULE 里返回你自己的 SDK 会话的函数 NAME"
                            "（可以给出多个）"))
    parser.add_argument("--turns", type=int, default=30, metavar="N", help=text(
        "turns of the planted dialog, at least 20 (default 30)",
        "埋入事实的对话有多少轮，至少 20（默认 30）"))
    parser.add_argument("--seed", type=int, default=0, help=text(
        "seed of the dialog (default 0)", "生成对话的随机种子（默认 0）"))


def run(args: argparse.Namespace) -> int:
    from agents import SessionSettings, SQLiteSession

    from .memory_kit import grade

    if args.turns < 20:
        raise SystemExit(say("--turns must be >= 20: the customer's facts are "
                             "planted from 20 turns", "--turns 至少为 20：对话不到 "
                             "20 轮时，不会埋入客户自己说的事实"))
    makers: dict[str, Any] = {}
    for name in filter(None, args.memory.split(",")):
        if name == "sqlite":
            limit = SessionSettings(limit=args.limit) if args.limit else None
            label = (say(f"sqlite limit {args.limit}",
                         f"SQLite 会话，限 {args.limit} 条") if args.limit
                     else say("sqlite", "SQLite 会话"))
            makers[label] = lambda limit=limit: SQLiteSession(
                "kit", session_settings=limit)
        elif name in KIT_NAMES:
            # the typed name in English, the table's title in Chinese ("混合 4/8")
            title = strategy_title(STRATEGIES[name].label, "zh")
            makers[say(name, title)] = strategy(name)
        else:
            raise SystemExit(say(f"unknown memory {name!r}: choose from "
                                 f"{', '.join(KIT_NAMES)}, sqlite",
                                 f"没有叫 {name} 的记忆：请从 "
                                 f"{typed_with_title(KIT_NAMES, 'zh')}、sqlite 中选择"))
    for path in args.session:
        makers[path] = imported(path)
    grades = [grade(make, label, args.turns, args.seed)
              for label, make in makers.items()]
    print(repr(kit_table(grades)))
    return 0 if all(g.passed for g in grades) else 1
