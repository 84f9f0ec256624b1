"""Notebook 06's checkers (course/exercises/nb06.py): tune a hybrid, pick a memory.

What only these exercises need; the tests every checker gets (the official solutions
pass, each wrong one is rejected naming its case, in English and in Chinese) are
test_checkers.py's."""

import pytest
from test_exercise_catalogue import one_line

from tinyagent import InMemoryChatMemory
from tinyagent.course.exercises import check

# the checkers refuse quickly what they cannot measure
pytestmark = pytest.mark.usefixtures("quiet")


def test_a_stub_reads_as_not_yet(capsys):
    """An unfinished stub gets one line naming the function, no crash, no case."""
    def tuned_hybrid(llm):
        raise NotImplementedError
    assert not check("06.tune_hybrid", tuned_hybrid)
    out = capsys.readouterr().out
    assert one_line(out) and "not written yet" in out and "tuned_hybrid" in out


def test_not_a_hybrid_fails_every_case_by_name(capsys):
    """Another memory is refused in every case, by name, without playing 50 turns;
    the first case shows what it got."""
    result = check("06.tune_hybrid", lambda llm: InMemoryChatMemory())
    out = capsys.readouterr().out
    assert result.passed == 0 and len(result.failures) == result.total
    assert sum(line.startswith("✗ FAIL") for line in out.splitlines()) == result.total
    assert out.count("got InMemoryChatMemory") == 1 and "✓" not in out


def test_the_decisions_baseline_follows_the_reports_language():
    """The cheapest strategy a decision is compared with writes its summaries in the
    report's language, as the learner's memory does: a Chinese check after an English
    one is not graded against the English summaries' cost (nor the reverse)."""
    from tinyagent.course.exercises.nb06_cheapest import NAMED, _cheapest, cheapest
    from tinyagent.lang import get_lang, set_lang

    turns, rule, seed = NAMED[1]  # the long chat without a cache: summaries cost
    fresh = {lang: _cheapest.__wrapped__(turns, rule, seed, lang)
             for lang in ("en", "zh")}
    assert fresh["en"] != fresh["zh"]
    notebook = get_lang()
    try:
        for lang in ("en", "zh", "en"):
            set_lang(lang)
            assert cheapest(turns, rule, seed) == fresh[lang]
    finally:
        set_lang(notebook)


def test_the_drawn_dialogs_cover_every_rule_and_each_length():
    """The drawn dialogs are the same on every run, take each cache rule on both
    sides of its crossover (once up to 19 turns, once from 22), reach from a short
    chat to a long one, and avoid turns 20 and 21."""
    from tinyagent.course.exercises.nb06_cheapest import RULES, drawn_dialogs

    dialogs = drawn_dialogs()
    assert dialogs == drawn_dialogs()
    for rule in RULES:
        turns = sorted(t for t, r, _ in dialogs if r == rule)
        assert len(turns) == 2 and turns[0] <= 19 and turns[1] >= 22, (rule, turns)
    turns = sorted(t for t, _, _ in dialogs)
    assert turns[0] <= 12 and turns[-1] >= 22 and not {20, 21} & set(turns)


def test_a_short_chats_memory_must_recall_with_the_questions_asked_last():
    """Up to 12 turns a window that recalls on the drawn dialog, by luck, is not
    enough: the same memory must recall on dialogs of that length that ask their
    questions after everything else, where a window loses the start."""
    from tinyagent import SlidingWindowChatMemory
    from tinyagent.course.exercises.nb06_cheapest import _promised

    def window(llm, turns, rule):
        return SlidingWindowChatMemory(6)

    def everything(llm, turns, rule):
        return InMemoryChatMemory()

    assert _promised(window, 6, "none", 3) is not None
    assert _promised(everything, 6, "none", 3) is None
    assert _promised(window, 30, "none", 3) is None  # long chats: recall is measured
