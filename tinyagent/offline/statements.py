"""What the customer states and the agent promises: the kinds, and their ledger lines.

Introduced in notebook 04 (what a summary keeps). Ids are not all a customer gives:
"only deliver after 6 pm", "email me, no calls", "at most ¥500 for the next pair",
"the left earbud cuts out", "we're moving to Hangzhou", and the agent's own "we'll
call you back tomorrow". Each becomes a `Statement`: its kind, its content in the
summary's voice, and what it is about (an order, a product, a condition), so that a
later statement replaces an earlier one only when both are about the same thing.
forms.py finds them in a message, by the form of its sentences; this module holds
the kinds' labels, reads a ledger line back ("Budget (another pair): …",
"原因（订单 88231）：…"), and tells a statement from a question or from asking a fact
back ("what time did I say?"). Left out: statements spread over two messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cues import words

# kind -> (English, Chinese) label of its ledger line, as a support agent writes it;
# the order is the precedence when one sentence says two kinds as strongly.
TOPICS = {"reason": ("Reason", "原因"), "budget": ("Budget", "预算"),
          "contact": ("Contact", "联系方式"), "delivery": ("Delivery", "配送"),
          "prefers": ("Preference", "偏好"), "promise": ("Promise", "跟进"),
          "note": ("Note", "备注")}
OLD_LABELS = {"送货": "delivery", "承诺": "promise"}  # earlier labels, still read


@dataclass(frozen=True)
class Statement:
    """One thing said: its kind (a key of TOPICS), its words in the summary's voice,
    and what it is about ("" when nothing says): an order id, a product, a
    condition ("another pair"), or for a delivery rule "time" or "place"."""

    topic: str
    text: str
    subject: str = ""


# "预算：再买的话，预算不超过2000元": the label says it, the words need not again.
LABEL_WORDS = {"budget": re.compile(
    r"(?:^|(?<=，))(?:预算|上限)(?:是|为)?\s*(?=不超过|不能超过|不高于|最多|顶多|控制在)"
    r"|(?:^|(?<=, ))budget (?:is |of )?(?=under|below|at most|up to)", re.I),
    "delivery": re.compile(r"^deliver(?:y|ies) (?:of|for) (?:the )?", re.I)}


def unlabelled(topic: str, text: str) -> str:
    """`text` without the words its kind's label already says."""
    pattern = LABEL_WORDS.get(topic)
    return pattern.sub("", text) if pattern else text


# Asking back what was said is not saying it again.
RECALLING = words(r"did i|i (?:said|told|mentioned|asked|reported|wanted)|"
                  r"was my|were my|again|remind me|did you say|you (?:said|promised)",
                  r"来着|刚才|我之前|之前(?:说|讲|提|报)|说过|我说的|提过|为什么"
                  r"|原因是什么|答应")
# A lookup ("I want to know the delivery status of 88231") asks, even without "?".
LOOKUP = words(r"status|where is|track\w*|when will|when does",
               r"状态|到哪|查一下|查询|查查")
QUESTION = re.compile(r"[?？]\s*$|(?:吗|么|呢)[。!！]?\s*$|什么|多少|几点|怎么"
                      r"|哪(?:里|儿|个|款|些|天|一)|到哪")
POLITE = re.compile(r"^\s*(?:please|can you|could you|would you|can we|could we|"
                    r"will you|is it possible)\b|^\s*(?:请|麻烦|能不能|可不可以|可以)",
                    re.I)


# "需要什么就发短信", "什么时候都行": a question word that means "whatever".
WHATEVER = re.compile(r"(?:什么|多少|怎么|哪)[^。？?]*?[就都也]")


def is_question(sentence: str) -> bool:
    """A question, not a polite request ("can you deliver after 6?" states a rule)."""
    return (bool(QUESTION.search(sentence)) and not POLITE.search(sentence)
            and not (WHATEVER.search(sentence) and not re.search(r"[?？]", sentence)))


def asks(sentence: str) -> bool:
    """A question, a fact asked back, or a lookup: no statement in it."""
    return bool(is_question(sentence) or RECALLING.search(sentence)
                or LOOKUP.search(sentence))


LINE = re.compile(r"^(?:- )?(\S[^:：(（]{0,20}?)"  # the label, then what it is about
                  r"\s*(?:[(（]([^()（）]{1,40})[)）])?\s*[:：]\s*(.+)$", re.I)
BY_LABEL = {label.lower(): topic for topic, pair in TOPICS.items() for label in pair}
BY_LABEL.update(OLD_LABELS)
ORDER_ABOUT = re.compile(r"^(?:order|订单)\s*(\d{5})$", re.I)


def label_of_line(line: str) -> tuple[str, str, str | None] | None:
    """(kind, text, what it is about) of a summary line such as "Delivery: after 6
    pm" or "原因（订单 88231）：…", in either language; None for any other line."""
    match = LINE.match(line.strip())
    topic = BY_LABEL.get(match.group(1).lower()) if match else None
    if match is None or topic is None:
        return None
    about = match.group(2)
    order = ORDER_ABOUT.match(about.strip()) if about else None
    return topic, match.group(3).strip(), order.group(1) if order else about


# A refund's line carries its reason: "Refund RF…: order 88231, …, reason: …".
REASON_TAIL = re.compile(r"[,，;；]\s*(?:reason|原因)\s*[:：]\s*(.+)$", re.I)
REFUND_LINE = re.compile(r"^(?:- )?(?:Refund|退款)\s.*?(?:order|订单)\s*(\d{5})", re.I)


def reason_on_refund(line: str) -> tuple[str, Statement] | None:
    """(the refund line without it, the reason) of a refund's line that gives its
    reason; None for any other line."""
    tail, head = REASON_TAIL.search(line), REFUND_LINE.match(line.strip())
    if tail is None or head is None:
        return None
    return line[: tail.start()], Statement("reason", tail.group(1).strip(),
                                           head.group(1))


# Asking a fact back: what marks each kind in a question.
ASK = {"promise": words(r"you (?:said|promised)\b.*\b(?:call|e-?mail|contact|"
                        r"reply|get back|send)|call me back|get back to me",
                        r"答应|承诺|回电|你们?(?:说|讲)过?.{0,8}(?:联系|回复|打电话)"),
       "reason": words(r"why|reason|wrong|problem|issue",
                       r"为什么|原因|问题|毛病|故障|怎么了"),
       "budget": words(r"budget|spend|afford", r"预算|最多花|花多少"),
       "contact": words(r"contact\w*|reach|get in touch", r"联系"),
       # "where did I ask you to send it?", not "where is the order I asked about?"
       # (a lookup of an order: the intents' order status)
       "delivery": words(r"when|what time|deliver\w*|where(?! is| are|'s)",
                         r"几点|什么时候|送货|配送|送到|送")}


def asked_topic(question: str) -> str | None:
    """The kind a customer asks back ("why did I want the refund?"), or None."""
    if not RECALLING.search(question):
        return None
    return next((t for t, pattern in ASK.items() if pattern.search(question)), None)
