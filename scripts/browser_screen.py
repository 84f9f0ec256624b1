"""The playground's screen details, in a real browser (for browser_playground.py).

Once the playground has been clicked through: the strategy menu, reached by the
keyboard, shows a focus ring of 3 px or more (ipywidgets' own rule would leave a
1 px border); the empty chat box's placeholder reads at 4.5:1 or more in the light
and the dark theme; in forced colours (Windows High Contrast) the token gauge and
the sliders' tracks still show; Shift+Enter on "New conversation" neither presses it
nor runs the cell again, and a conversation ended by the button can be brought
back. Every wait waits for a state, with a bound that names it (browser_measure's
`wait`). One screenshot a step. Left out: a screen reader's reading of the controls.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser_measure import AA, FORCED_JS, PLACEHOLDER_JS, THEMES, set_theme, wait

Check = Callable[[str, bool, str], bool]  # (name, passed, detail) -> passed
NEW = "button:has-text('New conversation'), button:has-text('新对话')"
BACK = ("button:has-text('Bring back the last conversation'), "
        "button:has-text('找回上一段对话')")
SAID = {"en": ("You:", "Where is my order 90417?"),
        "zh": ("你：", "订单 90417 到哪了？")}


def turns_shown(pg: Any, lang: str) -> int:
    you = SAID[lang][0]
    return sum(line.startswith(you) for line in
               pg.locator(".widget-html").nth(1).inner_text().split("\n"))


def focus_ring(page: Any, pg: Any, check: Check, stem: str) -> None:
    """The strategy menu reached with Shift+Tab from the first slider: its ring."""
    pg.locator(".noUi-handle").first.focus()
    page.keyboard.press("Shift+Tab")
    ring = page.evaluate("""() => { const e = document.activeElement,
      s = getComputedStyle(e); return [e.tagName, s.outlineStyle,
      parseFloat(s.outlineWidth)]; }""")
    check(f"{stem}: the strategy menu, reached by the keyboard, shows a 3 px focus "
          "ring", ring[0] == "SELECT" and ring[1] != "none" and ring[2] >= 3,
          f"{ring}")


def placeholder(page: Any, pg: Any, check: Check, stem: str) -> None:
    """The empty box's placeholder, in each theme."""
    box = pg.locator("input.tinyagent-chat-input")
    box.fill("")
    found = []
    for theme in THEMES:
        set_theme(page, theme)
        found.append((theme, box.evaluate(PLACEHOLDER_JS)))
    set_theme(page, THEMES[0])
    check(f"{stem}: the chat box's placeholder reads at {AA}:1 or more in the light "
          "and the dark theme", all(ratio >= AA for _, ratio in found),
          "; ".join(f"{theme}: {ratio:.2f}" for theme, ratio in found))


def forced_colours(page: Any, pg: Any, out: Path, check: Check, stem: str) -> None:
    """Forced colours on: the gauge and the sliders' tracks still show."""
    page.emulate_media(forced_colors="active")
    try:
        wait(page, "() => matchMedia('(forced-colors: active)').matches",
             "forced colours to apply", 10)
        bars = pg.evaluate(FORCED_JS)
        pg.screenshot(path=out / f"{stem.replace('/', '-')}_forced_colours.png")
    finally:
        page.emulate_media(forced_colors="none")
    lost = [f"{name}: {detail}" for name, shows, detail in bars if not shows]
    check(f"{stem}: in forced colours the token gauge and the slider tracks show",
          not lost, "; ".join(lost))


def shift_enter(page: Any, pg: Any, check: Check, stem: str, lang: str) -> None:
    """Shift+Enter on "New conversation" keeps the conversation; the button itself
    can be taken back."""
    before = turns_shown(pg, lang)
    pg.locator(NEW).focus()
    page.keyboard.press("Shift+Enter")
    box = pg.locator("input.tinyagent-chat-input")
    box.fill(SAID[lang][1])  # a turn after it: the kernel has seen the keys by then
    box.press("Enter")
    try:
        wait(page, """([out, you, count]) => (out.querySelectorAll('.widget-html')[1]
             ?.innerText ?? '').split('\\n').filter(l => l.startsWith(you)).length
             >= count""", "the turn sent after Shift+Enter", 30,
             arg=[pg.element_handle(), SAID[lang][0], before + 1])
    except TimeoutError as error:
        check(f"{stem}: a turn sent after Shift+Enter on New conversation shows",
              False, str(error))
        return
    check(f"{stem}: Shift+Enter on New conversation keeps the conversation",
          turns_shown(pg, lang) == before + 1,
          f"{turns_shown(pg, lang)} turns shown, {before} before and one more sent")
    kept = turns_shown(pg, lang)
    pg.locator(NEW).click()
    try:
        pg.locator(BACK).wait_for(state="visible", timeout=20_000)
        pg.locator(BACK).click()
        wait(page, """([out, you, count]) => (out.querySelectorAll('.widget-html')[1]
             ?.innerText ?? '').split('\\n').filter(l => l.startsWith(you)).length
             === count""", "the conversation to come back", 20,
             arg=[pg.element_handle(), SAID[lang][0], kept])
        check(f"{stem}: a conversation New conversation ended can be brought back",
              True, "")
    except Exception as error:  # noqa: BLE001 - Playwright's or wait's timeout
        check(f"{stem}: a conversation New conversation ended can be brought back",
              False, f"{type(error).__name__}: {str(error)[:200]}")


def check_screen(page: Any, pg: Any, out: Path, check: Check, stem: str,
                 lang: str) -> None:
    """Every check of this module, in order."""
    focus_ring(page, pg, check, stem)
    placeholder(page, pg, check, stem)
    forced_colours(page, pg, out, check, stem)
    shift_enter(page, pg, check, stem, lang)
