"""Playing a phrasing set through every summary memory, and scoring what survived.

A conversation opens with one statement of each kind (a promise answers a request
for news), each answered "Noted.", then 30 turns of filler about prices and
policies follow. A statement survived when its key word is still in the summary, on
a line with its kind's label (a note may be on any line). The offline model is
called directly, without the SDK: the same summaries, quicker.
"""

from __future__ import annotations

from collections.abc import Callable

from tinyagent import ChatMessage, HybridChatMemory, SummaryChatMemory
from tinyagent.chat_model import ChatResponse
from tinyagent.offline import complete
from tinyagent.offline.statements import TOPICS
from tinyagent.production import IncrementalSummaryChatMemory
from tinyagent.production.compact import CompactChatMemory

from . import KINDS


class Offline:
    """The offline model as a client, without the HTTP round trip."""

    def chat(self, messages, tools=None):
        reply = complete({"messages": [m.to_dict() for m in messages]})
        return ChatResponse(reply["choices"][0]["message"]["content"])


LLM = Offline()
MEMORIES: dict[str, Callable[[], object]] = {
    "summary 10/4": lambda: SummaryChatMemory(LLM, 10, 4),
    "hybrid 4/8": lambda: HybridChatMemory(LLM, 4, 8),
    "structured 2/6": lambda: IncrementalSummaryChatMemory(LLM, keep_recent_turns=2,
                                                       batch_turns=6),
    "compact 600/200": lambda: CompactChatMemory(LLM, 600, 200),
}
ASK = {"en": "Can someone get back to me about it?", "zh": "能有人回复我一下吗？"}
NOTED = {"en": "Noted.", "zh": "好的，已记下。"}
FILLER = {"en": [
    ("How much is the S10 Lite?", "The BitMall S10 Lite Robot Vacuum costs ¥1599."),
    ("What is the warranty on robot vacuums?", "Robot vacuums carry a 1-year "
     "warranty."),
    ("And the S20 Max?", "The BitMall S20 Max Robot Vacuum costs ¥2999."),
    ("How long do refunds take?", "Approved refunds reach the original payment "
     "method in 1–3 business days."),
    ("What's the BandPro's price?", "The BitMall BandPro Fitness Band costs ¥699."),
    ("Any deals right now?", "Current offers:\n- BitMall S20 Pro Robot Vacuum: "
     "¥2499 (launch offer: ¥200 off until 2026-07-15)")],
    "zh": [
    ("S10 Lite 多少钱？", "比特严选 S10 Lite 扫地机器人 售价 ¥1599。"),
    ("扫地机保修多久？", "根据我们的规定：扫地机器人整机保修 1 年。"),
    ("那 S20 Max 呢，多少钱？", "比特严选 S20 Max 扫地机器人 售价 ¥2999。"),
    ("退款多久到账？", "根据我们的规定：退款审核通过后，1–3 个工作日内原路退回。"),
    ("BandPro 什么价格？", "比特严选 BandPro 运动手环 售价 ¥699。"),
    ("最近有什么优惠吗？", "当前优惠：\n- 比特严选 S20 Pro 扫地机器人：¥2499"
     "（新品优惠：立减 ¥200，截至 2026-07-15）。")]}


def play(memory, said: list[tuple[str, str]], lang: str, turns: int = 30) -> str:
    """Each (kind, text) as a turn, then `turns` fillers; the summary at the end."""
    for kind, text in said:
        user, answer = (ASK[lang], text) if kind == "promise" else (text, NOTED[lang])
        memory.add(ChatMessage.user(user))
        memory.add(ChatMessage.assistant(answer))
    for n in range(turns):
        question, answer = FILLER[lang][n % len(FILLER[lang])]
        memory.add(ChatMessage.user(question))
        memory.add(ChatMessage.assistant(answer))
    return memory.summary or ""


def survived(summary: str, kind: str, key: str) -> bool:
    """The key word on a line of the kind's label (any line for a note)."""
    labels = TOPICS.get(kind, ())
    return any(key in line and (kind == "note" or any(
        line.lstrip("- ").startswith(label) for label in labels))
        for line in summary.splitlines())


def sweep(phrasings: dict, lang: str, memories=MEMORIES
          ) -> dict[str, dict[str, list[tuple[str, bool]]]]:
    """memory -> kind -> [(text, survived)]: conversation k says the k-th
    statement of each kind."""
    book = phrasings[lang]
    rounds = max(len(book[kind]) for kind in KINDS)
    found: dict[str, dict[str, list[tuple[str, bool]]]] = {}
    for name, make in memories.items():
        per_kind: dict[str, list[tuple[str, bool]]] = {k: [] for k in KINDS}
        for k in range(rounds):
            said = [(kind, book[kind][k]) for kind in KINDS if k < len(book[kind])]
            summary = play(make(), [(kind, text) for kind, (text, _) in said], lang)
            for kind, (text, key) in said:
                per_kind[kind].append((text, survived(summary, kind, key)))
        found[name] = per_kind
    return found
