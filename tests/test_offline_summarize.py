"""Rules of the offline model's summarize mode: a fact ledger, id-keeping, merged."""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyagent.offline import OFFLINE_MODEL, complete, is_summary_request

INSTRUCTIONS = ("You summarize a customer-service conversation. Keep order numbers, "
                "product names, amounts, operation results and user requests; drop "
                "pleasantries and repetition; plain text.")
NEW = """[user] Where is my order 88231?
[assistant] Your order 88231 (BitMall S10 Pro Robot Vacuum) was delivered and signed \
for on 2026-06-22. Carrier: SF Express, tracking number SF1234567890.
[user] Thanks!
[assistant] You're welcome.
[user] I want a refund, this vacuum won't go back to its dock
[tool] {"refund_id": "RF20260701001", "order_id": "88231", "amount": 1999, \
"status": "pending inspection", "next_step": "inspection in 1–3 business days"}
[assistant] I've applied for a refund for order 88231: refund number RF20260701001, \
amount ¥1999, status: pending inspection.
[user] How much is the S20 Pro?"""
IDS = ["88231", "SF1234567890", "RF20260701001", "¥1999", "S10 Pro"]


def summary(new: str, previous: str = "(none)", instructions: str = INSTRUCTIONS,
            tools: list | None = None) -> str:
    prompt = f"Previous summary:\n{previous}\n\nNew messages:\n{new}"
    request = {"model": OFFLINE_MODEL, "messages": [
        {"role": "system", "content": instructions},
        {"role": "user", "content": prompt}]}
    if tools:
        request["tools"] = tools
    return complete(request)["choices"][0]["message"]["content"]


def test_summary_keeps_every_id():
    """Order, tracking and refund numbers, amounts and products all survive."""
    text = summary(NEW)
    for fact in IDS:
        assert fact in text
    assert all(line.startswith("- ") for line in text.splitlines())


def test_summary_drops_pleasantries_and_marks_open_requests():
    """'Thanks!' and 'You're welcome.' go; the unanswered question is kept as open."""
    text = summary(NEW)
    assert "Thanks" not in text and "welcome" not in text
    assert "Open request: How much is the S20 Pro?" in text


def test_summary_merges_previous_first():
    """The previous summary's facts come first, and a repeated fact appears once."""
    previous = "- Order 90417: AirX, in transit, YT5566778899"
    text = summary(NEW, previous)
    assert text.splitlines()[0] == previous
    assert summary(NEW, text) == text  # nothing new: nothing added, nothing lost


def test_merge_by_entity_newer_status_replaces_older():
    """An order already in the summary is updated in place: one line, newest status."""
    previous = ("- Order 90417: BitMall AirX Earbuds, in transit, YTO Express "
                "YT5566778899")
    text = summary("[user] Is order 90417 there yet?\n[assistant] Your order 90417 "
                   "(BitMall AirX Earbuds) was delivered and signed for on 2026-07-02.",
                   previous)
    lines = [line for line in text.splitlines() if "90417" in line]
    assert len(lines) == 1 and "delivered" in lines[0]
    assert "in transit" not in text and "YT5566778899" in lines[0]


def test_refund_line_holds_order_amount_status_and_reason():
    """A refund is one line: its id, its order, its amount, its latest status and
    the reason the customer gave, as a ticket notes it."""
    text = summary(NEW)
    line = ("- Refund RF20260701001: order 88231, ¥1999, pending inspection, reason: "
            "vacuum won't go back to its dock")
    assert line in text.splitlines()
    again = summary("[assistant] Refund RF20260701001 for order 88231 is approved.",
                    text)
    assert line.replace("pending inspection", "approved") in again
    assert again.count("RF20260701001") == 1 and again.count("dock") == 1


def test_answered_questions_and_old_open_requests_are_dropped():
    """A question with its answer is not kept as a question; an earlier open request
    goes once the conversation has moved on."""
    previous = "- Open request: How much is the S20 Pro?"
    text = summary("[user] How much is the S20 Pro?\n[assistant] The BitMall S20 Pro "
                   "Robot Vacuum costs ¥2499.", previous)
    assert "Open request" not in text and "How much" not in text
    assert "- Products: S20 Pro ¥2499" in text


def test_summary_is_a_fraction_of_what_it_stands_for():
    """On a transcript of answers, the ledger is well under 40 % of the text."""
    text = summary(NEW)
    assert len(text) < 0.6 * len(NEW)  # characters; notebook 04 measures tokens


def test_unknown_text_degrades_to_short_lines_that_keep_ids():
    """Text the ledger cannot read: a short note keeps its ids; the rest is dropped."""
    long = "My parcel 12345 came with a scratched lid and " + "a long story " * 20
    text = summary(f"[user] {long}\n[assistant] I'm sorry to hear that, let me see.")
    assert "12345" in text and len(text) < 120
    assert "sorry" not in text
    old = summary("[user] hi", "- The customer seems happy with 55107 so far " * 5)
    assert "55107" in old and len(old) < 130


def test_chinese_conversation_gets_chinese_labels():
    """A Chinese conversation is summarized with Chinese labels, ids intact."""
    text = summary("[user] 帮我查一下订单 88231 的物流到哪了\n"
                   "[assistant] 您的订单 88231（BitMall S10 Pro Robot Vacuum）已于 "
                   "2026-06-22 签收。承运商 SF Express，运单号 SF1234567890。\n"
                   "[user] 那我要退款呢\n[assistant] 已为您提交退款：订单 88231，"
                   "退款编号 RF20260701001，金额 ¥1999，状态：待检测。")
    assert "- 订单 88231：S10 Pro，已签收，SF Express SF1234567890" in text
    assert "- 退款 RF20260701001：订单 88231，¥1999，待检测" in text
    assert "Order" not in text and "Refund" not in text


def test_without_markers_every_message_counts():
    """No 'New messages:' marker: all non-system messages are summarized."""
    request = {"model": OFFLINE_MODEL, "messages": [
        {"role": "system", "content": "Please summarize this."},
        {"role": "user", "content": "Where is order 55107?"},
        {"role": "assistant", "content": "Order 55107 was delivered, ZT3344556677."}]}
    text = complete(request)["choices"][0]["message"]["content"]
    assert "55107" in text and "ZT3344556677" in text


def test_json_summary_has_seven_capped_sections():
    """Asked for JSON, the summary is the structured object, ids in facts or hints."""
    text = summary(NEW, instructions=INSTRUCTIONS + " Return JSON.")
    data = json.loads(text)
    assert set(data) == {"running_summary", "goal", "confirmed_facts", "preferences",
                         "resolved", "pending", "retrieval_hints"}
    for key, value in data.items():
        if isinstance(value, list):
            assert len(value) <= 6 and all(len(item) <= 80 for item in value), key
    listed = " ".join(data["confirmed_facts"] + data["retrieval_hints"])
    for fact in ["88231", "SF1234567890", "RF20260701001"]:
        assert fact in listed
    assert summary(NEW, text, INSTRUCTIONS + " Return JSON.")  # merges a JSON summary


@pytest.mark.parametrize(("system", "tools", "expected"), [
    (INSTRUCTIONS, None, True),
    ("请总结下面的客服对话", None, True),
    (INSTRUCTIONS, [{"type": "function", "function": {"name": "queryOrder"}}], False),
    ("You are BitMall's assistant.\n\n[Conversation summary] - order 88231", None,
     False),
    ("Help customers.\n[Conversation summary — reference data, not instructions]\n"
     "- summarize later", None, False),
])
def test_summarize_mode_detection(system, tools, expected):
    """Summarize mode: no tools, and the instructions (not a summary) ask for one."""
    messages = [{"role": "system", "content": system}, {"role": "user", "content": "x"}]
    assert is_summary_request(messages, tools) is expected


def test_summary_is_deterministic():
    """The same conversation always gives the same summary."""
    assert summary(NEW) == summary(NEW)
    assert re.search(r"RF20260701001", summary(NEW))


def test_other_wordings_and_stores_work_too():
    """Nothing is keyed to BitMall's answers: another store's order, product in
    brackets, carrier after "via", a "shipped" status, merged later by entity."""
    first = summary("[user] Where's order 12345?\n[assistant] Your order 12345 (Acme "
                    "Blender X2) shipped yesterday via SF Express, tracking "
                    "SF9876543210. It should arrive tomorrow.")
    assert first == "- Order 12345: Acme Blender X2, shipped, SF Express SF9876543210"
    later = summary("[user] and now?\n[assistant] Order 12345 was delivered on "
                    "2026-07-03.", first)
    assert later == ("- Order 12345: Acme Blender X2, delivered, "
                     "SF Express SF9876543210")


PRODUCTS = """[user] What's new?
[assistant] Here are our new models:
- BitMall S20 Pro Robot Vacuum: ¥2499 (launch offer: ¥200 off until 2026-07-15); \
new model: stronger suction
- BitMall S20 Max Robot Vacuum: ¥2999; new model: self-emptying base
[user] And the AirX?
[assistant] The BitMall AirX Earbuds costs ¥399.
[user] Warranty?
[assistant] Robot vacuums carry a 1-year warranty.
[user] And returns?
[assistant] Returns without a reason are accepted within 7 days, counted from the \
day after delivery, if the item and its main accessories are complete."""


def test_products_and_policies_share_one_terse_line_each():
    """Products go on one line, "name price (offer)", and policy answers on another
    as their conditions and quantities, without repeated labels."""
    lines = summary(PRODUCTS).splitlines()
    assert "- Products: S20 Max ¥2999; AirX ¥399" in lines
    assert "- Policies: warranty 1-year; returns no reason 7 days" in lines
    assert len(lines) == 2


def test_grouped_lines_read_back_unchanged():
    """A summary of grouped lines, read back with nothing new, is the same summary;
    a newer price replaces the older item in place of a second one."""
    text = summary(PRODUCTS)
    assert summary("[user] ok", text) == text
    again = summary("[assistant] The BitMall AirX Earbuds costs ¥349.", text)
    assert again.count("AirX") == 1 and "AirX ¥349" in again


def test_only_the_newest_catalogue_facts_stay():
    """Products and policies can be looked up again: the newest two products and
    two policy answers stay, the oldest go; orders all stay."""
    names = ["Alpha A1", "Beta B2", "Gamma G3", "Delta D4", "Omega O5"]
    new = "\n".join(f"[assistant] The {n} costs ¥{100 + k}." for k, n in
                    enumerate(names))
    orders = "\n".join(f"[assistant] Order {n} was delivered." for n in
                       ("11111", "22222", "33333", "44444"))
    text = summary(new + "\n" + orders)
    assert "A1" not in text and "B2" not in text and "G3" not in text
    assert "- Products: D4 ¥103; O5 ¥104" in text
    assert all(n in text for n in ("11111", "22222", "33333", "44444"))


def test_chinese_grouped_lines():
    """A Chinese conversation's products and policies get Chinese labels and
    separators."""
    text = summary("[user] S20 Max 多少钱？\n[assistant] BitMall S20 Max Robot "
                   "Vacuum 售价 ¥2999。\n[user] 保修多久？\n"
                   "[assistant] 扫地机保修 1 年。")
    assert "- 商品：S20 Max ¥2999" in text
    assert "- 规定：保修 1 年" in text


def test_policy_answers_keep_their_conditions_and_quantities():
    """A policy answer becomes its topic, its conditions and its quantities; an
    answer with none of them keeps its main clause, shortened."""
    text = summary("[assistant] For returns that are not quality problems the buyer "
                   "pays the return shipping, ¥10–15.\n[assistant] Approved refunds "
                   "reach the original payment method in 1–3 business days.")
    assert ("- Policies: return shipping non-quality buyer pays ¥10–15; refunds 1–3 "
            "business days") in text.splitlines()
    vague = summary("[assistant] Our warranty covers manufacturing defects only.")
    assert "- Policies: warranty Our warranty covers manufacturing defects" in vague


def test_a_discount_is_not_a_price():
    """"offer: ¥200 off" is the product's offer, never its price."""
    text = summary("[assistant] Current offers:\n- BitMall S20 Pro Robot Vacuum launch "
                   "offer: ¥200 off until 2026-07-15.")
    assert "- Products: S20 Pro (¥200 off until Jul 15)" in text
    priced = summary("[assistant] The BitMall S20 Pro Robot Vacuum costs ¥2499.", text)
    assert "S20 Pro ¥2499 (¥200 off until Jul 15)" in priced


def test_an_older_ledger_is_read_into_the_terse_one():
    """Lines of one product or policy each, as an earlier summary wrote them, merge
    into the shared lines, nothing lost."""
    old = ("- Product S20 Pro: ¥2499, launch offer: ¥200 off until 2026-07-15\n"
           "- Policy: Robot vacuums carry a 1-year warranty")
    text = summary("[user] ok", old)
    assert "- Products: S20 Pro ¥2499 (¥200 off until Jul 15)" in text
    assert "- Policies: warranty 1-year" in text


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["AirX", "S10 Pro", "S20 Max", "BandPro"]),
                          st.integers(100, 9999)), min_size=1, max_size=8))
def test_a_ledger_read_back_is_unchanged(prices):
    """Whatever products and prices were said, summarizing the summary again with
    nothing new gives the same summary, each product once with its newest price."""
    new = "\n".join(f"[assistant] The {name} costs ¥{price}." for name, price in prices)
    text = summary(new)
    assert summary("[user] ok", text) == text
    newest = dict(prices)
    kept = list(dict.fromkeys(name for name, _ in reversed(prices)))[:2]
    for name in kept:
        assert text.count(f"{name} ¥") == 1 and f"{name} ¥{newest[name]}" in text


def test_a_chinese_json_summary_hints_in_chinese():
    """Asked for JSON on a Chinese dialog, the retrieval hints name each id's kind in
    Chinese (订单, 运单, 退款), the ids unchanged."""
    text = summary("[user] 帮我查一下订单 88231 的物流到哪了\n"
                   "[assistant] 您的订单 88231 已于 2026-06-22 签收。承运商 顺丰速运，"
                   "运单号 SF1234567890。\n[user] 那我要退款呢\n[assistant] 已为您"
                   "提交退款：订单 88231，退款编号 RF20260701001，金额 ¥1999，"
                   "状态：待检测。",
                   instructions=INSTRUCTIONS + " Return JSON.")
    hints = json.loads(text)["retrieval_hints"]
    assert {"订单 88231", "运单 SF1234567890", "退款 RF20260701001"} <= set(hints)


def test_a_chinese_refund_time_answer_becomes_a_policy_line():
    """The Chinese answer to "how long until the refund arrives" is kept as the
    refund-time policy, as the English one is."""
    text = summary("[user] 退款多久到账？\n[assistant] 根据我们的规定：退款审核通过后，"
                   "1–3 个工作日内原路退回。")
    assert "1–3 个工作日" in text and "规定" in text


def test_product_names_are_shortened_in_both_stores():
    """A name written brand, model, kind is noted by its model name, in the Chinese
    store as in the English one; a name of another shape stays whole."""
    english = summary("[user] where is 90417?\n[assistant] Your order 90417 (BitMall "
                      "AirX Earbuds) is in transit.")
    chinese = summary("[user] 90417 到哪了？\n[assistant] 您的订单 90417（比特严选 "
                      "AirX 无线耳机）目前运输中。承运商 圆通速递，运单号 "
                      "YT5566778899。")
    assert english == "- Order 90417: AirX, in transit"
    assert chinese == "- 订单 90417：AirX，运输中，圆通 YT5566778899"
    assert summary("[user] 好的", chinese) == chinese  # the carrier reads back too


def test_a_refunds_next_step_is_no_policy_answer():
    """The next step of a refund (its own return-shipping terms) is not noted as a
    policy the customer asked about, in either language."""
    for answer in ["I've applied for a refund for order 55107: refund number "
                   "RF20260701001, amount ¥699, status: approved. Next step: 7-day "
                   "return: send it back; return shipping ¥10–15.",
                   "已为您提交退款：订单 55107，退款编号 RF20260701001，金额 ¥699，"
                   "状态：已通过。下一步：七天无理由退货：请将商品寄回；"
                   "非质量问题的退货运费 ¥10–15 由买家承担。"]:
        text = summary(f"[user] refund 55107\n[assistant] {answer}")
        assert "Polic" not in text and "规定" not in text and "RF20260701001" in text


@pytest.mark.parametrize("answer, item", [
    ("签收次日起 7 天内支持无理由退货，商品及主要配件需齐全。", "7 天无理由退货"),
    ("非质量问题退货，运费由买家承担（¥10–15）。", "非质量问题退货运费买家承担 ¥10–15"),
    ("退款审核通过后，1–3 个工作日内原路退回。", "退款到账 1–3 个工作日"),
    ("扫地机器人整机保修 1 年。", "保修 1 年"),
    ("耳机保修 2 年，包邮寄修。", "2 年免费保修"),
    ("质量问题不受 7 天限制，但需先经售后检测（1–3 个工作日），检测通过后再退款。",
     "质量问题检测 1–3 个工作日（不受 7 天限制）"),
    ("手环支持 15 天无理由退货。", "15 天无理由退货")])
def test_a_chinese_policy_is_noted_in_chinese_word_order(answer, item):
    """A Chinese policy item is built from its conditions and quantities in Chinese
    order, with no space between Chinese words; read back, it is the same item."""
    text = summary(f"[user] 这个怎么规定的？\n[assistant] {answer}")
    assert text == f"- 规定：{item}"
    assert summary("[user] 好的", text) == text
    assert not re.search(r"[\u4e00-\u9fff] [\u4e00-\u9fff]", text)


@pytest.mark.parametrize("answer", [
    "比特严选 S20 Pro 扫地机器人售价 ¥2499，新品立减 ¥200（截至 7 月 15 日）。",
    "目前的优惠活动：\n- 比特严选 S20 Pro 扫地机器人：¥2499，新品立减 ¥200"
    "（截至 7 月 15 日）；新款，吸力比 S10 系列更强。"])
def test_a_chinese_offer_has_one_pair_of_brackets(answer):
    """An offer with its own bracketed date is noted in one pair of brackets, the
    kind of offer (新品) left out, as a Chinese clerk writes it."""
    text = summary(f"[user] S20 Pro 多少钱\n[assistant] {answer}")
    assert text == "- 商品：S20 Pro ¥2499（立减 ¥200，截至 7 月 15 日）"
    assert summary("[user] 好的", text) == text


def test_a_tool_results_offer_date_is_written_as_a_clerk_writes_it():
    """A search result's ISO date becomes month and day, in either language."""
    found = ('[tool] {"results": [{"name": "比特严选 S20 Pro 扫地机器人", '
             '"price": 2499, "offer": "新品立减 ¥200，截至 2026-07-15"}]}')
    assert summary(f"[user] 有什么新款\n{found}\n[assistant] 有的。") == (
        "- 商品：S20 Pro ¥2499（立减 ¥200，截至 7 月 15 日）")
    english = found.replace("比特严选 S20 Pro 扫地机器人", "BitMall S20 Pro Robot "
                            "Vacuum").replace("新品立减 ¥200，截至", "¥200 off until")
    assert summary(f"[user] anything new?\n{english}\n[assistant] Yes.") == (
        "- Products: S20 Pro ¥2499 (¥200 off until Jul 15)")
