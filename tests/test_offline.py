"""Rules of the offline BitMall clerk: intents, memory from messages, tools, modes.

The tool results here are fabricated by `FakeStore` in the shapes the real tools
return: the offline model must never depend on tinyagent.tools, and neither do these
tests.
"""

import json
import re
import statistics
import time

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyagent.messages import ChatMessage
from tinyagent.offline import OFFLINE_MODEL, complete, offline_http_client
from tinyagent.offline.intents import detect_intent, order_ids, products
from tinyagent.tokens import count_messages_tokens, count_tools_tokens

TOOL_NAMES = ["queryOrder", "queryLogistics", "applyRefund", "searchKnowledge",
              "getCurrentTime", "searchProducts"]
SYSTEM = {"role": "system", "content": "You are the customer-service assistant of "
          "BitMall. Use the tools; answer briefly, in the customer's language."}
ORDERS = {  # order -> (product, price, status, delivered, carrier, tracking)
    "88231": ("BitMall S10 Pro Robot Vacuum", 1999, "delivered", "2026-06-22",
              "SF Express", "SF1234567890"),
    "90417": ("BitMall AirX Earbuds", 399, "in transit", None, "YTO Express",
              "YT5566778899"),
    "55107": ("BitMall BandPro Fitness Band", 699, "delivered", "2026-06-27",
              "ZTO Express", "ZT3344556677"),
    "73820": ("BitMall S10 Lite Robot Vacuum", 1599, "paid, not shipped", None, None,
              None),
    "61554": ("BitMall S20 Pro Robot Vacuum", 2499, "delivered", "2026-05-13",
              "SF Express", "SF2233445566"),
}
CATALOG = [("BitMall S10 Pro Robot Vacuum", 1999, False, None),
           ("BitMall S20 Pro Robot Vacuum", 2499, True,
            "launch offer: ¥200 off until 2026-07-15"),
           ("BitMall S20 Max Robot Vacuum", 2999, True, None),
           ("BitMall AirX Earbuds", 399, False, None)]
REFUND_TIME = "Approved refunds reach the original payment method in 1–3 business days."


def tools(*names: str) -> list[dict]:
    parameters = {"type": "object", "properties": {}}
    return [{"type": "function", "function": {
        "name": n, "description": n, "parameters": parameters}}
        for n in names or TOOL_NAMES]


class FakeStore:
    """Tool results in the real tools' shapes, for any order of the store."""

    def __init__(self) -> None:
        self.refunds: dict[str, str] = {}

    def run(self, name: str, args: dict) -> str:
        order = args.get("order_id", "")
        if order and order not in ORDERS:
            return json.dumps({"error": f"order {order} not found",
                               "hint": "order numbers have 5 digits"})
        return json.dumps(getattr(self, name)(**args), ensure_ascii=False)

    def queryOrder(self, order_id):  # noqa: N802 (tool names are camelCase)
        product, price, status, delivered, carrier, tracking = ORDERS[order_id]
        return {"order_id": order_id, "product": product, "price": price,
                "ordered": "2026-06-20", "status": status, "delivered": delivered,
                "carrier": carrier, "tracking_number": tracking}

    def queryLogistics(self, order_id):  # noqa: N802
        *_, status, delivered, carrier, tracking = ORDERS[order_id]
        events = []
        if tracking:
            events.append({"time": "2026-06-20 18:20", "event": "picked up"})
        if delivered:
            events.append({"time": f"{delivered} 11:35",
                           "event": "signed for by the recipient"})
        return {"order_id": order_id, "carrier": carrier, "tracking_number": tracking,
                "status": status, "events": events}

    def applyRefund(self, order_id, reason=""):  # noqa: N802
        refund_id = self.refunds.setdefault(order_id,
                                            f"RF20260701{len(self.refunds) + 1:03d}")
        return {"refund_id": refund_id, "order_id": order_id,
                "amount": ORDERS[order_id][1], "status": "pending inspection",
                "next_step": "after-sales inspection within 1–3 business days"}

    def getCurrentTime(self):  # noqa: N802
        return {"now": "2026-07-01 10:00:00 +08:00"}

    def searchKnowledge(self, query):  # noqa: N802
        return {"results": [{"topic": "refund time", "text": REFUND_TIME}]}

    def searchProducts(self, query):  # noqa: N802
        q = query.lower()
        # like the real stores, keywords in both languages: "new" or "新款"
        new, offer = re.search(r"new|新款", q), re.search(r"offer|优惠", q)
        found = [p for p in CATALOG if q in p[0].lower()] or [
            p for p in CATALOG if (new and p[2]) or (offer and p[3])]
        return {"results": [{"name": n, "price": pr, "new": new, "offer": offer,
                             "features": f"{n} features"}
                            for n, pr, new, offer in found]}


def ask(messages: list[dict], offered: list[dict] | None = None,
        model: str = OFFLINE_MODEL) -> dict:
    """The assistant message the model returns for these messages."""
    request = {"model": model, "messages": messages, "tools": offered or tools()}
    return complete(request)["choices"][0]["message"]


def run_turn(history: list[dict], text: str, store: FakeStore | None = None,
             offered: list[dict] | None = None, model: str = OFFLINE_MODEL,
             max_steps: int = 6) -> tuple[str, list[tuple[str, dict]], list[dict]]:
    """A minimal ReAct loop: (answer, tool calls made, the final messages)."""
    store = store or FakeStore()
    messages = [SYSTEM, *history, {"role": "user", "content": text}]
    calls: list[tuple[str, dict]] = []
    for _ in range(max_steps):
        message = ask(messages, offered, model)
        messages.append(message)
        if not message.get("tool_calls"):
            return message["content"], calls, messages
        for call in message["tool_calls"]:
            name = call["function"]["name"]
            args = json.loads(call["function"]["arguments"])
            calls.append((name, args))
            messages.append({"role": "tool", "tool_call_id": call["id"],
                             "content": store.run(name, args)})
    return "", calls, messages


def dialog(script: list[str]) -> list[tuple[str, list[tuple[str, dict]]]]:
    """Run turns with memory of user messages and answers (as InMemoryChatMemory)."""
    store, history, out = FakeStore(), [], []
    for text in script:
        answer, calls, _ = run_turn(history, text, store)
        history += [{"role": "user", "content": text},
                    {"role": "assistant", "content": answer}]
        out.append((answer, calls))
    return out


INTENTS = [
    ("Where is my order 88231?", "order_status"),
    ("Can you track order 90417 for me?", "order_status"),
    ("Has my package shipped yet?", "order_status"),
    ("When will it arrive?", "order_status"),
    ("My order number is 88231, where is it?", "order_status"),
    ("I want a refund, it won't go back to its dock", "refund"),
    ("I'd like to return the earbuds", "refund"),
    ("Can I get my money back for that order?", "refund"),
    ("How long until the refund arrives?", "refund_timing"),
    ("When will I get my money back?", "refund_timing"),
    ("What was that refund number again?", "recall"),
    ("What's my tracking number?", "recall"),
    ("Do you have any new robot vacuums to recommend?", "recommend"),
    ("Can you suggest some earbuds?", "recommend"),
    ("How much is the S20 Pro?", "price"),
    ("What does the S20 Max cost?", "price"),
    ("What's the difference between the S20 Pro and the S20 Max?", "compare"),
    ("S10 Pro vs S20 Pro", "compare"),
    ("Are there any deals or promotions?", "promotion"),
    ("I want to buy the S20 Max", "buy"),
    ("What's your return policy?", "policy"),
    ("Hello!", "help"),
    ("帮我查一下订单 88231 的物流到哪了", "order_status"),
    ("订单 90417 发货了吗", "order_status"),
    ("订单号 88231 到哪了", "order_status"),
    ("那我要退款呢，这个扫地机不回充了", "refund"),
    ("我上周买了一个扫地机，想退货", "refund"),
    ("退款多久到账？", "refund_timing"),
    ("对了，刚才那个退款编号是多少来着", "recall"),
    ("我的快递单号是多少", "recall"),
    ("你们有没有新款扫地机推荐一下", "recommend"),
    ("S20 Pro 多少钱", "price"),
    ("S20 Pro 和 S20 Max 有什么区别", "compare"),
    ("最近有什么优惠活动吗", "promotion"),
    ("我想买 S20 Max", "buy"),
    ("扫地机保修多久", "policy"),
]


@pytest.mark.parametrize(("text", "intent"), INTENTS)
def test_intent_words(text, intent):
    """The intent's words select it, in English and in Chinese."""
    assert detect_intent(text) == intent


FIRST_CALLS = [  # with order 88231 in the history: (text, first tool, its arguments)
    ("Where is it now?", "queryOrder", {"order_id": "88231"}),
    ("那个订单的物流到哪了", "queryOrder", {"order_id": "88231"}),
    ("I want to return it", "applyRefund", {"order_id": "88231"}),
    ("这个扫地机我要退款", "applyRefund", {"order_id": "88231"}),
    ("When will my money be back?", "searchKnowledge", {"query": "refund time"}),
    ("Recommend a new robot vacuum", "searchProducts", {"query": "new robot vacuum"}),
    ("推荐一下新款", "searchProducts", {"query": "新款"}),  # searched in Chinese
    ("退款多久到账", "searchKnowledge", {"query": "退款 到账"}),
    ("What is the price of the S20 Max?", "searchProducts", {"query": "S20 Max"}),
    ("How much is it?", "searchProducts", {"query": "S10 Pro"}),
    ("Any discount?", "searchProducts", {"query": "offer"}),
    ("I'd like to buy the s20 pro", "searchProducts", {"query": "S20 Pro"}),
    ("What time is it?", "getCurrentTime", {}),
]


@pytest.mark.parametrize(("text", "name", "arguments"), FIRST_CALLS)
def test_first_tool_call(text, name, arguments):
    """Each intent starts with its tool, with JSON arguments, and a short thought."""
    history = [{"role": "user", "content": "Where is my order 88231?"},
               {"role": "assistant", "content": "Your order 88231 (BitMall S10 Pro "
                "Robot Vacuum) was delivered and signed for on 2026-06-22."}]
    message = ask([SYSTEM, *history, {"role": "user", "content": text}])
    (call,) = message["tool_calls"]
    args = json.loads(call["function"]["arguments"])
    assert call["function"]["name"] == name
    assert arguments.items() <= args.items()
    assert message["content"]  # the thought


# The six-turn dialog of notebook 05, from the course catalogue (tests may import
# it; the offline model itself never does).
from tinyagent.course.catalogue import SIX_TURNS  # noqa: E402


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_six_turn_dialog(lang):
    """The six-turn demo: every turn answered from tools or, at the end, from memory."""
    turns = dialog(SIX_TURNS[lang])
    (a1, c1), (a2, c2), (a3, c3), (a4, c4), (a5, c5), (a6, c6) = turns
    assert [n for n, _ in c1] == ["queryOrder", "queryLogistics"]
    assert "SF1234567890" in a1 and ("signed for" in a1 or "签收" in a1)
    # the reason as the customer gave it, not the whole message (a summary keeps it
    # in the same words)
    reason = {"en": "vacuum won't go back to its dock",
              "zh": "这个扫地机不回充了"}[lang]
    assert c2 == [("applyRefund", {"order_id": "88231", "reason": reason})]
    assert "RF20260701001" in a2 and "¥1999" in a2
    # English store data: a Chinese answer gives its gist in Chinese words
    timing, offer = ((REFUND_TIME, "¥200 off") if lang == "en" else
                     ("1–3 个工作日", "立减 ¥200"))
    assert timing in a3 and "88231" in a3 and "RF20260701001" not in a3
    assert "S20 Pro" in a4 and "S20 Max" in a4
    assert "¥2499" in a5 and offer in a5
    assert c6 == [] and "RF20260701001" in a6 and "88231" in a6
    chinese = all(any("\u4e00" <= ch <= "\u9fff" for ch in a) for a, _ in turns)
    assert chinese == (lang == "zh")


@pytest.mark.parametrize("text", ["I want a refund, it won't go back to its dock",
                                  "那我要退款呢，这个扫地机不回充了", "Where is it?"])
def test_no_order_in_messages_asks(text):
    """Without history (the stateless agent) the clerk asks which order: no tool."""
    message = ask([SYSTEM, {"role": "user", "content": text}])
    assert "tool_calls" not in message
    assert "order number" in message["content"] or "订单号" in message["content"]


@pytest.mark.parametrize("order", list(ORDERS))
def test_every_order_works(order):
    """Nothing is keyed to one order: any order is looked up, then refunded as 'it'."""
    (a1, c1), (a2, c2) = dialog([f"Where is my order {order}?",
                                 "I want to return it"])
    product, price, status, _, _, tracking = ORDERS[order]
    assert c1[0] == ("queryOrder", {"order_id": order})
    assert product in a1 and order in a1
    assert (tracking or "not shipped") in a1
    assert ("queryLogistics", {"order_id": order}) in c1 or tracking is None
    assert [n for n, _ in c2] == ["applyRefund"] and c2[0][1]["order_id"] == order
    assert f"¥{price}" in a2


def test_it_is_never_a_name_from_this_turns_own_results():
    """"How much is it?" means the product named before the question: a name in this
    turn's own search result (a feature such as "LiDAR") is not a new "it"."""
    call = {"id": "c1", "type": "function", "function": {
        "name": "searchProducts", "arguments": json.dumps({"query": "S10 Pro"})}}
    result = {"results": [{"name": "BitMall S10 Pro Robot Vacuum", "price": 1999,
                           "offer": None, "features": "mopping, LiDAR mapping"}]}
    message = ask([SYSTEM, {"role": "user", "content": "Where is my order 88231?"},
                   {"role": "assistant", "content": "Your order 88231 (BitMall S10 "
                    "Pro Robot Vacuum) was delivered."},
                   {"role": "user", "content": "How much is it?"},
                   {"role": "assistant", "content": "", "tool_calls": [call]},
                   {"role": "tool", "tool_call_id": "c1",
                    "content": json.dumps(result)}])
    assert "tool_calls" not in message and "¥1999" in message["content"]


@pytest.mark.parametrize("order", list(ORDERS))
@pytest.mark.parametrize("question", ["How much did I pay for it?", "它多少钱买的？",
                                      "那单花了多少钱"])
def test_what_an_order_cost_is_asked_of_that_order(order, question):
    """"How much did I pay for it" / "它多少钱买的": the order the conversation named,
    looked up with queryOrder, answered with its price."""
    (_, _), (answer, calls) = dialog([f"Where is my order {order}?", question])
    assert calls == [("queryOrder", {"order_id": order})]
    assert order in answer and f"¥{ORDERS[order][1]}" in answer


@pytest.mark.parametrize("order", list(ORDERS))
def test_chinese_answers_over_english_data_hold_no_english(order):
    """A Chinese dialog over English tool data: every answer in Chinese words, the
    ids, prices and dates kept (the data's English is said in the clerk's words)."""
    from zh_text import stray_english

    turns = dialog([f"订单 {order} 到哪了？", "它多少钱买的？", "我要退货",
                    "退款多久到账？", "有什么优惠活动吗", "推荐一下新款扫地机"])
    for answer, _ in turns:
        assert stray_english(answer) == [], answer
    assert order in turns[0][0] and f"¥{ORDERS[order][1]}" in turns[1][0]
    assert "1–3 个工作日" in turns[3][0] and "立减 ¥200" in turns[4][0]


FACT = "Order 55107: BitMall BandPro Fitness Band, delivered"
TOOL_TURN = [{"role": "user", "content": "check 55107"},
             {"role": "assistant", "content": "", "tool_calls": [{
                 "id": "call_1", "type": "function",
                 "function": {"name": "queryOrder", "arguments": "{}"}}]},
             {"role": "tool", "tool_call_id": "call_1",
              "content": FakeStore().run("queryOrder", {"order_id": "55107"})},
             {"role": "assistant", "content": "Delivered."}]
SOURCES = {  # where the order was mentioned -> the messages before the new question
    "answer": [SYSTEM, {"role": "user", "content": "hi"},
               {"role": "assistant", "content": FACT}],
    "tool result": [SYSTEM, *TOOL_TURN],
    "summary message": [SYSTEM, {"role": "system",
                                 "content": f"[Conversation summary]\n- {FACT}"}],
    "summary folded into the system prompt": [{
        "role": "system", "content": SYSTEM["content"] + f"\n\n[Conversation summary]"
        f"\n- {FACT}"}],
}


@pytest.mark.parametrize("source", list(SOURCES))
def test_pronoun_resolved_from_any_message(source):
    """'It' resolves from an answer, a tool result, or a summary (even folded)."""
    message = ask([*SOURCES[source], {"role": "user", "content": "Please refund it"}])
    (call,) = message["tool_calls"]
    assert call["function"]["name"] == "applyRefund"
    assert json.loads(call["function"]["arguments"])["order_id"] == "55107"


def test_instructions_are_not_memory():
    """An order number in the system prompt's instructions is not a mention."""
    system = {"role": "system", "content": "Example: 'Where is order 12345?'"}
    message = ask([system, {"role": "user", "content": "Where is it?"}])
    assert "tool_calls" not in message


def test_kind_picks_the_matching_order():
    """'This vacuum' means the vacuum order even when the earbuds came up later."""
    history = [{"role": "assistant", "content": "Order 88231: BitMall S10 Pro Robot "
                "Vacuum, delivered."},
               {"role": "assistant", "content": "Order 90417: BitMall AirX Earbuds."}]
    _, calls, _ = run_turn(history, "Refund this vacuum please")
    assert calls[0][1]["order_id"] == "88231"


def test_only_offered_tools_are_called():
    """No queryLogistics on offer: the clerk answers from queryOrder alone."""
    answer, calls, _ = run_turn([], "Where is my order 88231?",
                                offered=tools("queryOrder"))
    assert [n for n, _ in calls] == ["queryOrder"] and "SF1234567890" in answer
    answer, calls, _ = run_turn([], "Where is my order 88231?",
                                offered=tools("searchProducts"))
    assert calls == [] and "can't" in answer


ASKS_FOR = {  # a question that makes the clerk call each tool, when it is offered
    "queryOrder": "What did I order with order 88231?",
    "queryLogistics": "Where is my order 88231?",
    "applyRefund": "I want a refund for order 88231, it won't charge",
    "searchKnowledge": "What is the return policy for a refund?",
    "getCurrentTime": "What time is it now?",
    "searchProducts": "How much is the S20 Pro robot vacuum?",
}


@pytest.mark.parametrize("tool", TOOL_NAMES)
def test_a_tool_not_on_offer_is_never_called(tool):
    """A question that calls a tool when every tool is offered never calls it when
    that one is withheld, at any step of the turn: the clerk makes do with the rest."""
    text = ASKS_FOR[tool]
    _, offered_calls, _ = run_turn([], text)
    assert tool in [name for name, _ in offered_calls]  # the question does ask for it
    others = tools(*(name for name in TOOL_NAMES if name != tool))
    answer, calls, _ = run_turn([], text, offered=others)
    assert tool not in [name for name, _ in calls] and answer


def test_not_shipped_order_has_no_logistics_call():
    """An order without a tracking number is 'not shipped yet', no logistics lookup."""
    answer, calls, _ = run_turn([], "Where is order 73820?")
    assert [n for n, _ in calls] == ["queryOrder"] and "not shipped" in answer


def test_tool_error_is_relayed():
    """An unknown order: the error is passed on politely, with a request to check."""
    answer, calls, _ = run_turn([], "Where is my order 12345?")
    assert calls == [("queryOrder", {"order_id": "12345"})]
    assert "12345 not found" in answer and "check" in answer


def test_recall_without_memory_is_honest():
    """No refund number in the messages: say so, offer a lookup, call no tool."""
    answer, calls, _ = run_turn([], "What was my refund number again?")
    assert calls == [] and "can't find" in answer and "RF" not in answer


def test_recall_for_a_named_order_picks_that_orders_number():
    """'The refund number for 55107': the refund on 55107's line, not the newest."""
    history = [{"role": "assistant", "content": "Refund RF20260701001 for order 55107 "
                "is approved."},
               {"role": "assistant", "content": "Refund RF20260701002 for order 90417 "
                "is approved."}]
    answer, calls, _ = run_turn(history, "What was the refund number for 55107?")
    assert calls == [] and "RF20260701001" in answer and "RF20260701002" not in answer
    answer, _, _ = run_turn(history, "What was my refund number again?")
    assert "RF20260701002" in answer  # no order named: the newest


def test_recall_of_a_tracking_number_can_look_it_up():
    """A tracking number not in the messages, but the order is: look it up."""
    history = [{"role": "user", "content": "I ordered 90417 last week."},
               {"role": "assistant", "content": "Noted, order 90417."}]
    answer, calls, _ = run_turn(history, "What's the tracking number?")
    assert calls[0] == ("queryOrder", {"order_id": "90417"})
    assert "YT5566778899" in answer


@pytest.mark.parametrize(("text", "fact"), [
    ("Any discounts at the moment?", "¥200 off"),
    ("有什么优惠活动吗", "立减 ¥200"),
    ("What's your return policy?", REFUND_TIME),
    ("I want to buy the S20 Max", "product page"),
    ("我想买 S20 Max", "下单"),
    ("How much is the S20 Pro?", "¥2499"),
    ("推荐一款新款扫地机", "S20 Max"),
])
def test_catalog_and_policy_answers(text, fact):
    """Offers, policies, buying and prices are answered from the tool results."""
    answer, calls, _ = run_turn([], text)
    assert calls and fact in answer


def test_compare_searches_both_in_one_step():
    """Two products named: both searched in one step, then the price gap is given."""
    answer, calls, messages = run_turn([], "Compare the S20 Pro and the S20 Max")
    assert calls == [("searchProducts", {"query": "S20 Pro"}),
                     ("searchProducts", {"query": "S20 Max"})]
    assert len(messages[2]["tool_calls"]) == 2 and "¥500" in answer


def test_entities():
    """Order numbers are 5 digits, not parts of dates, prices or other ids."""
    text = "order 88231 on 2026-06-20, ¥19999, RF20260701001, SF1234567890, 123456"
    assert order_ids(text) == ["88231"]
    assert products("s20 pro vs AirX, BitMall S10 Lite Robot Vacuum") == [
        "S20 Pro", "AirX", "S10 Lite"]


def test_identical_requests_identical_bytes():
    """A pure function: the same request gives the same bytes, ids included."""
    _, _, messages = run_turn([], "Where is my order 88231?")
    request = {"model": OFFLINE_MODEL, "messages": messages[:4], "tools": tools()}
    first = json.dumps(complete(request))
    assert first == json.dumps(complete(json.loads(json.dumps(request))))
    assert json.loads(first)["id"].startswith("chatcmpl-offline-")


def test_call_ids_unique_across_a_conversation():
    """Tool call ids are deterministic and never repeat within a conversation."""
    _, _, messages = run_turn([], "Where is my order 88231?")
    ids = [c["id"] for m in messages for c in m.get("tool_calls", ())]
    _, _, again = run_turn([], "Where is my order 88231?")
    assert len(ids) == len(set(ids)) == 2
    assert ids == [c["id"] for m in again for c in m.get("tool_calls", ())]


def test_usage_counts_with_tiktoken():
    """prompt_tokens is the package's own count of messages plus tool schemas."""
    messages = [SYSTEM, {"role": "user", "content": "Where is my order 88231?"}]
    usage = complete({"model": OFFLINE_MODEL, "messages": messages,
                      "tools": tools()})["usage"]
    expected = count_messages_tokens(ChatMessage.from_dict(m) for m in messages)
    assert usage["prompt_tokens"] == expected + count_tools_tokens(tools())
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


@pytest.fixture
def sdk():
    import openai  # here: the SDK's import (~1 s) is not paid at collection

    return openai.OpenAI(api_key="offline", base_url="http://bitmall.offline/v1",
                         http_client=offline_http_client(), max_retries=0)


def test_through_the_openai_sdk(sdk):
    """End to end through the real SDK: a tool call, then an answer with usage."""
    store, messages = FakeStore(), [SYSTEM, {"role": "user",
                                             "content": "Where is my order 90417?"}]
    for _ in range(3):
        reply = sdk.chat.completions.create(model=OFFLINE_MODEL, messages=messages,
                                            tools=tools()).choices[0]
        messages.append(reply.message.model_dump(exclude_none=True))
        for call in reply.message.tool_calls or ():
            result = store.run(call.function.name, json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id,
                             "content": result})
    assert reply.finish_reason == "stop" and "YT5566778899" in reply.message.content
    assert [m.id for m in sdk.models.list()] == [OFFLINE_MODEL]


@pytest.mark.parametrize(("suffix", "error", "status"), [
    ("+error", "InternalServerError", 500),
    ("+ratelimit", "RateLimitError", 429),
    ("+nonsense", "BadRequestError", 400),
])
def test_status_failure_modes(sdk, suffix, error, status):
    """'+error' and '+ratelimit' fail with their HTTP status; unknown modes get 400."""
    import openai

    with pytest.raises(getattr(openai, error)) as caught:
        sdk.chat.completions.create(model=OFFLINE_MODEL + suffix,
                                    messages=[{"role": "user", "content": "hi"}])
    assert caught.value.status_code == status
    if status == 400:
        assert "+repeat" in caught.value.message  # names the valid suffixes


def test_timeout_and_malformed_modes(sdk):
    """'+timeout' is an APITimeoutError at once; '+malformed' a JSON decoding error."""
    import openai

    hello = [{"role": "user", "content": "hi"}]
    started = time.perf_counter()
    with pytest.raises(openai.APITimeoutError):
        sdk.chat.completions.create(model=OFFLINE_MODEL + "+timeout", messages=hello)
    assert time.perf_counter() - started < 1
    with pytest.raises(json.JSONDecodeError):
        sdk.chat.completions.create(model=OFFLINE_MODEL + "+malformed", messages=hello)
    with pytest.raises(ValueError, match="HTTP level"):
        complete({"model": OFFLINE_MODEL + "+timeout", "messages": hello})


@pytest.mark.parametrize(("messages", "words"), [
    ([{"role": "user", "content": "hi"},
      {"role": "tool", "tool_call_id": "call_1", "content": "{}"}],
     "must be a response to a preceding message with 'tool_calls'"),
    ([{"role": "user", "content": "hi"},
      {"role": "assistant", "content": "", "tool_calls": [{
          "id": "call_1", "type": "function",
          "function": {"name": "queryOrder", "arguments": "{}"}}]},
      {"role": "user", "content": "hello?"}], "missing: call_1"),
])
def test_broken_tool_pairs_are_rejected_like_a_real_api(sdk, messages, words):
    """A tool result without its call, or a call without its result, is HTTP 400."""
    import openai

    with pytest.raises(openai.BadRequestError, match=re.escape(words)):
        sdk.chat.completions.create(model=OFFLINE_MODEL, messages=messages)


@pytest.mark.parametrize("content", [[{"type": "text", "text": "Hello"}], 5])
def test_content_that_is_not_text_is_http_400_naming_the_message(sdk, content):
    """Content parts (images, audio) or a number: a 400 that names the message and
    what the offline model reads, never a crash inside the model."""
    import openai

    messages = [{"role": "user", "content": "hi"},
                {"role": "assistant", "content": content},
                {"role": "user", "content": "Where is 88231?"}]
    with pytest.raises(openai.BadRequestError, match=re.escape(
            "messages[1]: the offline model reads text content only (a string or "
            f"null), got {type(content).__name__}")):
        sdk.chat.completions.create(model=OFFLINE_MODEL, messages=messages)


def test_empty_mode():
    """'+empty' answers with empty content and no tool calls."""
    message = ask([{"role": "user", "content": "Where is 88231?"}],
                  model=OFFLINE_MODEL + "+empty")
    assert message == {"role": "assistant", "content": ""}


def test_repeat_mode_repeats_the_first_call():
    """'+repeat' issues its first call of the turn again at every step."""
    _, calls, _ = run_turn([], "Where is my order 88231?",
                           model=OFFLINE_MODEL + "+repeat", max_steps=4)
    assert calls == [("queryOrder", {"order_id": "88231"})] * 4


def test_dither_mode_never_answers():
    """'+dither' searches with a new query each step and an almost identical thought."""
    _, calls, messages = run_turn([], "Where is my order 88231?",
                                  model=OFFLINE_MODEL + "+dither", max_steps=4)
    thoughts = [m["content"] for m in messages if m.get("tool_calls")]
    assert len({json.dumps(a) for _, a in calls}) == 4
    assert {n for n, _ in calls} == {"searchKnowledge"}
    a, b = set(thoughts[0]), set(thoughts[-1])
    assert len(a & b) / len(a | b) >= 0.7


def test_transport_rejects_other_routes():
    """Only the chat endpoint and the model list are served."""
    with offline_http_client() as client:
        response = client.post("http://bitmall.offline/v1/embeddings", json={})
    assert response.status_code == 404
    assert isinstance(offline_http_client(), httpx.Client)


def test_speed_sanity():
    """A 20-message request is answered fast (median well under 50 ms; ~1 ms here)."""
    _, _, messages = run_turn([], "Where is my order 88231?")
    chat = [m for m in messages if m["role"] == "user"
            or (m["role"] == "assistant" and not m.get("tool_calls"))]
    history = chat * 10
    request = {"model": OFFLINE_MODEL, "messages": [SYSTEM, *history[:19]],
               "tools": tools()}
    complete(request)
    times = []
    for _ in range(50):
        started = time.perf_counter()
        complete(request)
        times.append(time.perf_counter() - started)
    assert statistics.median(times) < 0.05


@settings(max_examples=150, deadline=None)
@given(text=st.text(min_size=1, max_size=80),
       offered=st.lists(st.sampled_from(TOOL_NAMES), unique=True, max_size=6),
       history=st.lists(st.sampled_from([
           "Order 88231: BitMall S10 Pro Robot Vacuum", "refund RF20260701001",
           "S20 Max ¥2999", "您的订单 90417 运输中", "hello"]), max_size=3))
def test_any_message_gets_a_valid_reply(text, offered, history):
    """Whatever the customer writes, the reply is valid and uses only offered tools."""
    messages = [SYSTEM, *({"role": "assistant", "content": h} for h in history),
                {"role": "user", "content": text}]
    request = {"model": OFFLINE_MODEL, "messages": messages}
    if offered:
        request["tools"] = tools(*offered)
    choice = complete(request)["choices"][0]
    calls = choice["message"].get("tool_calls", [])
    assert choice["finish_reason"] == ("tool_calls" if calls else "stop")
    assert all(c["function"]["name"] in offered for c in calls)
    assert calls or choice["message"]["content"]
