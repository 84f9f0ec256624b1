"""The offline clerk's Chinese, as a Chinese customer-service agent speaks it.

Each rule is checked over several phrasings, and over every order or product it can
apply to, in a real conversation (agent, tools, in-memory memory): "它" in a question
about delivery time is the order just discussed, "最开始问的那个" is the first one,
the customer's words come back addressed to them (您), a comparison weighs the two
products, an offer and a carrier read as a shop writes them.
"""

import itertools
import re

import pytest

from tinyagent import InMemoryChatMemory, LlmClient, ReActAgent, bitmall_tools
from tinyagent.offline.intents import detect_intent
from tinyagent.tools.store import ORDERS, PRODUCTS

LLM = LlmClient(offline=True)
SHIPPED = [o for o, info in ORDERS.items() if info["tracking_number"]]
VACUUMS = ["S10 Lite", "S10 Pro", "S20 Pro", "S20 Max"]
PRICES = {name: p["price"] for name in VACUUMS for p in PRODUCTS if name in p["name"]}


def chat(turns, lang="zh"):
    """The answers to `turns`, one conversation over the store in `lang`."""
    agent = ReActAgent(LLM, bitmall_tools(lang=lang), memory=InMemoryChatMemory(),
                       verbose=False)
    return [agent.run(text) for text in turns]


@pytest.mark.parametrize("order", list(ORDERS))
@pytest.mark.parametrize("question", ["它大概什么时候能到？", "它啥时候到",
                                      "那它几号能送到？", "它什么时候能收到？",
                                      "这个订单多久能到？"])
def test_it_in_a_delivery_time_question_is_the_order_just_discussed(order, question):
    """"它什么时候到" asks about the order the conversation named: its status, not
    the greeting; the order is named in the answer."""
    first, answer = chat([f"订单 {order} 到哪了？", question])
    assert detect_intent(question) == "order_status"
    assert f"订单 {order}" in answer and "您好" not in answer, answer


@pytest.mark.parametrize("question", ["退款多久到账？", "钱什么时候能到账？",
                                      "退的钱几天能到？"])
def test_money_arriving_is_still_refund_timing(question):
    """A question about the refund's money is refund timing, not a delivery."""
    assert detect_intent(question) == "refund_timing"


@pytest.mark.parametrize("first, second", list(itertools.permutations(ORDERS, 2)))
@pytest.mark.parametrize("question", ["我最开始问的那个订单发货了吗？",
                                      "第一个订单到哪了？",
                                      "最早问的那个订单现在什么状态？",
                                      "Where is the first order I asked about?"])
def test_the_first_one_is_the_oldest_mention(first, second, question):
    """"最开始问的那个" / "the first order" is the first order the conversation named,
    not the newest."""
    answers = chat([f"订单 {first} 到哪了？", f"订单 {second} 呢？", question])
    assert first in answers[-1] and second not in answers[-1], answers[-1]


@pytest.mark.parametrize("statement", [
    "请只用微信联系我，不要打电话。", "联系我请用短信，别打电话。",
    "有进展请发邮件告诉我，别打电话。", "我晚上7点以后才在家，请晚上再配送。",
    "我下一台的预算在2000元以内。", "新买的扫地机请晚上8点以后送货，白天我在上班。",
    "再买扫地机的话，我的预算不超过2500元。"])
def test_the_customers_words_come_back_addressed_to_the_customer(statement):
    """A rule noted, or asked back later, is said to the customer: 您, never the
    customer's own 我, and never an order to the customer ("不要打电话")."""
    noted = chat([statement])[0]
    topic = "联系我" if "联系" in statement or "告诉我" in statement else \
        "预算" if "预算" in statement else "送货"
    back = chat([statement, {"联系我": "我之前说怎么联系我来着？",
                             "预算": "我的预算是多少来着？",
                             "送货": "我之前说几点以后送货来着？"}[topic]])[1]
    for answer in (noted, back):
        assert "我" not in answer.replace("我们", ""), answer
        assert not re.search(r"不要打电话|别打电话", answer), answer
        assert not re.search(r"[(]|请", answer.split("：", 1)[-1]), answer
    assert noted.startswith("好的，已记下：")
    assert re.search(r"\d+", back) or "微信" in back or "短信" in back or "邮件" in back


@pytest.mark.parametrize("reason", ["扫地机回不了充", "它一直报错 E12，开不了机",
                                    "耳机没声音了"])
def test_the_reason_is_said_back_as_what_the_customer_said(reason):
    """"您之前说扫地机回不了充。", not "您之前说过：回不了充。"."""
    answer = chat([f"订单 88231 我要退款，{reason}", "我为什么要退款来着？"])[1]
    assert answer.startswith("您之前说") and "说过：" not in answer, answer


@pytest.mark.parametrize("a, b", list(itertools.permutations(VACUUMS, 2)))
@pytest.mark.parametrize("question", ["{a} 和 {b} 有什么区别？",
                                      "帮我对比一下 {a} 和 {b}", "{a} 和 {b} 哪个好？",
                                      "{a} 跟 {b} 比，选哪个？"])
def test_a_comparison_weighs_the_two(a, b, question):
    """Both products with their price and features, which costs how much more, and
    for "which is better" what the choice turns on."""
    answer = chat([question.format(a=a, b=b)])[0]
    cheap, dear = sorted((a, b), key=PRICES.get)
    assert answer.startswith(f"{a} 和 {b} 的区别：")
    assert f"{dear} 比 {cheap} 贵 ¥{PRICES[dear] - PRICES[cheap]}。" in answer
    asks = re.search(r"哪个好|选哪", question) is not None
    assert (f"看重价格选 {cheap}" in answer) == asks, answer


@pytest.mark.parametrize("pronoun", ["它和 {b} 比哪个好？", "那它跟 {b} 有什么不同？",
                                     "这款和 {b} 哪个好？"])
def test_it_comes_first_in_a_comparison_with_it(pronoun):
    """"它和 S20 Max 比哪个好？" after the S20 Pro: the S20 Pro, then the S20 Max."""
    answer = chat(["S20 Pro 多少钱", pronoun.format(b="S20 Max")])[1]
    assert answer.startswith("S20 Pro 和 S20 Max 的区别："), answer


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("question", ["S20 Pro 多少钱", "S20 Pro 什么价格？",
                                      "S20 Pro 现在卖多少钱？"])
def test_an_offer_reads_as_a_shop_writes_it(lang, question):
    """"售价 ¥2499，新品立减 ¥200（截至 7 月 15 日）" over either store: the price and
    the offer in one sentence, the date as a person writes it."""
    answer = chat([question], lang)[0]
    offer = r"售价 ¥2499，(?:新品)?立减 ¥200（截至 7 月 15 日）。$"
    assert re.search(offer, answer), answer
    assert "当前优惠" not in answer and "优惠：" not in answer


@pytest.mark.parametrize("question", ["有没有新款推荐？", "最近有什么优惠吗？"])
def test_a_list_is_introduced_as_a_clerk_does(question):
    """"目前的新款有：" and "目前的优惠活动：", not "这些是我们的新款："."""
    answer = chat([question])[0]
    assert answer.startswith(("目前的新款有：", "目前的优惠活动：")), answer


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("order", SHIPPED)
def test_the_carrier_is_named_in_a_sentence(lang, order):
    """"承运商为顺丰速运", not "承运商 顺丰速运"."""
    answer = chat([f"订单 {order} 到哪了？"], lang)[0]
    assert "承运商为" in answer and not re.search(r"承运商 [^\s]", answer), answer


@pytest.mark.parametrize("question, kind", [
    ("刚才那个退款编号是多少来着？", "退款编号"), ("退款单号是多少来着？", "退款编号"),
    ("运单号是多少来着？", "运单号"), ("我的订单号是多少来着？", "订单号"),
    ("再说一下我的订单编号。", "订单号")])
def test_a_missing_id_is_asked_for_politely(question, kind):
    """Nothing in the conversation names it: the clerk says so and asks for what it
    needs, and never asks for the order number it was asked for."""
    answer = chat([question])[0]
    assert answer.startswith("刚才的对话里没找到") and kind in answer, answer
    assert answer.count("订单号") == 1, answer
    assert "我们的对话里没有" not in answer


@pytest.mark.parametrize("greeting", ["你好", "在吗", "有人吗？"])
def test_the_chinese_greeting_names_the_chinese_store(greeting):
    """A Chinese customer is greeted by 比特严选, the Chinese store's name."""
    answer = chat([greeting])[0]
    assert "比特严选" in answer and "BitMall" not in answer, answer


@pytest.mark.parametrize("question", ["今天几号？", "今天几月几号？", "现在几点了？"])
def test_the_date_is_said_as_a_person_says_it(question):
    """"现在是 2026 年 7 月 1 日 10:00（北京时间）。", not an ISO timestamp."""
    answer = chat([question])[0]
    assert answer == "现在是 2026 年 7 月 1 日 10:00（北京时间）。", answer
