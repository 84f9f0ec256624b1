"""A kept statement reads as a clerk's note in both languages: the first person left
out only where it opens the statement, named ("the customer", 客户) where leaving it
out would break the sentence, and said back to the customer as "you" (您)."""

import re

import pytest
from phrasings import KINDS, held_apart, held_apart_late, tuning
from phrasings.voice import VOICE

from tinyagent.offline.forms import statements
from tinyagent.offline.person import third_person, to_listener

# What a note that dropped a pronoun it needed looks like: a conjunction straight
# before a verb ("every time start it"), a verb left without its object ("reach by
# email", "let know", "告诉，"), or the first person itself.
BROKEN = {
    "en": re.compile(
        r"\b(?:if|when|whenever|once|because|since|where|until|unless|every time|"
        r"the only way|the most)\s+(?:'|am\b|will\b|would\b|can\b|could\b|buy|start|"
        r"miss|work|raise|pay|see|get|need|want|have|do|go|check|leave|use|walk)\b"
        r"|\b(?:reach|tell|let|give|interest|suits?)(?:\s+(?:by|on|at|in|for|with|"
        r"when|if|know|a call|better)\b|\s*(?:[,.;]|$))"
        r"|\b(?:I|I'm|I'd|I'll|I've|me|my|mine|myself)\b", re.I),
    "zh": re.compile(r"我|告诉(?=[，。；、）]|$)|(?:让|叫)(?=[下上来去拿])"
                     r"|(?:找到|给|吵|问|等|通知您)(?=[，。；、）]|$)")}
# The customer's own "you" is the shop: a note of theirs never says it.
YOU = re.compile(r"\byou(?:r|rs|rself)?\b", re.I)


def rows(lang):
    return [pytest.param(*row, id=row[0][:40]) for row in VOICE[lang]]


@pytest.mark.parametrize("said, role, kind, note, back", rows("en") + rows("zh"))
def test_a_statement_reads_as_a_clerks_note(said, role, kind, note, back):
    """Each row of the voice set: the note the ledger keeps, and what the clerk says
    back to the customer."""
    found = [s for s in statements(said, role) if s.topic == kind]
    assert [s.text for s in found] == [note]
    assert to_listener(note) == back
    assert not BROKEN["zh" if re.search(r"[\u4e00-\u9fff]", said) else "en"].search(
        note)


def sets():
    for book in (tuning, held_apart, held_apart_late):
        for lang in ("en", "zh"):
            for kind in KINDS:
                for text, _ in book.PHRASINGS[lang][kind]:
                    yield lang, kind, text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_statement_of_the_phrasing_sets_breaks_its_sentence(lang):
    """Over every phrasing set (tuning, held apart, late), no kept note has the
    first person, a conjunction before a bare verb or a verb without its object;
    a customer's note never says "you"."""
    broken = []
    for language, kind, text in sets():
        if language != lang:
            continue
        role = "assistant" if kind == "promise" else "user"
        for said in statements(text, role):
            if BROKEN[lang].search(said.text) or (
                    role == "user" and lang == "en" and YOU.search(said.text)):
                broken.append((text, said.text))
    assert broken == []


@pytest.mark.parametrize("lang, note", [
    ("en", "Budget: If buy a new robot vacuum, has to stay under 2000 yuan"),
    ("en", "screen shows error E21 every time start it"),
    ("en", "Use the in-app chat to reach"),
    ("en", "Let know by email when the refund goes through"),
    ("zh", "有进展请发邮件告诉，别打电话"),
    ("zh", "钉钉上基本一整天都能找到"),
    ("zh", "有事发短信给"),
])
def test_the_check_finds_the_notes_a_review_found_broken(lang, note):
    """BROKEN is no formality: the notes that were reported broken fail it."""
    assert BROKEN[lang].search(note)


@pytest.mark.parametrize("verb, third", [
    ("start", "starts"), ("miss", "misses"), ("try", "tries"), ("buy", "buys"),
    ("go", "goes"), ("watch", "watches"), ("am", "is"), ("have", "has"),
    ("don't", "doesn't"), ("can", "can"), ("ordered", "ordered"), ("bought", "bought")])
def test_a_verb_agrees_with_the_customer_and_back_with_you(verb, third):
    """"the customer" takes the third person; said back, "you" takes the verb as
    the customer said it."""
    assert third_person(verb) == third
    said = "am" if verb == "am" else verb
    back = to_listener(f"if the customer {third} it")
    assert back == f"if you {'are' if said == 'am' else said} it"
