"""Summarize mode: the offline model as the summarizer that memories call.

Introduced in notebook 00 (tour) and used from notebook 04 on. When a request offers
no tools and its system prompt asks for a summary, the model writes what a good
model writes: a fact ledger (ledger.py), one short line per order or refund, one
for the products, one for the policy answers, and one per thing the customer stated
or the agent promised, reduced to their content (forms.py). The previous summary is read
back into the ledger first, then the new messages update it: a newer status replaces
an older one, a fact is never written twice, answered questions are dropped and the
last unanswered one is kept as an open request. Text it does not recognise degrades
to a short line that keeps its ids; a statement no kind fits is a short note. A Chinese
conversation gets Chinese labels. A system prompt that mentions JSON gets the
structured seven-section object of notebook 08 (sections.py). Left out: a length
cap (the memory's summarizer enforces its budget) and judging importance beyond the
ledger's kinds.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..lang import is_chinese
from . import intents
from .conversation import parse_result
from .facts import IDS, SENTENCE, Fact, clip, read_facts, read_sentence
from .forms import statements
from .items import read_item
from .ledger import GROUPS, LABELS, TEXT_KINDS, Ledger, as_fact, read_line
from .sections import structured
from .statements import reason_on_refund

# A transcript line: "[user] …" (English) or "用户：…" (Chinese), with its speaker.
ENTRY = re.compile(r"^(?:\[(user|assistant|tool|system)\]|(用户|客服|工具结果|系统)：)"
                   r"\s?(.*)$")
SPEAKERS = {"用户": "user", "客服": "assistant", "工具结果": "tool", "系统": "system"}
PREVIOUS = re.compile(r"previous summary\s*:?|之前的摘要\s*[:：]?", re.I)
NEW = re.compile(r"new messages\s*:?|新消息\s*[:：]?", re.I)
NONE = re.compile(r"^\(?(none|nothing to keep|无|没有)\)?$", re.I)
IDS_LINE = re.compile(r"^(ids kept|保留编号)\s*[:：]", re.I)  # the guard rebuilds it
ENTITIES = ("order", "refund", "product")  # the ledger's kinds with an id or name
PLEASANTRY = re.compile(r"^(hi|hello|hey|thanks|thank you|ok|okay|great|bye|sure|"
                        r"you're welcome|glad to help|好的|谢谢|你好|嗯|好|再见|不客气)"
                        r"[\s!.,。！，~]*$", re.I)


def is_summary_request(messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]] | None) -> bool:
    """No tools offered, and the first system message's instructions ask to summarize.

    A "[Conversation summary…]" folded into the system prompt is data, not an
    instruction, so only the text before it counts.
    """
    if tools:
        return False
    system = next((m for m in messages if m.get("role") == "system"), None)
    content = (system or {}).get("content") or ""
    instructions = re.split(r"\[Conversation summary|\[对话摘要", content)[0]
    return re.search(r"summar|总结|摘要", instructions, re.I) is not None


def read_input(messages: list[dict[str, Any]]
               ) -> tuple[list[str], list[tuple[str, str]]]:
    """(previous summary, new (role, text) entries) from the summarizer's prompt."""
    users = [m.get("content") or "" for m in messages if m.get("role") == "user"]
    text = users[-1] if users else ""
    new = NEW.search(text)
    if new is None:  # no markers: every non-system message is new
        return [], [(m["role"], m.get("content") or "") for m in messages
                    if m.get("role") in ("user", "assistant", "tool")]
    previous = PREVIOUS.search(text, 0, new.start())
    old = text[previous.end():new.start()] if previous else ""
    entries: list[tuple[str, str]] = []
    for line in text[new.end():].splitlines():
        match = ENTRY.match(line.strip())
        if match:
            entries.append((match.group(1) or SPEAKERS[match.group(2)],
                            match.group(3)))
        elif line.strip() and entries:  # a message that spans lines
            entries[-1] = (entries[-1][0], entries[-1][1] + "\n" + line.strip())
        elif line.strip():
            entries.append(("user", line.strip()))
    return [old] if old.strip() else [], entries


def tool_fact(r: dict[str, Any]) -> str | None:
    """A tool result as one line of text the ledger can read (None: nothing to keep).

    The ledger reads the line like any answer, so it needs no rules of its own.
    """
    if "error" in r:
        return f"Error: {r['error']}"
    if "refund_id" in r:
        return (f"Refund {r['refund_id']} for order {r.get('order_id')}: "
                f"¥{r.get('amount')}, status: {r.get('status')}")
    if "order_id" in r and ("product" in r or "events" in r):
        events = [e for e in r.get("events") or () if isinstance(e, dict)]
        parts = [r.get("product") and f"({r['product']})",
                 r.get("price") and f"¥{r['price']}", r.get("status"),
                 r.get("delivered"), r.get("carrier"), r.get("tracking_number")]
        line = f"Order {r['order_id']} " + " ".join(str(p) for p in parts if p)
        return line + (f".\nLatest update: {events[-1].get('time')} "
                       f"{events[-1].get('event')}" if events else "")
    found = [i for i in r.get("results") or () if isinstance(i, dict)]
    if any("name" in i for i in found):
        return "\n".join(f"{i.get('name')}: ¥{i.get('price')}"
                         + (f" ({i['offer']})" if i.get("offer") else "")
                         for i in found)
    if found:
        return str(found[0].get("text"))
    if "now" in r:  # the clock is not a fact about the customer
        return None
    return str(r["text"]) if set(r) == {"text"} else json.dumps(r, ensure_ascii=False)


def _from_json(block: str) -> str:
    """A previous summary in JSON form (notebook 08): its sections' items, then its
    running summary (the newest lines), each line once."""
    try:
        value = json.loads(block)
    except json.JSONDecodeError:
        return block
    if not isinstance(value, dict):
        return block
    items = [str(i) for key in ("confirmed_facts", "preferences", "resolved",
                                "pending") for i in value.get(key) or ()]
    lines = [*items, *str(value.get("running_summary", "")).splitlines()]
    return "\n".join(dict.fromkeys(lines))


def read_previous(ledger: Ledger, block: str) -> None:
    """The previous summary back into the ledger, line by line, by its labels."""
    kinds = {label: kind for kind, pair in LABELS.items() for label in pair}
    groups = {label: kind for kind, pair in GROUPS.items() for label in pair}
    for raw in _from_json(block).splitlines():
        line = raw.strip().removeprefix("- ").strip()
        if not line or NONE.match(line) or IDS_LINE.match(line):
            continue
        refund = reason_on_refund(line)  # "Refund RF…: …; reason: …": two facts
        if refund is not None:
            line = refund[0]
            ledger.add(as_fact(refund[1]))
        stated = read_line(line)  # "Delivery: after 6 pm": what the customer said
        if stated:
            ledger.add(stated)
            continue
        match = re.match(r"([^:：]{1,16}?)\s*[:：]\s*(.*)$", line)
        label, rest = (match.group(1), match.group(2)) if match else ("", line)
        kind = kinds.get(label) if kinds.get(label) in TEXT_KINDS else None
        group = groups.get(label)
        if group:
            facts = [read_item(group, part) for part in re.split(r"\s*[;；]\s*", rest)
                     if part.strip()]
        elif kind == "policy":
            facts = read_facts(rest) or [Fact("policy", rest[:40], {"text": rest})]
        elif kind:
            facts = [Fact(kind, rest, {"text": rest})]
        else:  # a fact line; one whose label promises an entity it lacks stays as is
            facts = read_facts(line)
            promised = kinds.get(re.split(r"[\s:：]", line)[0])
            if promised in ENTITIES and not any(f.kind == promised for f in facts):
                facts = []
        for fact in facts:
            ledger.add(fact)
        if not facts or any(not ledger.has(i) for i in IDS.findall(line)):
            # a line the ledger cannot read: kept as written, shortened
            ledger.add(Fact("line", line, {"text": clip(line, 100)}))


def note_unknown_ids(ledger: Ledger, text: str) -> None:
    """Degrade: a text whose ids no fact holds becomes a short note keeping them."""
    if any(not ledger.has(i) for i in IDS.findall(text)):
        short = clip(text, 80)
        ledger.add(Fact("note", short, {"text": short}))


def fact_lines(messages: list[dict[str, Any]]) -> list[str]:
    """The merged ledger: the previous summary's facts updated by the new messages."""
    previous, entries = read_input(messages)
    users = [t for r, t in entries if r == "user"]
    zh = is_chinese(" ".join(users) if users else " ".join(previous))
    ledger = Ledger()
    for block in previous:
        read_previous(ledger, block)
    last_user = max((i for i, (r, _) in enumerate(entries) if r == "user"), default=-1)
    if any(r == "assistant" for r, _ in entries):
        ledger.drop("open")  # the conversation went on: earlier requests were answered
    context: dict[str, str] = {}  # the order and product last named, for "it"
    unknown: list[str] = []  # texts the ledger could not read: notes, if they hold ids
    for index, (role, text) in enumerate(entries):
        text = text.strip()
        if not text or role == "system" or PLEASANTRY.match(text):
            continue
        if role == "tool":  # JSON, maybe after a label such as "queryOrder ->"
            start = text.find("{")
            text = tool_fact(parse_result(text[start:] if start >= 0 else text)) or ""
        if role == "user":
            order = (intents.ORDER_ID.findall(text) or [context.get("order")])[0]
            if order:  # "I'd like to return it: …" is about the order named last
                context["order"] = order
            stated = [as_fact(said) for said in statements(text, "user", order)]
            for fact in stated:  # in the customer's words: what they want, and why
                ledger.add(fact)
            if index == last_user and not any(
                    r == "assistant" for r, _ in entries[index + 1:]):
                ledger.add(Fact("open", text, {"text": clip(text, 80)}))
            elif not stated:
                unknown.append(text)
            continue
        for promise in statements(text, "assistant"):  # "we'll call you back …"
            ledger.add(as_fact(promise))
        for sentence in SENTENCE.split(text):
            sentence = sentence.strip(" -•")
            facts = read_sentence(sentence, context) if sentence else []
            for fact in facts:
                ledger.add(fact)
            if not facts:
                unknown.append(sentence)
    for text in unknown:  # after every fact is in: only ids no fact holds
        note_unknown_ids(ledger, text)
    return ledger.lines(zh)


def summarize(messages: list[dict[str, Any]]) -> str:
    """Plain-text summary, or a JSON object when the system prompt mentions JSON."""
    lines = fact_lines(messages)
    system = next((m.get("content") or "" for m in messages
                   if m.get("role") == "system"), "")
    zh = is_chinese(" ".join(str(m.get("content") or "") for m in messages
                                     if m.get("role") == "user"))
    if "JSON" not in system:
        return "\n".join(f"- {line}" for line in lines) or (
            "- （没有需要保留的内容）" if zh else "- (nothing to keep)")
    return json.dumps(structured(lines, zh), ensure_ascii=False, indent=1)
