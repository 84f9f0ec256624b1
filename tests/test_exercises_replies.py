"""The checkers' model (course/exercises/_replies.py): the offline model, asked
directly and remembered, answers exactly as LlmClient does."""

import pytest

from tinyagent import ChatMessage, LlmClient, LlmError, ToolCall
from tinyagent.course.exercises._replies import Remembered
from tinyagent.memory.summarizer import PROMPT, PROMPT_ZH
from tinyagent.tools import bitmall_tools

TOOLS = bitmall_tools().schemas()
CALL = ToolCall("call_1", "queryOrder", {"order_id": "88231"})
REQUESTS = {  # (messages, tools): a question with and without tools, a tool's
    # result, two summaries
    "asks": ([ChatMessage.user("Where is my order 88231?")], TOOLS),
    "asks without tools": ([ChatMessage.user("Where is my order 88231?")], None),
    "answers": ([ChatMessage.user("Where is my order 88231?"),
                 ChatMessage.assistant("", (CALL,)),
                 ChatMessage.tool("call_1", '{"order_id": "88231", "status": '
                                  '"delivered", "carrier": "SF Express"}')], TOOLS),
    "summarizes": ([ChatMessage.system(PROMPT),
                    ChatMessage.user("User: refund order 88231\nAssistant: refund "
                                     "RF20260701001 for order 88231")], None),
    "summarizes in Chinese": ([ChatMessage.system(PROMPT_ZH),
                               ChatMessage.user("用户：订单 88231 退款\n"
                                                "助手：订单 88231 的退款编号 "
                                                "RF20260701001")], None),
}


def _seen(reply):
    return (reply.content, reply.tool_calls, reply.usage.prompt_tokens,
            reply.usage.completion_tokens, reply.finish_reason)


@pytest.mark.parametrize("request_name", sorted(REQUESTS))
def test_a_reply_is_the_clients_asked_once_or_twice(request_name):
    """The reply, its tool calls, its token counts and its finish reason are the ones
    LlmClient(offline=True) gives, the first time and from memory."""
    messages, tools = REQUESTS[request_name]
    expected = _seen(LlmClient(offline=True).chat(messages, tools))
    assert _seen(Remembered().chat(messages, tools)) == expected
    assert _seen(Remembered().chat(messages, tools)) == expected


def test_changing_a_reply_does_not_change_the_next():
    """Code that edits the reply it got (appends a tool call) gets the model's reply
    again next time: the remembered one is not handed out."""
    messages, tools = REQUESTS["asks"]
    first = Remembered().chat(messages, tools)
    calls = list(first.tool_calls)
    first.tool_calls.append(CALL)
    assert Remembered().chat(messages, tools).tool_calls == calls


def test_a_refused_request_raises_the_clients_error_each_time():
    """A tool result without its call is refused with LlmClient's own LlmError (the
    report shows it as the learner's own code would), every time it is sent."""
    messages = REQUESTS["answers"][0][2:]
    with pytest.raises(LlmError) as client:
        LlmClient(offline=True).chat(messages, TOOLS)
    for _ in range(2):
        with pytest.raises(LlmError) as remembered:
            Remembered().chat(messages, TOOLS)
        assert str(remembered.value) == str(client.value)


def test_usage_total_counts_every_reply_and_the_rest_is_the_clients():
    """usage_total adds up every reply handed out, remembered or not; settings and
    repr are the client's."""
    llm = Remembered()
    messages, tools = REQUESTS["asks"]
    once = llm.chat(messages, tools).usage
    llm.chat(messages, tools)
    assert llm.usage_total == once + once
    assert llm.max_reply_tokens == LlmClient(offline=True).max_reply_tokens
    assert repr(llm) == repr(LlmClient(offline=True))
