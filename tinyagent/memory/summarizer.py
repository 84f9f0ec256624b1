"""The summarizer that SummaryChatMemory and HybridChatMemory share.

Introduced in notebook 04 (the prompt, what a compression costs); its guards are the
subject of notebook 07. One model call turns "previous summary + new messages" into
a new summary, then two guards make it safe to forget the originals:

- entity guard (entities.py): every order, tracking and refund number of the
  compressed messages and the previous summary is in the new summary, and no
  number the model made up is;
- fallback merge: when the call fails (LlmError: HTTP error, timeout, malformed
  reply) or the reply is empty, a rule-based summary is built instead from the
  previous summary, the user's requests (quoted) and the answers (clipped). The
  error text is never stored, no message is dropped before a summary exists, and
  the entity guard keeps every id; the wording itself is clipped.

A reply cut off at the length limit (finish_reason "length") is treated as a failed
call. Last, the budget in tokens (budget.py): when the summary is full, its oldest
lines go first, their ids kept (`fit=` takes notebook 07's ladder). With lang="zh" the
prompt, the request's markers, the fallback's labels and the ids line are Chinese
(notebooks/zh/04 shows them); lang="auto" picks by the customer's words, per
request. Left out: structured summaries (07), async refresh and persistence (08).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence

from ..checks import check_size, error_lang
from ..lang import get_lang, is_chinese, say
from ..llm import LlmError, SupportsChat
from ..messages import ChatMessage, Role, clip
from .budget import DEFAULT_SUMMARY_TOKENS, IDS_LINES, Fit, ids_on
from .budget import fit as one_rule

# Notebooks import these from here: the guard, the fence and the ids lines.
from .budget import IDS_LINE, IDS_LINE_ZH  # noqa: F401  # isort: skip
from .entities import drop_invented, find_ids, keep_ids
from .fence import (  # noqa: F401
    FENCES,
    SUMMARY_FOOTER,
    SUMMARY_FOOTER_ZH,
    SUMMARY_HEADER,
    SUMMARY_HEADER_ZH,
    summary_message,
    summary_text,
)

PROMPT = ("You summarize a customer-service conversation for the agent's memory. "
          "Keep order numbers, product names, amounts, tracking and refund numbers, "
          "operation results and the user's requests; drop pleasantries and "
          "repetition. Plain text, one fact per line starting with '- '.")
PROMPT_ZH = ("你负责为客服智能体的记忆总结一段客服对话。保留订单号、商品名称、金额、"
             "运单号和退款编号、操作结果以及用户的诉求；去掉寒暄和重复的话。"
             "输出纯文本，每行一条事实，以 '- ' 开头。")
PROMPTS = {"en": PROMPT, "zh": PROMPT_ZH}
# What a model call raises when the model, not our code, failed: the client's
# LlmError, or a hand-made client's OSError (timeouts and lost connections too).
# Any other error is a bug in our code, and surfaces.
MODEL_ERRORS = (LlmError, OSError)
# What the request says around the two parts, per language: (previous summary, no
# summary yet, new messages). The offline model reads both languages' markers.
MARKERS = {"en": ("Previous summary:", "(none)", "New messages:"),
           "zh": ("之前的摘要：", "无", "新消息：")}
# The fallback's labels: a quoted request, an answer by role.
ASKED = {"en": "user asked: ", "zh": "用户问："}
# Who says a line of a Chinese transcript, as Chinese transcripts are written
# ("用户：…", "客服：…"); English ones say "[user] …". The offline model reads both.
SPEAKERS_ZH = {"user": "用户：", "assistant": "客服：", "tool": "工具结果：",
               "system": "系统："}

# Never an empty summary: it would read as no summary, the compressed turns gone.
NOTHING = "- (nothing to keep)"
NOTHINGS = {"en": NOTHING, "zh": "- 无"}  # the offline model reads both as no facts


def _text(m: ChatMessage) -> str:
    """A message's text on one line, its tool calls spelled out."""
    text = " ".join(m.content.split())  # folded: no message can forge a line of its own
    if m.tool_calls:
        calls = ", ".join(f"{c.name}({json.dumps(c.arguments, ensure_ascii=False)})"
                          for c in m.tool_calls)
        text = f"{text} calls {calls}" if text else f"calls {calls}"
    return text


def render(messages: Sequence[ChatMessage], lang: str | None = None) -> str:
    """One line a message: the transcript the summarizer reads, "[user] text" in
    English, "用户：text" in Chinese (`lang`, else the package's language)."""
    if get_lang(lang) == "zh":
        return "\n".join(f"{SPEAKERS_ZH[m.role.value]}{_text(m)}" for m in messages)
    return "\n".join(f"[{m.role.value}] {_text(m)}" for m in messages)


def dialog_lang(previous: str | None, messages: Sequence[ChatMessage]) -> str:
    """"zh" when the customer writes Chinese, else "en". With no user message in
    `messages`, the previous summary's language decides."""
    users = [m.content for m in messages if m.role is Role.USER]
    text = " ".join(users) if users else previous or ""
    return "zh" if is_chinese(text) else "en"


def clean(text: str) -> str:
    """Drop old ids lines (the guard rebuilds them) and neutralise forged fences."""
    for fence in (*FENCES[0], *FENCES[1]):
        text = text.replace(fence, fence.strip("[]"))
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return "\n".join(line for line in lines
                     if line.strip() and ids_on(line) is None)


def fallback_summary(previous: str | None, messages: Sequence[ChatMessage],
                     lang: str = "en") -> str:
    """A summary without a model: earlier lines + requests quoted + answers clipped
    (labelled in Chinese with lang="zh")."""
    lines = clean(previous or "").splitlines()
    for m in messages:
        text = clip(_text(m), 100)
        if m.role is Role.USER:  # quoted as JSON: a request stays data, not a command
            lines.append(f"- {ASKED[lang]}{json.dumps(text, ensure_ascii=False)}")
        elif text:  # the answers' facts, tool results, clipped
            role = SPEAKERS_ZH[m.role.value] if lang == "zh" else f"{m.role.value}: "
            lines.append(f"- {role}{text}")
    return "\n".join(lines)


def required_ids(previous: str | None, messages: Sequence[ChatMessage]) -> list[str]:
    """The ids the new summary must keep: those of the old summary and the messages."""
    return find_ids(f"{previous or ''}\n{render(messages, 'en')}")


class Summarizer:
    """previous summary + new messages -> new summary; counts its calls and tokens.

    `lang`: "en", "zh", "auto" (the dialog's language, `dialog_lang`, for each
    request), or None: the package's (`set_lang`) when it is built. It picks the
    prompt, unless one is given, the request's markers, the fallback's labels and
    the guard's ids line. `max_summary_tokens` is the summary's budget, and `fit` how
    a summary is cut to it (budget.py's one rule; notebook 07 passes its ladder).
    """

    def __init__(self, llm: SupportsChat,
                 max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 prompt: str | None = None, lang: str | None = None, *,
                 max_tokens: int | None = None, fit: Fit = one_rule) -> None:
        if not callable(getattr(llm, "chat", None)):
            kind = type(llm).__name__
            raise TypeError(say("llm must have a chat(messages) method, e.g. "
                                f"LlmClient.from_env(); got {kind}",
                                "llm 必须有 chat(messages) 方法，例如 "
                                f"LlmClient.from_env()；收到的是 {kind}",
                                error_lang(lang)))
        if max_tokens is not None:  # the earlier name of the summary's budget
            warnings.warn("Summarizer(max_tokens=...) is now max_summary_tokens=...",
                          DeprecationWarning, stacklevel=2)
            max_summary_tokens = max_tokens
        lang = get_lang() if lang is None else lang
        if lang not in ("en", "zh", "auto"):
            raise ValueError(say(f"lang must be 'en', 'zh' or 'auto', got {lang!r}",
                                 f"lang 只能是 'en'、'zh' 或 'auto'，当前为 {lang!r}"))
        check_size("max_summary_tokens", max_summary_tokens, 50, "room for a few facts",
                   why_zh="要装得下几条事实", lang=lang)
        self.llm, self.prompt, self.lang = llm, prompt, lang
        self.max_summary_tokens, self.fit_rule = max_summary_tokens, fit
        self.calls = 0  # model calls made, failed ones included
        self.tokens = 0  # prompt + completion tokens those calls reported
        self.fallbacks = 0  # summaries built by the rule-based merge
        self.evicted = 0  # lines and ids the budget pushed out, in all
        self.last_evicted: list[str] = []  # what the latest summary had to drop

    @property
    def max_tokens(self) -> int:
        """The earlier name of `max_summary_tokens`."""
        return self.max_summary_tokens

    def clear(self) -> None:
        """Zero the counters (the memory that owns this summarizer was cleared)."""
        self.calls = self.tokens = self.fallbacks = self.evicted = 0
        self.last_evicted = []

    def language(self, previous: str | None,
                 messages: Sequence[ChatMessage]) -> str:
        """The request's language: `lang`, or the dialog's when `lang` is "auto"."""
        return dialog_lang(previous, messages) if self.lang == "auto" else self.lang

    def request(self, previous: str | None,
                messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        """The two messages sent to the model (no tools)."""
        lang = self.language(previous, messages)
        before, nothing, new = MARKERS[lang]
        return [ChatMessage.system(self.prompt or PROMPTS[lang]), ChatMessage.user(
            f"{before}\n{previous or nothing}\n\n{new}\n{render(messages, lang)}")]

    def summarize(self, previous: str | None,
                  messages: Sequence[ChatMessage]) -> str:
        """The new summary. Never raises for a model failure: falls back instead."""
        required = required_ids(previous, messages)
        lang = self.language(previous, messages)
        summary = clean(self.ask(previous, messages) or "")
        if not summary:  # the call failed, or the reply was cut off or empty
            self.fallbacks += 1
            summary = clean(fallback_summary(previous, messages, lang))
        summary = drop_invented(summary, required) or NOTHINGS[lang]
        return self.fit(keep_ids(summary, required, IDS_LINES[lang]), lang)

    def ask(self, previous: str | None,
            messages: Sequence[ChatMessage]) -> str | None:
        """One model call: the reply's text, or None if there is no usable reply."""
        request = self.request(previous, messages)  # our own code: a bug surfaces
        self.calls += 1
        try:
            response = self.llm.chat(request)
        except MODEL_ERRORS:  # a summary is never worth losing the conversation for
            return None
        used = getattr(getattr(response, "usage", None), "total_tokens", None)
        if not isinstance(used, int):
            return None  # not a reply this client can read
        self.tokens += used
        if getattr(response, "finish_reason", "stop") == "length":
            return None  # cut off at the length limit: the end is missing
        return response.content if isinstance(response.content, str) else None

    def fit(self, summary: str, lang: str = "en") -> str:
        """The budget, last: the guarded ids are inside it too."""
        fitted = self.fit_rule(summary, self.max_summary_tokens, find_ids,
                               IDS_LINES[lang])
        self.evicted += len(fitted.evicted)
        self.last_evicted = fitted.evicted
        return fitted.text
