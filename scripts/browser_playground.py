"""The 09 playground in a real browser: its controls act, and nothing typed is lost.

Used by browser_check.py once notebook 09 (or zh/09) has run, in JupyterLab and in
Notebook 7. `exercise_playground` clicks through it in either language: a slider and
the strategy menu act (a strategy without sizes named by its title, "in-memory");
Enter and Send each send a turn; the memory panel, status line and gauge say so
("1 compression"); at 1,366 px with the file browser open, the warning of an
impossible setting is whole; then browser_screen.py's checks (focus ring,
placeholder contrast, forced colours, Shift+Enter and taking back a new
conversation). `exercise_typing` is what a learner's hands do: text
typed at 20 ms a key (and Chinese through an input method's composition) is sent
exactly; 30 quick Enter sends then 30 quick Send clicks are all recorded, in order;
a 300-character word wraps inside the notebook; arrow keys on the menu and a slider
stay in the widget; focus on Send is clearly visible. One screenshot a step.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser_measure import wait  # scripts/, beside this one
from browser_screen import check_screen

APP = "window.jupyterapp"  # the application (Lab or Notebook 7), exposed for tests
Check = Callable[[str, bool, str], bool]  # (name, passed, detail) -> passed
SEND = "button:has-text('Send'), button:has-text('发送')"
# Widths past the output's right edge, in px, of the widest element in the output
# `out`: what a long word would push out of view.
WIDEST_JS = """out => { const right = out.getBoundingClientRect().right;
  return Math.max(0, ...[out, ...out.querySelectorAll('*')].filter(e =>
    e.getClientRects().length && !e.closest('.noUi-target')).map(e => Math.max(
    e.getBoundingClientRect().right - right, e.scrollWidth - e.clientWidth))); }"""
# The kernel busy for 4 s, as a real model is while it answers a turn: typing goes
# on meanwhile, and whatever the widgets send waits in line.
BUSY_JS = f"""() => {{ {APP}.shell.currentWidget.sessionContext.session.kernel
  .requestExecute({{code: 'import time; time.sleep(4)', silent: true}}); }}"""
# The kernel of the page's notebook is idle: what a control asked of it is done.
IDLE = (f"() => {APP}.shell.currentWidget?.sessionContext?.session?.kernel?.status "
        "=== 'idle'")
# The active cell's index, and whether focus is inside the playground's output.
WHERE_JS = f"""out => [{APP}.shell.currentWidget.content.activeCellIndex,
  out.contains(document.activeElement)]"""

# The scenario: (action, check, where to read, what it must show, in en and zh).
# Actions: "slide N K" presses → K times on slider N; "menu X" picks strategy X;
# "enter T" and "send T" type T and press Enter or click Send; "laptop" is 1,366 px
# with the file browser open, then the summary strategy.
SCENARIO = [
    ("", "the empty memory says so", "panel", r"Empty", r"空："),
    ("", "the gauge shows its number", "gauge", r"0 / 8,000 tokens",
     r"0 / 8,000 token"),
    ("slide 0 1", "a slider acts", "status",
     r"New conversation: structured\(keep_recent_turns=3, ",
     r"新对话：结构化（原样保留轮数 3，"),
    ("menu {none}", "a strategy without sizes is named by its title", "status",
     r"^New conversation: none$", r"^新对话：无记忆$"),
    ("menu {inmemory}", "so is in-memory", "status", r"^New conversation: in-memory$",
     r"^新对话：全量记忆$"),
    ("menu {window}", "the strategy menu swaps strategy and sliders", "status",
     r"New conversation: window\(max_messages=6\)$", r"新对话：窗口（最多消息数 6）$"),
    ("slide 0 1", "the new slider acts", "status", r"window\(max_messages=7\)$",
     r"窗口（最多消息数 7）$"),
    ("enter {order}", "Enter sends: the panel lists the turn", "panel",
     r"Memory: 2 messages[\s\S]*user[\s\S]*assistant", r"记忆：2 条消息[\s\S]*用户"),
    ("", "the status counts the turn", "status", r"^Conversation: .* · 1 turn sent",
     r"^对话：.* · 已发送 1 轮"),
    ("", "the gauge shows the prompt's tokens", "gauge", r"[1-9][\d,]* / 8,000 tok",
     r"[1-9][\d,]* / 8,000 token"),
    ("send {refund}", "the Send button sends", "panel", r"Memory: 4 messages",
     r"记忆：4 条消息"),
    ("", "the status counts both turns", "status", r"· 2 turns sent$",
     r"· 已发送 2 轮$"),
    ("laptop", "summary chosen, the conversation kept", "status",
     r"summary\(threshold=10, keep_recent=4\) · 2 turns sent",
     r"摘要（压缩阈值 10，原样保留消息数 4） · 已发送 2 轮"),
    ("slide 1 6", "an impossible setting is explained", "status",
     r"^⚠ keep_recent .* until that is fixed\.",
     r"^⚠ 原样保留消息数.*压缩阈值.*改好之前不使用记忆。"),
    ("menu {structured}", "the structured memory holds the two turns", "status",
     r"structured\(keep_recent_turns=2, batch_turns=6\) · 2 turns sent",
     r"结构化（原样保留轮数 2，每批压缩轮数 6） · 已发送 2 轮"),
    ("slide 0 -1", "one compression is counted as one", "panel",
     r"Memory: \d+ messages, \d+ tokens, 1 compression(?!s)",
     r"记忆：\d+ 条消息，\d+ token，1 次压缩"),
]
WORDS = {"en": {"order": "Where is my order 88231?",
                "refund": "I want a refund, it won't go back to its dock",
                "typed": "Where is my order 88231? add a bad item, dd mz",
                "you": "You:", "window": "window", "summary": "summary",
                "none": "none", "inmemory": "in-memory", "structured": "structured"},
         "zh": {"order": "帮我查一下订单 88231 的物流到哪了",
                "refund": "我要退款，它回不了充电座",
                "typed": "订单 88231 到哪了？再加一个坏的商品，dd mz",
                "you": "你：", "window": "窗口", "summary": "摘要",
                "none": "无记忆", "inmemory": "全量记忆", "structured": "结构化"}}
# (The strategy menu lists each strategy by its title in the page's language.)


def playground(page: Any) -> Any:
    """The output that holds the playground (its strategy menu), once rendered; the
    caller's check says so if it never does."""
    pg = page.locator(".jp-OutputArea-output:has(.widget-dropdown select)").first
    try:
        pg.wait_for(timeout=30_000)
    except Exception:  # noqa: BLE001 - not there after 30 s: the caller's check
        print("note waited 30 s for the playground's controls to render")
    return pg


def sent_texts(pg: Any, lang: str) -> list[str]:
    """What the transcript says the learner sent, one text a turn, in order."""
    html = pg.locator(".widget-html").nth(1)
    you = WORDS[lang]["you"]
    return [line.split(you, 1)[1].strip() for line in html.inner_text().split("\n")
            if line.startswith(you)]


def wait_turns(pg: Any, lang: str, count: int, seconds: float = 60) -> list[str]:
    """The sent texts once `count` turns show in the transcript, or, after `seconds`,
    what shows then (the caller's check compares)."""
    you = WORDS[lang]["you"]
    try:
        wait(pg.page, """([out, you, count]) => (out.querySelectorAll('.widget-html')[1]
             ?.innerText ?? '').split('\\n').filter(l => l.startsWith(you)).length
             >= count""", f"{count} turns in the transcript", seconds,
             arg=[pg.element_handle(), you, count])
    except TimeoutError as error:
        print(f"note {error}")
    return sent_texts(pg, lang)


def exercise_playground(page: Any, out: Path, check: Check, lang: str = "en") -> None:
    """09: the playground is controls; slider, strategy, Enter and Send each act."""
    stem = "09" if lang == "en" else "zh/09"
    pg = playground(page)
    parts = {"menu": "select", "slider": ".widget-slider", "chat box": "input[type="
             "text]", "button": SEND, "gauge": ".progress"}
    lost = [k for k, css in parts.items() if pg.locator(css).count() == 0]
    if not check(f"{stem}: the playground renders as controls", not lost,
                 f"missing {', '.join(lost)}" * bool(lost)):
        return
    html = pg.locator(".widget-html")  # status, transcript, memory panel
    where = {"status": html.nth(0), "panel": html.nth(2),
             "gauge": pg.locator(".widget-hbox:has(.progress)")}
    for step, (action, name, what, *patterns) in enumerate(SCENARIO, 1):
        pattern = patterns[lang == "zh"]
        verb, _, rest = action.format(**WORDS[lang]).partition(" ")
        if verb == "slide":
            slider, times = map(int, rest.split())
            for _ in range(abs(times)):
                pg.locator(".noUi-handle").nth(slider).press(
                    "ArrowRight" if times > 0 else "ArrowLeft")
        elif verb == "menu":
            pg.locator("select").select_option(rest)
        elif verb in ("enter", "send"):
            pg.locator("input[type=text]").fill(rest)
            if verb == "enter":
                pg.locator("input[type=text]").press("Enter")
            else:
                pg.locator(SEND).click()
        elif verb == "laptop":  # then an impossible setting: summary, keep_recent 10
            page.set_viewport_size({"width": 1366, "height": 768})
            page.evaluate(f"() => {APP}.shell.activateById('filebrowser')")
            pg.locator("select").select_option(WORDS[lang]["summary"])
        try:  # the kernel answers asynchronously: wait up to 20 s for the text
            where[what].filter(has_text=re.compile(pattern)).wait_for(timeout=20_000)
            check(f"{stem}: {name}", True, "")
        except Exception:  # noqa: BLE001 - a timeout is the failed check
            shown = where[what].all_inner_texts()  # no wait: it may be missing
            check(f"{stem}: {name}", False, f"{what}: {shown}, wanted /{pattern}/")
        pg.screenshot(path=out / f"{stem.replace('/', '-')}_playground_{step:02}.png")
    cut = html.nth(0).evaluate("e => [e, ...e.querySelectorAll('*')].some(x => "
                               "x.scrollWidth > x.clientWidth + 1)")
    check(f"{stem}: at 1,366 px with the file browser open, the ⚠ line is whole",
          not cut, "")
    page.screenshot(path=out / f"{stem.replace('/', '-')}_playground_1366px.png")
    page.set_viewport_size({"width": 1024, "height": 768})
    check_screen(page, pg, out, check, stem, lang)


def exercise_typing(page: Any, out: Path, check: Check, where: str,
                    lang: str = "en") -> dict[str, float]:
    """What hands do: typing, quick sends, a long word, arrow keys, focus. Returns
    the figures measured: sends recorded, widest overflow in px."""
    pg, tag = playground(page), where.replace("/", "-").replace(" ", "-")
    box, figures = pg.locator("input[type=text]"), {"sends": 0.0, "widest": 0.0}
    if box.count() == 0:
        check(f"{where}: the playground's chat box is there", False, "")
        return figures
    new = pg.locator("button:has-text('New conversation'), button:has-text('新对话')")
    if new.count():
        new.click()
        try:  # the kernel empties the transcript: count from there
            wait(page, """out => (out.querySelectorAll('.widget-html')[1]?.innerText
                 ?? '').includes('No messages yet') || (out.querySelectorAll(
                 '.widget-html')[1]?.innerText ?? '').includes('还没有消息')""",
                 "the new conversation's empty transcript", 20,
                 arg=pg.element_handle())
        except TimeoutError as error:
            print(f"note {error}")
    pg.locator("select").select_option(WORDS[lang]["window"])  # cheap turns: 60 sends
    before = len(sent_texts(pg, lang))
    typed, first = WORDS[lang]["typed"], WORDS[lang]["order"]
    box.click()
    page.evaluate(BUSY_JS)  # a slow model: the kernel is busy for 4 s
    box.fill(first)
    box.press("Enter")  # then type on while the agent answers that one
    box.press_sequentially(typed, delay=20)
    box.press("Enter")
    texts = wait_turns(pg, lang, before + 2, 20)
    check(f"{where}: typed at 20 ms a key while the kernel is busy, Enter sends "
          "the exact text", texts[before:] == [first, typed],
          f"sent {texts[before:]!r}, typed {[first, typed]!r}")
    before += 1
    check(f"{where}: the box is empty after Enter", box.input_value() == "",
          repr(box.input_value()))
    if lang == "zh":  # through an input method: composition, then commit, then Enter
        cdp = page.context.new_cdp_session(page)
        box.click()
        for word in ("退款", "多久到账"):
            cdp.send("Input.imeSetComposition", {"text": word, "selectionStart":
                     len(word), "selectionEnd": len(word)})
            cdp.send("Input.insertText", {"text": word})
        box.press("Enter")
        texts = wait_turns(pg, lang, before + 2, 20)
        check(f"{where}: Chinese through an input method's composition is sent whole",
              texts[before + 1:] == ["退款多久到账"], f"sent {texts[before + 1:]!r}")
        cdp.detach()
    before = len(sent_texts(pg, lang))
    quick = [f"{'Enter' if i < 30 else 'Send'} {i + 1} order 88231" for i in range(60)]
    for text in quick:  # as fast as the browser takes them
        box.fill(text)
        box.press("Enter") if text.startswith("Enter") else pg.locator(SEND).click()
    texts = wait_turns(pg, lang, before + 60, 90)[before:]
    pairs = list(zip(texts, quick, strict=False))
    figures["sends"] = sum(a == b for a, b in pairs)
    first = next(((a, b) for a, b in pairs if a != b), None)
    check(f"{where}: 30 quick Enter sends then 30 quick Send clicks, all in order",
          texts == quick, f"{int(figures['sends'])}/60 recorded in order, "
          f"{len(texts)} in all; first difference (sent, typed): {first}")
    pg.screenshot(path=out / f"{tag}_60_sends.png")
    box.fill("x" * 300)
    box.press("Enter")
    wait_turns(pg, lang, before + 61, 20)  # shown: its layout is done
    figures["widest"] = pg.evaluate(WIDEST_JS)
    check(f"{where}: a 300-character word wraps inside the notebook",
          figures["widest"] <= 1, f"{figures['widest']:.0f} px past the edge")
    pg.screenshot(path=out / f"{tag}_long_word.png")
    # The menu's keys last: each swaps the strategy, and its sliders are drawn anew
    # after the kernel is idle; a handle focused just before that loses the focus.
    for control, key in ((".noUi-handle", "ArrowLeft"), (".noUi-handle", "ArrowUp"),
                         ("select", "ArrowDown"), ("select", "ArrowUp")):
        pg.locator(control).first.focus()
        try:  # the control has the focus before the key is pressed
            wait(page, "([out, css]) => out.querySelector(css) === "
                 "document.activeElement || out.querySelector(css)?.contains("
                 "document.activeElement)", f"the {control.strip('.')} to have the "
                 "focus", 10, arg=[pg.element_handle(), control])
        except TimeoutError as error:
            print(f"note {error}")
        cell, _ = pg.evaluate(WHERE_JS)
        pg.locator(control).first.press(key)  # handled when press returns
        now, inside = pg.evaluate(WHERE_JS)
        try:  # a key on the menu swaps the strategy: its new sliders come next
            wait(page, IDLE, "the kernel to apply the key", 30)
        except TimeoutError as error:
            print(f"note {error}")
        check(f"{where}: {key} on the {control.strip('.')} stays in the widget",
              inside and now == cell, f"active cell {cell} → {now}, focus inside: "
              f"{inside}")
    box.focus()
    page.keyboard.press("Tab")  # from the box to Send, as a keyboard user goes
    ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
      return [document.activeElement.textContent, s.outlineStyle,
              parseFloat(s.outlineWidth)]; }""")
    check(f"{where}: focus on Send is clearly visible (outline of 2 px or more)",
          ring[1] != "none" and ring[2] >= 2, f"{ring}")
    pg.screenshot(path=out / f"{tag}_focus.png")
    return figures
