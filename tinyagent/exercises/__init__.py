"""Checkers for the notebooks' exercises: `check("03.token_window", YourClass)`.

Introduced in notebook 00. Each exercise registers a few cases; `check` runs them
against the learner's code and prints one deterministic line per case, ✅ or ❌ with a
hint, so a stored notebook shows "not yet" for the stub and the solutions notebook
shows every case passing. A case that raises counts as failed, with the error shown:
an unfinished stub (`raise NotImplementedError`) reads as "not yet", not as a crash.
Left out: grading, scores and hidden tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

# One case: what it checks, a function that returns True when it holds, and a hint.
Case = tuple[str, Callable[[], bool], str]
Cases = Callable[[Any], Iterator[Case]]  # given the learner's code, yields its cases
CHECKS: dict[str, Cases] = {}  # "03.token_window" -> cases


def exercise(name: str) -> Callable[[Cases], Cases]:
    """Register a generator of cases under an exercise name."""
    def register(cases: Cases) -> Cases:
        CHECKS[name] = cases
        return cases
    return register


def check(name: str, candidate: Any) -> bool:
    """Run exercise `name`'s cases on `candidate`, a line each; True if all pass."""
    _load_all()
    if name not in CHECKS:
        known = ", ".join(sorted(CHECKS))
        raise KeyError(f"no exercise named {name!r}; known: {known}")
    passed = total = 0
    for description, test, hint in CHECKS[name](candidate):
        total += 1
        try:
            ok, why = bool(test()), hint
        except NotImplementedError:
            ok, why = False, "not implemented yet: " + hint
        except Exception as exc:  # the learner's code crashed: show what, not where
            message = str(exc).rstrip(". ")
            ok, why = False, f"{type(exc).__name__}: {message}. {hint}"
        passed += ok
        print(f"✅ {description}" if ok else f"❌ {description} — {why}")
    verdict = "well done!" if passed == total else "not yet — keep going."
    print(f"{name}: {passed}/{total} checks passed, {verdict}")
    return passed == total


def _load_all() -> None:
    """Import the per-notebook case modules (each registers its exercises)."""
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("nb"):
            importlib.import_module(f"{__name__}.{module.name}")


__all__ = ["CHECKS", "Case", "check", "exercise"]
