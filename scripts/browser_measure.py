"""What browser_check.py measures in a notebook's page, once its cells have run.

Outputs wider than the notebook, the cells worth a screenshot, the exercise checks'
verdicts, and text contrast in JupyterLab's light and dark themes. For contrast,
every visible element of the outputs that holds text of its own: its colour is
composed over the background really behind it (the first opaque one up its
ancestors, with any translucent layers in between), and the WCAG ratio computed;
the lowest is reported with its text. WCAG AA asks 4.5:1 for text; a text box's
placeholder is measured too (PLACEHOLDER_JS: its colour and opacity over the box).
FORCED_JS says which of the playground's bars still show in forced colours, and
WRAPPED_JS which lines of an exercise check's report the page broke (each report
line must fit). Every wait waits for a state, with a bound that names it (`wait`).
Left out: text drawn in images (plots).
"""

from __future__ import annotations

from typing import Any

# For each cell: its outputs' elements whose content reaches past their own box or
# past the output's right edge (by more than 1 px), the worst one first. A slider's
# inner parts are placed by transforms past its track, unseen: only the slider counts.
# A wide table sits in its own sideways scroll box (.ta-scroll): nothing is cut off,
# so only the box counts, and it must fit.
OVERFLOW_JS = """() => [...document.querySelectorAll('.jp-CodeCell')]
 .flatMap((cell, i) =>
  [...cell.querySelectorAll('.jp-OutputArea-output')].flatMap(out => {
    const right = out.getBoundingClientRect().right;
    const inner = '.noUi-target *, .ta-scroll *';  // a slider's parts; a scroll box's
    return [out, ...out.querySelectorAll('*')].filter(e => e.getClientRects().length
        && !e.matches(inner)).map(e => [i, Math.max(e.getBoundingClientRect().right
          - right, e.querySelector(inner) || e.matches('.ta-scroll') ? 0
          : e.scrollWidth - e.clientWidth),
        e.tagName.toLowerCase() + '.' + [...e.classList].join('.')]);
  }).filter(([i, px]) => px > 1).sort((a, b) => b[1] - a[1]).slice(0, 1))"""
# Key cells, as code-cell indices: the first with an output, those with a plot, a
# table or a widget, and the exercise checks.
KEY_CELLS_JS = """() => { const cells = [...document.querySelectorAll('.jp-CodeCell')]
  .map((c, i) => [i, c.querySelector('.jp-OutputArea-output'), c.querySelector(
    '.jp-OutputArea-output :is(img, table, .widget-vbox)'), c.querySelector(
    '.cm-content')?.textContent.includes('check("')]).filter(c => c[1]);
  return [...new Set([...cells.slice(0, 1), ...cells.filter(c => c[2]),
    ...cells.filter(c => c[3])].map(c => c[0]))].sort((a, b) => a - b); }"""
# The outputs of each exercise check cell, as text: one list per cell.
CHECK_OUTPUTS_JS = """() => [...document.querySelectorAll('.jp-CodeCell')]
  .filter(c => c.querySelector('.cm-content')?.textContent.includes('check("'))
  .map(c => [...c.querySelectorAll('.jp-OutputArea-output')]
    .map(o => o.innerText.trim()))"""
AA = 4.5  # WCAG AA, normal text
THEMES = ("JupyterLab Light", "JupyterLab Dark")
# -> [lowest ratio, "tag: its text"] over the outputs of the page's notebook
CONTRAST_JS = """() => {
  const rgba = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3]
    + under[i] * (1 - top[3])).concat([1]);
  const behind = el => { const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    return layers.reverse().reduce((under, c) => over(c, under), [255, 255, 255, 1]); };
  const lum = c => [0, 1, 2].map(i => { const v = c[i] / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let worst = [99, ''];
  for (const el of document.querySelectorAll(
      '.jp-OutputArea-output, .jp-OutputArea-output *')) {
    if (!el.getClientRects().length || el.closest('svg')) continue;
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
      continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.opacity === '0') continue;
    const bg = behind(el), fg = over(rgba(style.color), bg);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < worst[0]) worst = [ratio, el.tagName.toLowerCase() + ': '
      + [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent)
        .join('').trim().slice(0, 40)]; }
  return worst; }"""


# A placeholder's colour, composed as for text, over its box's background.
PLACEHOLDER_JS = """box => { const rgba = c => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = c => [0, 1, 2].map(i => { const v = c[i] / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = [255, 255, 255, 1];
  for (let e = box; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0) { bg = c; if (c[3] >= 1) break; } }
  const style = getComputedStyle(box, '::placeholder');
  const fg = rgba(style.color); fg[3] *= parseFloat(style.opacity || '1');
  const seen = [0, 1, 2].map(i => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
  const [a, b] = [lum(seen), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05); }"""
# In forced colours: for each bar of the playground (the gauge, its fill, a slider's
# track and its handle), whether it still shows: a border, or a background
# kept from being forced away, unlike the page's.
FORCED_JS = """pg => [['gauge', '.progress'], ['gauge fill', '.progress-bar'],
  ['slider track', '.noUi-target'], ['slider handle', '.noUi-handle']].map(
  ([name, css]) => { const e = pg.querySelector(css); if (!e) return [name, false,
    'missing'];
  const s = getComputedStyle(e), page = getComputedStyle(document.body);
  const border = parseFloat(s.borderTopWidth) > 0 && s.borderTopStyle !== 'none';
  const fill = s.forcedColorAdjust === 'none' && s.backgroundColor !==
    page.backgroundColor && !/rgba\\(.*, 0\\)/.test(s.backgroundColor);
  return [name, border || fill, `border ${s.borderTopWidth} ${s.borderTopStyle},`
    + ` background ${s.backgroundColor}, forced-color-adjust ${s.forcedColorAdjust}`];
  })"""
# Each exercise check's report lines that the page broke in two: a line's rendered
# height against the report's line height.
WRAPPED_JS = """() => [...document.querySelectorAll('.jp-CodeCell')]
  .filter(c => c.querySelector('.cm-content')?.textContent.includes('check('))
  .flatMap(c => [...c.querySelectorAll('.jp-OutputArea-output pre')])
  .flatMap(pre => { const text = pre.textContent.replace(/\\n$/, '');
    const lines = text.split('\\n').length;
    const height = parseFloat(getComputedStyle(pre).lineHeight);
    return pre.getBoundingClientRect().height > (lines + 0.5) * height
      ? [text.split('\\n')[0].slice(0, 60)] : []; })"""


def wait(page: Any, js: str, what: str, seconds: float = 30, arg: Any = None) -> None:
    """Wait until `js` is true, at most `seconds`; the error names what it awaited."""
    try:
        page.wait_for_function(js, arg=arg, timeout=seconds * 1000)
    except Exception as error:  # noqa: BLE001 - Playwright's TimeoutError
        raise TimeoutError(f"waited {seconds:.0f} s for {what}") from error


def set_theme(page: Any, theme: str, app: str = "window.jupyterapp") -> None:
    """Switch the front end's theme and wait until its colours apply."""
    light = "true" if "Light" in theme else "false"
    page.evaluate(f"() => {app}.commands.execute('apputils:change-theme', "
                  f"{{theme: '{theme}'}})")
    wait(page, f"() => document.body.dataset.jpThemeLight === '{light}'",
         f"the {theme} theme to be chosen", 20)
    # its stylesheet applied: Lab names the theme once its CSS is loaded, and the
    # theme's own layout colour is the one in force (#111 is the dark theme's)
    wait(page, f"""() => document.body.dataset.jpThemeName === '{theme}' &&
      getComputedStyle(document.body).getPropertyValue('--jp-layout-color0')
      .includes('111') === !{light}""", f"the {theme} theme's colours", 20)
    # Lab shows its splash while it switches, and takes it away 200 ms after: a
    # second switch before that makes Lab remove it twice (a page error of its own)
    wait(page, "() => !document.getElementById('jupyterlab-splash')",
         "Lab's splash to go after the theme switch", 20)


def lowest_contrast(page: Any) -> list[tuple[str, float, str]]:
    """(theme, lowest ratio, where) in each theme; the page ends in the light one."""
    found = []
    for theme in THEMES:
        set_theme(page, theme)
        ratio, where = page.evaluate(CONTRAST_JS)
        found.append((theme, ratio, where))
    set_theme(page, THEMES[0])
    return found
