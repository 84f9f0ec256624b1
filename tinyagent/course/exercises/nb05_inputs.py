"""What notebook 05's checker (nb05.py) feeds the learner's merge step.

A previous summary and the messages that overflowed after it, in English and
Chinese with the same ids; two fake models (one records what it is sent, one always
fails); a long answer whose ids come after the fallback's clip; a long chat to merge
25 times; and the merge step as HybridChatMemory does it, to compare sizes with.
Left out: the cases themselves (nb05.py).
"""

from __future__ import annotations

from typing import Any

from ...chat_model import ChatResponse, LlmError
from ...lang import say
from ...memory.entities import find_ids, keep_ids
from ...memory.summarizer import PROMPTS, fallback_summary
from ...memory.transcript import MARKERS, render
from ...messages import ChatMessage
from ._dialogs import ORDERS

PREVIOUS = ("- User: Where is my order 88231?\n"
            "- Assistant: order 88231 (BitMall S10 Pro Robot Vacuum) was delivered; "
            "tracking SF1234567890.")
OVERFLOW = [ChatMessage.user("I want a refund, this vacuum won't go back to its dock"),
            ChatMessage.assistant("I've applied for a refund for order 88231: refund "
                                  "number RF20260701001, amount ¥1999.")]
# The same summary and messages in a Chinese report: the same ids, the same facts.
PREVIOUS_ZH = ("- 用户：我的订单 88231 到哪了？\n"
               "- 助手：订单 88231（比特严选 S10 Pro 扫地机器人）已签收；"
               "运单号 SF1234567890。")
OVERFLOW_ZH = [ChatMessage.user("我要退款，这台扫地机回不了充电座"),
               ChatMessage.assistant("已为订单 88231 申请退款：退款编号 RF20260701001，"
                                     "金额 ¥1999。")]
IDS = ("88231", "SF1234567890", "RF20260701001")


def previous() -> str:
    return say(PREVIOUS, PREVIOUS_ZH)


def overflow() -> list[ChatMessage]:
    return list(say(OVERFLOW, OVERFLOW_ZH))


class Recorder:
    """A fake model: records each request, answers with a fixed text."""

    def __init__(self, reply: str | None = None) -> None:
        self.reply = reply or say("- The customer wants a refund.", "- 顾客想退款。")
        self.requests: list[tuple[list[ChatMessage], Any]] = []

    def chat(self, messages: list[ChatMessage], tools: Any = None) -> ChatResponse:
        self.requests.append((list(messages), tools))
        return ChatResponse(self.reply)


class Broken:
    """A fake model whose every call fails, as a provider outage would."""

    def chat(self, messages: list[ChatMessage], tools: Any = None) -> ChatResponse:
        raise LlmError(say("model call failed: HTTP 500 from the offline model",
                           "模型调用失败：离线模型返回 HTTP 500"))


def reference_merge(llm: Any, previous: str | None, overflow: list[ChatMessage],
                    lang: str = "en") -> str:
    """The merge step as the exercise asks it (the solutions notebook's code), with
    the prompt and labels of `lang` (the Chinese edition's: "zh"); the transcript
    and the fallback speak the package's language, as `render` and
    `fallback_summary` do when not told otherwise."""
    before, none, new = (marker.say(lang) for marker in MARKERS)
    text = f"{before}\n{previous or none}\n\n{new}\n{render(overflow)}"
    try:
        summary = llm.chat([ChatMessage.system(PROMPTS.say(lang)),
                            ChatMessage.user(text)])
        summary = summary.content.strip()
    except Exception:  # a failed summary must not lose the conversation
        summary = ""
    # the fallback's labels follow the package's language, as render's do
    return keep_ids(summary or fallback_summary(previous, overflow),
                    find_ids(text))


def long_overflow(turns: int = 50) -> list[list[ChatMessage]]:
    """Batches of two turns about many orders and products, as a long chat sends."""
    chat = []
    for n in range(turns):
        order = ORDERS[n % 5]
        chat += [ChatMessage.user(say(f"Where is my order {order}? (turn {n + 1})",
                                      f"我的订单 {order} 到哪了？（第 {n + 1} 轮）")),
                 ChatMessage.assistant(say(
                     f"Order {order} is in transit with SF Express; it should arrive "
                     f"in {1 + n % 3} days.", f"订单 {order} 正由顺丰速运配送，预计 "
                     f"{1 + n % 3} 天内送达。"))]
    return [chat[i:i + 4] for i in range(0, len(chat), 4)]


LONG_ANSWER = ("I checked the order, the shipment and the refund rules for you: the "
               "vacuum was delivered, it is within the 7 days, so I applied for a "
               "refund of ¥1999, refund number RF20260701003; the courier picks it up "
               "with tracking SF9988776655.")
LONG_ANSWER_ZH = ("我帮您把订单、物流和退款规则都核对了一遍：扫地机已经签收，"
                  "签收时间还在七天无理由退货的期限之内，主机和配件也都齐全，"
                  "符合退货条件，所以已经为您提交了退款申请，金额 ¥1999，"
                  "退款编号 RF20260701003；快递员会上门取件，取件运单号 "
                  "SF9988776655。")
