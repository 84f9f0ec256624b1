"""The playground: chat with the BitMall agent and watch its memory live.

Introduced in notebook 07. An ipywidgets app: a chat box and a Send button, a
strategy menu with a slider for each of the strategy's parameters, a "New
conversation" button, the transcript (it scrolls, the newest turn in view), and a
memory panel showing what the next request will carry (each message's role and
tokens, the summary highlighted) with a gauge of the last prompt's tokens against
the agent's budget. Changing the strategy or a slider keeps the conversation and
rebuilds the memory from it. It works with the offline model and with a real one.

Enter in the chat box sends, as the button does (chatbox.py: every character, in
order). The status line says which strategy runs (or why none does), how many turns
were sent and how many the agent refused; the gauge shows its number, past the
budget too, in words as well as colour; an empty memory says so in words. It
speaks the notebook's language (`set_lang("zh")`, or `lang=`): its labels, the
Chinese store, and for the summary strategies Chinese summaries, fences and size
errors.

It can be driven from code (`pg.chat_box.value = "..."; pg.send_button.click()`,
or `pg.send("...")`), and `str(pg)` is a deterministic text view for tests and
nbval. Colours come from the notebook's theme (JupyterLab's --jp-* variables).
Left out: streaming answers, and persistence (sessions.py).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from ..agent import ReActAgent
from ..llm import LlmClient, LlmError
from ..messages import ChatMessage, Role
from ..tokens import count_messages_tokens
from ..tools import bitmall_tools
from . import playground_view as view
from .catalogue import STRATEGIES
from .chatbox import ChatBox
from .language import get_lang, say
from .names import (
    setting_title,
    size_title,
    sizes_in_words,
    strategy_title,
    typed_with_title,
)

# name -> {size parameter: (min, max, step)}; each slider starts at the course's size
RANGES: dict[str, dict[str, tuple[int, int, int]]] = {
    "window": {"max_messages": (2, 30, 1)},
    "tokens": {"max_tokens": (100, 4000, 100)},
    "summary": {"threshold": (4, 30, 1), "keep_recent": (2, 12, 1)},
    "hybrid": {"recent_size": (2, 20, 1), "summary_threshold": (3, 30, 1)},
    "structured": {"keep_recent_turns": (1, 8, 1), "batch_turns": (1, 8, 1)},
    "compact": {"high_tokens": (400, 4000, 100), "low_tokens": (100, 2000, 100)},
}
SUMMARIES = ("summary", "hybrid", "structured", "compact")  # they take `lang`


class Playground:
    """`Playground(llm)`: display it in a notebook, or drive it from code."""

    def __init__(self, llm: LlmClient, strategy: str = "hybrid", *,
                 max_tokens: int = 8000, lang: str | None = None) -> None:
        self.llm, self.max_tokens, self.lang = llm, max_tokens, get_lang(lang)
        if strategy not in STRATEGIES:
            raise ValueError(self._say(
                f"unknown strategy {strategy!r}; choose one of "
                f"{', '.join(STRATEGIES)}", f"没有叫 {strategy!r} 的策略：请从 "
                f"{typed_with_title(list(STRATEGIES), 'zh')} 中选择"))
        self.chat_box = ChatBox(placeholder=self._say("Ask the BitMall clerk…",
                                                      "向比特严选客服提问…"),
                                label=self._say("You", "你"),
                                description=self._say("Send", "发送"))
        # The Send button lives beside the box in the browser, so that what it sends
        # is what the box shows; `send_button.click()` presses it from code.
        self.send_button = self.chat_box
        self.new_button = w.Button(description=self._say("New conversation", "新对话"))
        self.strategy_menu = w.Dropdown(options=[(strategy_title(STRATEGIES[key].title,
                                                                 self.lang), key)
                                                 for key in STRATEGIES], value=strategy,
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
        self.widget = w.VBox([row(self.strategy_menu, self.slider_box, self.new_button),
                              self.status, self.transcript, self.chat_box,
                              row(self.gauge, self.gauge_label), self.memory_panel])
        self.widget.add_class("tinyagent-playground")  # keys stay in its controls
        self.chat_box.on_send(self.send)
        self.new_button.on_click(lambda _button: self.restart())
        self.strategy_menu.observe(lambda _change: self._new_strategy(), names="value")
        self.history: list[ChatMessage] = []  # every message the memory was given
        self.turns: list[tuple[str, str]] = []
        self._new_strategy()

    def _say(self, en: str, zh: str) -> str:
        return say(en, zh, self.lang)

    # -- setting up a conversation
    def _new_strategy(self) -> None:
        strategy = STRATEGIES[self.strategy_menu.value]
        ranges = RANGES.get(self.strategy_menu.value, {})
        self.sliders = {name: w.IntSlider(value=value, min=ranges[name][0],
                                          max=ranges[name][1], step=ranges[name][2],
                                          description=size_title(name, self.lang),
                                          tooltip=name, continuous_update=False,
                                          style={"description_width": "initial"})
                        for name, value in strategy.sizes.items()}
        for slider in self.sliders.values():
            slider.observe(lambda _change: self.rebuild(), names="value")
        self.slider_box.children = tuple(self.sliders.values())
        self.rebuild()

    def restart(self) -> None:
        """A new conversation with the chosen strategy and slider values."""
        self.history, self.turns, self.refused = [], [], 0
        self.last_prompt_tokens = 0
        self.rebuild()

    def rebuild(self) -> None:
        """The chosen strategy and sizes, holding the conversation so far: each
        message is given to the new memory again, as the agent gave it."""
        strategy = STRATEGIES[self.strategy_menu.value]
        parameters = {name: s.value for name, s in self.sliders.items()}
        self.setting = setting_title(strategy.title if self.lang == "zh"
                                     else self.strategy_menu.value, parameters,
                                     self.lang)
        self.problem = ""
        if not self.turns:
            self.refused, self.last_prompt_tokens = 0, 0
        # A summary memory writes, fences and explains itself in a language
        writes = self.strategy_menu.value in SUMMARIES
        options = {"lang": self.lang} if writes else {}
        try:
            self.memory = strategy.make(self.llm, **parameters, **options)
        except ValueError as error:  # e.g. keep_recent >= threshold: say why, in
            # the sliders' words (原样保留消息数, not keep_recent)
            self.memory, self.problem = None, sizes_in_words(str(error), self.lang)
        try:
            for message in self.history if self.memory is not None else []:
                self.memory.add(message)
        except LlmError as error:  # a summary call failed: say so, and how to go on
            self.memory, self.problem = None, self._say(
                f"the memory could not be rebuilt ({error}); press New conversation",
                f"记忆无法重建（{error}），请点“新对话”")
        self.agent = ReActAgent(self.llm, bitmall_tools(lang=self.lang),
                                max_tokens=self.max_tokens, memory=self.memory,
                                verbose=False, labels=self.lang)
        self._refresh()

    # -- one turn
    def send(self, text: str | None = None) -> str | None:
        """Send `text` (or what the chat box holds); the answer, None if blank.
        The box is emptied either way: a blank message is not sent."""
        text = self.chat_box.value if text is None else text
        self.chat_box.value = ""
        if not text.strip():
            return None
        self.agent.last_trace = None  # so a turn that raised leaves no trace
        try:
            answer = self.agent.run(text)
        except LlmError as error:  # the turn failed; memory is as it was
            answer = self._say(f"(error: {error})", f"（出错了：{error}）")
        except ValueError as error:  # text the agent cannot take: say so, keep none
            answer = self._say(f"(not sent: {error})", f"（未发送：{error}）")
        trace = self.agent.last_trace
        if trace is not None:
            self._record(trace)
        self.turns.append((text, answer))
        self._refresh()
        return answer

    def _record(self, trace: Any) -> None:
        """What the turn cost and what the memory was given, as the agent did it."""
        start = max(i for i, m in enumerate(trace.messages) if m.role is Role.USER)
        kept = trace.messages[start:] if self.agent.remember_tool_calls else [
            trace.messages[start]]
        self.history += [*kept, ChatMessage.assistant(trace.answer)]
        if trace.stop_reason == "token_budget":  # refused: the size it would have had
            self.refused += 1
            self.last_prompt_tokens = (count_messages_tokens(trace.messages)
                                       + self.agent.tools.schema_tokens())
        elif trace.prompt_tokens:
            self.last_prompt_tokens = max(trace.prompt_tokens)

    # -- what is shown
    def _status(self) -> str:
        if self.problem:
            head = self._say(f"⚠ {self.problem}. Using no memory until that is fixed.",
                             f"⚠ {self.problem}。改好之前不使用记忆。")
        else:
            started = (self._say("Conversation", "对话") if self.turns
                       else self._say("New conversation", "新对话"))
            head = f"{started}{self._say(': ', '：')}{self.setting}"
        refused = self.refused  # refused turns never reached the model
        count = len(self.turns) - refused
        sent = self._say(f" · {count} turn{'s' * (count != 1)} sent",
                         f" · 已发送 {count} 轮")
        no = self._say(f" · {refused} refused (over the token budget)",
                       f" · {refused} 轮被拒绝（超出 token 预算）")
        return head + (sent if self.turns else "") + (no if refused else "")

    def _refresh(self) -> None:
        self.status_text = self._status()
        self.status.value = view.prose(self.status_text)
        self.transcript.value = view.transcript_html(self.turns, self.lang)
        self.gauge.value = min(self.last_prompt_tokens, self.max_tokens)
        self.gauge.bar_style = view.bar_style(self.last_prompt_tokens, self.max_tokens)
        self.gauge_label.value = view.gauge_label(self.last_prompt_tokens,
                                                  self.max_tokens, self.lang)
        self.memory_panel.value = f"<div style='{view.PANEL}'>{self.panel_html()}</div>"

    def panel_html(self) -> str:
        """The memory panel: the summary in full, then the memory's own table."""
        return view.panel_html(self.memory, self.lang)

    def panel_text(self) -> str:
        """The memory panel as text: one line a message, the summary marked ★."""
        return view.panel_text(self.memory, self.lang)

    def __str__(self) -> str:
        gauge = view.gauge_text(self.last_prompt_tokens, self.max_tokens, self.lang)
        return view.text_view(self.status_text, self.turns, gauge, self.panel_text(),
                              self.lang)

    def __repr__(self) -> str:
        return f"Playground({self.strategy_menu.value!r}, turns={len(self.turns)})"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, with the deterministic text view as its text/plain."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = str(self)
        return bundle
