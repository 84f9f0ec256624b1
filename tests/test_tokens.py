"""Rules of tinyagent.tokens: offline tiktoken counts, cached per message."""

import pytest

from tinyagent import tokens
from tinyagent.messages import ChatMessage, ToolCall


def test_counts_text_with_cl100k():
    """count_tokens gives cl100k counts (known values), offline."""
    assert tokens.count_tokens("hello world") == 2
    assert tokens.count_tokens("") == 0
    assert tokens.encoding().name.startswith("cl100k_base")


def test_chinese_costs_more_tokens_per_character():
    """CJK text costs more tokens per character than English (notebook 06's point)."""
    zh = "帮我查一下订单 88231 的物流到哪了"
    en = "Where is my order 88231?"
    assert tokens.count_tokens(zh) / len(zh) > tokens.count_tokens(en) / len(en)


def test_message_count_includes_framing_and_tool_calls():
    """A message costs framing + role + content, plus tool-call names and arguments."""
    plain = ChatMessage.assistant("ok")
    expected = tokens.TOKENS_PER_MESSAGE + tokens.count_tokens("assistant") + 1
    assert tokens.count_message_tokens(plain) == expected
    call = ToolCall("c1", "queryOrder", {"order_id": "88231"})
    with_call = ChatMessage.assistant("ok", tool_calls=[call])
    assert tokens.count_message_tokens(with_call) > expected


def test_a_message_is_counted_once(monkeypatch):
    """The second count of the same message does not tokenize again."""
    message = ChatMessage.user("Where is my order 88231?")
    first = tokens.count_message_tokens(message)
    monkeypatch.setattr(tokens, "count_tokens", lambda text: pytest.fail("recounted"))
    assert tokens.count_message_tokens(message) == first


def test_messages_total_adds_reply_priming():
    """A request's prompt tokens = sum of its messages + the reply priming."""
    msgs = [ChatMessage.system("s"), ChatMessage.user("u")]
    assert tokens.count_messages_tokens(msgs) == sum(
        tokens.count_message_tokens(m) for m in msgs) + tokens.TOKENS_PER_REPLY
