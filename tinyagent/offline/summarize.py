"""Summarize mode: the offline model as the summarizer that memories call.

Introduced in notebook 00 (tour) and used from notebook 04 on. When a request offers
no tools and its system prompt asks for a summary, the model writes an *extractive*
summary: one fact a line ("- "), keeping every order, product, amount, tracking and
refund number, outcome and open request, and dropping pleasantries and repeats. The
previous summary's lines come first, so summaries merge incrementally. Past
`MAX_CHARS`, the oldest lines without an id go first; a line with an id is never
dropped. A system prompt that mentions JSON gets the structured seven-section object
of notebook 07. Left out: abstraction (it never rephrases) and judging importance.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import intents
from .conversation import parse_result

MAX_CHARS = 1200  # plain summary budget; lines with ids may push past it
MAX_ITEMS, MAX_ITEM_CHARS = 6, 80  # per section of the JSON summary (Nexus design)

ENTRY = re.compile(r"^\[(user|assistant|tool|system)\]\s?(.*)$")
PREVIOUS = re.compile(r"previous summary\s*:?|之前的摘要\s*[:：]?", re.I)
NEW = re.compile(r"new messages\s*:?|新消息\s*[:：]?", re.I)
NONE = re.compile(r"^\(?(none|无|没有)\)?$", re.I)
PLEASANTRY = re.compile(r"^(hi|hello|hey|thanks|thank you|ok|okay|great|bye|sure|"
                        r"you're welcome|glad to help|好的|谢谢|你好|嗯|好|再见|不客气)"
                        r"[\s!.,。！，~]*$", re.I)
IDS = re.compile("|".join(p.pattern for p in (
    intents.REFUND_ID, intents.TRACKING_ID, intents.ORDER_ID)))
FACT = re.compile(r"\d|¥|deliver|transit|ship|refund|approved|pending"
                  r"|签收|发货|退款|运输")
PREFERS = re.compile(r"prefer|would like|budget|don't want|rather"
                     r"|喜欢|希望|预算|不要", re.I)
SECTIONS = re.compile(r"^(Order|Refund|Products|Policy|订单|退款|商品|规定)")
PENDING = re.compile(r"^(Open request|待处理)|pending|in transit|not shipped|待|运输中")
RESOLVED = re.compile(r"delivered|approved|^Refund|^退款|签收|已通过")
LABELS = {"user": ("User", "用户"), "assistant": ("Assistant", "客服"),
          "open": ("Open request", "待处理"), "order": ("Order", "订单"),
          "refund": ("Refund", "退款"), "error": ("Error", "错误"),
          "products": ("Products", "商品"), "policy": ("Policy", "规定"),
          "tool": ("Tool", "工具")}


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
    instructions = content.split("[Conversation summary")[0]
    return re.search(r"summar|总结|摘要", instructions, re.I) is not None


def clip(text: str, width: int) -> str:
    """At most `width` characters; ids that the cut would lose are kept in brackets."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    suffix = ""
    for _ in range(3):  # a longer suffix means a shorter cut: settle in a few rounds
        kept = text[: max(width - 1 - len(suffix), 0)] + "…"
        lost = [i for i in dict.fromkeys(IDS.findall(text)) if i not in kept]
        suffix = f" ({', '.join(lost)})" if lost else ""
    return kept + suffix


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
            entries.append((match.group(1), match.group(2)))
        elif line.strip() and entries:  # a message that spans lines
            entries[-1] = (entries[-1][0], entries[-1][1] + "\n" + line.strip())
        elif line.strip():
            entries.append(("user", line.strip()))
    return [old] if old.strip() else [], entries


def tool_fact(result: dict[str, Any], zh: bool) -> str | None:
    """One line for one tool result, or None for results not worth keeping."""
    def label(key: str) -> str:
        return LABELS[key][zh]

    r = result
    if "error" in r:
        return f"{label('error')}: {r['error']}"
    if "refund_id" in r:
        return (f"{label('refund')} {r['refund_id']} ({label('order').lower()} "
                f"{r.get('order_id')}): ¥{r.get('amount')}, {r.get('status')}")
    if "order_id" in r and ("product" in r or "events" in r):
        events = [e for e in r.get("events") or () if isinstance(e, dict)]
        last = events[-1] if events else {}
        parts = [r.get("product"), r.get("price") and f"¥{r['price']}", r.get("status"),
                 r.get("delivered") and f"delivered {r['delivered']}",
                 r.get("tracking_number") and f"{r.get('carrier')} "
                                              f"{r['tracking_number']}",
                 last and f"latest: {last.get('time')} {last.get('event')}"]
        facts = ", ".join(str(p) for p in parts if p)
        return f"{label('order')} {r['order_id']}: {facts}"
    found = [i for i in r.get("results") or () if isinstance(i, dict)]
    if any("name" in i for i in found):
        return f"{label('products')}: " + "; ".join(
            f"{i.get('name')} ¥{i.get('price')}" + (f" ({i['offer']})" if i.get("offer")
                                                    else "") for i in found)
    if found:
        return f"{label('policy')}: {clip(str(found[0].get('text')), 160)}"
    if "now" in r:  # the clock is not a fact about the customer
        return None
    text = str(r["text"]) if set(r) == {"text"} else json.dumps(r, ensure_ascii=False)
    return f"{label('tool')}: {clip(text, 120)}" if text.strip() else None


def _from_json(block: str) -> str:
    """A previous summary in JSON form (notebook 07) contributes its running summary."""
    try:
        value = json.loads(block)
    except json.JSONDecodeError:
        return block
    return str(value.get("running_summary", "")) if isinstance(value, dict) else block


def entry_line(role: str, text: str, zh: bool, is_open: bool) -> str | None:
    text = text.strip()
    if not text or PLEASANTRY.match(text) or role == "system":
        return None
    if role == "tool":  # JSON, maybe after a label such as "queryOrder ->"
        start = text.find("{")
        return tool_fact(parse_result(text[start:] if start >= 0 else text), zh)
    if role == "assistant":  # keep the sentences that carry facts
        sentences = re.split(r"(?<=[.!?。！？])\s*", text)
        text = " ".join(s for s in sentences if FACT.search(s)) or text
    key = "open" if is_open else role
    return f"{LABELS[key][zh]}: {clip(text, 160)}"


def fact_lines(messages: list[dict[str, Any]]) -> list[str]:
    """The merged summary lines: the previous summary's first, then the new facts."""
    previous, entries = read_input(messages)
    zh = any(intents.is_chinese(t) for r, t in entries if r == "user")
    lines = [line.strip().removeprefix("- ").strip() for block in previous
             for line in _from_json(block).splitlines()]
    last_user = max((i for i, (r, _) in enumerate(entries) if r == "user"), default=-1)
    answered = any(r == "assistant" for r, _ in entries[last_user + 1:])
    for index, (role, text) in enumerate(entries):
        lines.append(entry_line(role, text, zh, index == last_user and not answered)
                     or "")
    seen: set[str] = set()
    merged = []
    for line in lines:
        key = " ".join(line.lower().split())
        if key and not NONE.match(key) and key not in seen:
            seen.add(key)
            merged.append(line)
    while len("\n".join(merged)) + 2 * len(merged) > MAX_CHARS:
        plain = next((i for i, line in enumerate(merged) if not IDS.search(line)), None)
        if plain is None:  # only lines with ids are left: they all stay
            break
        del merged[plain]
    return merged


def summarize(messages: list[dict[str, Any]]) -> str:
    """Plain-text summary, or a JSON object when the system prompt mentions JSON."""
    lines = fact_lines(messages)
    system = next((m.get("content") or "" for m in messages
                   if m.get("role") == "system"), "")
    if "JSON" not in system:
        return "\n".join(f"- {line}" for line in lines)
    return json.dumps(structured(lines), ensure_ascii=False, indent=1)


def id_hint(value: str) -> str:
    """"refund RF…", "tracking SF…" or "order 88231": an id with its kind."""
    if intents.REFUND_ID.fullmatch(value):
        return f"refund {value}"
    if intents.TRACKING_ID.fullmatch(value):
        return f"tracking {value}"
    return f"order {value}"


def structured(lines: list[str]) -> dict[str, Any]:
    """The seven sections of notebook 07, each capped at 6 items of 80 characters."""
    def pick(pattern: re.Pattern[str]) -> list[str]:
        chosen = [clip(line, MAX_ITEM_CHARS) for line in lines if pattern.search(line)]
        return chosen[-MAX_ITEMS:]
    users = [line.split(": ", 1)[-1] for line in lines
             if line.startswith(("User", "Open request", "用户", "待处理"))]
    ids = [id_hint(i) for i in dict.fromkeys(IDS.findall("\n".join(lines)))]
    return {"running_summary": "\n".join(lines),
            "goal": clip(users[-1], MAX_ITEM_CHARS) if users else "",
            "confirmed_facts": pick(SECTIONS),
            "preferences": pick(PREFERS),
            "resolved": pick(RESOLVED),
            "pending": pick(PENDING),
            "retrieval_hints": ids[-MAX_ITEMS:]}
