"""The clerk's answers about what was said: noting a rule, and saying it back.

Introduced in notebook 04, where a summary is audited for what the customer said.
"Please only deliver after 6 pm" gets "Noted: …" (no tool can act on it), and
"what time did I say to deliver?" is answered from the messages alone, as an id is:
the newest lines of that kind, by the customer or a summary's labelled lines, one
for each thing they are about ("at most 500 yuan (another pair); under 1500 yuan"),
newest first; for "when did you say you'd call me back?", the agent's own promise.
When no line holds it, the clerk says so: a memory that lost the fact gives a wrong
answer. Left out: acting on the rules (the offline clerk never schedules a delivery).
"""

from __future__ import annotations

import re

from . import wording
from .conversation import Conversation
from .forms import about, statements, weights
from .person import to_listener
from .replies import say
from .statements import TOPICS, Statement, asked_topic, label_of_line, reason_on_refund

# A fallback summary quotes the customer: "- user asked: "…"" or "- 用户问："…""
QUOTED = re.compile(r"^-?\s*(?:user asked|用户问)\s*[:：]\s*[\"“]?(.*?)[\"”]?$")
MAX_SAID = 3  # the newest lines of a kind: enough for two budgets and a revision


def stated(role: str, line: str) -> list[Statement]:
    """The statements of one line: a summary's labelled line, a quoted request, or
    a message's."""
    refund = reason_on_refund(line)  # "Refund RF…: …; reason: …"
    if refund is not None:
        return [refund[1]]
    labelled = label_of_line(line)
    if labelled:
        kind, text, shown = labelled
        return [Statement(kind, text, shown or about(kind, text))]
    if role == "system":  # only labelled or quoted lines: the rest are answers
        quoted = QUOTED.match(line.strip())
        if not quoted:
            return []
        line, role = quoted.group(1), "user"
    return statements(line, role)


def find_all(c: Conversation, topic: str) -> list[Statement]:
    """The newest statements of `topic`, one for each thing they are about; the
    reasons given for one order add up (the ledger keeps them so, too)."""
    roles = ("assistant", "system") if topic == "promise" else ("user", "system")
    found: dict[str, Statement] = {}
    for role, line in c.said(roles):
        for said in stated(role, line):
            if said.topic != topic:
                continue
            old = found.get(said.subject)
            if old is None and len(found) < MAX_SAID:
                found[said.subject] = said
            elif old is not None and topic == "reason" and said.text not in old.text:
                joint = say(c.lang, ", ", "，")
                found[said.subject] = Statement(topic, said.text + joint + old.text,
                                                said.subject)
    return list(found.values())


def find_any(c: Conversation, topic: str) -> list[Statement]:
    """`find_all`, or else the notes and preferences whose words say `topic` (a
    statement kept under a broader kind still answers)."""
    found = find_all(c, topic)
    if found or topic == "promise":
        return found
    return [s for kind in ("note", "prefers") for s in find_all(c, kind)
            if topic in weights(s.text)][:MAX_SAID]


def find(c: Conversation, topic: str) -> str | None:
    """The newest words on `topic`: a summary's labelled line, or a message's."""
    found = find_all(c, topic)
    return found[0].text if found else None


def shown(said: Statement, lang: str) -> str:
    """A statement's words, with what it is about when the words do not say it."""
    if not said.subject or said.subject == about(said.topic, said.text):
        return said.text
    what = said.subject
    if re.fullmatch(r"\d{5}", what):
        what = say(lang, f"order {what}", f"订单 {what}")
    return say(lang, f"{said.text} ({what})", f"{said.text}（{what}）")


def recall_fact(c: Conversation) -> str:
    """What the customer said on the topic asked about (or what the agent promised),
    from the messages."""
    topic = asked_topic(c.user_text) or "prefers"
    found = find_any(c, topic)
    if not found:
        what = say(c.lang, TOPICS[topic][0].lower(), TOPICS[topic][1])
        return say(c.lang, f"I can't find what you said about {what} in our "
                           "conversation. Could you tell me again?",
                   wording.not_said(what))
    text = to_listener(say(c.lang, "; ", "；").join(shown(s, c.lang) for s in found))
    if topic == "promise":  # "will call you" was said by us
        text = re.sub(r"^will\b", "we will", text)
        return say(c.lang, f"I said: {text}.", f"我之前答应过：{text}。")
    return say(c.lang, f"You told me: {text}.", wording.said_back(topic, text))


def noted(c: Conversation) -> str | None:
    """"Noted: …" for a message that states rules and asks nothing; else None."""
    said = statements(c.user_text)
    if not said:
        return None
    words = [to_listener(s.text) for s in said]  # "the customer" is "you" here
    texts = "; ".join(words)
    end = "" if texts.endswith(("…", ")", "）")) else "."  # no "…." at the end
    return say(c.lang, f"Noted: {texts}{end}", wording.noted(words))
