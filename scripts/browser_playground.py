"""The 07 playground in a real browser: its controls act, and its panel shows it.

Used by browser_check.py once notebook 07 has run in JupyterLab: the playground must
be widgets, not its text view; a slider and the strategy menu start a new
conversation; Enter and the Send button each send a turn; the memory panel, the
status line and the gauge say what happened; and at 1,366 px with the file browser
open, the warning of an impossible setting is shown whole. One screenshot a step.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

APP = "window.jupyterapp"  # JupyterLab's application, exposed for tests
Check = Callable[[str, bool, str], bool]  # (name, passed, detail) -> passed

# The playground scenario: (action, check, where to read, what it must show). Actions:
# "slide N K" presses → K times on slider N; "menu X" picks strategy X; "enter T" and
# "send T" type T and press Enter or click Send; "laptop" is 1,366 px, files open.
SCENARIO = [
    ("", "the empty memory says so", "panel", r"Empty"),
    ("", "the gauge shows its number", "gauge", r"0 / 8,000 tokens"),
    ("slide 0 1", "a slider starts a new conversation", "status",
     r"New conversation: structured\(keep_recent_turns=3, "),
    ("menu window", "the strategy menu swaps strategy and sliders", "status",
     r"New conversation: window\(max_messages=6\)$"),
    ("slide 0 1", "the new slider acts", "status", r"window\(max_messages=7\)$"),
    ("enter Where is my order 88231?", "Enter sends: the panel lists the turn",
     "panel", r"Memory: 2 messages[\s\S]*user[\s\S]*assistant"),
    ("", "the status counts the turn", "status", r"^Conversation: .* · 1 turn sent"),
    ("", "the gauge shows the prompt's tokens", "gauge", r"[1-9][\d,]* / 8,000 tok"),
    ("send I want a refund, it won't go back to its dock", "the Send button sends",
     "panel", r"Memory: 4 messages"),
    ("", "the status counts both turns", "status", r"· 2 turns sent$"),
    ("laptop", "summary chosen", "status", r"summary\(threshold=10, keep_recent=4\)"),
    ("slide 1 6", "an impossible setting is explained", "status",
     r"^⚠ keep_recent .* until that is fixed\.$"),
]


def exercise_playground(page: Any, out: Path, check: Check) -> None:
    """07: the playground is controls; slider, strategy, Enter and Send each act."""
    pg = page.locator(".jp-OutputArea-output:has(.widget-dropdown select)").first
    try:
        pg.wait_for(timeout=30_000)
    except Exception:  # noqa: BLE001 - not there: the check below says so
        pass
    parts = {"menu": "select", "slider": ".widget-slider", "chat box": "input[type="
             "text]", "button": "button:has-text('Send')", "gauge": ".progress"}
    lost = [k for k, css in parts.items() if pg.locator(css).count() == 0]
    if not check("07: the playground renders as controls", not lost,
                 f"missing {', '.join(lost)}" * bool(lost)):
        return
    html = pg.locator(".widget-html")  # status, transcript, memory panel
    where = {"status": html.nth(0), "panel": html.nth(2),
             "gauge": pg.locator(".widget-hbox:has(.progress)")}
    for step, (action, name, what, pattern) in enumerate(SCENARIO, 1):
        verb, _, rest = action.partition(" ")
        if verb == "slide":
            slider, times = map(int, rest.split())
            for _ in range(times):
                pg.locator(".noUi-handle").nth(slider).press("ArrowRight")
        elif verb == "menu":
            pg.locator("select").select_option(rest)
        elif verb in ("enter", "send"):
            pg.locator("input[type=text]").fill(rest)
            if verb == "enter":
                pg.locator("input[type=text]").press("Enter")
            else:
                pg.locator("button:has-text('Send')").click()
        elif verb == "laptop":  # then an impossible setting: summary, keep_recent 10
            page.set_viewport_size({"width": 1366, "height": 768})
            page.evaluate(f"() => {APP}.shell.activateById('filebrowser')")
            pg.locator("select").select_option("summary")
        try:  # the kernel answers asynchronously: wait up to 20 s for the text
            where[what].filter(has_text=re.compile(pattern)).wait_for(timeout=20_000)
            check(f"07: {name}", True, "")
        except Exception:  # noqa: BLE001 - a timeout is the failed check
            shown = where[what].all_inner_texts()  # no wait: it may be missing
            check(f"07: {name}", False, f"{what}: {shown}, wanted /{pattern}/")
        pg.screenshot(path=out / f"07_playground_{step:02}.png")
    cut = html.nth(0).evaluate("e => [e, ...e.querySelectorAll('*')].some(x => "
                               "x.scrollWidth > x.clientWidth + 1)")
    check("07: at 1,366 px with the file browser open, the ⚠ line is whole", not cut,
          "")
    page.screenshot(path=out / "07_playground_1366px.png")
