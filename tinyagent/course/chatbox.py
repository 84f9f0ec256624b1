"""The playground's chat box: a text box and a Send button that never drop a word.

Introduced with the playground in notebook 09. A widget's value travels to the kernel
as state, and the widget library holds state back while the kernel is busy, merging
what piles up; a click or an Enter travels at once as a message. So with a stock text
box and button, Enter could overtake the last keystrokes ("W" sent for "Where is…"),
and quick sends could merge. Here the browser puts the text the learner sees into the
submit message itself, then clears the box: each send arrives whole, once, in order.
Enter that confirms an input method's composition (Chinese, Japanese) does not send.
Keys typed here stay here: the notebook's shortcuts (arrows move between cells) are
suppressed in the controls of an element of class `tinyagent-playground` (the
playground adds it), and Shift+Enter there neither runs the cell again nor presses
a button. The CSS below gives its controls a 3 px focus ring, a placeholder of
4.5:1 or more in either theme, and a gauge and slider tracks drawn in forced colours.

From code, `box.value = "…"; box.click()` sends as the button does. The button says
"Send", or "发送" in Chinese (`set_lang`), unless `description=` says otherwise. Left
out: a
multi-line box, and history (arrow up to recall a sent message).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from ..lang import say

# The browser side: an ES module, as anywidget loads it (no build step, no network).
ESM = r"""
const KEYS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End",
              "PageUp", "PageDown", "Enter", " "];
function keepKeys(event) {
  // The notebook reads arrows, Enter and letters as commands to move between cells;
  // inside the playground they belong to its controls. The attribute on the control
  // turns off the notebook's shortcuts for keys pressed in it (Lab and Notebook 7
  // both honour it; a click outside the playground brings them back); keys also
  // stop as they bubble out of the playground, after the control has acted on them.
  const box = event.target.closest?.(".tinyagent-playground");
  if (!box) return;
  event.target.setAttribute?.("data-lm-suppress-shortcuts", "true");
  if (box.dataset.tinyagentKeys) return;
  box.dataset.tinyagentKeys = "true";
  box.addEventListener("keydown", (e) => {
    const modified = e.shiftKey || e.ctrlKey || e.altKey || e.metaKey;
    if (KEYS.includes(e.key) && !modified) e.stopPropagation();
    if (e.key === "Enter" && modified) {
      // Shift+Enter runs a cell in the notebook: here it must neither run the
      // playground's cell again (a new playground) nor press a focused button
      // ("New conversation"): plain Enter, or Space, presses a button.
      e.stopPropagation();
      if (e.target.closest?.("button")) e.preventDefault();
    }
  });
}
if (!window.__tinyagentKeys) {
  window.__tinyagentKeys = true;
  document.addEventListener("focusin", keepKeys, true);
  document.addEventListener("pointerdown", keepKeys, true);
}

function render({ model, el }) {
  el.classList.add("tinyagent-chat");
  el.setAttribute("data-lm-suppress-shortcuts", "true");
  const label = document.createElement("label");
  const input = document.createElement("input");
  input.type = "text";
  input.className = "tinyagent-chat-input";
  label.append(input);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "tinyagent-chat-send";
  const words = document.createElement("span");
  label.prepend(words);
  const show = () => {
    words.textContent = model.get("label");
    input.placeholder = model.get("placeholder");
    button.textContent = model.get("description");
  };
  const fill = () => { input.value = model.get("value"); };
  show(); fill();
  model.on("change:label change:placeholder change:description", show);
  model.on("change:value", fill);
  function submit() {
    const text = input.value;
    input.value = "";  // blank or not, the box is empty once sent
    if (text.trim()) model.send({ event: "submit", text });
    input.focus();
  }
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    // Enter that confirms a composition (isComposing, key code 229) is not a send
    if (event.key === "Enter" && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      submit();
    }
  });
  button.addEventListener("click", submit);
  el.append(label, button);
}
export default { render };
"""

# Colours and focus from the notebook's theme (JupyterLab's --jp-* variables), so they
# read in the light and the dark theme; the fallbacks serve other front ends.
CSS = """
.tinyagent-chat { display: flex; flex-wrap: wrap; gap: 6px; align-items: center;
  margin: 4px 0; }
.tinyagent-chat label { display: flex; flex: 1 1 18em; gap: 6px; align-items: center;
  color: var(--jp-ui-font-color1, inherit); }
.tinyagent-chat-input { flex: 1 1 auto; min-width: 10em; padding: 4px 6px;
  font: inherit; color: var(--jp-ui-font-color0, inherit);
  background: var(--jp-input-background, transparent);
  border: 1px solid var(--jp-border-color1, #888); }
.tinyagent-chat-send { padding: 4px 14px; font: inherit; cursor: pointer;
  color: #fff;  /* on the brand blue: 4.6:1 or more in both themes */
  background: var(--jp-brand-color0, #0d47a1); border: 1px solid transparent; }
.tinyagent-playground :is(input, select, button, textarea, .noUi-handle):focus-visible
  { outline: 3px solid var(--jp-brand-color1, #1976d2); outline-offset: 2px; }
/* ipywidgets draws its dropdown's focus as a 1 px border, and its rule is the more
   specific one: the ring must win, or a keyboard user loses track of the menu. */
.tinyagent-playground .widget-dropdown > select:focus-visible
  { outline: 3px solid var(--jp-brand-color1, #1976d2) !important;
    outline-offset: 2px; }
/* The hint in the empty box: the theme's text colour, a little lighter, so it reads
   as a hint and still passes 4.5:1 (about 5.9:1 in the dark theme, 8:1 in the light;
   Lab's own rule, --jp-ui-font-color2, gives 4.2:1 in the dark one, so this wins). */
.tinyagent-chat .tinyagent-chat-input::placeholder {
  color: var(--jp-ui-font-color1, #444) !important; opacity: 0.8; }
/* Forced colours (Windows High Contrast) drop backgrounds: the gauge and the
   sliders' tracks would vanish. Draw them with system colours instead. */
@media (forced-colors: active) {
  .tinyagent-playground :is(.progress, .noUi-target)
    { border: 1px solid CanvasText !important; }
  .tinyagent-playground :is(.progress-bar, .noUi-connect)
    { forced-color-adjust: none; background: Highlight !important; }
  .tinyagent-playground .noUi-handle
    { forced-color-adjust: none; background: ButtonText !important;
      border: 1px solid ButtonText !important; }
}
"""


class ChatBox(anywidget.AnyWidget):
    """A one-line chat box with its Send button; `on_send(f)` calls f(text)."""

    _esm = traitlets.Unicode(ESM).tag(sync=True)
    _css = traitlets.Unicode(CSS).tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)  # text set from code, shown in it
    label = traitlets.Unicode("").tag(sync=True)  # the words before the box
    placeholder = traitlets.Unicode("").tag(sync=True)
    description = traitlets.Unicode("Send").tag(sync=True)  # the button's words

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("description", say("Send", "发送"))  # the package's language
        super().__init__(**kwargs)
        self._senders: list[Callable[[str], object]] = []
        self.on_msg(self._on_message)

    def on_send(self, callback: Callable[[str], object]) -> None:
        """Call `callback(text)` with each message the learner sends."""
        self._senders.append(callback)

    def click(self) -> None:
        """Send what the box holds, as pressing Send does; the box is cleared."""
        text, self.value = self.value, ""
        if text.strip():
            self._deliver(text)

    def _deliver(self, text: str) -> None:
        for callback in self._senders:
            callback(text)

    def _on_message(self, _widget: Any, content: dict[str, Any],
                    _buffers: Any) -> None:
        if content.get("event") == "submit" and isinstance(content.get("text"), str):
            self.value = ""  # if code had filled the box, the browser emptied it
            self._deliver(content["text"])
