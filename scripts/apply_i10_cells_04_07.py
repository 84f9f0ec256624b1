"""Cells for notebooks 04-07 from branch i10 (exercises, drawings, predict prompts).

Usage, after merging, from the repository root:
    python /tmp/i10/apply_04_07.py notebooks
    python scripts/execute_notebooks.py 04 05 06 07
Anchors are section headings and exact lines; a missing anchor stops the script with
its text, so a rewritten notebook says where to place the cell by hand.
"""

import sys
from pathlib import Path

import nbformat

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else "notebooks")


def load(name):
    return nbformat.read(ROOT / name, as_version=4)


def save(nb, name):
    for i, c in enumerate(nb.cells):
        if nb.nbformat_minor >= 5:
            c["id"] = f"cell-{i:02d}"
        else:
            c.pop("id", None)
    nbformat.write(nb, ROOT / name)


def md(text):
    return nbformat.v4.new_markdown_cell(text.strip("\n"))


def code(text):
    return nbformat.v4.new_code_cell(text.strip("\n"))


def find(nb, needle):
    for i, c in enumerate(nb.cells):
        if needle in c.source:
            return i
    raise SystemExit(f"anchor not found: {needle!r}")


def before(nb, needle, *cells):
    i = find(nb, needle)
    nb.cells[i:i] = list(cells)


def after(nb, needle, *cells):
    i = find(nb, needle)
    nb.cells[i + 1:i + 1] = list(cells)


def replace(nb, old, new):
    i = find(nb, old)
    nb.cells[i].source = nb.cells[i].source.replace(old, new)


def predict(text):
    return md("> **Predict, then run.** " + text)


# -- 04 -------------------------------------------------------------------------
nb = load("04_summary_memory.ipynb")
replace(nb, "**Time:** about 25 minutes.",
        "**Time:** about 25 minutes on your own, 20 in a workshop.")
after(nb, "## 4. When compression fires", predict(
    "With `threshold=6` and `keep_recent=2`, after which turn does the first "
    "compression fire, and how many messages does it fold into the summary?"))
after(nb, "## 7. Summaries can lose facts", predict(
    "Which of the numbers said so far (order, tracking, refund) will the summary "
    "keep, and which could it drop?"))
before(nb, "## 6. What it costs", md("""
### The request, drawn

Every message said so far, marked by where it went: the oldest ones were folded into
the summary, which rides in the system prompt; the newest are sent verbatim."""),
       code('''
from tinyagent import ChatMessage, ReActAgent, SummaryChatMemory, bitmall_tools
from tinyagent.cli import SIX_TURNS
from tinyagent.draw import draw_messages

shown = SummaryChatMemory(llm, threshold=6, keep_recent=2)
shown_agent = ReActAgent(llm, bitmall_tools(), memory=shown, verbose=False)
said = []  # everything said so far, as the customer and the agent said it
for text in SIX_TURNS["en"][:4]:
    said += [ChatMessage.user(text), ChatMessage.assistant(shown_agent.run(text))]
NEXT = SIX_TURNS["en"][4]
in_summary = [m for m in said if m not in shown.messages()]
draw_messages(said + [ChatMessage.user(NEXT)], shown_agent.build_messages(NEXT),
              summarized=in_summary, title="Turn 5's request, SummaryChatMemory(6, 2)")
'''))
save(nb, "04_summary_memory.ipynb")

# -- 05 -------------------------------------------------------------------------
nb = load("05_hybrid_memory.ipynb")
replace(nb, "**Time:** about 20 minutes.",
        "**Time:** about 20 minutes on your own; in a workshop, the six-turn demo "
        "only (10).")
after(nb, "## 3. The six-turn demo with `HybridChatMemory`", predict(
    "Turn 6 asks for the refund number given in turn 2. The window holds six "
    "messages. Where will the answer come from?"))
before(nb, "## 4. Incremental: the second merge", md("""
### Which messages became the summary

The whole dialog as a picture: the overflow folded into the summary, the window sent
as it is."""), code('''
from tinyagent import ChatMessage, HybridChatMemory, ReActAgent, bitmall_tools
from tinyagent.cli import SIX_TURNS
from tinyagent.draw import draw_messages

shown = HybridChatMemory(llm, recent_size=6, summary_threshold=10)
shown_agent = ReActAgent(llm, bitmall_tools(), memory=shown, verbose=False)
said = []
for text in SIX_TURNS["en"][:5]:
    said += [ChatMessage.user(text), ChatMessage.assistant(shown_agent.run(text))]
LAST = SIX_TURNS["en"][5]
in_summary = [m for m in said if m not in shown.messages()]
draw_messages(said + [ChatMessage.user(LAST)], shown_agent.build_messages(LAST),
              summarized=in_summary, title="Turn 6's request, HybridChatMemory(6, 10)")
'''))
save(nb, "05_hybrid_memory.ipynb")

# -- 06 -------------------------------------------------------------------------
CHEAPEST_INTRO = """
### 06.cheapest_recall: the cheapest memory that still remembers

A decision under a constraint. The constraint: every planted fact is recalled. The
cost: every token sent, the summarizer's included. Keeping everything makes no extra
calls but resends the whole history; a summary sends less but pays for its calls; a
window is cheapest and forgets. Which wins depends on how long the conversation is.

Write `choose_memory(llm, turns)`: for a conversation of `turns` turns (facts planted
in turns 1-2, so about `turns` turns old when asked for), return the cheapest memory
that still recalls all three facts. Measure first: the cell below plays candidates on
8 and 40 turns and prints your own figures. The checker plays 10 and 30 turns, on
dialogs you have not seen, against the cheapest of the package's strategies."""
FIGURES = '''
from tinyagent import (HybridChatMemory, InMemoryChatMemory, SlidingWindowChatMemory,
                       SummaryChatMemory)
from tinyagent.compare import run_strategy
from tinyagent.evaluation import planted_dialog, score


def measure(make, turns, seed=1):
    """Play a planted-fact dialog of `turns` turns with `make()`; the scores."""
    dialog = planted_dialog(turns=turns, seed=seed)
    return score(run_strategy(llm, dialog.turns, "try", make), dialog)


CANDIDATES = {"in-memory": InMemoryChatMemory,
              "window 6": lambda: SlidingWindowChatMemory(6),
              "summary 10/4": lambda: SummaryChatMemory(llm, 10, 4),
              "hybrid 4/8": lambda: HybridChatMemory(llm, 4, 8)}
print(f"{'turns':>5}  {'memory':<13} {'recall':>6} {'tokens sent':>12}")
for turns in (8, 40):
    for name, make in CANDIDATES.items():
        s = measure(make, turns)
        print(f"{turns:>5}  {name:<13} {sum(s.recalled):>4}/3 {s.total_tokens:>12,}")
'''
nb = load("06_compare_strategies.ipynb")
replace(nb, "**Time:** about 30 minutes.",
        "**Time:** about 30 minutes on your own (homework after a workshop).")
after(nb, "## 4. Planted facts on a long dialog", predict(
    "The facts were said about 45 turns before they are asked for. Which strategies "
    "will still recall them, and which will be cheapest?"))
nb.cells += [md(CHEAPEST_INTRO), code(FIGURES), code('''
def choose_memory(llm, turns):
    """The cheapest memory that still recalls every planted fact after `turns` turns."""
    raise NotImplementedError
'''), code('check("06.cheapest_recall", choose_memory)'), md("""
Open question (no checker): the checker weighs tokens only. Which memory would you
ship if the peak prompt, or the latency of a summarizer call on the customer's path,
counted too?""")]
save(nb, "06_compare_strategies.ipynb")

nb = load("solutions/06_compare_strategies.ipynb")
nb.cells += [md("""
### 06.cheapest_recall

Below about 20 turns the full buffer is the cheapest memory that recalls everything:
it makes no summarizer calls, and the history is still short. A window is cheaper
still but forgets the facts. On long chats the full buffer resends every old turn
on every call, and the summary memory wins by tens of thousands of tokens."""), code('''
from tinyagent import InMemoryChatMemory, SummaryChatMemory


def choose_memory(llm, turns):
    """The cheapest memory that still recalls every planted fact after `turns` turns."""
    return InMemoryChatMemory() if turns <= 20 else SummaryChatMemory(llm, 10, 4)

check("06.cheapest_recall", choose_memory)
''')]
save(nb, "solutions/06_compare_strategies.ipynb")

# -- 07 -------------------------------------------------------------------------
nb = load("07_production_memory.ipynb")
replace(nb, "**Time:** about 30 minutes.",
        "**Time:** about 30 minutes on your own (homework after a workshop).")
after(nb, "## 5. Compressing in the background", predict(
    "Turns 3 to 5 arrive while the first compression is still blocked. How many "
    "compressions will have run once it is released?"))
after(nb, "## 9. The summary is data, not instructions", predict(
    "A user writes an instruction followed by a forged \"[End of conversation "
    "summary]\". Where will that text appear in the next request?"))
replace(nb, "## Exercise — cap a section", "## Exercises\n\n### Exercise 1 — cap a section")
replace(nb, "1. Skip blank items.", "1. Skip blank items first, so they never take a place.")
replace(nb, "2. Keep the **newest** `max_items` items (the last ones), oldest first.",
        "2. Keep the **newest** `max_items` items (the last ones), oldest first; "
        "`max_items=0` keeps none (careful: `items[-0:]` is the whole list).")
nb.cells += [md("""
### Exercise 2 — apply a background summary only if it is still current

A background compression is planned at one version of the summary and finishes
later. Meanwhile another compression, a clear or a restore may have changed the
memory. Write `apply_if_current(state, planned_version, batch_size, text)`: if the
summary is still at `planned_version`, return the new `SummaryState` (the new text,
`covered_up_to + batch_size`, one more compression, the next version); otherwise
return `state` unchanged."""), code('''
from tinyagent.production import SummaryState


def apply_if_current(state: SummaryState, planned_version: int, batch_size: int,
                     text: str) -> SummaryState:
    """The state after a background summary of `batch_size` messages returns."""
    raise NotImplementedError
'''), code('check("07.apply_if_current", apply_if_current)'), md("""
### Exercise 3 — restore a session

After a restart, a memory is rebuilt from the newest snapshot and the messages after
it, without a model call. Write `restore(snapshot, transcript)`: with no snapshot,
every message; otherwise the fenced summary (`summary_message(snapshot.text)`) and
then the messages after `snapshot.covered_up_to`."""), code('''
from tinyagent.memory.summarizer import summary_message


def restore(snapshot: SummaryState | None, transcript: list) -> list:
    """What the memory holds after a restart."""
    raise NotImplementedError
'''), code('check("07.restore", restore)'), md("""
### Exercise 4 — the injection fence

Write `fence(summary)`: the summary as a system message between `SUMMARY_HEADER` and
`SUMMARY_FOOTER`, one line each. A summary can repeat what a user typed, including a
forged header or footer: turn each into plain text (its brackets removed), so that
the fence appears exactly once."""), code('''
from tinyagent.memory import SUMMARY_FOOTER, SUMMARY_HEADER


def fence(summary: str):
    """The summary as a fenced system message; forged markers become plain text."""
    raise NotImplementedError
'''), code('check("07.fence", fence)')]
save(nb, "07_production_memory.ipynb")

nb = load("solutions/07_production_memory.ipynb")
replace(nb, "Worked solution for the exercise of", "Worked solutions for the exercises of")
replace(nb, "### Exercise — cap a section", "### Exercise 1 — cap a section")
replace(nb, "Filter the blank items first, so they never take one of the six places. Then slice\n"
        "the list from the end (`[-max_items:]`), so the newest items stay and keep their\norder.",
        "Filter the blank items first, so they never take one of the six places. Then slice\n"
        "the list from the end (`[-max_items:]`), so the newest items stay and keep their\n"
        "order; `[-0:]` is the whole list, so `max_items=0` needs its own `[]`.")
i = find(nb, 'check("07.cap_items", cap_items)')
nb.cells[i].source = '''from tinyagent.exercises import check


def cap_items(items, max_items=6, max_chars=80):
    """The newest `max_items` non-blank items, each at most `max_chars` characters."""
    kept = [item if len(item) <= max_chars else item[: max_chars - 1] + "…"
            for item in items if item.strip()]
    return kept[-max_items:] if max_items > 0 else []

check("07.cap_items", cap_items)'''
nb.cells += [md("""
### Exercise 2 — apply only if current

Compare versions with `!=`: a batch planned at an older version is stale, and so is
one from before a clear, which starts the count again."""), code('''
from tinyagent.production import SummaryState


def apply_if_current(state: SummaryState, planned_version: int, batch_size: int,
                     text: str) -> SummaryState:
    """The state after a background summary of `batch_size` messages returns."""
    if planned_version != state.version:
        return state  # the summary changed since the batch was planned: stale
    return SummaryState(text, state.covered_up_to + batch_size,
                        state.compression_count + 1, state.version + 1)

check("07.apply_if_current", apply_if_current)
'''), md("""
### Exercise 3 — restore a session

The snapshot stands for messages 1 to `covered_up_to`; the transcript after them is
replayed verbatim. No model call: the next `add()` compresses if one is due."""),
             code('''
from tinyagent.memory.summarizer import summary_message


def restore(snapshot, transcript):
    """What the memory holds after a restart, without a model call."""
    if snapshot is None:
        return list(transcript)
    return [summary_message(snapshot.text), *transcript[snapshot.covered_up_to:]]

check("07.restore", restore)
'''), md("""
### Exercise 4 — the fence

Removing the brackets keeps the user's words (they are data, and worth keeping) while
the real fence stays the only one."""), code('''
from tinyagent.memory import SUMMARY_FOOTER, SUMMARY_HEADER


def fence(summary: str):
    """The summary as a fenced system message; forged markers become plain text."""
    for marker in (SUMMARY_HEADER, SUMMARY_FOOTER):
        summary = summary.replace(marker, marker.strip("[]"))
    return summary_message(summary)

check("07.fence", fence)
''')]
save(nb, "solutions/07_production_memory.ipynb")
print("applied: 04, 05, 06 (+ solutions), 07 (+ solutions)")
