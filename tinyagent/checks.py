"""The constructor checks every part of the package shares, in the user's language.

Introduced with the first size a learner passes (notebook 00's `max_steps`, notebook
03's `max_messages`). A wrong argument is a one-line ValueError raised at once,
naming the parameter, its value and the rule, in English or Chinese (`set_lang`, or
the object's own `lang`): the agent, every memory strategy and the production
memories check their sizes with `check_size`. Left out: the model client's numbers
(settings.py checks those, where it reads them from the environment).
"""

from __future__ import annotations

from .lang import get_lang, say


def error_lang(lang: str | None) -> str:
    """The language of a memory's errors: `lang`, or the package's (`set_lang`) for
    None and for "auto" (no customer has written yet when a constructor checks)."""
    chosen = get_lang() if lang in (None, "auto") else lang
    return "zh" if chosen == "zh" else "en"


def check_size(name: str, value: int, minimum: int, why: str, *,
               why_zh: str | None = None, lang: str | None = None) -> None:
    """Constructor check shared by the strategies and the agent: one line naming
    the parameter, its value and the rule, in `lang` (`why_zh` is the rule in
    Chinese). True and 1.5 are not sizes."""
    lang = error_lang(lang)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(say(f"{name} must be an int (a whole number), got {value!r}",
                             f"{name} 必须是整数，当前为 {value!r}", lang))
    if value < minimum:
        rule = why_zh or why
        raise ValueError(say(f"{name} must be >= {minimum} ({why}), got {value}",
                             f"{name} 至少为 {minimum}（{rule}），当前为 {value}",
                             lang))
