"""What a ReActAgent is given, checked: its language, its token budget, a message.

Introduced with the agent in notebook 00. The agent's constructor and `run()` call
these before any work, so a wrong argument is a one-line error naming it, raised at
once rather than at the first model call. Two keywords have older names that
notebooks and the course still pass, taken without a warning: `labels=` for `lang=`
and `max_tokens=` for `max_prompt_tokens=` (the prompt's budget; a reply's length
cap is the client's `max_reply_tokens`). Left out: checks of the tools' schemas
(tools/registry.py does those).
"""

from __future__ import annotations

from .checks import check_size

AGENT_LANGS = ("en", "zh", "auto", None)
DEFAULT_PROMPT_TOKENS = 8000  # the budget notebook 02 watches a conversation grow to


def prompt_budget(max_prompt_tokens: int, max_tokens: int | None) -> int:
    """The prompt-token budget, checked; `max_tokens` is its older name (notebook 00
    passes it), taken without a warning."""
    name, budget = "max_prompt_tokens", max_prompt_tokens
    if max_tokens is not None:
        if max_prompt_tokens != DEFAULT_PROMPT_TOKENS:
            raise TypeError(f"max_tokens={max_tokens!r} is the older name of "
                            f"max_prompt_tokens={max_prompt_tokens!r}: pass "
                            "max_prompt_tokens only")
        name, budget = "max_tokens", max_tokens
    check_size(name, budget, 1, "a budget of prompt tokens")
    return budget


def agent_lang(lang: str | None, labels: str | None = None) -> str | None:
    """The agent's `lang` checked; `labels` is its older name, meaning the same."""
    if labels is not None and lang is not None and labels != lang:
        raise TypeError(f"labels={labels!r} and lang={lang!r} disagree: pass lang only")
    lang = labels if lang is None else lang
    if lang not in AGENT_LANGS:
        raise ValueError(f"lang must be 'en', 'zh', 'auto' (each user message's) or "
                         f"None (the setting, set_lang), got {lang!r}")
    return lang


def check_user_text(text: str) -> None:
    """ValueError unless `text` is a non-empty user message that is valid UTF-8."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"the user message must be non-empty text, got {text!r}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # bytes that were not UTF-8, decoded as surrogates
        raise ValueError("the user message is not valid UTF-8 text: save or type "
                         "it as UTF-8") from None
