"""The course as learners see it: each notebook run in JupyterLab in a real browser.

    python scripts/browser_check.py          # learner notebooks (08 09: by prefix)
    python scripts/browser_check.py zh/      # the Chinese edition only

nbval compares text: it cannot see whether a widget renders or a table fits. This
starts `jupyter lab` (offline, 127.0.0.1, free port, random token) on a temporary copy
of notebooks/ (both editions: notebooks/*.ipynb and notebooks/zh/*.ipynb), runs all
cells of each in the system Chromium driven by Playwright, and
checks: a notebook opens unmodified (its stored metadata is what the kernel writes);
no stderr output, traceback, "Error displaying widget" or "model not found"; at
1,024 x 768 (file browser open) no output wider than the notebook; at 1,280 px with
the file browser open no line of an exercise check's report broken by the page (a
failing check's report too, run in 00); text contrast of 4.5:1 or more in the light
and the dark theme (browser_measure.py); in 09 the playground's controls, panel and
warning, its keys, focus ring, placeholder and forced colours, and what typing does
to it (browser_playground.py), then, saved and reopened with its kernel gone, a
readable line where the playground was; then 09 and zh/09 again in Notebook 7, the
other front end, typed into the same way. Every wait waits for a state, with a
bound that names it. Screenshots of key cells: browser-check/*.png. The closing
lines give the figures: sends recorded, lowest contrast, widest output. Prints
"browser check: N passed, M failed"; exit 1 on a failure; exit 2, saying what to
install, without Playwright (`pip install -e ".[browser]"`, no browser download) or
Chromium (`apt-get install chromium`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from browser_measure import (  # scripts/, beside this one
    AA,
    CHECK_OUTPUTS_JS,
    KEY_CELLS_JS,
    OVERFLOW_JS,
    WRAPPED_JS,
    lowest_contrast,
    wait,
)
from browser_playground import exercise_playground, exercise_typing
from browser_server import NOTEBOOK7, start_lab
from local_model import stop_server as stop  # by its PID: politely, then for good

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
# The last two are emoji marks, empty boxes on a system without an emoji font.
BAD_TEXT = ["Traceback", "Error displaying widget", "model not found", "✅", "❌"]
APP = "window.jupyterapp"
# Notebook 7.6 throws these itself, on an empty notebook too (checked): noted, not
# failed. Any other page error fails the check, in either front end.
NOTEBOOK7_OWN = ["reading 'schema'", "'filebrowser:open-path' not registered"]
KERNEL_IDLE = (f"() => {APP}?.shell.currentWidget?.sessionContext?.session?.kernel"
               "?.status === 'idle'")


class Report:
    """Each check prints one line; the summary counts them."""

    def __init__(self) -> None:
        self.passed = self.failed = 0
        self.contrast, self.widest, self.sends = 99.0, 0.0, []  # the figures

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.passed, self.failed = self.passed + ok, self.failed + (not ok)
        print("ok  " if ok else "FAIL", name + f" ({detail})" * bool(detail),
              flush=True)
        return ok


def missing(chromium: str | None) -> list[str]:
    """What the check needs and does not find, as instructions."""
    needs = [] if chromium else ["Chromium: apt-get install chromium (or CHROMIUM=…)"]
    if importlib.util.find_spec("playwright") is None:
        needs.append('playwright, the Python package: pip install -e ".[browser]" '
                     "(no `playwright install`: the system Chromium is used)")
    return needs


def stem_of(name: str) -> str:
    return name.split("_")[0]  # "03", or "zh/03" in the Chinese edition


def playground_notebook(name: str) -> bool:
    """The notebook that holds the playground: 09, in either edition."""
    return name.split("/")[-1].startswith("09")


def exercise_playground_notebook(page, out: Path, report: Report, front: str,
                                 name: str) -> None:
    """The playground: clicked through (in Lab), then typed into; figures kept."""
    lang = "zh" if name.startswith("zh/") else "en"
    if front == "Lab":
        exercise_playground(page, out, report.check, lang)
    figures = exercise_typing(page, out, report.check, f"{front} {stem_of(name)}",
                              lang)
    report.sends.append(figures["sends"])
    report.widest = max(report.widest, figures["widest"])


def opened(page, url: str, name: str, report: Report) -> None:
    """Open the notebook in a fresh workspace, wait for its kernel: the notebook is
    not marked modified (its stored metadata is what the kernel writes, unless this
    kernel's Python is another version than the one the notebooks were stored with:
    then that is said, not failed)."""
    page.goto(url)
    wait(page, KERNEL_IDLE, f"{name}'s kernel to start", 90)
    dirty, stored, running = page.evaluate(f"""async () => {{
      const w = {APP}.shell.currentWidget;
      const info = await w.sessionContext.session.kernel.info;
      return [w.context.model.dirty, w.context.model.getMetadata?.('language_info')
        ?.version ?? null, info.language_info.version]; }}""")
    if stored != running:
        print(f"note {stem_of(name)}: stored for Python {stored}, this kernel runs "
              f"{running}: opening writes that version, so the notebook shows as "
              "modified (re-execute the notebooks with this Python to store it)")
        return
    report.check(f"{stem_of(name)}: opens unmodified (the kernel rewrites nothing)",
                 not dirty, "marked modified on open" if dirty else "")


def run_notebook(page, url: str, name: str, report: Report) -> None:
    """Open the notebook (unmodified, checked), run all cells, wait for the widgets
    and the images."""
    opened(page, url, name, report)
    # Resolves when every cell has run, or one raised (Lab then stops, as for a learner)
    done = page.evaluate(f"""() => Promise.race([new Promise(r => setTimeout(r, 300000,
      'timeout')), {APP}.commands.execute('notebook:run-all-cells')])""")
    if done == "timeout":
        raise TimeoutError("the notebook's cells did not finish within 5 minutes")
    wait(page, KERNEL_IDLE, f"{name}'s kernel to be idle after the run", 60)
    wait(page,  # widgets render after the kernel is done: wait for them
         f"""() => {APP}.shell.currentWidget.content.widgets.every(c => !JSON.stringify(
         c.model.sharedModel.toJSON().outputs ?? []).includes('widget-view+json') ||
         c.node.querySelector('.jp-OutputArea-output .jupyter-widgets') ||
         c.node.textContent.includes('Error displaying widget'))""",
         f"{name}'s widgets to render", 60)
    wait(page, """() => [...document.querySelectorAll('.jp-OutputArea-output img')]
         .every(i => i.complete && i.naturalWidth > 0)""", f"{name}'s plots to load",
         30)


def failing_check_fits(page, report: Report, stem: str) -> None:
    """A failing check's report, run in a new last cell, and every check report: at
    1,280 px with the file browser open, no line of theirs is broken by the page."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(f"() => {APP}.shell.activateById('filebrowser')")
    page.evaluate(f"""() => {{ const nb = {APP}.shell.currentWidget.content;
      nb.model.sharedModel.insertCell(nb.model.cells.length, {{cell_type: 'code',
        source: 'from tinyagent.course.exercises import check\\n\\n'
          + 'check("00.no_progress", lambda thoughts: True)'}});
      nb.activeCellIndex = nb.model.cells.length - 1;
      return {APP}.commands.execute('notebook:run-cell'); }}""")
    try:
        wait(page, """() => [...document.querySelectorAll('.jp-CodeCell')].at(-1)
             ?.textContent.includes('✗')""", "the failing check's report", 60)
        broken = page.evaluate(WRAPPED_JS)
        report.check(f"{stem}: at 1,280 px with the file browser open, no line of a "
                     "check's report is broken by the page (a FAIL report included)",
                     not broken, "; ".join(broken)[:300])
    except TimeoutError as error:
        report.check(f"{stem}: a failing check's report shows", False, str(error))
    page.evaluate(f"() => {APP}.shell.collapseLeft()")
    page.set_viewport_size({"width": 1024, "height": 768})


def reopened_playground(page, url: str, name: str, report: Report) -> None:
    """Saved, its kernel shut down, reopened: where the playground was, a line says
    to run the cell again (the controls live only in the kernel that made them)."""
    page.evaluate(f"() => {APP}.commands.execute('docmanager:save')")
    wait(page, f"() => !{APP}.shell.currentWidget.context.model.dirty",
         f"{name} to be saved", 30)
    page.evaluate(f"() => {APP}.serviceManager.sessions.shutdownAll()")
    page.goto(url)
    wait(page, f"() => {APP}?.shell.currentWidget?.content?.widgets?.length > 0",
         f"{name} to reopen", 60)
    line = "run this cell again" if not name.startswith("zh/") else "重新运行这个单元格"
    try:
        wait(page, f"""() => [...document.querySelectorAll('.jp-CodeCell')].some(c =>
             c.querySelector('.cm-content')?.textContent.includes('Playground(') &&
             c.querySelector('.jp-OutputArea')?.textContent.includes({line!r}))""",
             f"the playground cell's line after reopening {name}", 30)
        report.check(f"{stem_of(name)}: reopened with its kernel gone, the playground "
                     "cell says to run it again", True, "")
    except TimeoutError as error:
        report.check(f"{stem_of(name)}: reopened, the playground cell is readable",
                     False, str(error))


def check_notebook(page, name: str, out: Path, report: Report) -> None:
    """Errors, overflow at this width, and screenshots of the cells that show things."""
    stem = stem_of(name)
    errors = page.locator(".jp-OutputArea-output[data-mime-type="
                          "'application/vnd.jupyter.stderr']")
    report.check(f"{stem}: no stderr output or traceback", errors.count() == 0,
                 "\n".join(errors.all_inner_texts())[:800])
    text = page.locator(".jp-Notebook").inner_text()
    for bad in BAD_TEXT:
        report.check(f"{stem}: no {bad!r}", bad not in text)
    checks = page.evaluate(CHECK_OUTPUTS_JS)
    if checks:  # a verdict in words (any font shows it), and no stray True/False
        # "✓ 通过" / "✗ 未通过" in Chinese; a stub's one line says it is not written
        verdict = ("PASS", "FAIL", "通过", "not written yet", "还没有写")
        stray = [c for c in checks if not any(v in t for t in c for v in verdict)
                 or any(t in ("True", "False") for t in c)]
        report.check(f"{stem}: each exercise check says PASS, FAIL or not written, "
                     "in words, no stray True/False", not stray, repr(stray)[:300])
    shades = lowest_contrast(page)
    report.contrast = min([report.contrast, *(ratio for _, ratio, _ in shades)])
    report.check(f"{stem}: text contrast at least {AA}:1 in the light and dark theme",
                 all(ratio >= AA for _, ratio, _ in shades),
                 "; ".join(f"{t}: {r:.2f} ({w})" for t, r, w in shades))
    wide = page.evaluate(OVERFLOW_JS)
    report.widest = max([report.widest, *(px for _, px, _ in wide)])
    report.check(f"{stem}: at 1,024 px no output wider than the notebook", not wide,
                 ", ".join(f"cell {i + 1} by {px:.0f} px ({what})"
                           for i, px, what in wide))
    page.set_viewport_size({"width": 1024, "height": 2400})  # a tall cell fits whole
    cells = page.locator(".jp-CodeCell")
    for i in page.evaluate(KEY_CELLS_JS):
        shot = f"{stem.replace('/', '-')}_cell{i + 1:02}.png"  # zh-03_cell04.png
        cells.nth(i).screenshot(path=out / shot)
    page.set_viewport_size({"width": 1024, "height": 768})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefixes", nargs="*", help="notebook name prefixes (all)")
    parser.add_argument("--out", type=Path, default=ROOT / "browser-check",
                        help="folder for the screenshots (default: browser-check/)")
    args = parser.parse_args(argv)
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser")
    if needs := missing(chromium):
        print("browser check: cannot run, it needs\n  - " + "\n  - ".join(needs))
        return 2
    from playwright.sync_api import sync_playwright

    found = [*sorted((ROOT / "notebooks").glob("*.ipynb")),
             *sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))]
    names = [str(p.relative_to(ROOT / "notebooks")) for p in found]
    names = [n for n in names if not args.prefixes
             or n.startswith(tuple(args.prefixes))]
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.png"):  # only this run's screenshots
        old.unlink()
    report, start = Report(), time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="browser-check-") as tmp:
        home, work = Path(tmp), Path(tmp) / "notebooks"
        work.mkdir()
        for name in names:
            (work / name).parent.mkdir(exist_ok=True)
            shutil.copy(ROOT / "notebooks" / name, work / name)
        process, url, log = start_lab(work, home)
        try:
            with sync_playwright() as p:
                context = p.chromium.launch_persistent_context(
                    home / "profile", executable_path=chromium, args=FLAGS,
                    headless=True, viewport={"width": 1024, "height": 768})
                page, console = context.new_page(), []
                front = ["Lab", ""]  # which front end and notebook the page shows
                page.on("console", lambda message: console.append(
                    f"{' '.join(front)}: {message.text}"))

                def page_error(error: Exception) -> None:
                    if front[0] == "Notebook 7" and any(
                            own in str(error) for own in NOTEBOOK7_OWN):
                        print(f"note Notebook 7's own page error: {error}")
                    else:
                        where = (getattr(error, "stack", "") or "").splitlines()[1:3]
                        report.check(f"{front[0]}: no page error", False,
                                     f"{error} ({front[1]}; {' '.join(where)})")
                page.on("pageerror", page_error)
                failing_shown = False
                for i, name in enumerate(names):
                    front[1] = name
                    page.set_viewport_size({"width": 1024, "height": 768})
                    link = url.format(f"check{i}", name)
                    run_notebook(page, link, name, report)
                    check_notebook(page, name, args.out, report)
                    if not failing_shown and page.evaluate(CHECK_OUTPUTS_JS):
                        failing_check_fits(page, report, stem_of(name))
                        failing_shown = True
                    if playground_notebook(name):
                        exercise_playground_notebook(page, args.out, report, "Lab",
                                                     name)
                        front[0] = "Lab, reopened"  # its widgets are gone, as said
                        reopened_playground(page, link, name, report)
                        front[0] = "Lab"
                        shutil.copy(ROOT / "notebooks" / name, work / name)  # as new
                    page.evaluate(f"() => {APP}.serviceManager.sessions.shutdownAll()")
                front[0] = "Notebook 7"
                for name in [n for n in names if playground_notebook(n)]:
                    front[1] = name
                    page.set_viewport_size({"width": 1024, "height": 768})
                    run_notebook(page, url.split("/lab/")[0] + NOTEBOOK7.format(
                        name, url.split("token=")[1]), name, report)
                    exercise_playground_notebook(page, args.out, report,
                                                 "Notebook 7", name)
                    page.evaluate(f"() => {APP}.serviceManager.sessions.shutdownAll()")
                lost = [t for t in console if "model not found" in t.lower()
                        and not t.startswith("Lab, reopened")]  # expected there
                report.check("console: no widget 'model not found'", not lost,
                             "; ".join(lost[:3]))
                context.close()
        except Exception as error:  # a crash is a failure, with the server's log tail
            tail = "\n".join(log.read_text().splitlines()[-25:])
            report.check("the run completes", False, f"{error!r}\n{tail}")
        finally:
            stop(process)
    print(f"sends recorded in order: {', '.join(f'{n:.0f}/60' for n in report.sends)}"
          f"; lowest contrast: {report.contrast:.2f}:1; widest output: "
          f"{report.widest:.0f} px past the notebook's edge")
    print(f"browser check: {report.passed} passed, {report.failed} failed "
          f"({time.perf_counter() - start:.0f} s; screenshots in {args.out})")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
