"""What may stay in Latin letters in a Chinese text, and how to find English in it.

Shared by the tests of the Chinese store and of the Chinese notebooks.
"""

import re

# Ids, model names ("S20 Pro", "AirX", "BandPro") and the word "token"; an id or a
# model name cut short by a preview's "…" ("SF123456789…", "S20 Ma…"), or a model whose
# number a lossy summary dropped ("… Pro"); the offline model's names
# ("bitmall-offline+error") and the tokenizer's ("cl100k").
ALLOWED = re.compile(r"\b[A-Z]{2}\d+…|\b[A-Z]\d{1,3} [A-Z][a-z]{0,3}…"
                     r"|…\s(?:Pro|Max|Lite)\b"
                     r"|RF\d{11}|[A-Z]{2}\d{10}|\b[A-Z]\d{1,3}(?: (?:Pro|Max|Lite))?\b"
                     r"|\b[A-Z][a-z]+[A-Z][A-Za-z]*\b|\bSF\b|\btoken\b"
                     r"|\bbitmall-offline(?:\+\w+)?|\bcl100k\b")
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


# What may stay in Latin letters in Chinese text besides code, ids and model names:
# - proper names, written as their owners write them: the store and the designs the
#   course retells (BitMall, TinyAgent, Nexus), the software and services a learner
#   installs or calls (Python, Jupyter, Colab, OpenAI, Ollama, SQLite, ...), and the
#   people and works it cites (Jaccard, Chroma), and the customers of its examples
#   (Alice, Bob);
# - "token", the unit every Chinese text of the course uses (GLOSSARY.md);
# - units: ms, KB, MB, px, min;
# - names in code that prose and prompts quote: the field "id" (`call.id`), the
#   structured summary's JSON keys (goal, preferences, resolved, pending);
# - what a learner types: the providers' names (openai, deepseek, qwen, anthropic,
#   gemini: the cache rules' names, and their models such as gpt-5) and the
#   `python` command.
# Anything else in Latin letters is English that should have been Chinese, or an
# identifier that belongs in `code`.
NAMES = {
    "BitMall", "TinyAgent", "Nexus", "ReAct",
    "Python", "Jupyter", "JupyterLab", "Colab", "Binder", "PyPI", "pip", "conda",
    "Conda",
    "OpenAI", "DeepSeek", "Qwen", "Anthropic", "Gemini", "Ollama", "SQLite",
    "PostgreSQL", "MySQL", "Redis",
    "Chromium", "Docker", "Windows", "Debian", "Java", "tiktoken", "cl100k",
    "matplotlib", "pytest", "nbval", "tinyagent", "llama", "cpp", "gguf",
    "Jaccard", "Chroma", "Alice", "Bob",  # people: notebook 08's two customers
    "token", "ms", "KB", "MB", "px", "min",
    # the field a learner reads in code (`call.id`, `tool_call_id`), and the
    # structured summary's JSON keys, which its Chinese prompt names as they are
    "id", "goal", "preferences", "resolved", "pending",
    # the providers' names as a learner types them (`--provider openai`), the
    # command that runs the course's modules (`python -m tinyagent.course.ratios`),
    # and the SDK's session as `tinyagent grade --memory sqlite` names it
    "openai", "deepseek", "qwen", "anthropic", "gemini", "python", "sqlite",
}
# Names of more than one word, kept whole: "Nexus Agent", "Chat Completions",
# "OpenAI Agents SDK".
PHRASES = re.compile(r"\bNexus Agent\b|\bTinyAgent Memory\b|\bChat Completions\b"
                     # the coding agents whose compaction notebook 07 retells
                     r"|\bClaude Code\b|\bCodex\b"
                     r"|\bJSON Schema\b"
                     # notebook 10's framework, OpenAI's other API and its examples,
                     # as their owners name them
                     r"|\bAgents SDK\b|\bResponses API\b|\bOpenAI Cookbook\b"
                     # the glossary's term: the API's field, as printed
                     r"|\bmessages(?= 数组)"
                     r"|\bNoto Sans CJK(?: [A-Z]{2})?\b"
                     # a provider's model, as TINYAGENT_MODEL names it: "gpt-5"
                     r"|\b(?:gpt|qwen|deepseek)-[\w.-]+")
# A work cited as published: its English title in quotes (two words or more: one word
# in quotes is still a word), its authors before 等 ("Kelly Hong 等"), a web address
# shown as the link's text.
CITED = re.compile(r'["“][A-Za-z][^"”\n]* [^"”\n]*["”]|(?:\b[A-Z][a-z]*\.? )+(?=等)'
                   r'|\b[\w.-]+\.(?:com|org|io|net)(?:/[\w./-]*)?')
CODE = re.compile(
    # A line of Python source (inspect.getsource): a block header ending in ":", or
    # a return, import, raise or decorator.
    r"(?m:^[ \t]*(?:(?:def|class|if|elif|else|for|while|with|try|except)\b.*:"
    r"|(?:return|import|raise|@\w+)\b.*)[ \t]*$)"
    r"|`[^`\n]*`"                                  # `inline code`
    r"|\b\w+\([^()\n]*\)"                         # a call with its arguments
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
    r"|(?:(?<=[:,] )|(?<=\[))(?:true|false|null)\b"  # JSON values: "ok": true
    r"|\b[a-z][a-z0-9+.-]*://\S+"                  # URLs: https://, sqlite:///
    r"|(?<![\w/])/[\w.@-]+(?:/[\w.@-]+)+"           # file paths: /tmp/x/sessions.db
    r"|'[A-Za-z_]\w*'"                             # a str's repr: 'user', 'alice'
    r"|(?<=:\s)\"\w+\""                           # a one-word JSON value: "function"
    r"|\"[A-Za-z_]\w*…"                            # a JSON key or value cut short
    r"|\b\d\d\.\w+"                               # an exercise: 08.restore
    r"|[A-Za-z]+(?=\|)"                            # tokens shown split: By| the|
    # A message's role in a role column: the API's value, padded (not "[user]").
    r"|(?m:(?<![\[\w])(?:system|user|assistant|tool)(?=[ \t]{2,}|$))"
)


def stray_english(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """English words in `text` that are not ids, code, names or `allowed`.

    >>> stray_english("订单 88231 由 SF Express 承运，`queryOrder` 已查询")
    ['Express']
    """
    # A word the text also uses as a keyword argument ("threshold=8") is a parameter's
    # name wherever it appears in that text ("必须小于 threshold").
    named = set(re.findall(r"\b([A-Za-z_]\w*)=", text))
    rest = CODE.sub(" ", ALLOWED.sub(" ", CITED.sub(" ", PHRASES.sub(" ", text))))
    words = re.findall(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]", rest)
    return [w for w in words
            if w not in NAMES and w not in allowed
            and w not in named and len(w) > 1]
