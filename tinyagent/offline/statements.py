"""What the customer states and what the agent promises: lines a summary must keep.

Introduced in notebook 04 (what a summary keeps), used by summarize.py (the ledger)
and clerk.py (asked back later). Ids are not all a customer gives: "only deliver
after 6 pm", "email me, no calls", "my budget is under ¥2000", "it shows error E12",
and the agent's own "we'll call you back tomorrow". `statements(text)` finds them,
sentence by sentence, by cue words of each topic in English and Chinese, and keeps
each in the customer's words, shortened to the clauses that hold a cue. A strong
cue ("deliver", "error") makes its topic; a weak one ("6 pm", "won't") only when no
topic has a strong one. Questions are not statements, and a question that asks a
fact back ("what time did I say?") never replaces the fact. Left out: negation
("I don't mind calls" reads as a contact rule, which it is), and statements spread
over two messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..lang import is_chinese

# topic -> (English, Chinese) label of its ledger line; the order is the precedence.
TOPICS = {"budget": ("Budget", "预算"), "contact": ("Contact", "联系方式"),
          "delivery": ("Delivery", "送货"), "reason": ("Reason", "原因"),
          "prefers": ("Preference", "偏好"), "promise": ("Promise", "承诺")}


def _words(english: str, chinese: str) -> re.Pattern[str]:
    return re.compile(rf"{english}|{chinese}", re.I)


NUMBER = r"(?:¥|\$|rmb\s?)?\d[\d,.]*\s?(?:k\b|yuan|rmb|dollars?|块|元)?"
STRONG = {  # topic -> the words that say it
    "budget": _words(rf"\bbudget\b|\bafford\b|\bspend\b|\b(?:under|below|less than|"
                     rf"no more than|at most|up to|max(?:imum)?)\s+{NUMBER}"
                     r"|too (?:much|expensive|pricey)",
                     r"预算|以内|以下|(?:不|不能|别)超过|太贵|最多.{0,4}\d|\d+\s?(?:元|块)(?:钱)?左右"),
    "contact": _words(r"\b(?:e-?mail|phone|call(?:s|ing)?|text(?:s|ing)? me|sms|"
                      r"wechat|whatsapp|contact|reach(?:ed)? me|ring me|message me|"
                      r"get in touch)\b",
                      r"邮件|邮箱|电话|短信|微信|联系|打给我"),
    "delivery": _words(r"\b(?:deliver\w*|ship(?:ping|ped)?|courier|drop (?:it|the "
                       r"\w+) off|leave (?:it|the \w+)|doorstep|front door|reception|"
                       r"concierge|neighbou?r|parcel locker|pick(?:ed)? up)\b",
                       r"送货|配送|派送|送到|送(?:过)?来|上门|快递员|收货|放在|放到|门口|快递柜|发货"
                       r"|驿站|前台|代收|自提"),
    "reason": _words(r"\b(?:error|broken|broke|defect\w*|fault\w*|damaged?|cracked|"
                     r"not working|stopped \w+ing|doesn'?t work|does not work|"
                     r"won'?t (?:turn on|charge|start|work|dock)|dead|malfunction\w*|"
                     r"(?:shows?|showing|displays?|flashing|blinking)\s+(?:code\s+)?"
                     r"[A-Z]{1,2}-?\d{1,4})\b",
                     r"坏|故障|报错|错误|不工作|不能用|用不了|失灵|质量问题|破损|损坏"
                     r"|不回充|充不进|充不上|开不了机|碎|裂|没(?:声音|反应)|变弱|变差|不好用"
                     r"|出问题|有问题|异味|发烫|漏电"),
    "prefers": _words(r"\b(?:prefer\w*|rather|brand|i (?:like|love|hate|want only)|"
                      r"only (?:buy|want|use)|don'?t (?:want|like|need|send)|"
                      r"do not (?:want|like|need|send)|avoid|without|not interested|"
                      r"(?:don'?t|do not|never) (?!know|think|worry|mind)\w+|"
                      r"allergic|no (?!problem|worries|thanks|thank)\w+)\b",
                      r"喜欢|偏好|更想|宁愿|宁可|只要|只买|只用|品牌|不要|不想|不需要|讨厌"
                      r"|避免|无需|别(?!的)"),
}
WEAK = {
    "delivery": _words(r"\b(?:\d{1,2}(?::\d\d)?\s?(?:am|pm)|o'?clock|mornings?|"
                       r"afternoons?|evenings?|tonight|nights?|noon|weekends?|weekdays?|"
                       r"at work|at home|not home|away|"
                       r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b",
                       r"上午|下午|晚上|早上|中午|周末|周[一二三四五六日]|星期|工作日|\d+\s?点"
                       r"|上班|在家|不在家"),
    "reason": _words(r"\b(?:won'?t|doesn'?t|does not|can'?t|cannot|isn'?t|keeps|"
                     r"noisy|noise|loud|leak\w*|stuck|fails?|failed|wrong|because|"
                     r"weak(?:er)?|drains?|overheat\w*|smells?|problem with|"
                     r"issue with)\b",
                     r"无法|没法|不(?:回|充|转|亮|吸|动|开|响|灵)|(?:回|充|开|用)不了|一直|总是|异响|噪音"
                     r"|漏水|卡住|显示|因为"),
}
# The agent promises: a first person, a future, and something done for the customer.
PROMISE = _words(r"\b(?:i|we|our \w+|someone|a colleague|an agent)\s*(?:will|'ll|"
                 r"shall)\s+(?:\w+\s){0,2}?(?:call|phone|ring|e-?mail|text|message|"
                 r"contact|reply|get back|follow up|send|check|arrange|update)\b",
                 r"(?:我|我们|同事|客服|售后|专员).{0,8}(?:会|将|稍后|尽快|马上|"
                 r"\d+\s?(?:小时|个工作日|天)内).{0,8}(?:回电|打电话|致电|联系|回复|"
                 r"跟进|发送|安排|通知)")
# Asking back what was said is not saying it again.
RECALLING = _words(r"\b(?:did i|i (?:said|told|mentioned|asked|reported|wanted)|"
                   r"was my|were my|again|remind me|did you say|"
                   r"you (?:said|promised))\b",
                   r"来着|刚才|我之前|之前(?:说|讲|提|报)|说过|我说的|提过|为什么|原因是什么|答应")
# A lookup ("I want to know the delivery status of 88231") asks, even without "?".
LOOKUP = _words(r"\b(?:status|where is|track\w*|when will|when does)\b",
                r"状态|到哪|查一下|查询|查查")
QUESTION = re.compile(r"[?？]\s*$|(?:吗|么|呢)[。!！]?\s*$|什么|多少|几点|怎么|哪")
POLITE = re.compile(r"^\s*(?:please|can you|could you|would you|can we|could we|"
                    r"will you|is it possible)\b|^\s*(?:请|麻烦|能不能|可不可以|可以)",
                    re.I)
LEAD = re.compile(r"^(?:(?:oh|ok|okay|also|and|so|but|well|by the way|btw|just|"
                  r"actually|please|hi|hello|can you|could you|would you|will you)"
                  r"\b[\s,]*|(?:对了|另外|还有|哦|嗯|那个|请|麻烦|好的)"
                  r"[，,\s]*)+", re.I)
CLAUSE = re.compile(r"(?<=[,;，；、])\s*|\s+(?=(?:and|but|because)\s)")
# Words a shortened line must not lose: names ("Saturday", "WeChat"), codes, numbers.
KEY = re.compile(r"(?<=\s)[A-Z][a-z]+(?:[A-Z][a-z]*)?\b|[A-Z]{1,2}-?\d{1,3}\b"
                 r"|\d[\d,.:]*\s?(?:[ap]m|点|元|块|yuan|k)?|¥\s?\d[\d,.]*")
SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；;])|\n+")
MAX_CHARS = {False: 52, True: 16}  # a short line: English, Chinese characters


@dataclass(frozen=True)
class Statement:
    """One thing said: its topic (a key of TOPICS) and the words kept."""

    topic: str
    text: str


def is_question(sentence: str) -> bool:
    """A question, not a polite request ("can you deliver after 6?" states a rule)."""
    return bool(QUESTION.search(sentence)) and not POLITE.search(sentence)


def topics_of(sentence: str, role: str = "user") -> list[str]:
    """The topics a sentence states: every strong cue's, else the first weak one."""
    if role != "user":
        return ["promise"] if PROMISE.search(sentence) else []
    if RECALLING.search(sentence) or is_question(sentence) or LOOKUP.search(sentence):
        return []
    # "email only, no calls" is a contact rule, not also a preference: the catch-all
    # topic counts only when no other one does.
    strong = [t for t, words in STRONG.items() if words.search(sentence)]
    strong = [t for t in strong if t != "prefers"] if len(strong) > 1 else strong
    if strong:
        return strong[:2]
    return [t for t, words in WEAK.items() if words.search(sentence)][:1]


def shorten(sentence: str, topic: str) -> str:
    """The sentence in its own words, cut to the clauses that hold a cue of `topic`
    when long; numbers and codes the cut would lose are kept in brackets."""
    text = LEAD.sub("", " ".join(sentence.split())).strip(" .。!！")
    zh = is_chinese(text)
    width = MAX_CHARS[zh]
    if len(text) <= width and topic != "reason":
        return text
    clauses = [c.strip(" ,;，；、") for c in CLAUSE.split(text) if c.strip(" ,;，；、")]
    kept: list[int] = []
    cues = [p for p in (STRONG.get(topic), WEAK.get(topic), PROMISE) if p]
    if topic == "reason":  # what is wrong: every clause that says so, mild or not
        cues = [re.compile("|".join(p.pattern for p in cues[:2]), re.I)]
    for cue in cues:
        kept = kept or [k for k, c in enumerate(clauses) if cue.search(c)]
    kept = kept or [0]  # the clauses with the strongest cue, else the first
    while True:
        if kept == list(range(kept[0], kept[-1] + 1)):  # a run: the words as written
            start = text.find(clauses[kept[0]])
            last = text.find(clauses[kept[-1]], start)
            short = text[start:last + len(clauses[kept[-1]])]
        else:
            short = ("，" if zh else ", ").join(clauses[k] for k in kept)
        if len(short) <= width or len(kept) == 1:
            break
        kept.pop()  # whole clauses go before any is cut
    if len(short) > width:  # at a word's end, in English
        cut = short[: width - 1]
        short = (cut if zh or " " not in cut else cut.rsplit(" ", 1)[0]) + "…"
    keys = (k.strip(" ,.，。") for k in KEY.findall(text))
    lost = [k for k in keys if k not in short and not re.fullmatch(r"\d{5}", k)]
    lost = list(dict.fromkeys(lost))[:3]
    return short + (f" ({', '.join(lost)})" if lost else "")


def statements(text: str, role: str = "user") -> list[Statement]:
    """What a message states (role "user") or promises (role "assistant"), one
    Statement per topic, the newest sentence of a topic winning."""
    found: dict[str, Statement] = {}
    for sentence in SENTENCES.split(text):
        sentence = sentence.strip(" -•")
        for topic in topics_of(sentence, role) if sentence else ():
            # "Drop it off on Saturday. Weekdays I'm away.": the first says it
            if topic in found and not STRONG.get(topic, PROMISE).search(sentence):
                continue
            found.pop(topic, None)
            found[topic] = Statement(topic, shorten(sentence, topic))
    return list(found.values())


LINE = re.compile(r"^(?:- )?(\S[^:：(（]{0,20}?)"  # the label, then the order if any
                  r"\s*(?:[(（](?:order|订单)\s*(\d{5})[)）])?\s*[:：]\s*(.+)$", re.I)
BY_LABEL = {label.lower(): topic for topic, pair in TOPICS.items() for label in pair}


def label_of_line(line: str) -> tuple[str, str, str | None] | None:
    """(topic, text, order) of a summary line such as "Delivery: after 6 pm" or
    "原因（订单 88231）：…", in either language; None for any other line."""
    match = LINE.match(line.strip())
    topic = BY_LABEL.get(match.group(1).lower()) if match else None
    if match is None or topic is None:
        return None
    return topic, match.group(3).strip(), match.group(2)


# Asking a fact back: what marks each topic in a question.
ASK = {"promise": _words(r"\byou (?:said|promised)\b.*\b(?:call|e-?mail|contact|"
                         r"reply|get back|send)|\bcall me back\b|\bget back to me\b",
                         r"答应|承诺|回电|你们?(?:说|讲)过?.{0,8}(?:联系|回复|打电话)"),
       "reason": _words(r"\bwhy\b|\breason\b|\bwrong\b|\bproblem\b|\bissue\b",
                        r"为什么|原因|问题|毛病|故障|怎么了"),
       "budget": _words(r"\bbudget\b|\bspend\b|\bafford\b", r"预算|最多花|花多少"),
       "contact": _words(r"\bcontact\w*\b|\breach\b|\bget in touch\b",
                         r"联系"),
       "delivery": _words(r"\bwhen\b|\bwhat time\b|\bdeliver\w*\b",
                          r"几点|什么时候|送货|配送|送到")}


def asked_topic(question: str) -> str | None:
    """The topic a customer asks back ("why did I want the refund?"), or None."""
    if not RECALLING.search(question):
        return None
    return next((t for t, words in ASK.items() if words.search(question)), None)


STOP = re.compile(r"\b(?:i|i'm|i've|me|my|a|an|the|is|am|are|was|it|its|to|of|and|or|"
                  r"so|just|really|very|that|this|be|for|on|in|at|with|please)\b\s*",
                  re.I)


def key_words(text: str, width: int = 48) -> str:
    """A statement no cue recognises, degraded to its key words ("moving house next
    week new address") so that it still leaves a trace."""
    words = " ".join(STOP.sub("", LEAD.sub("", text)).split()).strip(" .。!！")
    return words if len(words) <= width else words[: width - 1] + "…"
