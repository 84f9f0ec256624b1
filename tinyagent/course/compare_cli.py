"""`tinyagent compare`: every strategy on one script, in one table.

The terminal twin of notebook 06's first sections. The script is the six-turn demo
(English or Chinese), a text file of one user message a line, or the planted-fact
dialog of N turns; the strategies are the catalogue's command-line names.
`--provider` picks whose prompt cache the offline model plays and whose prices the
bill uses (online, the cached figures are the provider's own); `--cached-price`,
`--min-tokens` and `--expiry` put a learner's own provider's numbers in place of
the rule's, and `--pause` spaces the turns on the clock the cache expires by.
Everything it prints, strategy names included, is in the package's language
(`--lang`, TINYAGENT_LANG), and so are the dialog it plays and the store it plays
on. Left out: the plots and the recall evaluation (`python -m
tinyagent.course.evaluation`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..chat_model import LlmError
from ..lang import get_lang, say, text_width
from ..llm import LlmClient
from ..offline.cache_rules import RULES, with_numbers
from ..offline.clock import Schedule
from .catalogue import NAMES, SIX_TURNS, make_strategies
from .compare import compare
from .evaluation import planted_dialog, score
from .names import strategy_title, typed_with_title
from .terminal import say_error


def add_arguments(parser: argparse.ArgumentParser, lang: str | None = None) -> None:
    """compare's own options; --lang comes with every command (cli_args.py)."""
    def text(en: str, zh: str) -> str:
        return say(en, zh, lang)

    parser.add_argument("--script", type=Path, metavar="FILE", help=text(
        "a text file, one user message a line (default: the six-turn demo)",
        "文本文件，每行一条用户消息（默认：六轮演示对话）"))
    names = (*NAMES, "compact")  # and notebook 06's cache-aware one
    parser.add_argument("--strategies", default=",".join(names), metavar="LIST",
                        help=text(f"comma-separated from {', '.join(names)} "
                                  "(default: all)",
                                  "用英文逗号分隔，可选 "
                                  f"{typed_with_title(names, 'zh')}（默认：全部）"))
    parser.add_argument("--turns", type=int, metavar="N", help=text(
        "play the planted-fact dialog of N turns (notebook 06) instead of the demo",
        "改用 N 轮的埋入事实长对话（第 06 课），不用六轮演示对话"))
    parser.add_argument("--provider", choices=list(RULES), default=None, help=text(
        "whose prompt-cache rule (offline) and prices to bill at (default: "
        "TINYAGENT_CACHE_RULE, else qwen)",
        "按哪家的提示词缓存规则（离线时）和价格计费（默认："
        "TINYAGENT_CACHE_RULE，否则 qwen）"))
    parser.add_argument("--cached-price", type=share, metavar="P", help=text(
        "a cached token's price as a fraction of an input token's, e.g. 0.5 "
        "(default: the rule's)", "缓存命中的 token 价格占输入价格的比例，如 0.5"
        "（默认：规则里的）"))
    parser.add_argument("--min-tokens", type=count, metavar="N", help=text(
        "the shortest prefix the cache holds (default: the rule's)",
        "缓存生效的最短前缀 token 数（默认：规则里的）"))
    parser.add_argument("--expiry", type=seconds, metavar="SECONDS", help=text(
        "how long an unused prefix stays cached (default: the rule's)",
        "没用到的前缀在缓存里保留多久（默认：规则里的）"))
    parser.add_argument("--pause", type=count, metavar="SECONDS", default=0,
                        help=text("the customer's pause before each turn, on the "
                                  "offline clock (default 0)",
                                  "客户每轮之前停顿的秒数，按离线时钟计（默认 0）"))
    parser.add_argument("--answers", choices=["last", "all"], default="last",
                        help=text("print the answers to the last turn or to every "
                                  "turn", "打印最后一轮（last）或每一轮（all）的回答"))


def share(text: str) -> float:
    """--cached-price: a fraction from 0 to 1."""
    return _number(text, float, 0, 1, "a fraction of the input price from 0 to 1, "
                   "e.g. 0.5", "应为输入价格的比例，0 到 1 之间，如 0.5")


def count(text: str) -> int:
    """--min-tokens, --pause: a whole number, 0 or more."""
    return _number(text, int, 0, None, "a whole number, 0 or more",
                   "应为 0 或更大的整数")


def seconds(text: str) -> float:
    """--expiry: seconds, more than 0."""
    return _number(text, float, 1e-9, None, "seconds, more than 0", "应为大于 0 的秒数")


def _number(text: str, kind: type, low: float, high: float | None, en: str,
            zh: str) -> Any:
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(say(f"must be {en} (got {text!r})",
                                             f"{zh}（收到 {text!r}）"))
    return value


def _progress(name: str, turn: int, total: int) -> None:  # only on a terminal
    done = round(20 * turn / total)
    where = say(f"{name}: turn {turn}/{total}",
                f"{strategy_title(name)}：第 {turn}/{total} 轮")
    print(f"\r[{'#' * done}{'.' * (20 - done)}] {where}  ",
          end="\n" if turn == total else "", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """`tinyagent compare`: every strategy on one script, in one table."""
    lang = args.lang = get_lang(getattr(args, "lang", None))
    try:
        turns, dialog = SIX_TURNS[lang], None
        if getattr(args, "turns", None):
            dialog = planted_dialog(args.turns, lang=lang)
            turns = list(dialog.turns)
        if args.script:  # one user message a line; blank lines skipped
            lines = args.script.read_text(encoding="utf-8").splitlines()
            turns = [line.strip() for line in lines if line.strip()]
            if not turns:
                raise ValueError(say(f"{args.script} is empty: write one message a "
                                     "line", f"{args.script} 是空文件：请每行写一条"
                                     "消息"))
        llm = LlmClient.from_env()
        chosen = make_strategies(llm, [n.strip() for n in args.strategies.split(",")])
        titles = [strategy_title(label, lang) for label in chosen]
        print(f"{llm.describe(lang)}\n" + say(
            f"Strategies: {', '.join(titles)}; {len(turns)} turns.\n",
            f"策略：{'、'.join(titles)}；共 {len(turns)} 轮。\n", lang))
        rule = with_numbers(getattr(args, "provider", None) or llm.cache_rule,
                            cached_share=getattr(args, "cached_price", None),
                            min_tokens=getattr(args, "min_tokens", None),
                            expiry_seconds=getattr(args, "expiry", None))
        result = compare(llm, turns, chosen,
                         progress=_progress if sys.stderr.isatty() else None,
                         lang=args.lang, provider=rule,
                         schedule=Schedule(getattr(args, "pause", 0) or 0))
    except (OSError, ValueError, LlmError) as exc:  # a bad file or name; a failed call
        say_error(exc)
        return 1 if isinstance(exc, LlmError) else 2
    every = range(1, len(turns) + 1) if args.answers == "all" else [len(turns)]
    print(f"{result.tokens_table(lang=args.lang)}\n\n"
          f"{result.answers_table(70, every, lang=args.lang)}")
    if dialog is not None and not args.script:  # the headline: what each recalled
        print("\n" + say("Recall (ids / the customer's words):",
                         "召回（编号 / 顾客原话）：", lang))
        titles = [strategy_title(run.name, lang) for run in result.runs]
        width = max(map(text_width, titles))
        for title, strategy_run in zip(titles, result.runs, strict=True):
            scored = score(strategy_run, dialog)
            pad = " " * (width - text_width(title))
            print(f"  {title}{pad}  {sum(scored.recalled)}/{len(scored.recalled)}"
                  f"  {sum(scored.facts_recalled)}/{len(scored.facts_recalled)}")
    if len(turns) < 10:  # a summary compresses once or twice: it cannot pay yet
        print(say(f"\nOn {len(turns)} turns a summary has barely started; it pays "
                  "for itself on long dialogs: tinyagent compare --turns 50",
                  f"\n{len(turns)} 轮对话里摘要才刚开始压缩，要在长对话里才划算："
                  "tinyagent compare --turns 50", lang))
    return 0
