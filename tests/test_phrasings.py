"""Statements nobody planted survive 30 turns of filler in every summary memory.

The tuning set (tests/phrasings/tuning.py): twelve statements a kind and language,
written unlike the course's dialogs. Each conversation opens with one statement of
every kind; 30 filler turns later each must still be in the summary, under its
kind's label. The held-apart set is not played here: scripts/phrasing_sweep.py
--held-apart measures it."""

import pytest
from phrasings import KINDS, tuning
from phrasings.play import MEMORIES, play, survived

ROUNDS = range(12)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(MEMORIES))
def test_every_statement_survives_thirty_turns(name, lang):
    """All 84 statements of a language (7 kinds, 12 each), 12 conversations, are
    in the summary 30 turns later, each under its kind's label."""
    lost = []
    for k in ROUNDS:
        said = [(kind, tuning.PHRASINGS[lang][kind][k]) for kind in KINDS]
        memory = MEMORIES[name]()
        summary = play(memory, [(kind, text) for kind, (text, _) in said], lang)
        assert memory.compression_count >= 1
        lost += [(kind, text) for kind, (text, key) in said
                 if not survived(summary, kind, key)]
    assert lost == []


def test_the_check_fails_a_summary_that_lost_a_statement():
    """survived() is no formality: a word under another label, or missing, fails."""
    assert survived("- Delivery: after 7 pm", "delivery", "7 pm")
    assert not survived("- Note: after 7 pm", "delivery", "7 pm")
    assert not survived("- Delivery: in the evening", "delivery", "7 pm")
    assert survived("- 备注：下个月搬去杭州", "note", "杭州")


def test_every_kind_has_twelve_statements_in_each_language():
    """The set is what it says: 12 a kind and language, none repeated."""
    for lang in ("en", "zh"):
        texts = [t for kind in KINDS for t, _ in tuning.PHRASINGS[lang][kind]]
        assert all(len(tuning.PHRASINGS[lang][kind]) == 12 for kind in KINDS)
        assert len(set(texts)) == len(texts)
