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


# Words a Chinese reader meets as names, not as English: what the learner types in
# code (the package's identifiers), acronyms, units, and the store's brands. Anything
# else in Latin letters is English that should have been Chinese.
NAMES = {
    "token", "tokens", "tiktoken", "cl100k", "BitMall", "ReAct", "Python", "Jupyter",
    "OpenAI", "DeepSeek", "Qwen", "Colab", "Binder", "SQLite", "PostgreSQL", "MySQL",
    "Redis", "Nexus", "Chromium", "pytest", "nbval", "pip", "conda", "matplotlib",
    "tinyagent", "llama", "cpp", "gguf", "ms", "KB", "MB", "px", "id", "ids",
}
CODE = re.compile(
    r"`[^`\n]*`"                                   # `inline code`
    r"|--?[a-z][\w-]*"                             # --lang, -n
    r"|\b[A-Za-z_]\w*(?:\.\w+)+\b"                  # dotted.names, file.py
    r"|\b[A-Za-z]*_\w*"                            # snake_case, _private, __init__
    r"|\b[a-z]+[A-Z]\w*"                           # camelCase: queryOrder
    r"|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b"       # CamelCase: SummaryChatMemory
    r"|\b[A-Z]{2,}[a-z]?\b"                        # acronyms: JSON, API, LLM, URLs
    r"|\b\w+(?=\s*[=(\[])"                         # name= and name( and name[
    r"|(?<==)\s*['\"]?\w+"                         # =value, ='value'
    r"|['\"]\w+['\"](?=\s*:)"                      # JSON and dict keys: "status":
    r"|\b(?:True|False|None|def|self|return|import|from|lambda)\b"  # Python itself
    r"|\bhttps?://\S+"
)


def stray_english(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """English words in `text` that are not ids, code, names or `allowed`.

    >>> stray_english("订单 88231 由 SF Express 承运，`queryOrder` 已查询")
    ['Express']
    """
    rest = CODE.sub(" ", ALLOWED.sub(" ", text))
    words = re.findall(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]", rest)
    return [w for w in words
            if w not in NAMES and w.lower() not in NAMES and w not in allowed
            and len(w) > 1]
