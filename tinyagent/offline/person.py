"""Whose words: what the customer says, rewritten as a clerk's note about them.

Used by voice.py (notebook 04: what a summary keeps) and said.py (saying it back).
A customer says "I", "my" and "you"; a note about them says "the customer" and
"we". A note may leave out the subject that opens it ("I'm only home after 7" ->
"only home after 7"), as notes do. Anywhere else a dropped pronoun breaks the
sentence ("every time I start it" -> "every time start it"), so it is rewritten:
"every time the customer starts it", "if I miss your call" -> "if the customer
misses our call", "reach me" -> "reach the customer". An object that a verb can do
without goes ("call me" -> "call", "send me updates" -> "send updates"). In the
agent's promises the roles swap: "we'll call you" -> "will call the customer".
Chinese leaves out a subject anywhere, so only what needs an object is rewritten:
"告诉我" -> "通知", "找到我" -> "找到客户", "我家" -> "家里", "我妈" -> "妈妈".
`to_listener` turns a note back into words for the customer ("the customer
starts" -> "you start", "客户" -> "您"). Left out: pronouns inside quoted speech,
and telling a verb from a noun after a subject (the word after "I" is taken for a
verb, as it nearly always is).
"""

from __future__ import annotations

import re

# Words that may stand between a subject and its verb: "I only check WeChat".
ADVERBS = (r"only|never|always|usually|often|also|just|really|still|already|rarely|"
           r"sometimes|even|mostly|normally|actually|probably|definitely|all|both")
# After a subject these keep their form whoever the subject is.
INVARIANT = set("can could will would shall should must might may can't couldn't "
                "won't wouldn't shouldn't mustn't did didn't had hadn't was wasn't "
                "bought paid got made took gave went came saw said told sent left "
                "lost broke found thought felt kept ran wrote spent brought heard "
                "meant sold forgot chose drove fell knew began set put read cut hit "
                "let quit cost hurt shut".split())
THIRD = {"am": "is", "are": "is", "'m": "is", "'re": "is", "were": "was",
         "have": "has", "'ve": "has", "do": "does", "don't": "doesn't",
         "aren't": "isn't", "haven't": "hasn't", "'ll": "will", "'d": "would"}
# People a possessive belongs to: "my husband" is "the customer's husband", while
# "my phone" is "the phone".
PEOPLE = (r"husband|wife|son|daughter|mother|mom|mum|father|dad|parents|sister|"
          r"brother|grandmother|grandma|grandfather|grandpa|cousin|aunt|uncle|family|"
          r"kids?|children|child|baby|partner|boss|colleagues?|assistant|friends?|"
          r"neighbou?rs?|flatmate|roommate")
# The words after which a pronoun is a subject: a clause's start, a conjunction.
OPENERS = (r"if|when|whenever|once|as|because|since|so|that|where|while|until|"
           r"unless|before|after|and|but|or|though|although|time|way|most|whether")
OPEN = rf"(^|\b(?:{OPENERS})\s|,\s)"  # kept in front of the rewritten subject

SUBJECT = re.compile(rf"(?<![\w'])(?:I|i|[Ww]e)(?:('m|'re|'ve|'ll|'d)|\b)"
                     rf"((?:\s+(?:{ADVERBS}))*)(?:\s+([A-Za-z][\w'-]*))?")
LEADING = [  # a statement's opening subject, left out as notes do
    (re.compile(r"^(?:I|we)(?:'m|'re| am| are)\s+", re.I), ""),
    (re.compile(r"^(?:I|we)(?:'ve| have)\s+(?=(?:\w+ed|been|got|gotten|set|put|had|"
                r"made|bought|paid|lost|left|taken|given|done|seen|sent|spent)\b)",
                re.I), ""),
    (re.compile(r"^(?:I|we)(?:'ll| will)\b", re.I), "will"),
    (re.compile(r"^(?:I|we)(?:'d| would)\b", re.I), "would"),
    (re.compile(r"^(?:I|we)\b\s*", re.I), ""),
    (re.compile(r"^(?:my|our)\s+", re.I), "")]
# An object a verb can do without: "call me", "send me updates", "to me".
CONTACT_ME = re.compile(r"\b((?:call|phone|ring|e-?mail|text|message|contact|notify|"
                        r"bother|disturb)(?:s|ed|ing)?) (?:me|us|my "
                        r"(?:phone|mobile|cell))\b", re.I)  # "call my phone": call me
INDIRECT_ME = re.compile(r"\b((?:send|e-?mail|text|mail|leave|bring|show)(?:s|ing)?) "
                         r"(?:me|us) (?!(?:by|on|at|in|to|for|with|from|if|when|and|"
                         r"or|but|about|before|after)\b)", re.I)
TO_ME = re.compile(r"\s*\b(?:to|for|with) (?:me|us)\b", re.I)
BOTH = re.compile(r"\band I(?= (?:are|were|have|will|would|can|could|should|must|"
                  r"might|may|did|had)\b)")


def third_person(verb: str) -> str:
    """A verb after "the customer": "start" -> "starts", "am" -> "is"."""
    low = verb.lower()
    if low in THIRD:
        return THIRD[low]
    if low in INVARIANT or low.endswith(("ed", "n't")) or not low.isalpha():
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _as_customer(match: re.Match[str], at: int = 1) -> str:
    """A subject (its contraction, adverbs and verb: groups `at`, `at` + 1 and
    `at` + 2) as "the customer …", the verb in agreement."""
    contraction, adverbs, verb = match.group(at, at + 1, at + 2)
    adverbs = adverbs or ""
    if contraction:
        head = f"the customer {THIRD[contraction]}{adverbs}"
        return f"{head} {verb}" if verb else head
    return f"the customer{adverbs} {third_person(verb)}" if verb else "the customer"


def customer_words(text: str, first: bool) -> str:
    """The customer's English clause with the customer and the shop as a note names
    them; `first`: it opens the statement, so its own subject may go."""
    if first:
        for pattern, short in LEADING:
            text = pattern.sub(short, text, count=1)
    text = TO_ME.sub("", text)
    text = BOTH.sub("and the customer", text)  # "my wife and I are": no agreement
    text = CONTACT_ME.sub(r"\1", text)
    text = INDIRECT_ME.sub(r"\1 ", text)
    text = SUBJECT.sub(_as_customer, text)
    text = re.sub(rf"\b(?:my|our)\s+(?=(?:{PEOPLE})\b(?!'))", "the customer's ", text,
                  flags=re.I)
    text = re.sub(r"\b(?:my|our)\b\s*", "the ", text, flags=re.I)
    text = re.sub(r"\b(?:me|us|myself|ourselves)\b", "the customer", text, flags=re.I)
    text = re.sub(r"\b(?:mine|ours)\b", "the customer's", text, flags=re.I)
    return shop_words(text)


def shop_words(text: str) -> str:
    """The customer's "you" is the shop: "your call" -> "our call"."""
    text = re.sub(r"\byou (?:guys|all|folks)\b", "you", text, flags=re.I)
    text = re.sub(r"\byour\b", "our", text, flags=re.I)
    text = re.sub(r"\byours\b", "ours", text, flags=re.I)
    text = re.sub(r"\byourself\b|\byourselves\b", "ourselves", text, flags=re.I)
    text = re.sub(r"\byou(?=('re|'ve|'ll|'d)\b)", "we", text, flags=re.I)
    text = re.sub(rf"{OPEN}you\b", r"\1we", text, flags=re.I)
    return re.sub(r"\byou\b", "us", text, flags=re.I)


def agent_words(text: str, first: bool) -> str:
    """The agent's English clause as a note: "we" for the shop, "the customer" for
    the one it speaks to ("I'll email you" -> "will email the customer")."""
    if first:
        for pattern, short in LEADING:
            text = pattern.sub(short, text, count=1)
    text = re.sub(r"\bI'm\b|\bI am\b", "we are", text)
    text = re.sub(r"\bI was\b", "we were", text)
    text = re.sub(r"\bI\b", "we", text)
    text = re.sub(r"\bme\b", "us", text)
    text = re.sub(r"\bmy\b", "our", text, flags=re.I)
    text = re.sub(r"\byour\b", "the customer's", text, flags=re.I)
    you = re.compile(rf"{OPEN}you(?:('re|'ve|'ll|'d)\b|\b)"
                     rf"((?:\s+(?:{ADVERBS}))*)(?:\s+([A-Za-z][\w'-]*))?", re.I)
    text = you.sub(lambda m: m.group(1) + _as_customer(m, 2), text)
    return re.sub(r"\byou\b", "the customer", text, flags=re.I)


# Chinese: people a possessive 我 belongs to ("我老公" -> "老公"), and verbs that need
# their object ("找到我" -> "找到客户") or do without it ("联系我" -> "联系").
KIN = (r"老公|老婆|丈夫|妻子|爱人|儿子|女儿|孩子|宝宝|父母|爸妈|妈妈|爸爸|"
       r"母亲|父亲|姐姐|妹妹|哥哥|弟弟|外婆|外公|奶奶|爷爷|姥姥|姥爷|表哥|"
       r"表姐|表弟|表妹|同事|朋友|助理|领导|老板|室友|邻居|家人")
ZH_CUSTOMER = [
    (r"我们?家(?=门|楼|附近|小区|对面|旁边)", "家"), (r"我们?家(?:里)?(?!人)", "家里"),
    (r"我们?的?(妈|爸)(?![妈爸])", r"\1\1"),
    (rf"我们?的?(?={KIN})", ""), (r"(?:告诉|通知)我们?|让我们?知道", "通知"),
    (r"让我们?", "让客户"),
    (r"(打给|发给|寄给|交给|送给|找到|找|叫|问|等|接|提醒|吵到|吵醒|吵)我们?",
     r"\1客户"),
    (r"给我们?(?=[发打回寄留送买拿带])|(?:帮|替)我们?", ""), (r"给我们?", "给客户"),
    (r"我们?的?", ""), (r"(?<![\w'])(?:I|me|my|we|us|our)\b\s*", ""),  # mixed in
    (r"(?:您|你们?)的?", "")]  # the customer's 你们 is the shop: the note's own side
ZH_AGENT = [(r"您|你们?", "客户"), (r"我们?的?", "")]


def chinese_words(text: str, role: str = "user") -> str:
    """A Chinese clause as a note: the customer's 我, or the agent's 您, as 客户
    where the verb needs it, else left out."""
    for pattern, short in ZH_CUSTOMER if role == "user" else ZH_AGENT:
        text = re.sub(pattern, short, text)
    return text


def to_listener(text: str) -> str:
    """A note said back to the customer: "the customer starts" -> "you start",
    "the customer's" -> "your", 客户 -> 您."""
    text = re.sub(r"(?<![老新大])客户", "您", text)
    text = re.sub(r"\b[Tt]he customer's\b", "your", text)
    back = {v: k for k, v in THIRD.items() if not k.startswith("'")} | {
        "is": "are", "was": "were", "isn't": "aren't", "wasn't": "weren't"}

    def you(match: re.Match[str]) -> str:
        before, adverbs, verb = match.group(1), match.group(2) or "", match.group(3)
        if verb is None:
            return before + "you"
        low = verb.lower()
        if low in back:
            verb = back[low]
        elif re.search(r"[a-z]s$", low) and low not in INVARIANT:
            verb = (verb[:-3] + "y" if low.endswith("ies") else verb[:-2]
                    if re.search(r"(?:ss|sh|ch|x|z|o)es$", low) else verb[:-1])
        return f"{before}you{adverbs} {verb}"

    subject = re.compile(rf"{OPEN}the customer((?:\s+(?:{ADVERBS}))*)"
                         rf"(?:\s+([A-Za-z][\w'-]*))?", re.I)
    text = subject.sub(you, text)
    return re.sub(r"\bthe customer\b", "you", text, flags=re.I)
