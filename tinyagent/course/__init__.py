"""The course harness: what the notebooks and the terminal use, built on the package.

Nothing else in tinyagent imports from here. The scripts and the strategy catalogue
(catalogue.py), the one way to show a memory (display.py), the side-by-side run of
every strategy (harness.py, report.py), the planted-fact evaluation, the benchmarks,
the `tinyagent` command, the notebooks' exercise checkers and the widget playground.
"""
