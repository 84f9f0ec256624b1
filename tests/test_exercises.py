"""Rules of the exercise checker: a report that teaches, readable in any font."""

import pytest
from test_exercise_catalogue import one_line

from tinyagent.course.exercises import Wrong, check, exercise, expect


@exercise("99.double")
def _double_cases(fn):
    yield "doubles 2", lambda: expect(fn(2), 4, "with 2"), "multiply by two"
    yield "doubles -1", lambda: expect(fn(-1), -2, "with -1"), "negative numbers too"
    yield "doubles 0", lambda: fn(0) == 0, "zero stays zero"


def test_all_passing_prints_the_verdict_then_a_line_per_case(capsys):
    """A correct answer prints the verdict first, then ✓ PASS per case."""
    assert check("99.double", lambda x: 2 * x)
    assert capsys.readouterr().out.splitlines() == [
        "99.double: 3/3 checks pass. Well done!",
        "✓ PASS  doubles 2", "✓ PASS  doubles -1", "✓ PASS  doubles 0"]


def test_a_failure_shows_input_value_expected_and_hint(capsys):
    """The learner's own value is printed next to the expected one, with the input."""
    assert not check("99.double", lambda x: x + 2)
    out = capsys.readouterr().out
    assert "✗ FAIL  doubles -1\n        with -1: got 1; expected -2\n" \
           "        hint: negative numbers too" in out


def test_failures_come_first_in_case_order(capsys):
    """The first failing case is the first line after the verdict; passes follow."""
    result = check("99.double", lambda x: x + 2)  # right at 2, wrong at -1 and 0
    lines = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith(("✓", "✗"))]
    assert [line[:6] for line in lines] == ["✗ FAIL", "✗ FAIL", "✓ PASS"]
    assert result.failures == ["doubles -1", "doubles 0"]


def test_only_the_first_failure_is_shown_in_full(capsys):
    """The other failing cases are named, with neither evidence nor hint: each rerun
    reveals the next."""
    check("99.double", lambda x: x + 2)
    out = capsys.readouterr().out
    assert "hint: negative numbers too" in out and "zero stays zero" not in out
    assert out.count("hint:") == 1 and out.count("got") == 1
    assert "✗ FAIL  doubles 0\n✓ PASS  doubles 2" in out


def test_a_hint_from_the_evidence_replaces_the_cases_hint(capsys):
    """Wrong(evidence, hint=...) names the cause the evidence shows, instead of the
    case's general hint."""
    @exercise("99.diagnosed")
    def _cases(fn):
        def diagnose():
            if fn(3) == 3:
                raise Wrong("with 3: got 3; expected 6", hint="it returns its input")
            return True
        yield "doubles 3", diagnose, "multiply by two"
    check("99.diagnosed", lambda x: x)
    out = capsys.readouterr().out
    assert "hint: it returns its input" in out and "multiply" not in out


def test_no_emoji_marks(capsys):
    """Marks are ✓/✗ with a word, never the emoji that lack glyphs on bare Linux."""
    check("99.double", lambda x: x)
    out = capsys.readouterr().out
    assert "✅" not in out and "❌" not in out and "✗ FAIL" in out


def test_a_stub_prints_one_line_with_no_case_or_hint(capsys):
    """A stub raising NotImplementedError gets one line saying what to write and how
    to check it: no case, no hint, no evidence (a stored notebook shows only that)."""
    def double(x):
        raise NotImplementedError
    result = check("99.double", double)
    out = capsys.readouterr().out
    assert not result and result.total == 3
    assert one_line(out) and "double" in out and "not written yet" in out
    assert "✗" not in out and "hint" not in out and "doubles" not in out


def test_a_half_written_class_is_still_not_written(capsys):
    """Code that raises NotImplementedError in any case (one method left to write)
    gets the same one line, even if other cases pass."""
    def half(x):
        if x == 2:
            return 4
        raise NotImplementedError
    check("99.double", half)
    assert capsys.readouterr().out.startswith("99.double: not written yet")


def test_a_crash_shows_the_error(capsys):
    """Learner code that raises shows the exception type and message."""
    assert not check("99.double", lambda x: x / 0)
    assert "ZeroDivisionError: division by zero" in capsys.readouterr().out


def test_the_result_is_no_bare_bool_in_a_notebook():
    """A check cell's value shows nothing (the report is printed); its repr is
    deterministic and its truth is the verdict."""
    result = check("99.double", lambda x: 2 * x)
    assert result._ipython_display_() is None
    assert repr(result) == "CheckResult('99.double', passed=3, total=3)"
    assert bool(result) and not isinstance(result, bool)


def test_expect_names_the_input_and_both_values():
    """expect() raises Wrong "where: got …; expected …" and returns True on a match."""
    assert expect([1], [1], "x")
    with pytest.raises(Wrong, match=r"with max_tokens=5: got \[1\]; expected \[\]"):
        expect([1], [], "with max_tokens=5")


def test_unknown_exercise_lists_the_known_ones():
    """A wrong name raises KeyError listing the exercises that exist."""
    with pytest.raises(KeyError, match="99.double"):
        check("nope", None)


PACKAGED = [  # an exercise, and the package's own code a learner might pass as is
    ("00.no_progress", "tinyagent.guards", "no_progress"),
    ("00.same_signature", "tinyagent.guards", "same_calls"),
    ("02.my_memory", "tinyagent", "InMemoryChatMemory"),
    ("03.rounds_window", "tinyagent", "SlidingWindowChatMemory"),
    ("03.token_window", "tinyagent", "TokenWindowChatMemory"),
    ("04.summary_trigger", "tinyagent.memory.summary", "compression_cut"),
    ("05.merge_step", "tinyagent.memory", "Summarizer"),
    ("08.cap_items", "tinyagent.production", "cap_items"),
    ("08.fence", "tinyagent.memory", "summary_message"),
]


@pytest.mark.parametrize("name, module, attribute", PACKAGED)
def test_the_packages_own_code_passed_as_is_gets_one_friendly_line(
        name, module, attribute, capsys):
    """An exercise whose point is writing the code refuses the package's own
    function or class passed as it is: one line that says so and names it, no case,
    in either language."""
    import importlib
    code = getattr(importlib.import_module(module), attribute)
    for lang, words in (("en", "the package's own"), ("zh", "包里现成的")):
        result = check(name, code, lang=lang)
        out = capsys.readouterr().out
        assert not result and one_line(out), out
        assert words in out and attribute in out and "✗" not in out


def test_a_wrapper_around_the_packages_code_is_the_learners_own(capsys):
    """A function of the learner's that calls the package's is judged like any
    other code (here it is right), and so is a choice of sizes (06.tune_hybrid)."""
    from tinyagent import guards

    assert check("00.no_progress", lambda thoughts: guards.no_progress(thoughts))
    capsys.readouterr()


def test_a_choice_among_the_packages_classes_is_not_refused(capsys):
    """06's exercises choose among the package's memories: passing one of its
    classes is an answer to judge, not code copied."""
    from tinyagent import HybridChatMemory

    result = check("06.tune_hybrid", HybridChatMemory)
    assert "package's own" not in capsys.readouterr().out
    assert result.total > 1


def test_a_long_report_line_goes_on_under_its_own_text(capsys):
    """A line longer than 80 columns is cut at a space (or between Chinese
    characters) and goes on under its own text: a case's words under the case, the
    evidence two columns further in; nothing is lost, and no line passes 80
    columns unless one word does."""
    from tinyagent.course.exercises._wrap import wrap
    from tinyagent.lang import text_width

    @exercise("99.long")
    def _cases(fn):
        yield ("a case whose description is long enough to need a second line when "
               "it is shown", lambda: expect(fn(1), 2, "with an input described at "
                                       "length, " * 5), "the hint")
    check("99.long", lambda x: x)
    lines = capsys.readouterr().out.splitlines()
    assert all(text_width(line) <= 80 for line in lines)
    assert lines[1].startswith("  ")  # the verdict, continued
    assert lines[2].startswith("✗ FAIL  a case") and lines[3] == " " * 8 + "shown"
    assert lines[4].startswith(" " * 8 + "with") and lines[5].startswith(" " * 10)
    chinese = wrap("✗ 未通过  " + "一段很长的中文说明，" * 10)
    assert [text_width(line) <= 80 for line in chinese] == [True] * len(chinese)
    said = "".join(line.strip() for line in chinese)
    assert chinese[1].startswith(" " * 10)
    assert said == "✗ 未通过  " + "一段很长的中文说明，" * 10
