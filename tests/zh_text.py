"""What may stay in Latin letters in a Chinese text, and how to find English in it.

Shared by the tests of the Chinese store and of the Chinese notebooks.
"""

import re

# Ids, model names ("S20 Pro", "AirX", "BandPro") and the word "token".
ALLOWED = re.compile(r"RF\d{11}|[A-Z]{2}\d{10}|\b[A-Z]\d{1,3}(?: (?:Pro|Max|Lite))?\b"
                     r"|\b[A-Z][a-z]+[A-Z][A-Za-z]*\b|\bSF\b|\btoken\b")
# An English sentence: three or more plain words in a row. Identifiers (snake_case,
# camelCase, dotted names) are not plain words, so code and JSON keys pass.
# Python's True, False and None are values, not words; a dot between words joins them
# into one name (tinyagent.course), a dot before a space ends a sentence.
WORD = r"(?!(?:True|False|None)\b)(?:[A-Za-z][a-z]+|I|a)"
SENTENCE = re.compile(rf"(?<![\w'-])(?<!\w\.){WORD}(?:[ ,;:]{{1,3}}{WORD}){{2,}}"
                      r"(?![\w('-]|\.\w)")


def english_words(text: str) -> list[str]:
    """Latin words left in `text` once ids and model names are taken out."""
    return re.findall(r"[A-Za-z]{2,}", ALLOWED.sub(" ", text))


def english_sentences(text: str) -> list[str]:
    """Runs of three or more English words left once ids and model names are out."""
    return SENTENCE.findall(ALLOWED.sub(" ", text))
