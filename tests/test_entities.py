"""The entity guard keeps what is grounded and drops what the agent only claimed.

Grounded: written by the customer, returned by a tool, held by the previous summary.
The agent marks the messages a turn leaves in memory with the ids its tools
returned; those marks survive the stores and never reach the model."""

import json

import pytest

from tinyagent import ChatMessage, HybridChatMemory, LlmClient, ReActAgent
from tinyagent.chat_model import ChatResponse
from tinyagent.course.billing import RecordingClient
from tinyagent.memory.entities import (
    drop_invented,
    find_numbers,
    grounded,
    returned,
)
from tinyagent.memory.summarizer import Summarizer
from tinyagent.storage import open_store
from tinyagent.tools import bitmall_tools

RESULT = ChatMessage.tool("c1", json.dumps({"order_id": "88231", "tracking_number":
                                            "SF1234567890"}))
ERROR = ChatMessage.tool("c2", json.dumps({"error": "order 89012 not found"}))
CLAIM = {"en": ("Where is my parcel?", "I checked: your order 89012 is on its way, "
                "call 1-800-325-7496 if it is late."),
         "zh": ("我的包裹到哪了？", "我查了一下：您的订单 89012 正在路上，晚到的话请打 "
                "1-800-325-7496。")}


def test_a_tool_error_grounds_nothing_a_result_grounds_its_ids():
    """An error result only repeats the id it was asked about: it grounds none."""
    assert returned([RESULT, ERROR]) == ("88231", "SF1234567890")
    assert find_numbers("call 138 0013 8000 on 2026-06-22") == ["138 0013 8000"]


def test_grounded_ids_are_the_customers_the_tools_and_the_summarys():
    """A marked answer grounds only its marks; the customer's words and an unmarked
    message ground every id they name, as before."""
    said = [ChatMessage.user("Is 55107 here yet?"),
            ChatMessage.assistant("55107 is delivered; so is 89012.",
                                  grounded_ids=("55107",)),
            ChatMessage.assistant("Hand-written history: order 61554.")]
    assert grounded("- Order 88231: delivered", said) == ["88231", "55107", "61554"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_id_only_the_agents_words_carry_is_dropped_not_kept(lang):
    """The offline summary of an answer that claims an order and a phone number no
    tool returned keeps neither, in either language; the same answer without marks
    (a hand-built history) keeps the id, as before."""
    question, claim = CLAIM[lang]
    summarizer = Summarizer(LlmClient(offline=True), lang=lang)
    marked = [ChatMessage.user(question), ChatMessage.assistant(claim, grounded_ids=())]
    summary = summarizer.summarize(None, marked)
    assert "89012" not in summary and "7496" not in summary
    unmarked = [ChatMessage.user(question), ChatMessage.assistant(claim)]
    assert "89012" in summarizer.summarize(None, unmarked)


def test_a_made_up_phone_number_is_dropped_with_its_line():
    """A line with a phone number that nothing grounded goes, like an invented id."""
    summary = "- Order 88231: delivered\n- Hotline: 1-800-325-7496"
    assert drop_invented(summary, ["88231"]) == "- Order 88231: delivered"


class Claimer:
    """A model that answers from thin air: no tool call, an order number made up.
    Summaries come from the offline model."""

    def __init__(self):
        self.offline = LlmClient(offline=True)

    def chat(self, messages, tools=None):
        if not tools:
            return self.offline.chat(messages)
        return ChatResponse("Your order 89012 was delivered yesterday.")


def test_the_agent_marks_what_its_tools_returned_and_the_summary_follows():
    """A turn with tools marks its answer with the ids they returned; a turn
    without marks its answer with none, so its made-up id never becomes a fact."""
    memory = HybridChatMemory(Claimer(), 2, 4)
    agent = ReActAgent(Claimer(), bitmall_tools(), memory=memory, verbose=False)
    agent.run("Where is my parcel?")
    assert memory.messages()[-1].grounded_ids == ()
    for question in ["How much is the S20 Pro?", "Any discounts?", "Thanks"]:
        agent.run(question)
    assert memory.compression_count >= 1 and "89012" not in memory.summary

    offline = LlmClient(offline=True)
    memory = HybridChatMemory(offline, 2, 4)
    agent = ReActAgent(offline, bitmall_tools(), memory=memory, verbose=False,
                       remember_tool_calls=True)
    agent.run("Where is my order 88231?")
    marks = {m.grounded_ids for m in memory.messages() if m.role.value != "user"}
    assert marks == {("88231", "SF1234567890")}


def test_the_marks_survive_a_store_and_never_reach_the_model(tmp_path):
    """A store keeps grounded_ids (to_record); the requests the model gets hold no
    such key (to_dict), and a record without it reads back as unknown (None)."""
    llm = RecordingClient()
    memory = HybridChatMemory(llm, 2, 4)
    agent = ReActAgent(llm, bitmall_tools(), memory=memory, verbose=False)
    for question in ["Where is my order 88231?", "I want a refund", "How long?"]:
        agent.run(question)
    sent = [m for body, _ in llm.runs[-1] for m in body["messages"]]
    assert sent and not any("grounded_ids" in m for m in sent)
    answer = ChatMessage.assistant("Order 88231.", grounded_ids=("88231",))
    assert "grounded_ids" not in answer.to_dict()
    with open_store(str(tmp_path / "s.db")) as store:
        store.create_session("alice", "hybrid")
        store.append("alice", [answer, ChatMessage.assistant("older")])
        back, older = store.messages("alice")
    assert back == answer and back.grounded_ids == ("88231",)
    assert older.grounded_ids is None
    with pytest.raises(ValueError, match="grounded_ids"):
        ChatMessage.from_dict({"role": "assistant", "content": "x",
                               "grounded_ids": "88231"})
