"""A failed summarizer call never ends the conversation; a bug of this package does.

The fallback covers whatever the model call or the reading of its reply raises (a
learner's own client, another SDK), warns once about what this package does not
know, and counts it; an exception raised by the memory's own code propagates."""

import warnings
from types import SimpleNamespace

import pytest
from fakes import FakeLlm

from tinyagent import ChatMessage, HybridChatMemory, SummaryChatMemory
from tinyagent.chat_model import ChatResponse, LlmError, Usage
from tinyagent.memory import summarizer as summarizer_module
from tinyagent.memory.entities import find_ids
from tinyagent.memory.summarizer import Summarizer
from tinyagent.production import IncrementalSummaryChatMemory
from tinyagent.production.compact import CompactChatMemory

SPAN = [ChatMessage.user("Where is my order 88231?"),
        ChatMessage.assistant("Order 88231 was delivered, tracking SF1234567890.")]
MEMORIES = {"summary": lambda llm: SummaryChatMemory(llm, 10, 4),
            "hybrid": lambda llm: HybridChatMemory(llm, 4, 8),
            "structured": lambda llm: IncrementalSummaryChatMemory(llm, 2, 6),
            "compact": lambda llm: CompactChatMemory(llm, 300, 150)}


def thirty_messages() -> list[ChatMessage]:
    """15 turns, 30 messages, each naming an order number of its own."""
    ids = [str(10007 + 211 * k) for k in range(30)]
    return [ChatMessage.user(f"Where is my order {ids[k]}?") if k % 2 == 0 else
            ChatMessage.assistant(f"Order {ids[k]} is in transit.")
            for k in range(30)]


@pytest.mark.parametrize("name", list(MEMORIES))
@pytest.mark.parametrize("error", [RuntimeError("my provider is down"),
                                   ValueError("bad JSON from my SDK"),
                                   KeyError("choices")],
                         ids=["RuntimeError", "ValueError", "KeyError"])
def test_a_client_that_raises_keeps_all_ids_with_one_warning(error, name):
    """A client whose chat raises RuntimeError, ValueError or KeyError: every add
    still works, all 30 ids of 30 messages stay in memory, and one warning names
    the exception's type and message."""
    memory = MEMORIES[name](FakeLlm(error))
    said = thirty_messages()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for message in said:
            memory.add(message)
    held = "\n".join(m.content for m in memory.messages())
    assert set(find_ids("\n".join(m.content for m in said))) <= set(find_ids(held))
    assert memory.compression_count >= 2
    assert memory.stats()["fallbacks"] == memory.compression_count
    assert len(caught) == 1 and caught[0].category is RuntimeWarning
    assert type(error).__name__ in str(caught[0].message)
    assert str(error.args[0]) in str(caught[0].message)


def test_an_llm_error_falls_back_and_is_named_without_a_warning():
    """An LlmError already says what failed and what to check: it is counted and
    named in last_failure, with no warning."""
    summarizer = Summarizer(FakeLlm(LlmError("model call failed: HTTP 500")))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "88231" in summarizer.summarize(None, SPAN)
    assert summarizer.fallbacks == 1
    assert summarizer.last_failure == "LlmError: model call failed: HTTP 500"


def test_the_warning_masks_what_looks_like_a_key():
    """A client's error that echoes an API key does not put it in the warning."""
    summarizer = Summarizer(FakeLlm(RuntimeError("rejected key sk-abc123XYZ456")))
    with pytest.warns(RuntimeWarning) as caught:
        summarizer.summarize(None, SPAN)
    assert "sk-abc123XYZ456" not in str(caught[0].message)
    assert "abc123" not in summarizer.last_failure


@pytest.mark.parametrize("reply", [
    SimpleNamespace(tool_calls=[], usage=Usage(3, 4)),  # no content at all
    SimpleNamespace(text="- order 88231"),  # not a chat reply
], ids=["no-content", "other-shape"])
def test_a_reply_that_cannot_be_read_falls_back(reply):
    """Reading the reply is part of the call: a reply without content falls back."""
    class Odd(FakeLlm):
        def chat(self, messages, tools=None):
            return reply

    summarizer = Summarizer(Odd())
    with pytest.warns(RuntimeWarning, match="AttributeError"):
        summary = summarizer.summarize(None, SPAN)
    assert "88231" in summary and summarizer.fallbacks == 1


@pytest.mark.parametrize("usage", [None, SimpleNamespace(total_tokens=None),
                                   SimpleNamespace(total_tokens="12")])
def test_a_reply_without_usage_figures_is_still_a_reply(usage):
    """Usage is the provider's bookkeeping, not the summary: a reply without it
    (or with a figure that is no integer) is read, its tokens counted as 0."""
    class NoUsage(FakeLlm):
        def chat(self, messages, tools=None):
            return SimpleNamespace(content="- order 88231 delivered, SF1234567890",
                                   tool_calls=[], usage=usage)

    summarizer = Summarizer(NoUsage())
    summary = summarizer.summarize(None, SPAN)
    assert summary == "- order 88231 delivered, SF1234567890"
    assert (summarizer.fallbacks, summarizer.tokens, summarizer.calls) == (0, 0, 1)


def test_a_key_error_in_the_memorys_own_code_propagates(monkeypatch):
    """Only the model call and its reply fall back: a KeyError raised by the
    package's own code (here, writing the transcript) is a bug, and surfaces."""
    def broken(messages, lang=None):
        raise KeyError("speaker")

    monkeypatch.setattr(summarizer_module, "render", broken)
    memory = SummaryChatMemory(FakeLlm(), 4, 2)
    with pytest.raises(KeyError, match="speaker"):
        for message in thirty_messages():
            memory.add(message)


def test_a_key_error_in_a_summarizer_subclass_propagates_too():
    """A subclass's own request code raising is a bug in the memory, not a failed
    call: it propagates from add()."""
    class Broken(Summarizer):
        def request(self, previous, messages):
            return {}["request"]

    memory = HybridChatMemory(FakeLlm(), 2, 4)
    memory.summarizer = Broken(FakeLlm())
    with pytest.raises(KeyError):
        for message in thirty_messages():
            memory.add(message)


def test_the_fallbacks_are_counted_in_stats_and_calls_go_on():
    """After a failed call the next call is made again: a provider back up is used
    at once, and stats() tells both apart."""
    replies = iter([RuntimeError("down"), "- order 88231 delivered"])

    class Flaky(FakeLlm):
        def chat(self, messages, tools=None):
            reply = next(replies)
            if isinstance(reply, Exception):
                raise reply
            return ChatResponse(reply, usage=Usage(10, 2))

    summarizer = Summarizer(Flaky())
    with pytest.warns(RuntimeWarning):
        summarizer.summarize(None, SPAN)
    assert summarizer.summarize(None, SPAN) .startswith("- order 88231 delivered")
    assert (summarizer.calls, summarizer.fallbacks, summarizer.tokens) == (2, 1, 12)
