"""A statement in the summary's voice: its content, as a clerk's note, no chatter.

Used by forms.py (notebook 04: what a summary keeps). "I'm only home in the evening,
after 7 pm" is noted as "only home in the evening, after 7 pm"; "请用邮件联系我，别给我
打电话" as "用邮件联系，别打电话". The customer's own words stay, in their order:
politeness, leading conjunctions, closing particles and the subject that opens the
statement go; any other "I" becomes "the customer" where the sentence needs it
(person.py: "every time the customer starts it", not "every time start it"). A kept
statement fits a budget in tokens, the same in both languages (24: about 90 English
characters, about 18 Chinese ones): whole clauses go first, the least telling first;
a clause still too long alone is cut, and a number the cut lost is kept in brackets.
Left out: rephrasing (a model would write "prefers email"; a rule only deletes and
names the customer).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lang import is_chinese
from ..tokens import count_tokens
from .person import agent_words, chinese_words, customer_words

MAX_TOKENS = 24  # a statement's words, either language
# Clauses: after a comma, a semicolon, a colon or a dash, and before a conjunction.
# A comma inside a number ("1,800"), "and" between numbers ("2 and 5 pm") and in a
# subject ("my wife and I are away") do not.
CLAUSE = re.compile(r"(?<=[,;:])(?!\d)\s*|(?<=[，；：、])|\s+[-–—]\s+"
                    r"|(?<!\d)\s+(?=and\s(?!\d|I (?:are|were|have)\b))"
                    r"|\s+(?=(?:but|because|since|so|while|though|or else)\s)"
                    r"|(?<!soon)(?<!much)(?<!long)(?<!such)\s+"
                    r"(?=as (?:the|it|i|my|this|they|we)\b)"
                    r"|(?=因为|所以|但是|不过|可是|而且)")
# Fillers, politeness and conjunctions that open a clause; the comma says as much.
LEAD = re.compile(
    r"^(?:(?:oh|ok|okay|also|and|so|but|well|by the way|btw|just|actually|anyway|"
    r"please|hi|hello|hey|then|because|since|as|while|though|or else|can you|"
    r"could you|would you|will you|the(?! customer)|an?(?! (?:lot|few|little|bit|"
    r"couple)\b))\b[\s,]*"
    r"|(?:对了|另外|还有|哦|嗯|那个|请|麻烦|好的|但是|可是|不过|所以|然后|而且|因为|由于"
    r"|其实|它|是|会)[，,\s]*)+", re.I)
# What only the statement's opening may leave out: "(it's) too loud". Later, "it"
# is a subject the sentence needs: "if …, it has to stay under 2000 yuan".
OPENING = re.compile(r"^(?:(?:it|this|that)(?:'s| is| was)?)\b[\s,]*", re.I)
POLITE = re.compile(r"\b(?:please|kindly|just|really|actually|basically|if you can|"
                    r"if possible|thanks|thank you)\b[,\s]*"
                    r"|一下|(?:就行|就可以|就好|都可以|都行)了?(?=[，。；！]|$)"
                    r"|[吧呢啊哦嘛呀](?=[，。；！]|$)|(?<![申邀])请(?![问假客求教柬])"
                    r"|根本(?=[不没用])", re.I)
# Words a shortened line must not lose: numbers, times, codes, names.
KEY = re.compile(r"[A-Z]{1,2}-?\d{1,3}\b|\d[\d,.:]*\s?(?:[ap]m|点|元|块|yuan|k)?"
                 r"|¥\s?\d[\d,.]*|[一二两三四五六七八九十]+(?:楼|点|号|层)")


def voice(clause: str, first: bool = True, role: str = "user",
          zh: bool | None = None) -> str:
    """One clause in the summary's voice, without politeness or filler; the
    customer and the shop named as a note names them (person.py). `first`: the
    clause opens the statement, so its subject may go; `role`: whose words."""
    zh = is_chinese(clause) if zh is None else zh
    text = LEAD.sub("", " ".join(clause.replace("’", "'").split()))
    if first:
        text = OPENING.sub("", text)
    if zh:
        text = chinese_words(text, role)
    else:
        text = (customer_words if role == "user" else agent_words)(text, first)
    text = LEAD.sub("", " ".join(POLITE.sub("", text).split()))
    return text.strip(" ,.;:?，。；：！!？、")


def clauses(sentence: str) -> list[str]:
    """A sentence's clauses, without their separators."""
    found = (c.strip(" ,;:，；：、.。!！") for c in CLAUSE.split(sentence))
    return [c for c in found if c]


def fit(parts: list[str], zh: bool, whole: str = "", ranks: list[int] | None = None,
        known: tuple[str, ...] = (), max_tokens: int = MAX_TOKENS,
        say: Callable[[list[str]], list[str]] | None = None) -> str:
    """`parts` joined in their order, within `max_tokens`: whole parts go first,
    the lowest of `ranks` (default: the last) first; numbers and codes of `whole`
    the cut lost are kept in brackets, unless `known` (the product names said)
    holds them. `say` puts the parts kept in the summary's voice (default: they
    are already)."""
    ranks = ranks or [-k for k in range(len(parts))]
    kept = [k for k, p in enumerate(parts) if p]
    joint = "，" if zh else ", "

    def joined() -> str:
        chosen = [parts[k] for k in kept]
        return joint.join(p for p in (say(chosen) if say else chosen) if p)

    while len(kept) > 1 and count_tokens(joined()) > max_tokens:
        kept.remove(min(reversed(kept), key=lambda k: ranks[k]))
    text = joined()
    if count_tokens(text) > max_tokens:  # one clause, alone too long: cut its end
        while count_tokens(text + "…") > max_tokens and len(text) > 4:
            text = text[:-1] if zh or " " not in text else text.rsplit(" ", 1)[0]
        text = text.rstrip(" ,，") + "…"
    keys = (k.strip(" ,.，。:") for k in KEY.findall(whole or ""))
    lost = [k for k in dict.fromkeys(keys) if k and k not in text
            and not re.fullmatch(r"\d{5}", k) and not any(k in n for n in known)]
    if not lost:
        return text
    return text + (f"（{'，'.join(lost[:2])}）" if zh else f" ({', '.join(lost[:2])})")


def reduce(chosen: list[str], sentence: str, ranks: list[int] | None = None,
           known: tuple[str, ...] = (), role: str = "user") -> str:
    """The chosen clauses of `sentence` (`role`'s words), in the summary's voice,
    within budget; the lowest of `ranks` go first when they do not fit. Only the
    clause that opens the statement may leave out its subject."""
    zh = is_chinese(sentence)

    def say(kept: list[str]) -> list[str]:
        voiced: list[str] = []
        for clause in kept:
            voiced.append(voice(clause, not any(voiced), role, zh))
        return voiced

    return fit(chosen, zh, sentence, ranks, known, say=say)
