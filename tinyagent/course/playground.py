"""The playground: chat with the BitMall agent and watch its memory live.

Introduced in notebook 09. An ipywidgets app: a chat box and a Send button, a
strategy menu with a slider per parameter, "New conversation" (and a button that
brings the last one back: an accident is a click away), the transcript (the newest
turn in view), and a memory panel of what the next request carries (each message's
role and tokens, the summary highlighted) with a gauge of the last prompt against
the agent's budget. A new strategy or size keeps the conversation and rebuilds the
memory from it. Enter sends, as the button does (chatbox.py: every character, in
order). The status line, the gauge and an empty memory say their state in words.
It speaks the notebook's language (`set_lang("zh")`, or `lang=`): its labels, the
Chinese store, and Chinese summaries. Drive it from code with `pg.send("...")`;
`str(pg)` is a deterministic text view for tests and nbval. The live controls exist
only in the kernel that made them: displayed, it first prints a line saying to run
the cell again if they read as an error (a reopened notebook, a restarted kernel).
Left out: streaming answers, and persistence (sessions.py).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from ..agent import ReActAgent
from ..chat_model import LlmError
from ..lang import get_lang, say
from ..llm import LlmClient
from ..messages import ChatMessage, Role
from ..tokens import count_messages_tokens
from ..tools import bitmall_tools
from . import playground_view as view
from .catalogue import STRATEGIES
from .chatbox import ChatBox
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
        self.undo_button = w.Button(description=self._say(
            "Bring back the last conversation", "找回上一段对话"),
            layout=w.Layout(display="none"))  # shown after "New conversation"
        self._previous: tuple[Any, ...] | None = None  # what "New conversation" ended
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
        self.widget = view.layout(self)
        self.chat_box.on_send(self.send)
        self.new_button.on_click(lambda _button: self.restart())
        self.undo_button.on_click(lambda _button: self.bring_back())
        self.strategy_menu.observe(lambda _change: self._new_strategy(), names="value")
        self.history: list[ChatMessage] = []  # every message the memory was given
        self.turns: list[tuple[str, str]] = []
        self._new_strategy()

    def _say(self, en: str, zh: str) -> str:  # in the playground's own language
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
        """A new conversation with the chosen strategy and slider values; the one
        it ends can be brought back (`bring_back`) until the next turn is sent."""
        if self.turns:
            self._previous = (self.history, self.turns, self.refused,
                              self.last_prompt_tokens)
            self.undo_button.layout.display = None
        self.history, self.turns, self.refused = [], [], 0
        self.last_prompt_tokens = 0
        self.rebuild()

    def bring_back(self) -> None:
        """The conversation that "New conversation" ended, rebuilt in the memory."""
        if self._previous is not None:
            self.history, self.turns, self.refused, self.last_prompt_tokens = \
                self._previous
            self._forget_previous()
            self.rebuild()

    def _forget_previous(self) -> None:
        self._previous, self.undo_button.layout.display = None, "none"

    def rebuild(self) -> None:
        """The chosen strategy and sizes, holding the conversation so far: each
        message is given to the new memory again, as the agent gave it."""
        strategy = STRATEGIES[self.strategy_menu.value]
        parameters = {name: s.value for name, s in self.sliders.items()}
        # "window(max_messages=6)"; a strategy with no sizes by its title: "in-memory"
        name = strategy.title if self.lang == "zh" else self.strategy_menu.value
        self.setting = setting_title(name, parameters, self.lang) if parameters \
            else strategy_title(strategy.title, self.lang)
        self.problem = ""
        if not self.turns:
            self.refused, self.last_prompt_tokens = 0, 0
        try:  # a summary memory writes and fences its summary in the widget's language
            self.memory = strategy.make(self.llm, self.lang, **parameters)
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
                                verbose=False, lang=self.lang)
        self._refresh()

    # -- one turn
    def send(self, text: str | None = None) -> str | None:
        """Send `text` (or what the chat box holds); the answer, None if blank.
        The box is emptied either way: a blank message is not sent."""
        text = self.chat_box.value if text is None else text
        self.chat_box.value = ""
        if not text.strip():
            return None
        self._forget_previous()  # a new turn: the old conversation is gone for good
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
    def _refresh(self) -> None:
        self.status_text = view.status(self.problem, self.setting, len(self.turns),
                                       self.refused, self.lang)
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

    def _ipython_display_(self) -> None:
        """A line that outlives the kernel (a reopened notebook still shows it), then
        the live widget with its text view."""
        from IPython.display import display

        print(view.run_again(self.lang))
        bundle = self._repr_mimebundle_()
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        display(data, metadata=metadata, raw=True)
