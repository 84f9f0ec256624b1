"""What a ReActAgent is given, checked: its language, its token budget, a message.

Introduced with the agent in notebook 00. The agent's constructor and `run()` call
these before any work, so a wrong argument is a one-line error naming it, raised at
once rather than at the first model call. Two keywords have older names that
notebooks and the course still pass, taken without a warning: `labels=` for `lang=`
and `max_tokens=` for `max_prompt_tokens=` (the prompt's budget; a reply's length
cap is the client's `max_reply_tokens`). Left out: checks of the tools' schemas
(tools/registry.py does those). Every message is in the agent's language (its
`lang`, or the package's setting for None and "auto").
"""

from __future__ import annotations

from .checks import check_size, error_lang
from .lang import say

AGENT_LANGS = ("en", "zh", "auto", None)
DEFAULT_PROMPT_TOKENS = 8000  # the budget notebook 02 watches a conversation grow to


def prompt_budget(max_prompt_tokens: int, max_tokens: int | None,
                  lang: str | None = None) -> int:
    """The prompt-token budget, checked; `max_tokens` is its older name (notebook 00
    passes it), taken without a warning."""
    name, budget = "max_prompt_tokens", max_prompt_tokens
    if max_tokens is not None:
        if max_prompt_tokens != DEFAULT_PROMPT_TOKENS:
            both = f"max_tokens={max_tokens!r}, max_prompt_tokens={max_prompt_tokens!r}"
            raise TypeError(say(f"max_tokens={max_tokens!r} is the older name of "
                                f"max_prompt_tokens={max_prompt_tokens!r}: pass "
                                "max_prompt_tokens only",
                                f"max_tokens 是 max_prompt_tokens 的旧名字，两个不能"
                                f"同时给（当前 {both}）：只传 max_prompt_tokens",
                                error_lang(lang)))
        name, budget = "max_tokens", max_tokens
    check_size(name, budget, 1, "a budget of prompt tokens",
               why_zh="提示词的 token 预算", lang=lang)
    return budget


def check_steps(max_steps: int, max_tool_calls_per_step: int,
                lang: str | None = None) -> None:
    """The agent's two counts, checked: a turn makes at least one model call, a
    step runs at least one tool call."""
    check_size("max_steps", max_steps, 1, "one model call",
               why_zh="每轮至少调用一次模型", lang=lang)
    check_size("max_tool_calls_per_step", max_tool_calls_per_step, 1,
               "one tool call", why_zh="每步至少执行一次工具调用", lang=lang)


def agent_lang(lang: str | None, labels: str | None = None) -> str | None:
    """The agent's `lang` checked; `labels` is its older name, meaning the same."""
    if labels is not None and lang is not None and labels != lang:
        raise TypeError(say(f"labels={labels!r} and lang={lang!r} disagree: pass lang "
                            "only", f"labels 是 lang 的旧名字，两者不一致（当前 "
                            f"labels={labels!r}, lang={lang!r}）：只传 lang"))
    lang = labels if lang is None else lang
    if lang not in AGENT_LANGS:
        raise ValueError(say(f"lang must be 'en', 'zh', 'auto' (each user message's) "
                             f"or None (the setting, set_lang), got {lang!r}",
                             "lang 只能是 'en'、'zh'、'auto'（跟随每条用户消息的语言）"
                             f"或 None（跟随 set_lang 的设置），当前为 {lang!r}"))
    return lang


def check_user_text(text: str, lang: str | None = None) -> None:
    """ValueError unless `text` is a non-empty user message that is valid UTF-8."""
    lang = error_lang(lang)
    if not isinstance(text, str) or not text.strip():
        raise ValueError(say(f"the user message must be non-empty text, got {text!r}",
                             f"用户消息不能为空，当前为 {text!r}", lang))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # bytes that were not UTF-8, decoded as surrogates
        raise ValueError(say("the user message is not valid UTF-8 text: save or type "
                             "it as UTF-8", "用户消息不是有效的 UTF-8 文本：请用 UTF-8 "
                             "编码保存或输入", lang)) from None
