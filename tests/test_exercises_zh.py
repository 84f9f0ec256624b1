"""The exercise checkers in Chinese: `check(..., lang="zh")`, or `set_lang("zh")`.

Each exercise is run in Chinese once per candidate (its official solution, a stub that
raises NotImplementedError, and every wrong solution of wrong_solutions.py); the
reports are kept for the module, so the tests that read them share the runs.
"""

import contextlib
import functools
import io

import pytest
from test_exercise_catalogue import OFFICIAL, official
from wrong_solutions import CATALOGUE, fresh
from zh_text import english_sentences

from tinyagent.course.exercises import CHECKS, CheckResult, check
from tinyagent.course.language import get_lang, set_lang


def stub(*args, **kwargs):
    """The learner notebook's unfinished code: a function, or a class to build."""
    raise NotImplementedError


def candidates(name: str) -> dict:
    """The code each exercise is run on: the official solution, a stub, the slips."""
    return {"official": official(*OFFICIAL[name]), "stub": stub,
            **{slip: wrong for slip, wrong, _ in CATALOGUE[name]}}


@functools.cache
def report(name: str, who: str) -> tuple[CheckResult, str]:
    """`check(name, candidate, lang="zh")` and what it printed, run once."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = check(name, fresh(candidates(name)[who]), lang="zh")
    return result, out.getvalue()


def descriptions(name: str, candidate, lang: str) -> list[str]:
    """The case descriptions of an exercise, in `lang`, without running the cases."""
    notebook = get_lang()
    set_lang(lang)
    try:
        return [description for description, _, _ in CHECKS[name](candidate)]
    finally:
        set_lang(notebook)


@pytest.mark.parametrize("name", sorted(OFFICIAL))
def test_a_chinese_report_holds_no_english_sentence(name):
    """Whatever the code (official, stub, each wrong solution), the Chinese report
    has no run of three English words: verdict, marks, cases, evidence and hints."""
    for who in candidates(name):
        _, out = report(name, who)
        assert english_sentences(out) == [], f"{name} with {who}:\n{out}"


@pytest.mark.parametrize("name", sorted(OFFICIAL))
def test_the_official_solution_passes_in_chinese(name):
    """The solutions notebook's code passes in Chinese too: the inputs a Chinese
    report shows are Chinese, and the checks hold on them."""
    result, out = report(name, "official")
    assert result, out


@pytest.mark.parametrize("name, slip, case", [
    pytest.param(name, slip, case, id=f"{name}:{slip}")
    for name, entries in sorted(CATALOGUE.items()) for slip, _, case in entries])
def test_the_chinese_verdict_names_the_case_that_fails(name, slip, case):
    """A wrong solution's Chinese report puts first, right under the verdict, the
    Chinese twin of the case the English report names."""
    wrong = candidates(name)[slip]
    english = descriptions(name, wrong, "en")
    index = next(i for i, text in enumerate(english) if case in text)
    chinese = descriptions(name, wrong, "zh")[index]
    result, out = report(name, slip)
    lines = out.splitlines()
    assert "第一个 ✗ 未通过" in lines[0] and lines[1] == f"✗ 未通过  {chinese}", out
    assert result.failures[0] == chinese


def test_every_stub_case_reads_as_not_yet_in_chinese():
    """A stub fails every case with "还没有实现" and the hint, never a crash."""
    for name in sorted(OFFICIAL):
        result, out = report(name, "stub")
        assert out.count("还没有实现。提示：") == result.total, out


def test_lang_zh_overrides_the_notebook_setting_and_restores_it(capsys):
    """check(..., lang="zh") reports in Chinese in an English notebook, and the
    notebook's setting is English again afterwards."""
    set_lang("en")
    check("07.cap_items", official(*OFFICIAL["07.cap_items"]), lang="zh")
    assert "项检查全部通过" in capsys.readouterr().out
    assert get_lang() == "en"


def test_the_notebook_setting_is_followed_and_kept(capsys):
    """Without lang, check() follows set_lang("zh"), and leaves it set; lang="en"
    gives the English report in a Chinese notebook, and leaves it Chinese."""
    set_lang("zh")
    try:
        check("07.cap_items", official(*OFFICIAL["07.cap_items"]))
        assert "项检查全部通过" in capsys.readouterr().out and get_lang() == "zh"
        check("07.cap_items", official(*OFFICIAL["07.cap_items"]), lang="en")
        assert "checks pass. Well done!" in capsys.readouterr().out
        assert get_lang() == "zh"
    finally:
        set_lang("en")


def test_the_setting_is_restored_when_the_check_raises():
    """An unknown exercise raises, and the notebook's language is still restored."""
    set_lang("en")
    with pytest.raises(KeyError, match="没有名为"):
        check("99.nope", stub, lang="zh")
    assert get_lang() == "en"


def test_a_wrong_language_raises_value_error_naming_it():
    """check(..., lang="fr") raises ValueError that names "fr", before any case."""
    with pytest.raises(ValueError, match="'fr'"):
        check("07.cap_items", stub, lang="fr")
    assert get_lang() == "en"
