"""The course harness: what the notebooks and the terminal use, built on the package.

Nothing else in tinyagent imports from here. catalogue.py holds the scripts, the
strategies with their sizes, `print_memory` and `talk`; compare.py plays one script
through every strategy, and comparison.py and table.py print the result;
evaluation.py (with planted.py, the planted-fact dialog, and plots.py, its
pictures), longrun.py, ratios.py, language_cost.py and bench.py measure recall and
cost; draw.py pictures a request; playground.py is notebook 07's widget; cli.py,
compare_cli.py, sessions_cli.py and terminal.py are the `tinyagent` command;
exercises/ holds the notebooks' checkers; language.py is the course's language
(`set_lang("zh")` in the Chinese notebooks). Showing a memory is the memory's own
job (memory/display.py).
"""

from .language import say, set_lang

__all__ = ["say", "set_lang"]
