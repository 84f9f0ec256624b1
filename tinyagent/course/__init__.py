"""The course harness: what the notebooks and the terminal use, built on the package.

Nothing else in tinyagent imports from here. catalogue.py holds the scripts, the
strategies with their sizes, `print_memory` and `talk`; compare.py plays one script
through every strategy, and comparison.py and table.py print the result;
evaluation.py (with planted.py, the planted-fact dialog, and plots.py, its
pictures), longrun.py, ratios.py, language_cost.py and bench.py measure recall and
cost; billing.py, sensitivity.py and cheapest.py bill them under the providers'
cache rules (notebook 07, "What you pay"); draw.py pictures a request;
playground.py is notebook 09's widget; cli.py, compare_cli.py, sessions_cli.py,
memory_kit_cli.py and terminal.py are the
`tinyagent` command; memory_kit.py (with cookbook_session.py) grades any framework's
memory (notebook 10);
exercises/ holds the notebooks' checkers; language.py draws Chinese in plots (the
language switch itself, `set_lang`, is tinyagent's); names.py titles the
strategies on screen. Showing a memory is display.py's.

Every name the notebooks use can be imported from here (`from tinyagent.course
import compare, plot_tokens`). Each is loaded on first use (PEP 562), so `import
tinyagent.course` stays light: matplotlib and ipywidgets load only with the plot or
the widget that needs them.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

# name -> the module (under tinyagent.course) that defines it
WHERE = {
    "with_baseline": "baselines", "RecordingClient": "billing", "bill": "billing",
    "picture": "billing", "SIX_TURNS": "catalogue", "make_strategies": "catalogue",
    "print_memory": "catalogue", "talk": "catalogue", "compare": "compare",
    "run_strategy": "compare", "draw_messages": "draw", "evaluate": "evaluation",
    "score": "evaluation", "planted_dialog": "planted",
    "plot_recall_cost": "plots", "plot_tokens": "plots", "plot_text": "plots",
    "use_chinese_font": "language", "by_language": "language_cost",
    "show_tokens": "language_cost", "Playground": "playground",
    "price_for": "prices", "Table": "table", "pad": "table", "check": "exercises",
    "strategy_title": "names", "billed": "prices", "rules_table": "rules_table",
    "Sweep": "sensitivity", "record_runs": "sensitivity", "statements": "sensitivity",
    "LUNCH": "sensitivity", "HALF": "sensitivity", "plot_bill_map": "plots",
    "Schedule": "compare",
    # notebook 07: the cheapest memory under every rule, and the provider's cache
    # rules and prefix cache as billing.py replays them (the offline provider itself,
    # tinyagent.offline, is no public package)
    "record_all": "cheapest", "VARIANTS": "cheapest", "variant": "cheapest",
    "parts": "cheapest", "run_title": "cheapest", "STEADY": "sensitivity",
    "get_rule": "billing", "with_numbers": "billing", "PrefixCache": "billing",
    "request_tokens": "billing",
    # notebook 10: the memory test kit, and a session built as the cookbook builds it
    "grade": "memory_kit", "recording_async_client": "memory_kit",
    "kit_table": "memory_kit_cli", "problem_text": "memory_kit_cli",
    "CookbookSummarizingSession": "cookbook_session",
}


def __getattr__(name: str) -> Any:
    """Load `name` from its module on first use, and keep it here."""
    if name not in WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}; "
                             f"the course's names are: {', '.join(sorted(__all__))}")
    value = getattr(importlib.import_module(f".{WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(WHERE))


class _Course(types.ModuleType):
    """This package, except that loading the submodule compare.py does not hide the
    function `compare` (Python sets a package's attribute to each submodule it
    loads); the submodule is still `sys.modules["tinyagent.course.compare"]`."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in WHERE and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Course

__all__ = ["CookbookSummarizingSession", "HALF", "LUNCH", "Playground",
           "PrefixCache", "RecordingClient", "SIX_TURNS", "STEADY", "Schedule", "Sweep",
           "Table", "VARIANTS", "bill", "billed", "by_language", "check", "compare",
           "draw_messages", "evaluate", "get_rule", "grade", "kit_table",
           "make_strategies", "pad", "parts", "picture", "planted_dialog",
           "plot_bill_map", "plot_recall_cost", "plot_text", "plot_tokens", "price_for",
           "print_memory", "problem_text", "record_all", "record_runs",
           "recording_async_client", "request_tokens", "rules_table", "run_strategy",
           "run_title", "score", "show_tokens", "statements", "strategy_title", "talk",
           "use_chinese_font", "variant", "with_baseline", "with_numbers"]
