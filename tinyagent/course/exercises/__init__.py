"""Checkers for the notebooks' exercises: `check("03.token_window", your_function)`.

Introduced in notebook 00. Each exercise registers cases, and `check` runs them
against the learner's code. A case passes, or fails with its evidence: the input,
what the learner's code returned and what was expected, in the learner's own numbers
("with max_tokens=105: kept 6 messages (109 tokens); expected 4 (74 tokens)"), then a
hint. The report opens with the verdict, lists the failing cases first (in the order
to fix them) and the passing ones after. Marks are plain text with a word ("✓ PASS",
"✗ FAIL"), readable in any font. Every case builds fresh inputs, so code that changes
its argument cannot spoil the next case. A case that raises counts as failed, with the
error shown: an unfinished stub (`raise NotImplementedError`) reads as "not yet".
Left out: grading, scores and hidden tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

# One case: what it checks, a function that returns True when it holds (or raises
# Wrong with the evidence), and a hint.
Case = tuple[str, Callable[[], bool], str]
Cases = Callable[[Any], Iterator[Case]]  # given the learner's code, yields its cases
CHECKS: dict[str, Cases] = {}  # "03.token_window" -> cases


class Wrong(Exception):
    """A failed case and its evidence: the input, the learner's value, the expected."""


def expect(got: Any, expected: Any, where: str, show: Callable[[Any], str] = repr
           ) -> bool:
    """True if `got == expected`; otherwise raise Wrong "where: got …; expected …"."""
    if got != expected:
        raise Wrong(f"{where}: got {show(got)}; expected {show(expected)}")
    return True


def exercise(name: str) -> Callable[[Cases], Cases]:
    """Register a generator of cases under an exercise name."""
    def register(cases: Cases) -> Cases:
        CHECKS[name] = cases
        return cases
    return register


@dataclass(frozen=True)
class CheckResult:
    """What `check` found: true when every case passed."""

    name: str
    passed: int
    total: int
    failures: list[str] = field(default_factory=list)  # failing cases, first first

    def __bool__(self) -> bool:
        return self.passed == self.total

    def __repr__(self) -> str:
        return f"CheckResult({self.name!r}, passed={self.passed}, total={self.total})"

    def _ipython_display_(self) -> None:
        """Show nothing as a cell's value: the report is already printed above it."""


def _run(test: Callable[[], bool], hint: str) -> tuple[bool, str]:
    """(passed, the lines that explain a failure)."""
    try:
        if test():
            return True, ""
        return False, f"hint: {hint}"
    except Wrong as wrong:
        return False, f"{wrong}\nhint: {hint}"
    except NotImplementedError:
        return False, f"not implemented yet. hint: {hint}"
    except Exception as exc:  # the learner's code crashed: show what, not where
        message = str(exc).rstrip(". ")
        return False, f"{type(exc).__name__}: {message}\nhint: {hint}"


def check(name: str, candidate: Any) -> CheckResult:
    """Run exercise `name`'s cases on `candidate` and print the report."""
    _load_all()
    if name not in CHECKS:
        known = ", ".join(sorted(CHECKS))
        raise KeyError(f"no exercise named {name!r}; known: {known}")
    passes, failures = [], []
    for description, test, hint in CHECKS[name](candidate):
        ok, why = _run(test, hint)
        if ok:
            passes.append(f"✓ PASS  {description}")
        else:
            details = "".join(f"\n        {line}" for line in why.splitlines())
            failures.append(f"✗ FAIL  {description}{details}")
    total = len(passes) + len(failures)
    if failures:
        print(f"{name}: {len(passes)}/{total} checks pass. Not yet: "
              "fix the first ✗ FAIL below, then run this cell again.")
    else:
        print(f"{name}: {total}/{total} checks pass. Well done!")
    print("\n".join(failures + passes))
    return CheckResult(name, len(passes), total,
                       [f.splitlines()[0][8:] for f in failures])


def _load_all() -> None:
    """Import the per-notebook case modules (each registers its exercises)."""
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("nb"):
            importlib.import_module(f"{__name__}.{module.name}")


__all__ = ["CHECKS", "Case", "CheckResult", "Wrong", "check", "exercise", "expect"]
