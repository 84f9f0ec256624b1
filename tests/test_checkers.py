"""Every checker's tests, written once and parametrized over every exercise of every
notebook: the official solutions pass, and each wrong solution of the catalogue
(wrong_solutions.py) is rejected naming its case; then the same in Chinese, where no
report holds an English sentence. A notebook's own checker tests
(test_exercises_nbNN.py) add what only its exercises need."""

import pytest
from test_exercise_catalogue import (
    CATALOGUE,
    OFFICIAL,
    ROLES,
    candidates,
    checkers_words,
    chinese_report,
    descriptions,
    first_case,
    official,
)
from wrong_solutions import fresh
from zh_text import english_sentences, stray_english

from tinyagent.course.exercises import check
from tinyagent.course.exercises._wrap import wrap

names = sorted(OFFICIAL)
wrongs = [pytest.param(name, wrong, case, id=f"{name}:{slip}")
          for name, entries in sorted(CATALOGUE.items())
          for slip, wrong, case in entries]
slips = [pytest.param(name, slip, id=f"{name}:{slip}")
         for name, entries in sorted(CATALOGUE.items()) for slip, _, _ in entries]


def test_every_exercise_is_checked_here():
    """No exercise is left out: every official solution, and every exercise with a
    catalogue of wrong solutions, is a case of the tests below."""
    assert OFFICIAL and set(CATALOGUE) <= set(OFFICIAL)


@pytest.mark.usefixtures("quiet")
@pytest.mark.parametrize("name", names)
def test_the_official_solution_passes(name):
    """The solutions notebook's code passes its own exercise."""
    assert check(name, official(*OFFICIAL[name]))


@pytest.mark.parametrize("name, wrong, case", wrongs)
def test_each_wrong_solution_is_rejected_naming_the_case(name, wrong, case,
                                                         capsys):
    """A wrong solution fails, and the first failure printed is the case it
    breaks."""
    capsys.readouterr()
    result = check(name, fresh(wrong))
    out = capsys.readouterr().out.splitlines()
    assert not result
    assert case in result.failures[0]
    verdict, shown = first_case("\n".join(out))
    assert "checks pass" in verdict
    assert shown[:len(wrap(f"✗ FAIL  {result.failures[0]}"))] == wrap(
        f"✗ FAIL  {result.failures[0]}")


@pytest.mark.parametrize("name", names)
def test_the_official_solution_passes_in_chinese(name):
    """The solutions notebook's code passes in Chinese too, where the inputs a
    report shows (dialogs, summaries) are Chinese."""
    result, out = chinese_report(name, "official")
    assert result, out


@pytest.mark.parametrize("name", names)
def test_a_chinese_report_holds_no_english_sentence(name):
    """Whatever the code (official, stub, each wrong solution), the Chinese
    report has no run of three English words: not in the verdict, the marks,
    the cases, the evidence or the hints."""
    for who in candidates(name):
        _, out = chinese_report(name, who)
        assert english_sentences(out) == [], f"{name} with {who}:\n{out}"


@pytest.mark.parametrize("name, wrong, case", wrongs)
def test_the_chinese_verdict_names_the_case_that_fails(name, wrong, case):
    """Right under the Chinese verdict comes the Chinese twin of the case the
    English report names first."""
    english = descriptions(name, wrong, "en")
    index = next(i for i, text in enumerate(english) if case in text)
    chinese = descriptions(name, wrong, "zh")[index]
    slip = next(s for s, w, _ in CATALOGUE[name] if w is wrong)
    result, out = chinese_report(name, slip)
    lines = out.splitlines()  # made unwrapped: one line a case
    assert "第一个 ✗ 未通过" in lines[0] and lines[1] == f"✗ 未通过  {chinese}", out
    assert result.failures[0] == chinese


@pytest.mark.parametrize("name", names)
def test_the_chinese_editions_official_code_passes(name):
    """The official code as the Chinese notebook writes it (Chinese prompt,
    labels, markers) passes its checker in Chinese, every case, with no English
    word outside names."""
    result, out = chinese_report(name, "official-zh")
    assert result, out
    assert stray_english(checkers_words(out.replace(name, " ")), ROLES) == [], out


@pytest.mark.parametrize("name, slip", slips)
def test_a_wrong_solution_is_shown_got_and_expected_in_chinese(name, slip):
    """Every wrong solution's Chinese report shows evidence, 得到 (what the code
    gave) and 应为 (what was expected), not only a hint, and no English."""
    result, out = chinese_report(name, slip)
    assert not result
    assert "得到" in out and "应为" in out, out
    assert stray_english(checkers_words(out.replace(name, " ")), ROLES) == [], out
