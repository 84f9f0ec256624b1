"""Rules of LlmClient on the real HTTP path: a server on 127.0.0.1 that misbehaves."""

import re
import time

import pytest
from fake_server import (
    Reply,
    call,
    completion,
    error,
    fake_server_fixture,  # noqa: F401  (the fixture)
)

from tinyagent import InMemoryChatMemory, ReActAgent, bitmall_tools
from tinyagent.llm import LlmClient, LlmError
from tinyagent.messages import ChatMessage

KEY = "sk-test0123456789abcdefSECRET"
HELLO = [ChatMessage.user("Where is my order 88231?")]
NOT_JSON = "not valid Chat Completions JSON"


def client(server, **options) -> LlmClient:
    """A real-model client pointed at the fake server; no retries unless asked."""
    options = {"max_retries": 0, "timeout": 5.0, **options}
    return LlmClient(api_key=KEY, base_url=options.pop("url", server.url),
                     model="fake", **options)


def answer(server, *replies, **options):
    """The ChatResponse (or LlmError) of one chat() against `replies`."""
    server.script = list(replies)
    return client(server, **options).chat(HELLO)


@pytest.mark.parametrize("status", [400, 401, 404, 500, 503])
def test_error_codes_become_llm_error_with_the_status(fake_server, status):
    """Every HTTP error status becomes one LlmError naming it, key never shown."""
    with pytest.raises(LlmError, match=f"HTTP {status}") as info:
        answer(fake_server, error(status, f"bad key {KEY}"))
    assert KEY not in str(info.value)


def test_retry_after_is_honoured_then_the_call_succeeds(fake_server):
    """A 429 is retried (by the SDK) after the wait its Retry-After asks for."""
    llm = client(fake_server, max_retries=1)
    fake_server.script = [Reply(error(429).body, 429, {"retry-after-ms": "700"}),
                          Reply(completion("fine"))]
    started = time.monotonic()
    response = llm.chat(HELLO)
    assert response.content == "fine" and len(fake_server.requests) == 2
    # The SDK's own first back-off is at most 0.5 s: waiting longer is the header's.
    assert time.monotonic() - started >= 0.65


def test_a_rate_limit_says_how_long_the_server_asks_to_wait(fake_server):
    """When retries are spent, the 429's Retry-After is in the message."""
    with pytest.raises(LlmError, match="asks to wait 30 s"):
        answer(fake_server, Reply(error(429).body, 429, {"retry-after": "30"}))


@pytest.mark.parametrize("body", [b'{"choices": [', b"<html>bad gateway</html>",
                                  b"\xff\xfe\x00", b"{}", b'{"choices": []}',
                                  b"[1, 2]", b'{"choices": [{"message": null}]}'])
def test_malformed_bodies_are_llm_errors(fake_server, body):
    """A 200 whose body is not a Chat Completions reply is an LlmError saying so."""
    with pytest.raises(LlmError, match=NOT_JSON):
        answer(fake_server, Reply(body))


@pytest.mark.parametrize("tool_calls,cause", [
    ([call(call_id=None)], "tool_calls\\[0\\] has no id"),
    ([call(call_id="")], "tool_calls\\[0\\] has no id"),
    ([{"id": "call_1", "type": "function", "function": None}], "no 'function'"),
    ([call(name=None)], "no function name"),
    ([call(), call()], "repeats the id"),
    ({"id": "call_1"}, "must be a list"),
    (["queryOrder"], "is not an object"),
])
def test_bad_tool_calls_are_llm_errors_naming_the_cause(fake_server, tool_calls,
                                                       cause):
    """A tool call the agent could not answer (no id, no function) is refused with
    an LlmError that says which call and what is missing."""
    with pytest.raises(LlmError, match=cause):
        answer(fake_server, Reply(completion(None, tool_calls, "tool_calls")))


@pytest.mark.parametrize("content,text", [
    ([{"type": "text", "text": "Your order "}, {"type": "text", "text": "shipped."}],
     "Your order shipped."),
    ([{"type": "image_url", "image_url": {"url": "x"}}, {"type": "text", "text": "a"}],
     "a"),
    (None, ""), ("plain", "plain"),
])
def test_content_as_a_list_of_parts_is_joined(fake_server, content, text):
    """Content sent as a list of parts (as some providers do) reads as its text."""
    assert answer(fake_server, Reply(completion(content))).content == text


@pytest.mark.parametrize("content", [42, {"text": "x"}, [{"type": "text"}]])
def test_content_of_another_shape_is_an_llm_error(fake_server, content):
    """Content that is neither text nor text parts is an LlmError naming it."""
    with pytest.raises(LlmError, match="content must be text"):
        answer(fake_server, Reply(completion(content)))


@pytest.mark.parametrize("arguments,parsed", [
    ('{"order_id": "88231"}', {"order_id": "88231"}),
    ('{"order_id": "882', {"__raw__": '{"order_id": "882'}),
    ([1, 2], {"__raw__": "[1, 2]"}), (None, {}),
])
def test_malformed_arguments_are_kept_for_the_tool_to_report(fake_server, arguments,
                                                              parsed):
    """Bad arguments do not fail the call: the tool tells the model what was wrong."""
    response = answer(fake_server, Reply(completion(None, [call(arguments=arguments)],
                                                    "tool_calls")))
    assert response.tool_calls[0].arguments == parsed


def test_a_local_error_is_not_reported_as_a_bad_reply(fake_server):
    """A bug on our side (a tool schema that is not JSON) raises as itself: only
    what the server sent is ever called a bad reply."""
    with pytest.raises(TypeError):
        client(fake_server).chat(HELLO, tools=[{"type": "function", "x": object()}])


def test_tool_choice_and_max_tokens_are_sent(fake_server):
    """With tools the request says tool_choice "auto" (some servers default to
    "none"); every request caps the reply with max_tokens; no tools, no choice."""
    llm = client(fake_server, max_reply_tokens=77)
    llm.chat(HELLO, tools=bitmall_tools().schemas())
    llm.chat(HELLO)
    with_tools, without = fake_server.requests
    assert with_tools["tool_choice"] == "auto" and with_tools["max_tokens"] == 77
    assert "tool_choice" not in without and without["max_tokens"] == 77


def test_finish_reason_is_read(fake_server):
    """The reply's finish_reason reaches ChatResponse ("length" when cut)."""
    response = answer(fake_server, Reply(completion("half an ans", None, "length")))
    assert response.finish_reason == "length"


def test_a_huge_reply_is_capped_and_marked_cut(fake_server):
    """A 5 MB reply from a server that ignores max_tokens is cut to about twice
    the cap, and marked "length"."""
    response = answer(fake_server, Reply(completion("word " * 1_000_000)),
                      max_reply_tokens=100)
    assert response.finish_reason == "length"
    assert 0 < len(response.content) < 2000


def test_after_a_huge_reply_an_in_memory_session_keeps_working(fake_server):
    """The cut reply is stored marked as cut, and the next turn is answered, not
    refused for the token budget."""
    fake_server.script = [Reply(completion("blah " * 1_000_000)),
                          Reply(completion("Refund RF1 applied."))]
    memory = InMemoryChatMemory()
    agent = ReActAgent(client(fake_server), bitmall_tools(), memory=memory,
                       verbose=False)
    first = agent.run("Where is my order 88231?")
    assert agent.last_trace.stop_reason == "cut_off" and "[cut off" in first
    assert agent.run("I want a refund") == "Refund RF1 applied."
    assert memory.messages()[1].content == first


def test_a_slow_server_times_out_promptly_and_honestly(fake_server):
    """A reply slower than the timeout ends in an LlmError that gives the timeout,
    the attempts and the total wait, all of them true; nobody waits for the reply."""
    started = time.monotonic()
    with pytest.raises(LlmError, match=r"timed out after 0.2s .*2 attempts") as info:
        answer(fake_server, Reply(completion(), delay=10), timeout=0.2, max_retries=1)
    elapsed = time.monotonic() - started
    reported = float(re.search(r"([\d.]+)s in all", str(info.value))[1])
    assert elapsed < 5 and len(fake_server.requests) == 2
    assert abs(reported - elapsed) < 0.5
    assert client(fake_server, timeout=0.2, max_retries=1).max_wait >= 0.4


def test_a_key_inside_the_url_is_masked_everywhere(fake_server):
    """http://user:key@host: the key is in no error, repr or describe()."""
    url = fake_server.url.replace("http://", f"http://user:{KEY}@")
    llm = client(fake_server, url=url)
    fake_server.script = [error(500, f"no such route {url}")]
    with pytest.raises(LlmError) as info:
        llm.chat(HELLO)
    down = client(fake_server, url=f"http://user:{KEY}@127.0.0.1:9/v1")
    with pytest.raises(LlmError) as refused:
        down.chat(HELLO)
    for text in [str(info.value), str(refused.value), repr(llm), llm.describe()]:
        assert KEY not in text and "***@127.0.0.1" in text
