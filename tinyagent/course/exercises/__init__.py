"""Checkers for the notebooks' exercises: `check("03.token_window", your_function)`.

Introduced in notebook 00. Each exercise registers cases, and `check` runs them
against the learner's code. A case passes, or fails with its evidence: the input,
what the learner's code returned and what was expected, in the learner's own numbers
("with max_tokens=105: kept 6 messages (109 tokens); expected 4 (74 tokens)"), then a
hint. The report opens with the verdict, lists the failing cases first (in the order
to fix them) and the passing ones after. Marks are plain text with a word ("✓ PASS",
"✗ FAIL"), readable in any font. The report speaks the notebook's language
(`set_lang("zh")` in notebooks/zh, or `check(..., lang="zh")`): each sentence is
written as an English and Chinese pair where it is used, `say(en, zh)`, and the
inputs a case shows (dialogs, summaries) are Chinese too. Every case builds fresh
inputs, so code that changes its argument cannot spoil the next case. A case that
raises counts as failed, with the error shown: an unfinished stub
(`raise NotImplementedError`) reads as "not yet".
Left out: grading, scores and hidden tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..language import get_lang, say, set_lang
from ._errors import in_chinese

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
        raise Wrong(say(f"{where}: got {show(got)}; expected {show(expected)}",
                        f"{where}：得到 {show(got)}；应为 {show(expected)}"))
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
    hint = say(f"hint: {hint}", f"提示：{hint}")
    try:
        if test():
            return True, ""
        return False, hint
    except Wrong as wrong:
        return False, f"{wrong}\n{hint}"
    except NotImplementedError:
        return False, say(f"not implemented yet. {hint}", f"还没有实现。{hint}")
    except Exception as exc:  # the learner's code crashed: show what, not where
        message = str(exc).rstrip(". ")
        crash = f"{type(exc).__name__}: {message}"
        return False, say(f"{crash}\n{hint}", f"代码出错：{type(exc).__name__}："
                          f"{in_chinese(message)}\n{hint}")


def check(name: str, candidate: Any, lang: str | None = None) -> CheckResult:
    """Run exercise `name`'s cases on `candidate` and print the report, in `lang`
    ("en" or "zh"; by default the notebook's language)."""
    notebook = get_lang()
    set_lang(get_lang(lang))  # every say() in the cases follows it, until we return
    try:
        return _check(name, candidate)
    finally:
        set_lang(notebook)


def _check(name: str, candidate: Any) -> CheckResult:
    _load_all()
    if name not in CHECKS:
        known = ", ".join(sorted(CHECKS))
        raise KeyError(say(f"no exercise named {name!r}; known: {known}",
                           f"没有名为 {name!r} 的练习；已有：{known}"))
    passed, failed = say("✓ PASS  ", "✓ 通过    "), say("✗ FAIL  ", "✗ 未通过  ")
    passes, failures = [], []
    for description, test, hint in CHECKS[name](candidate):
        ok, why = _run(test, hint)
        if ok:
            passes.append(f"{passed}{description}")
        else:
            details = "".join(f"\n        {line}" for line in why.splitlines())
            failures.append(f"{failed}{description}{details}")
    total = len(passes) + len(failures)
    if failures:
        print(say(f"{name}: {len(passes)}/{total} checks pass. Not yet: "
                  "fix the first ✗ FAIL below, then run this cell again.",
                  f"{name}：{len(passes)}/{total} 项检查通过。还没完成：先改好"
                  "下面第一个 ✗ 未通过，再运行一次这个单元格。"))
    else:
        print(say(f"{name}: {total}/{total} checks pass. Well done!",
                  f"{name}：{total}/{total} 项检查全部通过。做得好！"))
    print("\n".join(failures + passes))
    return CheckResult(name, len(passes), total,
                       [f.splitlines()[0][len(failed):] for f in failures])


def _load_all() -> None:
    """Import the per-notebook case modules (each registers its exercises)."""
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("nb"):
            importlib.import_module(f"{__name__}.{module.name}")


__all__ = ["CHECKS", "Case", "CheckResult", "Wrong", "check", "exercise", "expect"]
