"""Dialogs the course never plays: compression ratios, and four statements asked back.

    python scripts/holdout_dialogs.py                # ratios of the tuning dialogs
    python scripts/holdout_dialogs.py --held-out     # ratios of the held-out ones
    python scripts/holdout_dialogs.py --probes       # four statements, 30 turns later

Ratios: tests/phrasings/dialogs.py's twelve turns through SummaryChatMemory 10/4,
each compression's summary against the tokens of the messages it stands for (the
same measure as `python -m tinyagent.course.ratios`), in English and Chinese; the
targets are every compression at most 40 % and the last at most 33 %. Probes: four
statements (a delivery time, a refund's reason, a contact channel, a budget for one
purchase) open a conversation, 26 turns of a planted dialog follow (which states a
budget for another purchase), then the four are asked back; an answer counts when it
holds the statement's value. Offline model, through the agent.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from phrasings import dialogs  # noqa: E402

from tinyagent import ReActAgent  # noqa: E402
from tinyagent.course.catalogue import make_strategies  # noqa: E402
from tinyagent.course.planted import planted_dialog  # noqa: E402
from tinyagent.course.ratios import play  # noqa: E402
from tinyagent.llm import LlmClient  # noqa: E402
from tinyagent.memory import SummaryChatMemory  # noqa: E402
from tinyagent.tools import bitmall_tools  # noqa: E402

# (what is said, a probe, what the answer must hold), per language
STATED = {
    "en": [("Please send it in the evening, I'm only home after 7 pm.",
            "What time did I say to deliver?", "7 pm"),
           ("I'd like to return 90417 and get my money back: the left earbud cuts "
            "out every few minutes.", "Why did I want the refund?", "cuts out"),
           ("Reach me by email, please don't call my phone.",
            "How did I ask you to contact me?", "email"),
           ("If I buy another pair, I can spend 500 yuan at most.",
            "What was my budget again?", "500")],
    "zh": [("麻烦晚上再送，我只能晚上七点以后在家。", "我之前说几点以后送货来着？",
            "七点"),
           ("90417 我想退货退款：左耳耳机每隔几分钟就断一次。", "我为什么要退款来着？",
            "断一次"),
           ("请用邮件联系我，别给我打电话。", "我之前说怎么联系我来着？", "邮件"),
           ("要是再买一副，我最多花 500 元。", "我的预算是多少来着？", "500")],
}
MEMORIES = ["summary", "hybrid", "structured", "compact"]


def ratios(script: tuple[str, ...], lang: str) -> list[str]:
    llm = LlmClient(offline=True)
    lines, _ = play(llm, SummaryChatMemory(llm, 10, 4, lang=lang), script, lang)
    return lines


def probes(lang: str, seed: int = 0) -> dict[str, list[bool]]:
    """memory -> whether each statement's probe was answered with its value. The
    planted dialog states a delivery time and a contact channel of its own later:
    the same things, so its values replace those said first and count too; its
    budget is for another purchase, and its reason for another order: both stay."""
    llm = LlmClient(offline=True)
    said = STATED[lang]
    planted = planted_dialog(26, seed, lang)
    script = [s for s, _, _ in said] + list(planted.turns) + [p for _, p, _ in said]
    later = [planted.stated.get(kind, value) if kind in ("delivery", "contact")
             else value for kind, (_, _, value)
             in zip(("delivery", "reason", "contact", "budget"), said, strict=True)]
    found = {}
    for name, make in make_strategies(llm, MEMORIES).items():
        agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=make(),
                           verbose=False, lang=lang)
        answers = [agent.run(text) for text in script][-len(said):]
        found[name] = [value in a or new in a for (_, _, value), new, a
                       in zip(said, later, answers, strict=True)]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", action="store_true")
    parser.add_argument("--probes", action="store_true")
    args = parser.parse_args()
    for lang in ("en", "zh"):
        if args.probes:
            for seed in (0, 1, 2):
                for name, kept in probes(lang, seed).items():
                    print(f"{lang} seed {seed} {name:<16} {sum(kept)}/{len(kept)}")
            continue
        book = dialogs.HOLD_OUT if args.held_out else dialogs.DEV
        print(f"{'held-out' if args.held_out else 'tuning'} dialog, {lang}:")
        print("\n".join(ratios(book[lang], lang)))


if __name__ == "__main__":
    main()
