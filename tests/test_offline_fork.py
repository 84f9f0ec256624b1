"""The offline model reads a summary instruction at the end of a conversation."""

import json

import pytest

from tinyagent.memory.fence import summary_message
from tinyagent.memory.fork import ASK, MERGE
from tinyagent.offline.fork import asked_turns, summary_request
from tinyagent.offline.model import complete
from tinyagent.tools import bitmall_tools

TOOLS = bitmall_tools().schemas()
ORDER = json.dumps({"order_id": "55107", "product": "BitMall BandPro Fitness Band",
                    "price": 699, "status": "delivered", "carrier": "ZTO Express",
                    "tracking_number": "ZT3344556677"})
DIALOG = {
    "en": [{"role": "user", "content": "Where is my order 55107?"},
           {"role": "assistant", "content": "",
            "tool_calls": [{"id": "c1", "type": "function", "function": {
                "name": "queryOrder", "arguments": '{"order_id": "55107"}'}}]},
           {"role": "tool", "tool_call_id": "c1", "content": ORDER},
           {"role": "assistant", "content": "Order 55107 was delivered."},
           {"role": "user", "content": "Please only call me after 6 pm."},
           {"role": "assistant", "content": "Noted: after 6 pm."},
           {"role": "user", "content": "Is order 90417 on its way?"},
           {"role": "assistant", "content": "Order 90417 is in transit."}],
    "zh": [{"role": "user", "content": "帮我查一下订单 55107 的物流"},
           {"role": "assistant", "content": "订单 55107 已签收。"},
           {"role": "user", "content": "以后只能晚上 6 点以后给我打电话"},
           {"role": "assistant", "content": "好的，已记下。"},
           {"role": "user", "content": "订单 90417 到哪了？"},
           {"role": "assistant", "content": "订单 90417 正在运输中。"}],
}


def fork(lang, turns, merge=False, system="You are BitMall's clerk."):
    ask = ASK.say(lang).format(turns=turns, merge=MERGE.say(lang) if merge else "")
    return [{"role": "system", "content": system}, *DIALOG[lang],
            {"role": "user", "content": ask}]


def answer(messages, tools=TOOLS):
    reply = complete({"model": "bitmall-offline", "messages": messages,
                      "tools": tools})["choices"][0]
    return reply["message"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_instruction_at_the_end_gets_a_summary_of_the_turns_it_names(lang):
    """"The first 2 turns": the order of turn 1 and the customer's words of turn 2
    are summarized, the later order is not; no tool is called, tools offered or
    not."""
    message = answer(fork(lang, 2))
    assert "tool_calls" not in message
    summary = message["content"]
    assert summary.startswith("- ") and "55107" in summary and "6" in summary
    assert "90417" not in summary


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_merging_reads_the_fenced_summary_of_the_system_message(lang):
    """With the merge clause, the earlier summary in the fence is merged in; without
    it, that summary is left out (it stays in front as it was)."""
    system = "You are BitMall's clerk.\n\n" + summary_message(
        "- Refund RF20260701001: order 88231, ¥1999, pending", lang).content
    merged = answer(fork(lang, 1, True, system))["content"]
    apart = answer(fork(lang, 1, False, system))["content"]
    assert "RF20260701001" in merged and "RF20260701001" not in apart
    assert "55107" in merged and "55107" in apart


def test_the_fork_reads_as_the_summarizers_own_request():
    """The transcript has the summarizer's markers, one line a message, the tool
    call spelled out."""
    request = summary_request(fork("en", 1))
    text = request[1]["content"]
    assert text.startswith("Previous summary:\n(none)\n\nNew messages:\n")
    assert '[assistant] calls queryOrder({"order_id": "55107"})' in text
    assert "[user] Please only" not in text  # turn 2 is not asked for


@pytest.mark.parametrize("text, turns", [
    ("Please summarize the first 3 turns of this conversation.", 3),
    ("Summarise our conversation, please.", 0),
    ("请总结本次对话的前 5 轮。", 5),
    ("帮我总结一下我们的对话", 0),
    ("Where is my order 88231?", None),
    ("What was the summary of my refund?", None),
])
def test_which_turns_an_instruction_asks_for(text, turns):
    """A number of turns, 0 for the whole conversation, None for no instruction."""
    assert asked_turns([{"role": "user", "content": text}]) == turns


def test_an_instruction_that_is_not_last_is_only_history():
    """Only the last message can ask for a summary: once answered, the conversation
    goes on as usual."""
    messages = [*fork("en", 2), {"role": "assistant", "content": "- done"},
                {"role": "user", "content": "Where is my order 90417?"}]
    assert summary_request(messages) is None
    assert answer(messages).get("tool_calls")


def test_the_answer_is_a_pure_function_of_the_request():
    """The same fork twice: the same bytes."""
    body = {"model": "bitmall-offline", "messages": fork("zh", 2), "tools": TOOLS}
    assert complete(body) == complete(json.loads(json.dumps(body)))
