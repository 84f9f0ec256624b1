"""What the customer states survives compression: every kind, both languages, every
summary memory; and a recall test that can tell a useless summarizer from the ledger."""

import pytest

from tinyagent import ChatMessage, HybridChatMemory, LlmClient, SummaryChatMemory
from tinyagent.course.baselines import LABEL, useless_strategy
from tinyagent.course.catalogue import make_strategies
from tinyagent.course.evaluation import evaluate, planted_dialog
from tinyagent.offline import complete
from tinyagent.offline.statements import asked_topic, shorten, statements
from tinyagent.production import IncrementalSummaryMemory
from tinyagent.reply import ChatResponse


class Offline:
    """The offline model called directly, without the SDK: the same summaries,
    quicker (the memories below make ~300 summarizer calls)."""

    def chat(self, messages, tools=None):
        reply = complete({"messages": [m.to_dict() for m in messages]})
        return ChatResponse(reply["choices"][0]["message"]["content"])


LLM = Offline()
# (who says it, the words, a key word the summary must still hold): three phrasings
# a kind, none of them the planted dialog's, so the rules are the cues, not the lines.
SAID = {"en": [
    [("user", "Please leave the parcel with the concierge, I'm never home before 8 "
      "pm.", "concierge"), ("user", "Weekend deliveries only, please.", "Weekend"),
     ("user", "Could you ship it so it arrives on Saturday morning?", "Saturday")],
    [("user", "Text me on my mobile, I never read email.", "Text me"),
     ("user", "WeChat is the best way to reach me.", "WeChat"),
     ("user", "Don't phone me, just send an email.", "email")],
    [("user", "I can only afford about 1200 yuan for this.", "1200"),
     ("user", "Anything over ¥2500 is too much for me.", "2500"),
     ("user", "Keep it below 3000 yuan, please.", "3000")],
    [("user", "The case won't charge any more.", "charge"),
     ("user", "It arrived with a cracked lid.", "cracked"),
     ("user", "Error code F3 keeps flashing on the display.", "F3")],
    [("user", "I prefer BitMall's own brand.", "BitMall"),
     ("user", "No mop attachments, please.", "mop"),
     ("user", "I'd rather have something quiet.", "quiet")],
    [("assistant", "I'll call you back tomorrow before noon.", "call you back"),
     ("assistant", "We will email you the inspection report within 2 days.",
      "inspection report"),
     ("assistant", "Our team will follow up by Friday.", "Friday")]],
    "zh": [
    [("user", "周末再送过来吧，工作日家里没人。", "周末"),
     ("user", "快递放门口就行，我下午三点后在家。", "门口"),
     ("user", "请工作日上午送到公司。", "上午")],
    [("user", "有事发短信给我就行，电话接不到。", "短信"),
     ("user", "加我微信沟通吧。", "微信"), ("user", "别打电话，发邮件给我。", "邮件")],
    [("user", "预算大概一千五左右。", "一千五"),
     ("user", "价格最好别超过2500元。", "2500"),
     ("user", "我最多只能出1800。", "1800")],
    [("user", "耳机左边没声音了。", "没声音"), ("user", "手环屏幕碎了。", "碎"),
     ("user", "扫地机一直报E5错误。", "E5")],
    [("user", "我比较喜欢白色的。", "白色"), ("user", "不要带拖地功能的。", "拖地"),
     ("user", "只买比特严选自营的。", "自营")],
    [("assistant", "我们会在24小时内给您回电。", "回电"),
     ("assistant", "售后专员明天会联系您。", "明天"),
     ("assistant", "我稍后把检测报告发送到您的邮箱。", "检测报告")]]}
FILLER = {"en": [("How much is the S20 Pro?", "The BitMall S20 Pro Robot Vacuum costs "
                  "¥2499 (launch offer: ¥200 off until 2026-07-15)."),
                 ("Who pays the return shipping?", "For returns that are not quality "
                  "problems, the buyer pays the return shipping, ¥10–15."),
                 ("What's the price of the AirX?", "The BitMall AirX Earbuds cost "
                  "¥399.")],
          "zh": [("S20 Pro 多少钱？", "比特严选 S20 Pro 扫地机器人 售价 ¥2499"
                  "（新品优惠：立减 ¥200，截至 2026-07-15）。"),
                 ("退货运费谁出？", "非质量问题的退货，运费由买家承担，¥10–15。"),
                 ("AirX 多少钱？", "比特严选 AirX 无线耳机 售价 ¥399。")]}
MEMORIES = {"summary": lambda: SummaryChatMemory(LLM, 10, 4),
            "hybrid": lambda: HybridChatMemory(LLM, 4, 8),
            "structured": lambda: IncrementalSummaryMemory(LLM, keep_recent_turns=2,
                                                           batch_turns=6)}


def play(memory, said, lang, turns=30):
    """Each statement as a turn (a promise answers a request), then `turns` fillers."""
    ask = {"en": "Can someone get back to me about it?", "zh": "能有人回复我一下吗？"}
    for role, text, _ in said:
        user, answer = (text, "Noted.") if role == "user" else (ask[lang], text)
        memory.add(ChatMessage.user(user))
        memory.add(ChatMessage.assistant(answer))
    for n in range(turns):
        question, answer = FILLER[lang][n % len(FILLER[lang])]
        memory.add(ChatMessage.user(question))
        memory.add(ChatMessage.assistant(answer))
    return memory.summary or ""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("variant", range(3))
@pytest.mark.parametrize("name", list(MEMORIES))
def test_every_kind_survives_thirty_turns(name, variant, lang):
    """A delivery rule, a contact channel, a budget, a reason, a preference and a
    promise, each in another phrasing, are all in the summary 30 turns later."""
    said = [kind[variant] for kind in SAID[lang]]
    memory = MEMORIES[name]()
    summary = play(memory, said, lang)
    assert memory.compression_count >= 3
    for _, text, key in said:
        assert key in summary, (text, summary)


@pytest.mark.parametrize("lang, first, later, gone, kept", [
    ("en", "Please only deliver after 6 pm.", "Actually, mornings are fine.",
     "6 pm", "mornings"),
    ("zh", "请晚上6点以后再送货。", "其实上午送也可以。", "6点", "上午")])
def test_a_later_statement_replaces_the_earlier_one_never_twice(lang, first, later,
                                                                gone, kept):
    """Said again, a rule is one line; said otherwise, the newer words replace it."""
    memory = HybridChatMemory(LLM, 4, 8)
    play(memory, [("user", first, ""), ("user", first, "")], lang, turns=6)
    assert memory.summary.count(gone) == 1
    summary = play(memory, [("user", later, "")], lang, turns=6)
    assert kept in summary and gone not in summary


def test_unrecognised_statements_degrade_to_key_words():
    """A statement no cue knows leaves a short line with its key words."""
    summary = play(SummaryChatMemory(LLM, 10, 4),
                   [("user", "We are moving house next week to a new flat.", "")],
                   "en", turns=8)
    assert "moving house" in summary


def test_questions_and_asking_back_are_not_statements():
    """A question, or asking a fact back, never replaces what was said."""
    assert statements("When will you deliver the S20 Pro?") == []
    assert statements("What time did I say to deliver?") == []
    assert statements("我之前说几点送货来着？") == []
    assert asked_topic("Why did I want the refund?") == "reason"
    assert asked_topic("我的预算是多少来着？") == "budget"
    assert asked_topic("What time is it?") is None
    # "before" in a rule is not asking back: "之前" here is "before noon"
    assert [s.topic for s in statements("周六中午之前送到就行。")] == ["delivery"]
    assert statements("I want to know the delivery status of 88231") == []


def test_long_statements_are_shortened_keeping_numbers():
    """A long statement keeps the clauses that say it; a number it cut is kept."""
    text = shorten("Please leave the parcel with the concierge, I'm never home "
                   "before 8 pm.", "delivery")
    assert text.startswith("leave the parcel with the concierge") and "8 pm" in text
    assert len(text) < 60


def test_eviction_keeps_the_customers_words_over_resolved_facts():
    """Under notebook 07's ladder, a delivered order goes before the delivery rule."""
    from tinyagent.memory.summarizer import find_ids
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
