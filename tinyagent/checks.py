"""The constructor checks every part of the package shares, in the user's language.

Introduced with the first size a learner passes (notebook 00's `max_steps`, notebook
03's `max_messages`). A wrong argument is a one-line ValueError raised at once,
naming the parameter, its value and the rule, in English or Chinese (`set_lang`, or
the object's own `lang`, read by lang.py's one rule): the agent, every memory
strategy and the production memories check their sizes with `check_size`. Left
out: the model client's numbers (settings.py checks those, where it reads them from
the environment).
"""

from __future__ import annotations

from typing import Literal

from .lang import Lang, say


def check_size(name: str, value: int, minimum: int, why: str, *,
               why_zh: str | None = None,
               lang: Lang | Literal["auto"] | None = None) -> None:
    """Constructor check shared by the strategies and the agent: one line naming
    the parameter, its value and the rule, in `lang` (`why_zh` is the rule in
    Chinese; None and "auto", with no customer's text yet: the setting). True and
    1.5 are not sizes."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(say(f"{name} must be an int (a whole number), got {value!r}",
                             f"{name} 必须是整数，当前为 {value!r}", lang))
    if value < minimum:
        rule = why_zh or why
        raise ValueError(say(f"{name} must be >= {minimum} ({why}), got {value}",
                             f"{name} 至少为 {minimum}（{rule}），当前为 {value}",
                             lang))
