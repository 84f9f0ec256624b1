"""The offline model's shortcuts give what the long way gives, byte for byte."""

import random
from itertools import chain

import pytest

from tinyagent.messages import ChatMessage
from tinyagent.offline.cache_rules import RULES
from tinyagent.offline.prompt_cache import PrefixCache
from tinyagent.offline.reading import read_message
from tinyagent.reply import cap_text
from tinyagent.tokens import count_message_tokens, encoding

CALL = {"id": "call_1", "type": "function",
        "function": {"name": "queryOrder", "arguments": '{"order_id": "61554"}'}}
MESSAGES = [
    {"role": "system", "content": "You are BitMall's assistant."},
    {"role": "user", "content": "我的订单 61554 到哪了？"},
    {"role": "assistant", "content": None, "tool_calls": [CALL]},
    {"role": "assistant", "content": "", "tool_calls": [
        {**CALL, "function": {"name": "queryOrder", "arguments": {"order_id": "1"}}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": '{"status": "shipped"}'},
    {"role": "user", "content": 0},
]
ODD = [{"role": "user", "content": 5}, {"role": "user", "content": ["a", "list"]},
       {"role": "assistant", "content": "", "tool_calls": [{"id": 5, "function": {
           "name": "queryOrder", "arguments": "{}"}}]},
       {"role": "assistant", "content": "", "tool_calls": "queryOrder"},
       {"role": "tool", "content": "no id"}, {"role": "robot", "content": "hi"}]


def test_a_message_read_once_is_the_message_parsing_gives():
    """read_message (cached) equals ChatMessage.from_dict, token count included."""
    for message in MESSAGES * 2:  # the second time from the cache
        parsed = ChatMessage.from_dict(message)
        assert read_message(message) == parsed
        counted = count_message_tokens(read_message(message))
        assert counted == count_message_tokens(parsed)


@pytest.mark.parametrize("message", ODD)
def test_an_odd_message_fails_as_parsing_fails(message):
    """A message that cannot be parsed raises from_dict's error, every time."""
    with pytest.raises(Exception) as parsing:
        ChatMessage.from_dict(message)
    for _ in range(2):
        with pytest.raises(type(parsing.value)) as reading:
            read_message(message)
        assert str(reading.value) == str(parsing.value)


def test_the_cache_matches_the_longest_prefix_of_any_earlier_prompt():
    """PrefixCache.matched is the longest token prefix shared with any kept prompt,
    however the tokens are split into blocks (checked against brute force)."""
    rng = random.Random(0)
    tokens = [-1, 0, 1, 255, 256, 65536, 100255]
    for _ in range(30):
        cache, seen = PrefixCache(RULES["openai"]), []
        base = [tuple(rng.choices(tokens, k=rng.randint(0, 300))) for _ in range(4)]
        for _ in range(15):
            blocks = base[:rng.randint(1, 4)] + [tuple(rng.choices(tokens, k=5))]
            if rng.random() < 0.3:  # the same tokens, split elsewhere
                flat = tuple(chain.from_iterable(blocks))
                cut = rng.randint(0, len(flat))
                blocks = [flat[:cut], flat[cut:]]
            flat = tuple(chain.from_iterable(blocks))
            shared = [next((i for i, (a, b) in enumerate(zip(flat, old, strict=False))
                            if a != b), min(len(flat), len(old))) for old in seen]
            assert cache.matched(blocks) == max(shared, default=0)
            cache.keep(blocks)
            seen.append(flat)


@pytest.mark.parametrize("text", ["ok", "x" * 40, "扫地机" * 5, "😀" * 3])
def test_a_reply_that_fits_is_whole_and_one_token_less_is_cut(text):
    """cap_text keeps a text of `limit` tokens whole and cuts it at one fewer, also
    when it is skipped counting (no more UTF-8 bytes than the limit)."""
    n = len(encoding().encode(text))
    assert cap_text(text, n) == (text, False)
    assert cap_text(text, len(text.encode())) == (text, False)
    assert cap_text(text, n - 1)[1] is True
