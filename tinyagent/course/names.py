"""What a strategy is called on screen: "hybrid 4/8" in English, "混合 4/8" in Chinese.

Used by the tables and plots of notebooks 02-06 (comparison.py, evaluation.py,
plots.py). A strategy's name is an id the code keys on ("hybrid 4/8"); its title is
what a person reads, in the notebook's language, with the Chinese notebooks' own
terms: 无记忆, 全量记忆, 窗口, token 窗口, 摘要, 混合, 结构化. A name it does not
know (the learner's own, "yours") is shown as it is. Left out: other languages.
"""

from __future__ import annotations

import re

from ..lang import get_lang

# The first word of a name -> its Chinese title; the sizes after it stay as written.
TITLES_ZH = {"none": "无记忆", "in-memory": "全量记忆", "window": "窗口",
             "tokens": "token 窗口", "summary": "摘要", "hybrid": "混合",
             "structured": "结构化", "useless": "无用摘要"}
NAME = re.compile(r"^(\S+)(.*)$")


def strategy_title(name: str, lang: str | None = None) -> str:
    """The title of strategy `name` in `lang` (default: the notebook's language).

    >>> strategy_title("hybrid 4/8", "zh"), strategy_title("hybrid 4/8", "en")
    ('混合 4/8', 'hybrid 4/8')
    """
    if get_lang(lang) != "zh":
        return name
    match = NAME.match(name)
    if match is None or match.group(1) not in TITLES_ZH:
        return name
    return TITLES_ZH[match.group(1)] + match.group(2)


__all__ = ["TITLES_ZH", "strategy_title"]
