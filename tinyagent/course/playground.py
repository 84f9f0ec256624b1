"""The playground: chat with the BitMall agent and watch its memory live.

Introduced in notebook 07. An ipywidgets app: a chat box and a Send button, a
strategy menu with a slider for each of the strategy's parameters, the transcript,
and a memory panel showing what the next request will carry (each message's role
and tokens, the summary highlighted) with a gauge of the last prompt's tokens
against the agent's budget. Changing the strategy or a slider starts a new
conversation. It works with the offline model and with a real one.

Enter in the chat box sends, as the button does. The status line says which
strategy runs (or why none does) and how many turns were sent; the gauge shows its
number; an empty memory says so in words. It speaks the notebook's language
(`set_lang("zh")`, or `lang=`): its labels, the Chinese store, and for the summary
strategies Chinese summaries, fences and size errors.

It can be driven from code (`pg.chat_box.value = "..."; pg.send_button.click()`,
or `pg.send("...")`), and `str(pg)` is a deterministic text view for tests and
nbval. Left out: streaming answers, persistence (sessions.py), and styling.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from ..agent import ReActAgent
from ..llm import LlmClient, LlmError
from ..memory.display import SUMMARY_STYLE, memory_html, memory_lines
from ..messages import Role, clip
from ..tokens import count_message_tokens
from ..tools import bitmall_tools
from .catalogue import STRATEGIES
from .language import get_lang, say

# name -> {size parameter: (min, max, step)}; each slider starts at the course's size
RANGES: dict[str, dict[str, tuple[int, int, int]]] = {
    "window": {"max_messages": (2, 30, 1)},
    "tokens": {"max_tokens": (100, 4000, 100)},
    "summary": {"threshold": (4, 30, 1), "keep_recent": (2, 12, 1)},
    "hybrid": {"recent_size": (2, 20, 1), "summary_threshold": (3, 30, 1)},
    "structured": {"keep_recent_turns": (1, 8, 1), "batch_turns": (1, 8, 1)},
    "compact": {"high_tokens": (400, 4000, 100), "low_tokens": (100, 2000, 100)},
}
SUMMARIES = ("summary", "hybrid", "structured")  # the strategies that take `lang`
# HTML widgets use the controls' tall line height; text reads better closer, and wraps
PROSE = "line-height:1.4;white-space:normal"


class Playground:
    """`Playground(llm)`: display it in a notebook, or drive it from code."""

    def __init__(self, llm: LlmClient, strategy: str = "hybrid", *,
                 max_tokens: int = 8000, lang: str | None = None) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; choose one of "
                             f"{', '.join(STRATEGIES)}")
        self.llm, self.max_tokens, self.lang = llm, max_tokens, get_lang(lang)
        self.chat_box = w.Text(placeholder=self._say("Ask the BitMall clerk…",
                                                     "向比特严选客服提问…"),
                               description=self._say("You", "你"))
        self.send_button = w.Button(description=self._say("Send", "发送"),
                                    button_style="primary")
        self.strategy_menu = w.Dropdown(options=list(STRATEGIES), value=strategy,
                                        description=self._say("Memory", "记忆"))
        self.sliders: dict[str, w.IntSlider] = {}
        self.slider_box = w.VBox()
        # HTML, not Label: a Label never wraps, so a long warning would be cut off
        self.status = w.HTML()
        self.status_text = ""
        self.transcript = w.HTML()
        self.memory_panel = w.HTML()
        self.gauge = w.IntProgress(min=0, max=max_tokens,
                                   description=self._say("Prompt", "提示词"))
        self.gauge_label = w.Label()  # a progress bar alone shows no number
        def row(*children: w.Widget) -> w.HBox:  # on a narrow screen: wrap, not cut
            return w.HBox(children, layout=w.Layout(flex_flow="row wrap"))
        self.widget = w.VBox([row(self.strategy_menu, self.slider_box), self.status,
                              self.transcript, row(self.chat_box, self.send_button),
                              row(self.gauge, self.gauge_label), self.memory_panel])
        self.send_button.on_click(lambda _button: self.send())
        # Enter in the box: the browser sends a "submit" message (Text.on_submit,
        # the helper for it, is deprecated, so the message is handled directly)
        self.chat_box.on_msg(self._on_chat_message)
        self.strategy_menu.observe(lambda _change: self._new_strategy(), names="value")
        self._new_strategy()

    def _say(self, en: str, zh: str) -> str:
        return say(en, zh, self.lang)

    def _on_chat_message(self, _widget: Any, content: dict[str, Any],
                         _buffers: Any) -> None:
        if content.get("event") == "submit":
            self.send()

    # -- setting up a conversation
    def _new_strategy(self) -> None:
        strategy = STRATEGIES[self.strategy_menu.value]
        ranges = RANGES.get(self.strategy_menu.value, {})
        self.sliders = {name: w.IntSlider(value=value, min=ranges[name][0],
                                          max=ranges[name][1], step=ranges[name][2],
                                          description=name, continuous_update=False,
                                          style={"description_width": "initial"})
                        for name, value in strategy.sizes.items()}
        for slider in self.sliders.values():
            slider.observe(lambda _change: self.restart(), names="value")
        self.slider_box.children = tuple(self.sliders.values())
        self.restart()

    def restart(self) -> None:
        """A new conversation with the chosen strategy and slider values."""
        strategy = STRATEGIES[self.strategy_menu.value]
        parameters = {name: s.value for name, s in self.sliders.items()}
        self.turns: list[tuple[str, str]] = []
        self.last_prompt_tokens = 0
        args = ", ".join(f"{k}={v}" for k, v in parameters.items())
        self.setting = f"{self.strategy_menu.value}({args})"
        self.problem = ""
        # A summary memory writes, fences and explains itself in a language
        writes = self.strategy_menu.value in SUMMARIES
        options = {"lang": self.lang} if writes else {}
        try:
            self.memory = strategy.make(self.llm, **parameters, **options)
        except ValueError as error:  # e.g. keep_recent >= threshold: say why
            self.memory, self.problem = None, str(error)
        self.agent = ReActAgent(self.llm, bitmall_tools(lang=self.lang),
                                max_tokens=self.max_tokens, memory=self.memory,
                                verbose=False, labels=self.lang)
        self._refresh()

    # -- one turn
    def send(self, text: str | None = None) -> str | None:
        """Send `text` (or what the chat box holds); the answer, None if blank."""
        text = self.chat_box.value if text is None else text
        if not text.strip():
            return None
        self.chat_box.value = ""
        try:
            answer = self.agent.run(text)
        except LlmError as error:  # the turn failed; memory is as it was
            answer = self._say(f"(error: {error})", f"（出错了：{error}）")
        trace = self.agent.last_trace
        if trace is not None and trace.prompt_tokens:
            self.last_prompt_tokens = max(trace.prompt_tokens)
        self.turns.append((text, answer))
        self._refresh()
        return answer

    # -- what is shown
    def _status(self) -> str:
        if self.problem:
            head = self._say(f"⚠ {self.problem}. Using no memory until that is fixed.",
                             f"⚠ {self.problem}。改好之前不使用记忆。")
        else:
            started = (self._say("Conversation", "对话") if self.turns
                       else self._say("New conversation", "新对话"))
            head = f"{started}{self._say(': ', '：')}{self.setting}"
        count = len(self.turns)
        sent = self._say(f" · {count} turn{'s' * (count > 1)} sent",
                         f" · 已发送 {count} 轮")
        return head + (sent if count else "")

    def _refresh(self) -> None:
        self.status_text = self._status()
        text = html.escape(self.status_text)
        self.status.value = f"<div style='{PROSE}'>{text}</div>"
        you, agent = self._say("You:", "你："), self._say("Agent:", "客服：")
        self.transcript.value = f"<div style='{PROSE}'>" + ("".join(
            f"<p><b>{you}</b> {html.escape(q)}<br><b>{agent}</b> {html.escape(a)}</p>"
            for q, a in self.turns) or "<p><i>{}</i></p>".format(
                self._say("No messages yet.", "还没有消息。"))) + "</div>"
        self.gauge.value = min(self.last_prompt_tokens, self.max_tokens)
        share = self.last_prompt_tokens / self.max_tokens
        self.gauge.bar_style = "danger" if share >= 0.9 else (
            "warning" if share >= 0.6 else "success")
        self.gauge_label.value = self._say(
            f"{self.last_prompt_tokens:,} / {self.max_tokens:,} tokens in the last "
            "prompt", f"上一次提示词：{self.last_prompt_tokens:,} / "
            f"{self.max_tokens:,} token")
        self.memory_panel.value = f"<div style='{PROSE}'>{self.panel_html()}</div>"

    def panel_html(self) -> str:
        """The memory panel: the summary in full, then the memory's own table."""
        messages = self.memory.messages() if self.memory is not None else []
        if not messages:  # words, not a table with a header and no rows
            return (f"<b>{html.escape(self.panel_title())}</b>"
                    f"<p><i>{html.escape(self.empty_line())}</i></p>")
        title = self._say("Summary", "摘要")
        summary = "".join(f"<div style='{SUMMARY_STYLE};padding:4px'><b>{title}</b>"
                          f"<pre>{html.escape(m.content)}</pre></div>"
                          for m in messages if m.role is Role.SYSTEM)
        return summary + memory_html(messages, self.panel_title(), lang=self.lang)

    def panel_title(self) -> str:
        if self.memory is None:
            return self._say("Memory: none (every turn starts from scratch)",
                             "记忆：无（每一轮都从零开始）")
        messages = self.memory.messages()
        tokens = sum(count_message_tokens(m) for m in messages)
        extra = getattr(self.memory, "compression_count", None)
        if self.lang == "zh":
            return (f"记忆：{len(messages)} 条消息，{tokens} token"
                    + (f"，{extra} 次压缩" if extra is not None else ""))
        return (f"Memory: {len(messages)} messages, {tokens} tokens"
                + (f", {extra} compressions" if extra is not None else ""))

    def empty_line(self) -> str:
        if self.memory is None:
            return self._say(
                "Empty: with no memory, each request holds only the new question.",
                "空：没有记忆时，每次请求只带着新问题。")
        return self._say("Empty: nothing stored yet. Each turn you send appears here.",
                         "空：还没有存下任何内容。你发送的每一轮都会出现在这里。")

    def panel_text(self) -> str:
        """The memory panel as text: one line a message, the summary marked ★."""
        messages = self.memory.messages() if self.memory is not None else []
        if not messages:
            return f"{self.panel_title()}\n  ({self.empty_line()})"
        return "\n".join([self.panel_title(),
                          *memory_lines(messages, lang=self.lang)])

    def gauge_text(self, width: int = 20) -> str:
        filled = round(width * min(self.last_prompt_tokens / self.max_tokens, 1))
        label = self._say("Prompt tokens: ", "提示词 token：")
        return (f"{label}{self.last_prompt_tokens} / {self.max_tokens} "
                f"[{'#' * filled}{'.' * (width - filled)}]")

    def __str__(self) -> str:
        you, bot = self._say("you", "用户"), self._say("bot", "客服")
        turns = [f"{you}> {clip(q, 90)}\n{bot}> {clip(a, 90)}" for q, a in self.turns]
        return "\n".join([f"Playground · {self.status_text}", *turns,
                          self.gauge_text(), self.panel_text()])

    def __repr__(self) -> str:
        return f"Playground({self.strategy_menu.value!r}, turns={len(self.turns)})"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, with the deterministic text view as its text/plain."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = str(self)
        return bundle
