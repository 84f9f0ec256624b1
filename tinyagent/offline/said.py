"""The clerk's answers about what was said: noting a rule, and saying it back.

Introduced in notebook 04, where a summary is audited for what the customer said.
"Please only deliver after 6 pm" gets "Noted: …" (no tool can act on it), and
"what time did I say to deliver?" is answered from the messages alone, as an id is:
the newest line by the customer (or a summary line with that topic's label) that
states it; for "when did you say you'd call me back?", the agent's own promise. When
no line holds it, the clerk says so: a memory that lost the fact gives a wrong
answer. Left out: acting on the rules (the offline clerk never schedules a delivery).
"""

from __future__ import annotations

import re

from . import wording
from .conversation import Conversation
from .replies import say
from .statements import TOPICS, asked_topic, label_of_line, statements

# A fallback summary quotes the customer: "- user asked: "…"" or "- 用户问："…""
QUOTED = re.compile(r"^-?\s*(?:user asked|用户问)\s*[:：]\s*\"?(.*?)\"?$")


def find(c: Conversation, topic: str) -> str | None:
    """The newest words on `topic`: a summary's labelled line, or a message's."""
    roles = ("assistant", "system") if topic == "promise" else ("user", "system")
    for role, line in c.said(roles):
        labelled = label_of_line(line)
        if labelled:
            if labelled[0] == topic:
                return labelled[1]
            continue
        if role == "system":  # only labelled or quoted lines: the rest are answers
            quoted = QUOTED.match(line.strip())
            if not quoted:
                continue
            line, role = quoted.group(1), "user"
        found = [s.text for s in statements(line, role) if s.topic == topic]
        if found:
            return found[-1]
    return None


def recall_fact(c: Conversation) -> str:
    """What the customer said on the topic asked about (or what the agent promised),
    from the messages."""
    topic = asked_topic(c.user_text) or "prefers"
    text = find(c, topic)
    if text is None:
        what = say(c.lang, TOPICS[topic][0].lower(), TOPICS[topic][1])
        return say(c.lang, f"I can't find what you said about {what} in our "
                           "conversation. Could you tell me again?",
                   wording.not_said(what))
    if topic == "promise":
        return say(c.lang, f"I said: {text}.", f"我之前答应过：{text}。")
    return say(c.lang, f"You told me: {text}.", wording.said_back(topic, text))


def noted(c: Conversation) -> str | None:
    """"Noted: …" for a message that states rules and asks nothing; else None."""
    said = statements(c.user_text)
    if not said:
        return None
    texts = "; ".join(s.text for s in said)
    end = "" if texts.endswith(("…", ")", "）")) else "."  # no "…." at the end
    return say(c.lang, f"Noted: {texts}{end}", wording.noted([s.text for s in said]))
