"""Rules of the agent's prompt tokens: the budget's names, what the trace records."""


import pytest

from tinyagent.agent import ReActAgent
from tinyagent.chat_model import ChatResponse, Usage
from tinyagent.messages import ToolCall
from tinyagent.tokens import count_messages_tokens
from tinyagent.tools import bitmall_tools


class UsageLlm:
    """A fake model answering each call with the next of `replies`, reporting
    `prompt_tokens` as its usage (None or 0: a provider that says nothing)."""

    def __init__(self, prompt_tokens, *replies):
        self.prompt_tokens, self.replies = prompt_tokens, list(replies)

    def chat(self, messages, tools=None):
        reply = self.replies.pop(0)
        return ChatResponse(reply.content, reply.tool_calls,
                            Usage(self.prompt_tokens, 7, cached_tokens=3))


def local_count(agent, text):
    """What the agent counts itself for the first request of `text`."""
    return (count_messages_tokens(agent.build_messages(text))
            + agent.tools.schema_tokens())


def test_the_trace_records_the_providers_prompt_tokens():
    """usage.prompt_tokens (the bill) goes into the trace, not the local estimate."""
    llm = UsageLlm(4321, ChatResponse("", [ToolCall("c1", "queryOrder",
                                                    {"order_id": "88231"})]),
                   ChatResponse("Shipped."))
    agent = ReActAgent(llm, bitmall_tools(), verbose=False)
    assert local_count(agent, "Where is 88231?") != 4321
    agent.run("Where is 88231?")
    assert agent.last_trace.prompt_tokens == [4321, 4321]
    assert agent.last_trace.cached_tokens == [3, 3]


@pytest.mark.parametrize("reported", [None, 0])
def test_without_usage_the_trace_records_the_local_count(reported):
    """A provider that reports no prompt tokens (None or 0): the local count."""
    agent = ReActAgent(UsageLlm(reported, ChatResponse("Hello!")), bitmall_tools(),
                       verbose=False)
    expected = local_count(agent, "hi")
    agent.run("hi")
    assert agent.last_trace.prompt_tokens == [expected] and expected > 0


def test_max_tokens_is_the_prompt_budget_by_one_name():
    """max_tokens= (the fourth positional argument too) is the prompt's budget, read
    back as `max_tokens`; no other name is taken for it."""
    named = ReActAgent(UsageLlm(0), bitmall_tools(), max_tokens=500, verbose=False)
    positional = ReActAgent(UsageLlm(0), bitmall_tools(), 10, 500)
    assert named.max_tokens == positional.max_tokens == 500
    assert not hasattr(named, "max_prompt_tokens")
    named.run("Where is my order 88231?")
    assert named.last_trace.stop_reason == "token_budget"


@pytest.mark.parametrize("arguments, error, words", [
    ({"max_tokens": 0}, ValueError, r"^max_tokens must be >= 1 .* got 0"),
    ({"max_tokens": True}, ValueError, r"^max_tokens must be an int .* got True"),
    ({"max_prompt_tokens": 900}, TypeError, "max_prompt_tokens"),
])
def test_a_wrong_budget_is_refused_naming_the_argument_given(arguments, error, words):
    """A budget below 1 or not a whole number, or a name the agent does not take:
    an error naming what was passed."""
    with pytest.raises(error, match=words):
        ReActAgent(UsageLlm(0), bitmall_tools(), **arguments)
