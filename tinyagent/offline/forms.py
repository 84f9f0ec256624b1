"""Finding what a customer states, by the form of the sentence, in both languages.

Introduced in notebook 04 (what a summary keeps); the ledger (summarize.py) and the
clerk (a refund's reason, a "Noted: …") use it. A sentence that asks nothing (not a
question, not a fact asked back, not a lookup) states something: a first-person
statement, a condition, a request, a prohibition, or a reason given with "because",
a colon or a comma after a refund request. Cue words (cues.py) only say which kind
it is: the kind whose words weigh most, and a second one said in other clauses. A
statement no kind fits is kept as a short note, never dropped; a request the clerk
acts on ("I'd like to buy the S20 Pro") is not a statement. Each is reduced to the
clauses that carry its kind, in the summary's voice (voice.py), with what it is
about: an order, a product, a condition ("another pair"). Left out: statements
spread over two messages, and telling apart two subjects said in other words ("the
next one" and "another pair" stay two lines, the safe side).
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import intents
from .cues import AMOUNT, LIMIT, PROMISE, STRONG, WEAK, words
from .person import to_listener
from .statements import TOPICS, Statement, asks, unlabelled
from .voice import clauses, reduce, voice

SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；;])|\n+")
REFUND = words(r"refund\w*|return(?:s|ed|ing)?|money back|"
               r"(?:send|take|bring)\w* (?:[\w-]+ ){0,3}back|"
               r"cancel (?:it|the|my|this|that|order)",
               r"退|取消")
ACK = re.compile(r"^(?:ok(?:ay)?|thanks?(?: you)?|hi|hello|hey|great|good|fine|sure|"
                 r"perfect|cool|got it|i see|understood|no problem|sounds good|never "
                 r"mind|that'?s (?:all|it)|(?:i'?ll |let me )?think about it|received"
                 r"(?: it)?|it (?:came|arrived)(?: \w+)?"
                 r"|收到了?|到了|好的?|嗯|谢谢|你好|明白|知道了|行|可以|没问题|算了"
                 r"|(?:我)?再考虑(?:一下)?)[\s!.,。！，~]*$", re.I)
PROHIBIT = words(r"(?:don'?t|do not|never|no need to) (?!know|think|worry|mind|have)"
                 r"\w+|please,? no \w+", r"别|不要|不用|千万别|勿")
CONDITION = words(r"^(?:if|unless|should|in case|as long as|once|when)",
                  r"^(?:如果|要是|假如|万一|只要|除非|一旦)")
BECAUSE = words(r"^(?:because|since|as)", r"^(?:因为|由于)")  # a reason, by its form
# What a budget or a reason is for, when it names no order or product.
FOR_WHAT = words(r"(?:for|on) (?:the |a |an |my |our )?((?:next|another|new|other|"
                 r"second|third) \w+|\w+'s \w+)",
                 r"((?:下一|再买一|再来一|另一|第二)[台个副件款部只])")
PLACE = words(r"door\w*|gate|desk|locker|guard|concierge|address|office|neighbou?rs?|"
              r"reception|depot|floor|porter|outside|inside|garage|place|house|"
              r"(?:deliver\w*|send|ship) (?:it |them )?to",
              r"门|柜|前台|门卫|地址|公司|驿站|网点|楼|家里|外面|送到|寄到|改送|放")
KINDED = ("reason", "budget", "contact", "delivery")  # about one thing: replaced


def weights(part: str, limit: bool = False) -> dict[str, tuple[int, int]]:
    """How strongly a clause says each kind: kind -> (strong words, weak words);
    `limit`: another clause of its sentence says a limit ("900 yuan, no more")."""
    strong = {k: len(p.findall(part)) for k, p in STRONG.items()}
    if AMOUNT.search(part) and (limit or LIMIT.search(part)):  # "at most 500 yuan":
        strong["budget"] += 2  # a budget, more surely than one word says another kind
    weak = {k: len(p.findall(part)) for k, p in WEAK.items()}
    if PROHIBIT.search(part):  # "no calls" says contact; "no mop" a preference
        weak["prefers"] = weak.get("prefers", 0) + 1
    if BECAUSE.search(part.strip()):  # "…, because the lid is cracked": why
        weak["reason"] = weak.get("reason", 0) + 1
    return {k: (strong.get(k, 0), weak.get(k, 0)) for k in TOPICS
            if strong.get(k) or weak.get(k)}


def about(kind: str, text: str) -> str:
    """What a kept statement is about, read from its own words: an order, a product,
    what a budget is for; for a delivery rule "time" or "place"; for a preference,
    a promise or a note, its words (each its own line)."""
    if kind not in KINDED:
        return text.lower()
    order = intents.ORDER_ID.findall(text)
    if kind == "delivery":
        return " ".join([*order[:1], "place" if PLACE.search(text) else "time"])
    named = order or products(text)
    if named:
        return named[0]
    condition = condition_of(clauses(text)) if kind == "budget" else None
    if condition:
        return condition
    found = FOR_WHAT.search(text)
    return next((g for g in found.groups() if g), "") if found else ""


def condition_of(parts: list[str]) -> str | None:
    """The condition a budget is said under ("if I buy another pair" -> "buy
    another pair"), when a clause of its own says it."""
    said = next((p for p in parts if CONDITION.search(p.strip())), None)
    if said is None or weights(said):
        return None
    # "the customer buys a new one" (a statement's words) is "buy a new one" too
    said = re.sub(r"^you\s+", "", to_listener(voice(CONDITION.sub("", said.strip()))))
    return said.lower() or None


def products(text: str) -> list[str]:
    """The product names a text says; an error code ("error E12") is no product."""
    return [n for n in intents.products(text)
            if not re.search(rf"(?:error|code|错误|报错|显示)\s*(?:code\s*)?{n}", text,
                             re.I)]


def subject(kind: str, parts: list[str], text: str, order: str | None) -> str:
    """What a statement is about: its order or product, a condition said with it
    ("if I buy another pair"), the message's order for a reason; else its words."""
    whole = " ".join(parts)
    named = intents.ORDER_ID.findall(whole) or products(whole)
    if kind in ("reason", "budget") and named:
        return named[0]
    condition = condition_of(parts) if kind == "budget" else None
    if condition:
        return condition
    if kind == "reason" and order:
        return order
    return about(kind, text)


def sentence_statements(sentence: str, refund: bool, order: str | None
                        ) -> list[Statement]:
    """The statements of one sentence (see the module docstring)."""
    parts = clauses(sentence)
    limit = LIMIT.search(sentence) is not None
    scored: list[dict[str, tuple[int, int]] | None] = [weights(p, limit)
                                                       for p in parts]
    if refund:  # "I'd like to return it: the strap snapped": the rest is the reason
        for k, (part, weight) in enumerate(zip(parts, scored, strict=True)):
            if weight and any(weight.get(kind, (0, 0))[0] for kind in KINDED[1:]):
                continue  # a budget, a contact or a delivery rule said with it
            if REFUND.search(part) or ACK.match(voice(part) or "ok"):
                scored[k] = None  # the request itself, or "收到了"
            else:
                scored[k] = {"reason": (1 + (weight or {}).get("reason", (0, 0))[0],
                                        0)}
    strong = any(s for w in filter(None, scored) for s, _ in w.values())
    if not strong and intents.detect_intent(intents.ORDER_ID.sub(" ", sentence)) \
            not in ("help", "refund"):
        return []  # "I'd like to buy the S10 Lite": a request the clerk acts on
    total: dict[str, tuple[int, int]] = {}
    for weight in filter(None, scored):
        for kind, (strong, weak) in weight.items():
            was = total.get(kind, (0, 0))
            total[kind] = (was[0] + strong, was[1] + weak)
    first = {k: min(n for n, w in enumerate(scored) if w and k in w) for k in total}
    # A preference is the catch-all: "no calls" is a contact rule, said as one.
    # "won't", "always" say little: a time or a place said as weakly says more.
    broad = [k for k in total if k != "prefers" and total[k][0]]
    ranked = sorted(total, key=lambda k: (k == "prefers" and bool(broad),
                                          -total[k][0], total[k] == (0, total[k][1])
                                          and k == "reason", -total[k][1],
                                          first[k], list(TOPICS).index(k)))
    found: list[Statement] = []
    for kind in ranked[:2]:
        if found:  # a second kind: said strongly, in clauses of its own
            first = found[0].topic
            mine = [k for k, w in enumerate(scored) if w and w.get(kind, (0, 0))[0]
                    and first not in w]
            ranks = [3] * len(mine)
        else:  # the clauses that say it, then those no other kind claims strongly
            mine = [k for k, w in enumerate(scored) if w is not None and (
                kind in w or not any(s for other, (s, _) in w.items()))]
            ranks = [3 if w.get(kind, (0, 0))[0] else 2 if kind in w else 1
                     for w in (scored[k] or {} for k in mine)]
        if not mine:
            break
        text = reduce([parts[k] for k in mine], sentence, ranks,
                      tuple(intents.products(sentence)))
        text = unlabelled(kind, text)
        if text:
            found.append(Statement(kind, text, subject(kind, parts, text, order)))
    return found


def note(sentence: str) -> Statement | None:
    """A statement no kind fits, kept as a short note; None for a request the clerk
    acts on, a pleasantry, or too few words to mean anything."""
    bare = intents.ORDER_ID.sub(" ", sentence)
    if intents.detect_intent(bare) != "help" or ACK.match(voice(sentence) or "ok"):
        return None
    text = reduce(clauses(sentence), sentence)
    if len(text.split()) < 2 and len(re.sub(r"[\W\d_]", "", text)) < 4:
        return None
    return Statement("note", text, text.lower())


def statements(text: str, role: str = "user", order: str | None = None
               ) -> list[Statement]:
    """What a message states (role "user") or promises (role "assistant"), in
    order; `order` is the order a reason is about when the message names none."""
    return list(_statements(text, role, order))


@lru_cache(maxsize=4096)  # the history's lines are read again at every call (bounded:
# soak.py); a Statement is immutable, so the same ones can be handed out again
def _statements(text: str, role: str, order: str | None) -> tuple[Statement, ...]:
    found: list[Statement] = []
    refund = role == "user" and REFUND.search(text) is not None
    order = (intents.ORDER_ID.findall(text) or [order])[0]
    for sentence in SENTENCES.split(text):
        sentence = sentence.strip(" -•")
        if not sentence:
            continue
        if role != "user":
            if PROMISE.search(sentence):
                kept = reduce(clauses(sentence), sentence, role="assistant")
                found.append(Statement("promise", kept, kept.lower()))
            continue
        if asks(sentence):
            continue
        said = sentence_statements(sentence, refund, order)
        said = said or [s for s in [note(sentence)] if s]
        for new in said:  # said twice in one message: the later words win
            found = [s for s in found if (s.topic, s.subject) != (new.topic,
                                                                   new.subject)]
            found.append(new)
    return tuple(found)


def refund_reason(text: str, order: str | None = None) -> str:
    """Why the customer wants the refund, in the words the ledger keeps ("" when the
    message gives no reason): what the clerk passes to applyRefund."""
    return "; ".join(s.text for s in statements(text, "user", order)
                     if s.topic == "reason")
