"""What the customer states is found by the form of the sentence, kept in the
summary's voice, replaced only by a statement about the same thing; and a recall
test that can tell a useless summarizer from the ledger."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phrasings.play import LLM, play

from tinyagent import ChatMessage, HybridChatMemory, LlmClient, ReActAgent
from tinyagent.course.baselines import LABEL, useless_strategy
from tinyagent.course.catalogue import make_strategies
from tinyagent.course.evaluation import evaluate, planted_dialog
from tinyagent.offline import complete
from tinyagent.offline.forms import refund_reason, statements
from tinyagent.offline.statements import asked_topic
from tinyagent.offline.voice import MAX_TOKENS
from tinyagent.tokens import count_tokens
from tinyagent.tools import bitmall_tools

# (what the customer says, the kind, a word the kept text must hold): every form
# of statement, in both languages; none of them a course dialog's line.
FORMS = [
    ("I'm only home in the evening, after 7 pm.", "delivery", "after 7 pm"),
    ("If I buy another pair, I can spend 500 yuan at most.", "budget", "500"),
    ("Reach me by email, please don't call my phone.", "contact", "email"),
    ("Never ring the doorbell, the baby sleeps.", "delivery", "doorbell"),
    ("I'd like to return 90417 and get my money back: the left earbud cuts out "
     "every few minutes.", "reason", "cuts out"),
    ("I'm returning it because the lid is cracked.", "reason", "lid is cracked"),
    ("I'm taking the blue band back since the clasp bends.", "reason", "clasp bends"),
    ("Please deliver after 6 because I work late.", "delivery", "after 6"),
    ("只能晚上七点以后送。", "delivery", "七点以后"),
    ("要是再买一副，我最多花 500 元。", "budget", "500"),
    ("请用邮件联系我，别给我打电话。", "contact", "邮件"),
    ("90417 我要退款：左耳耳机每隔几分钟就断一次。", "reason", "断一次"),
    ("我要退货，因为屏幕有一道划痕。", "reason", "划痕"),
    ("收到了，但是它不回充，老是找不到充电座，我想退款。", "reason", "找不到充电座"),
    ("我不想要了，帮我取消并退款吧。", "reason", "不想要了"),
    ("We're moving to Chengdu in August.", "note", "Chengdu"),
    ("我女儿下个月过生日。", "note", "生日"),
]
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I'd|I've|me|my|we|our)\b|我")


@pytest.mark.parametrize("text, kind, key", FORMS)
def test_a_statement_is_found_by_its_form(text, kind, key):
    """Each form (first person, condition, request, prohibition, a reason after a
    colon, "because", 因为 or a comma) is found, under its kind, keeping the clause
    that holds the fact, without the first person."""
    said = statements(text)
    assert [s.topic for s in said] == [kind], said
    assert key in said[0].text and not FIRST_PERSON.search(said[0].text)


def test_the_reason_keeps_the_clauses_that_say_what_is_wrong():
    """Not the acknowledgement, not the request: "但是它" and "我想退款" go."""
    text = statements("收到了，但是它不回充，老是找不到充电座，我想退款。")[0].text
    assert "不回充" in text and "找不到充电座" in text
    assert "但是" not in text and "退款" not in text and "收到" not in text


@pytest.mark.parametrize("text", ["I'd like to buy the S10 Lite.", "S20 Pro 多少钱",
                                  "What time did I say to deliver?",
                                  "我之前说几点送货来着？",
                                  "I want to know the delivery status of 88231",
                                  "Thanks, that's all.", "好的，谢谢"])
def test_requests_the_clerk_acts_on_and_questions_are_no_statements(text):
    """A purchase, a question, asking a fact back, a lookup, a pleasantry: none."""
    assert statements(text) == []
    assert asked_topic("Why did I want the refund?") == "reason"
    assert asked_topic("我的预算是多少来着？") == "budget"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(
    ["I", "my", "please", "deliver", "after", "8 pm", "the", "parcel", "because",
     "it", "won't", "charge", "email", "me", "budget", "500", "yuan", ",", ".",
     "我", "晚上", "送货", "因为", "坏了", "，", "邮件", "联系", "最多", "元", "的"]),
    min_size=1, max_size=40))
def test_a_kept_statement_fits_its_budget_in_the_summarys_voice(words):
    """Whatever is said, a kept statement is at most MAX_TOKENS tokens (numbers it
    cut kept in brackets) and never starts with the first person."""
    for said in statements(" ".join(words)):
        body = re.sub(r" \([^()]*\)$|（[^（）]*）$", "", said.text)
        assert count_tokens(body) <= MAX_TOKENS
        assert not re.match(r"(?:I|I'm|my|me|我)\b", said.text)


def test_two_budgets_for_two_purchases_both_stay():
    """A budget for another pair is not replaced by one for the next vacuum: both
    are in the summary 30 turns later, and both are said back when asked."""
    summary = play(HybridChatMemory(LLM, 4, 8), [
        ("budget", "If I buy another pair, I can spend 500 yuan at most."),
        ("budget", "My budget for the next one is under 1500 yuan.")], "en")
    assert "500 yuan" in summary and "1500 yuan" in summary
    request = {"messages": [{"role": "system", "content": f"[Conversation summary]\n"
                             f"{summary}"},
                            {"role": "user", "content": "What was my budget again?"}]}
    answer = complete(request)["choices"][0]["message"]["content"]
    assert "500 yuan" in answer and "1500 yuan" in answer


@pytest.mark.parametrize("lang, first, later, gone, kept", [
    ("en", "Please only deliver after 6 pm.", "Actually, mornings are fine.",
     "6 pm", "mornings"),
    ("zh", "请晚上6点以后再送货。", "其实上午送也可以。", "6点", "上午")])
def test_a_later_statement_about_the_same_thing_replaces_it_never_twice(
        lang, first, later, gone, kept):
    """Said again, a rule is one line; said otherwise, the newer words replace it."""
    memory = HybridChatMemory(LLM, 4, 8)
    play(memory, [("delivery", first), ("delivery", first)], lang, turns=6)
    assert memory.summary.count(gone) == 1
    summary = play(memory, [("delivery", later)], lang, turns=6)
    assert kept in summary and gone not in summary


def test_where_and_when_to_deliver_are_two_things():
    """A place to leave the parcel does not replace a time to deliver it."""
    summary = play(HybridChatMemory(LLM, 4, 8), [
        ("delivery", "Deliver after 6 pm, please."),
        ("delivery", "Leave it with the concierge.")], "en")
    assert "6 pm" in summary and "concierge" in summary


def test_two_reasons_for_one_order_add_up():
    """What is wrong adds up: a second reason for the same order joins the first."""
    summary = play(HybridChatMemory(LLM, 4, 8), [
        ("reason", "I want to return 90417: the left earbud cuts out."),
        ("reason", "Also for 90417: the case won't charge.")], "en")
    line = next(line for line in summary.splitlines() if "cuts out" in line)
    assert "won't charge" in line and "90417" in line


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_refund_reason_is_short_and_the_summary_says_the_same(lang):
    """The clerk passes applyRefund the reason as the ledger keeps it, not the
    whole message; the refund's line in the summary gives the same words."""
    ask = {"en": ["Where is my order 88231?",
                  "I want a refund, the vacuum won't go back to its dock anymore."],
           "zh": ["帮我查一下订单 88231 的物流到哪了",
                  "那我要退款呢，这个扫地机不回充了，一直在原地打转。"]}[lang]
    llm = LlmClient(offline=True)
    memory = HybridChatMemory(llm, 2, 4, lang=lang)
    agent = ReActAgent(llm, bitmall_tools(lang=lang), memory=memory, verbose=False)
    agent.run(ask[0])
    agent.run(ask[1])
    reason = agent.last_trace.tool_calls[0].arguments["reason"]
    assert reason == refund_reason(ask[1]) and 0 < len(reason) < len(ask[1])
    assert not re.search(r"refund|退款|\bI\b|我", reason)
    agent.run("Thanks" if lang == "en" else "谢谢")
    assert reason in memory.summary


def test_unrecognised_statements_are_kept_as_a_short_note():
    """A statement no kind fits leaves a short note, not nothing."""
    summary = play(HybridChatMemory(LLM, 4, 8), [
        ("note", "We are moving house next week to a new flat in Suzhou.")], "en")
    assert "moving house next week" in summary and "Suzhou" in summary


def test_eviction_keeps_the_customers_words_over_resolved_facts():
    """Under notebook 08's ladder, a delivered order goes before the delivery rule."""
    from tinyagent.memory.entities import find_ids
    from tinyagent.production.eviction import fit
    summary = ("- Order 88231: S10 Pro, delivered, SF Express SF1234567890\n"
               "- Delivery: only deliver after 6 pm\n"
               "- Products: AirX ¥399; S20 Pro ¥2499")
    fitted = fit(summary, 30, find_ids)
    assert "after 6 pm" in fitted.text and "Order 88231" not in fitted.text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_useless_summarizer_recalls_ids_but_not_facts(lang):
    """The entity guard gives the useless summarizer every id; only the customer's
    own words show that it kept nothing, where the ledger kept them all."""
    llm = LlmClient(offline=True)
    strategies = {**make_strategies(llm, ["hybrid"]), **useless_strategy()}
    result = evaluate(llm, planted_dialog(20, seed=2, lang=lang), strategies)
    hybrid, useless = result["hybrid 4/8"], result[LABEL]
    assert sum(useless.recalled) == sum(hybrid.recalled) == 3
    assert useless.fact_recall < hybrid.fact_recall == 1
    assert useless.fact_recall <= 0.25


def test_a_promise_is_the_agents_words():
    """The agent's "we'll call you back" is a promise; the customer's is not."""
    said = statements("Our team will call you back within 24 hours.", "assistant")
    assert [s.topic for s in said] == ["promise"] and "24 hours" in said[0].text
    for text in ["Our returns desk partner will phone you on Monday.",
                 "I'll look at the logs and then reply to you tonight.",
                 "快递师傅明天会上门取件。"]:
        assert [s.topic for s in statements(text, "assistant")] == ["promise"], text
    assert statements("The refund will reach your card in 1-3 days.", "assistant") == []
    assert ChatMessage.user("x").role.value == "user"
