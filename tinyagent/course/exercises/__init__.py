"""Checkers for the notebooks' exercises: `check("03.token_window", your_function)`.

Introduced in notebook 00. Each exercise registers cases, and `check` runs them
against the learner's code. The report asks before it tells:

- code that is not written yet (it raises NotImplementedError) gets one short line,
  what to write and how to check it, and no case or hint: a stored notebook never
  shows what the cases are looking for;
- the first failing case is shown in full: its input, what the learner's code
  returned and what was expected, in the learner's own numbers ("with
  max_tokens=105: kept 6 messages (109 tokens); expected 4 (74 tokens)"), then a
  hint that names the cause, not the code to type. The other failing cases are named
  only: each rerun reveals the next.

Marks are plain text with a word ("✓ PASS", "✗ FAIL"), readable in any font; a
line longer than 80 columns goes on under its own text (_wrap.py). The
report speaks the notebook's language (`set_lang("zh")` in notebooks/zh, or
`check(..., lang="zh")`): each sentence is written as an English and Chinese pair
where it is used, `say(en, zh)`, and the inputs a case shows (dialogs, summaries) are
Chinese too. Every case builds fresh inputs, so code that changes its argument cannot
spoil the next case. A case that raises counts as failed, with the error shown.

Beside its named cases, each checker draws inputs (seeded: the same on every run)
and compares the learner's code with the reference on them (_drawn.py). An exercise
whose point is writing the code refuses the package's own function or class passed
as it is, with one friendly line (`packaged`); a wrapper around it is the learner's
own business. Left out: grading, scores and hidden tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ...lang import say, speaking
from ._errors import in_chinese
from ._wrap import wrapped


def print_(text: str) -> None:
    """Print a report, cut into lines that fit a notebook (_wrap.py)."""
    print(wrapped(text))

# One case: what it checks, a function that returns True when it holds (or raises
# Wrong with the evidence), and a hint.
Case = tuple[str, Callable[[], bool], str]
Cases = Callable[[Any], Iterator[Case]]  # given the learner's code, yields its cases
CHECKS: dict[str, Cases] = {}  # "03.token_window" -> cases
WRITE_IT: set[str] = set()  # exercises whose point is to write the code yourself


class Wrong(Exception):
    """A failed case and its evidence: the input, the learner's value, the expected.
    `hint`, when given, replaces the case's hint: the evidence showed the cause."""

    def __init__(self, evidence: str, hint: str | None = None) -> None:
        super().__init__(evidence)
        self.hint = hint


class NotWritten(Exception):
    """The learner's code raised NotImplementedError: the exercise is not begun."""


def expect(got: Any, expected: Any, where: str, show: Callable[[Any], str] = repr
           ) -> bool:
    """True if `got == expected`; otherwise raise Wrong "where: got …; expected …"."""
    if got != expected:
        raise Wrong(say(f"{where}: got {show(got)}; expected {show(expected)}",
                        f"{where}：得到 {show(got)}；应为 {show(expected)}"))
    return True


def exercise(name: str, write_it: bool = True) -> Callable[[Cases], Cases]:
    """Register a generator of cases under an exercise name. `write_it`: the point
    of the exercise is to write the code, so the package's own is refused."""
    def register(cases: Cases) -> Cases:
        CHECKS[name] = cases
        if write_it:
            WRITE_IT.add(name)
        return cases
    return register


def packaged(candidate: Any) -> str | None:
    """"tinyagent.guards.no_progress" when `candidate` is the package's own function,
    class, method or object, passed as it is; None for the learner's own code (a
    wrapper or a subclass written in the notebook is the learner's)."""
    module = getattr(candidate, "__module__", None)
    if not isinstance(module, str) or not module.startswith("tinyagent."):
        return None
    name = getattr(candidate, "__qualname__", None) or type(candidate).__qualname__
    return f"{module}.{name}"


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
    """(passed, the lines that explain a failure); NotWritten for an unwritten stub."""
    def hinted(text: str) -> str:
        return say(f"hint: {text}", f"提示：{text}")
    try:
        if test():
            return True, ""
        return False, hinted(hint)
    except Wrong as wrong:
        return False, f"{wrong}\n{hinted(wrong.hint or hint)}"
    except NotImplementedError as exc:
        raise NotWritten from exc
    except Exception as exc:  # the learner's code crashed: show what, not where
        message = str(exc).rstrip(". ")
        crash = f"{type(exc).__name__}: {message}"
        return False, say(f"{crash}\n{hinted(hint)}",
                          f"代码出错：得到 {type(exc).__name__}："
                          f"{in_chinese(message)}；应为正常返回，不抛异常\n"
                          f"{hinted(hint)}")


def check(name: str, candidate: Any, lang: str | None = None) -> CheckResult:
    """Run exercise `name`'s cases on `candidate` and print the report, in `lang`
    ("en" or "zh"; by default the notebook's language)."""
    with speaking(lang):  # every say() in the cases follows it, until we return
        return _check(name, candidate)


def _not_written(name: str, candidate: Any) -> CheckResult:
    """One line for a stub: what to write and how to check it, nothing more."""
    what = getattr(candidate, "__name__", None) or say("your code", "你的代码")
    print_(say(f"{name}: not written yet. Write `{what}` in the cell above (in place "
              "of `raise NotImplementedError`), run that cell, then run this one.",
              f"{name}：还没有写。在上面的单元格里写好 `{what}`（替换掉 "
              "`raise NotImplementedError`），运行它，再运行这个单元格。"))
    return CheckResult(name, 0, len(list(CHECKS[name](candidate))), [])


def _own_code(name: str, where: str) -> CheckResult:
    """One friendly line for the package's own code passed as the answer."""
    print_(say(f"{name}: that is the package's own `{where}`, passed as it is. This "
              "exercise is to write it yourself: write your own in the cell above "
              "(reading the package's code first is fine), run it, then run this "
              "one.",
              f"{name}：这是包里现成的 `{where}`，原样交了上来。这个练习要你自己写："
              "在上面的单元格里写出你自己的版本（可以先读读包里的代码），"
              "运行它，再运行这个单元格。"))
    return CheckResult(name, 0, len(list(CHECKS[name](None))), [])


def _check(name: str, candidate: Any) -> CheckResult:
    _load_all()
    if name not in CHECKS:
        known = ", ".join(sorted(CHECKS))
        raise KeyError(say(f"no exercise named {name!r}; known: {known}",
                           f"没有名为 {name!r} 的练习；已有：{known}"))
    where = packaged(candidate) if name in WRITE_IT else None
    if where is not None:
        return _own_code(name, where)
    passed, failed = say("✓ PASS  ", "✓ 通过    "), say("✗ FAIL  ", "✗ 未通过  ")
    passes, failures, first = [], [], ""
    for description, test, hint in CHECKS[name](candidate):
        try:
            ok, why = _run(test, hint)
        except NotWritten:
            return _not_written(name, candidate)
        if ok:
            passes.append(f"{passed}{description}")
            continue
        if not failures:  # only the first failure is shown in full
            first = "".join(f"\n        {line}" for line in why.splitlines())
        failures.append(f"{failed}{description}")
    total = len(passes) + len(failures)
    if failures:
        print_(say(f"{name}: {len(passes)}/{total} checks pass. Not yet: fix the first "
                  "✗ FAIL below, then run this cell again (each run shows the next).",
                  f"{name}：{len(passes)}/{total} 项检查通过。还没完成：先改好"
                  "下面第一个 ✗ 未通过，再运行一次这个单元格（每次运行会显示"
                  "下一个）。"))
        failures[0] += first
    else:
        print_(say(f"{name}: {total}/{total} checks pass. Well done!",
                  f"{name}：{total}/{total} 项检查全部通过。做得好！"))
    print_("\n".join(failures + passes))
    return CheckResult(name, len(passes), total,
                       [f.splitlines()[0][len(failed):] for f in failures])


@cache  # once a process: a check is run hundreds of times in the tests
def _load_all() -> None:
    """Import the per-notebook case modules (each registers its exercises)."""
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("nb"):
            importlib.import_module(f"{__name__}.{module.name}")


__all__ = ["CHECKS", "WRITE_IT", "Case", "CheckResult", "NotWritten", "Wrong", "check",
           "exercise", "expect", "packaged"]
