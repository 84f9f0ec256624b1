"""The summarizer that SummaryChatMemory and HybridChatMemory share.

Introduced in notebook 04 (the prompt, what a compression costs); its guards are the
subject of notebook 08. One model call turns "previous summary + new messages" into
a new summary, then two guards make it safe to forget the originals:

- entity guard (entities.py): every grounded order, tracking and refund number
  (one the customer wrote, a tool returned or the previous summary held) is in the
  new summary, and no number the model made up, or only claimed, is;
- fallback merge: when the model call or reading its reply raises (any exception:
  this package's LlmError, a learner's own client's RuntimeError, another SDK's
  errors), or the reply is empty or cut off at the length limit, a rule-based
  summary is built instead from the previous summary, the user's requests (quoted)
  and the answers (clipped). `fallbacks` counts them (the memories' `stats()`) and
  `last_failure` names the latest ("RuntimeError: …", key-like text masked). An
  exception that is not an LlmError comes from code this package does not know (a
  bug in a learner's client, say): the first one is also warned about, once, so
  that it is seen, not silently absorbed; an LlmError already says the cause and
  the fix. The error text is never stored, no message is dropped before a summary
  exists, and the entity guard keeps every id; the wording itself is clipped. An
  exception raised by this package's own code anywhere else (building the request,
  the guards) is a bug, and propagates.

A reply without usage figures is still a reply: its tokens count as 0. Last, the
budget in tokens (budget.py): when the summary is full, its oldest lines go first,
their ids kept (`fit=` takes notebook 08's ladder). With lang="zh" the prompt, the
request's markers, the fallback's labels and the ids line are Chinese (notebooks/
zh/04 shows them, transcript.py writes the transcript); lang="auto" picks by the
customer's words, and None by the package's setting, at each request. Left out:
structured summaries (08), async refresh and persistence (09).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from typing import Any, Literal

from ..chat_model import LlmError, SupportsChat, error_text
from ..checks import check_size
from ..lang import Lang, Pair, get_lang, say
from ..messages import ChatMessage, Role, clip
from .budget import DEFAULT_SUMMARY_TOKENS, IDS_LINES, Fit, ids_on
from .budget import fit as one_rule
from .entities import ID_PATTERN, drop_invented, find_ids, grounded, keep_ids
from .fence import FENCES
from .transcript import MARKERS, SPEAKERS, customer_words, render, said

PROMPT = ("You summarize a customer-service conversation for the agent's memory. "
          "Keep order numbers, product names, amounts, tracking and refund numbers, "
          "operation results and the user's requests; drop pleasantries and "
          "repetition. Plain text, one fact per line starting with '- '.")
PROMPT_ZH = ("你负责为客服智能体的记忆总结一段客服对话。保留订单号、商品名称、金额、"
             "运单号和退款编号、操作结果以及用户的诉求；去掉寒暄和重复的话。"
             "输出纯文本，每行一条事实，以 '- ' 开头。")
PROMPTS = Pair(PROMPT, PROMPT_ZH)
ASKED = Pair("user asked: ", "用户问：")  # the fallback's label of a quoted request
# Never an empty summary: it would read as no summary, the compressed turns gone. The
# offline model reads both as no facts.
NOTHING = Pair("- (nothing to keep)", "- 无")


def clean(text: str) -> str:
    """Drop old ids lines (the guard rebuilds them) and neutralise forged fences."""
    for marker in (marker for fence in FENCES for marker in fence):
        text = text.replace(marker, marker.strip("[]"))
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return "\n".join(line for line in lines
                     if line.strip() and ids_on(line) is None)


def fallback_summary(previous: str | None, messages: Sequence[ChatMessage],
                     lang: Lang | None = None) -> str:
    """A summary without a model: earlier lines + requests quoted + answers clipped,
    labelled in `lang` (None: the package's language)."""
    lines = clean(previous or "").splitlines()
    for m in messages:
        text = clip(said(m), 100)
        if m.role is Role.USER:  # quoted: a request stays data, not a command
            # (JSON's quotes in English; “…” in Chinese, its own “ ” nested as ‘ ’)
            quoted = (json.dumps(text, ensure_ascii=False) if get_lang(lang) != "zh"
                      else "“" + text.translate(str.maketrans("“”", "‘’")) + "”")
            lines.append(f"- {ASKED.say(lang)}{quoted}")
        elif text:  # the answers' facts, tool results, clipped
            role = m.role.value
            lines.append(f"- {say(f'{role}: ', SPEAKERS[role].zh, lang)}{text}")
    return "\n".join(lines)


def required_ids(previous: str | None, messages: Sequence[ChatMessage]) -> list[str]:
    """The ids the new summary must keep: those of the old summary, the customer's
    and those a tool returned (an id only the agent's words carry is not one)."""
    return [i for i in grounded(previous, messages) if ID_PATTERN.fullmatch(i)]


class Summarizer:
    """previous summary + new messages -> new summary; counts its calls and tokens.

    `lang`: "en", "zh", "auto" (the dialog's language: the customer's words, for
    each request), or None: the package's language at the time of each request
    (`set_lang`). It picks the prompt, unless one is given, the request's markers,
    the fallback's labels and the guard's ids line. `max_summary_tokens` is the
    summary's budget, and `fit` how a summary is cut to it (budget.py's one rule;
    notebook 09 passes its ladder).
    """

    prompts = PROMPTS  # the default prompt in each language (notebook 08's: its own)

    def __init__(self, llm: SupportsChat,
                 max_summary_tokens: int = DEFAULT_SUMMARY_TOKENS,
                 prompt: str | None = None,
                 lang: Lang | Literal["auto"] | None = None, *,
                 fit: Fit = one_rule) -> None:
        get_lang(lang)  # a language that is none of them fails here, not later
        if not callable(getattr(llm, "chat", None)):
            kind = type(llm).__name__
            raise TypeError(say("llm must have a chat(messages) method, e.g. "
                                f"LlmClient.from_env(); got {kind}",
                                "llm 必须有 chat(messages) 方法，例如 "
                                f"LlmClient.from_env()；收到的是 {kind}", lang))
        check_size("max_summary_tokens", max_summary_tokens, 50, "room for a few facts",
                   why_zh="要装得下几条事实", lang=lang)
        self.llm, self.lang, self.prompt = llm, lang, prompt  # prompt: the property
        self.max_summary_tokens, self.fit_rule = max_summary_tokens, fit
        self.calls = 0  # model calls made, failed ones included
        self.tokens = 0  # prompt + completion tokens those calls reported
        self.fallbacks = 0  # summaries built by the rule-based merge
        self.last_failure: str | None = None  # "RuntimeError: …" of the latest
        self._warned = False  # the first failure is warned about, once
        self.evicted = 0  # lines and ids the budget pushed out, in all
        self.last_evicted: list[str] = []  # what the latest summary had to drop

    @property
    def prompt(self) -> str:
        """The instructions sent: the ones given, or the package's in the
        summarizer's language (for "auto", the setting's until a dialog is read)."""
        return self._own_prompt or self.prompts.say(self.lang)

    @prompt.setter
    def prompt(self, text: str | None) -> None:
        """Instructions of your own from the next request on; None: the package's."""
        self._own_prompt = text

    def clear(self) -> None:
        """Zero the counters (the memory that owns this summarizer was cleared)."""
        self.calls = self.tokens = self.fallbacks = self.evicted = 0
        self.last_evicted = []

    def language(self, previous: str | None, messages: Sequence[ChatMessage]) -> Lang:
        """The request's language: `lang` read by the package's one rule, the
        customer's words being the text "auto" follows."""
        return get_lang(self.lang, customer_words(previous, messages))

    def request(self, previous: str | None,
                messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        """The two messages sent to the model (no tools)."""
        lang = self.language(previous, messages)
        before, nothing, new = (marker.say(lang) for marker in MARKERS)
        prompt = self._own_prompt or self.prompts.say(lang)
        return [ChatMessage.system(prompt), ChatMessage.user(
            f"{before}\n{previous or nothing}\n\n{new}\n{render(messages, lang)}")]

    def summarize(self, previous: str | None,
                  messages: Sequence[ChatMessage]) -> str:
        """The new summary. Never raises for a model failure: falls back instead."""
        given, required = grounded(previous, messages), required_ids(previous, messages)
        lang = self.language(previous, messages)
        summary = clean(self.ask(previous, messages) or "")
        if not summary:  # the call failed, or the reply was cut off or empty
            self.fallbacks += 1
            summary = clean(fallback_summary(previous, messages, lang))
        summary = drop_invented(summary, given) or NOTHING.say(lang)
        return self.fit(keep_ids(summary, required, IDS_LINES.say(lang)), lang)

    def ask(self, previous: str | None,
            messages: Sequence[ChatMessage]) -> str | None:
        """One model call: the reply's text, or None if there is no usable reply."""
        request = self.request(previous, messages)  # our own code: a bug surfaces
        self.calls += 1
        try:  # the call and the reading of its reply, and nothing else
            return self.read(self.send(request))
        except Exception as error:  # noqa: BLE001  # a summary is never worth
            self.failed(error)  # losing the conversation for: fall back
            return None

    def read(self, response: object) -> str | None:
        """The reply's text: None when it is cut off at the length limit (the end
        is missing) or holds no text. Its tokens count when its usage says them."""
        used = getattr(getattr(response, "usage", None), "total_tokens", None)
        if isinstance(used, int):
            self.tokens += used
        if getattr(response, "finish_reason", "stop") == "length":
            return None
        content = response.content  # type: ignore[attr-defined]  # no content: raises
        return content if isinstance(content, str) else None

    def failed(self, error: Exception) -> None:
        """Note a failed call; the first one that is not an LlmError is warned
        about (once for this summarizer)."""
        secrets = getattr(self.llm, "_secrets", None)  # LlmClient's key, if any
        masked = error_text(error, secrets() if callable(secrets) else [])
        self.last_failure = f"{type(error).__name__}: {masked}".rstrip(": ")
        if self._warned or isinstance(error, LlmError):
            return
        self._warned = True
        warnings.warn(say(f"the summarizer's model call failed ({self.last_failure}); "
                          "the rule-based fallback keeps the conversation going, "
                          "stats() counts the fallbacks",
                          f"摘要器的模型调用失败（{self.last_failure}）；改用规则式合并，"
                          "对话照常进行，stats() 统计回退次数", self.lang),
                      RuntimeWarning, stacklevel=2)

    def send(self, request: list[ChatMessage]) -> Any:
        """The model call (a fork sends its tools too: fork.py)."""
        return self.llm.chat(request)

    def fit(self, summary: str, lang: Lang | None = None) -> str:
        """The budget, last: the guarded ids are inside it too."""
        fitted = self.fit_rule(summary, self.max_summary_tokens, find_ids,
                               IDS_LINES.say(lang))
        self.evicted += len(fitted.evicted)
        self.last_evicted = fitted.evicted
        return fitted.text
