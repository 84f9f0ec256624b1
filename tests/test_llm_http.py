"""Rules of LlmClient on the real HTTP path: a server on 127.0.0.1 that misbehaves."""

import json
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
from tinyagent.chat_model import LlmError
from tinyagent.llm import LlmClient
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
    """A 429 is retried (by the SDK) after the short wait its Retry-After asks for."""
    llm = client(fake_server, max_retries=1)
    fake_server.script = [Reply(completion("warm")),  # the SDK's first call is slow
                          Reply(error(429).body, 429, {"retry-after-ms": "50"}),
                          Reply(completion("fine"))]
    llm.chat(HELLO)
    started = time.monotonic()
    response = llm.chat(HELLO)
    assert response.content == "fine" and len(fake_server.requests) == 3
    # The SDK's own first back-off is at least 0.375 s: a shorter wait is the header's.
    assert time.monotonic() - started < 0.35


def test_a_long_retry_after_does_not_break_the_promised_wait(fake_server):
    """Retry-After: 20 with one retry: the call ends within max_wait (1.5 s), and
    the message still says what the server asked for."""
    llm = client(fake_server, max_retries=1, timeout=0.5)
    fake_server.script = [Reply(error(429).body, 429, {"retry-after": "20"})]
    assert llm.client is not None  # the SDK imported before the timing
    started = time.monotonic()
    with pytest.raises(LlmError, match="asks to wait 20 s"):
        llm.chat(HELLO)
    assert time.monotonic() - started <= llm.max_wait == 1.5
    assert len(fake_server.requests) == 2


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
    with pytest.raises(LlmError, match=r"timed out after 0.1s .*2 attempts") as info:
        answer(fake_server, Reply(completion(), delay=10), timeout=0.1, max_retries=1)
    elapsed = time.monotonic() - started
    reported = float(re.search(r"([\d.]+)s in all", str(info.value))[1])
    assert elapsed < 5 and len(fake_server.requests) == 2
    assert abs(reported - elapsed) < 0.5
    assert client(fake_server, timeout=0.1, max_retries=1).max_wait >= 0.2


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


def test_a_slow_trickle_is_cut_at_the_timeout_of_the_attempt(fake_server):
    """Headers, then a byte every 0.1 s: the timeout (0.3 s) bounds the whole
    attempt, not each read, so the call ends within max_wait, as the banner says.
    One attempt: what a retry adds to the wait is the slow-server test's rule."""
    llm = client(fake_server, timeout=0.3, max_retries=0)
    fake_server.script = [Reply(completion("warm")),  # the SDK's first call is slow
                          Reply(completion("a slow answer"), trickle=0.1)]
    llm.chat(HELLO)
    started = time.monotonic()
    with pytest.raises(LlmError, match="timed out after 0.3s"):
        llm.chat(HELLO)
    assert time.monotonic() - started <= llm.max_wait + 0.25


def gzip_bomb(prefix: bytes, megabytes: int) -> bytes:
    """gzip of `prefix` then `megabytes` MB of "a", built without compressing 50 MB
    (0.03 s, not 0.3): after a full flush the compressor forgets what came before,
    so each MB of "a" compresses to the same block, written `megabytes` times."""
    import struct
    import zlib

    chunk = b"a" * 2**20
    deflate = zlib.compressobj(1, zlib.DEFLATED, -15)  # raw: the gzip frame is ours
    head = deflate.compress(prefix) + deflate.flush(zlib.Z_FULL_FLUSH)
    block = deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH)
    crc = zlib.crc32(prefix)
    for _ in range(megabytes):
        crc = zlib.crc32(chunk, crc)
    size = len(prefix) + megabytes * 2**20
    return (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + head + block * megabytes
            + deflate.flush() + struct.pack("<II", crc, size & 0xFFFFFFFF))


def test_a_gzip_bomb_is_refused_without_inflating_it(fake_server):
    """A small gzip body that inflates to 50 MB is refused past 2 MB, in one line
    that says the reply is too large; the call's memory peak stays under 10 MB."""
    import tracemalloc

    bomb = gzip_bomb(b'{"choices": [{"message": {"content": "', megabytes=50)
    assert len(bomb) < 2**20  # a bomb that failed to inflate past 2 MB fails below
    llm = client(fake_server)
    fake_server.script = [Reply(completion("warm")),  # the SDK's first call imports
                          Reply(bomb, headers={"content-encoding": "gzip"})]
    llm.chat(HELLO)
    tracemalloc.start()
    try:
        with pytest.raises(LlmError, match="larger than 2 MB") as info:
            llm.chat(HELLO)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "cannot reach" not in str(info.value) and "\n" not in str(info.value)
    assert peak < 10 * 2**20, f"{peak / 2**20:.0f} MB"


@pytest.mark.parametrize("reply, says", [
    (Reply(b"not gzip at all", headers={"content-encoding": "gzip"}),
     "body that cannot be read"),
    (Reply(completion(), cut="headers"), "broke the connection"),
    (Reply(completion(), cut="reset"), "broke the connection"),
])
def test_a_server_that_was_reached_is_not_called_unreachable(fake_server, reply,
                                                            says):
    """Gzip garbage, a close after the headers and a reset come from a server that
    was reached: the message says what it did, not "cannot reach"."""
    with pytest.raises(LlmError, match=says) as info:
        answer(fake_server, reply)
    assert "cannot reach" not in str(info.value)


def test_an_unreachable_server_is_still_called_unreachable():
    """Nothing listening on the port: "cannot reach", and TINYAGENT_API_URL."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = LlmClient(api_key=KEY, base_url=f"http://127.0.0.1:{port}/v1",
                    max_retries=0, timeout=2.0)
    with pytest.raises(LlmError, match="cannot reach .*TINYAGENT_API_URL"):
        llm.chat(HELLO)


def test_arguments_nested_1000_deep_are_a_tool_error_not_a_crash(fake_server):
    """Tool arguments nested 1,000 levels (as text or as an object) never raise
    RecursionError: the call comes back with its arguments marked unusable."""
    deep = "[" * 1000 + "]" * 1000
    as_object = {"order_id": json.loads("[" * 30 + "]" * 30)}  # deep, not fatal
    for arguments in (f'{{"order_id": {deep}}}', as_object):
        reply = answer(fake_server, Reply(completion(None, [call(arguments=arguments)],
                                                     "tool_calls")))
        assert list(reply.tool_calls[0].arguments) == ["__raw__"]
    with pytest.raises(LlmError, match="nests objects too deeply"):
        answer(fake_server, Reply(b'{"choices": ' + deep.encode() + b"}"))


def test_a_reply_cut_inside_an_emoji_can_be_printed(fake_server):
    """A lone surrogate (a reply cut inside an emoji) becomes U+FFFD: the content
    encodes as UTF-8, so printing, storing and sending it again work."""
    body = b'{"choices": [{"message": {"role": "assistant", "content": "ok \\ud83d"}}]}'
    reply = answer(fake_server, Reply(body))
    assert reply.content == "ok \ufffd"
    reply.content.encode("utf-8")


def test_five_megabyte_arguments_are_not_kept_or_printed(fake_server, capsys):
    """5 MB of tool arguments: the call keeps a short note, and the verbose trace
    prints a few hundred characters, not megabytes."""
    huge = '{"order_id": "' + "8" * 5_000_000 + '"}'
    fake_server.script = [Reply(completion(None, [call(arguments=huge)], "tool_calls")),
                          Reply(completion("done"))]
    agent = ReActAgent(client(fake_server), bitmall_tools(), verbose=True)
    assert agent.run("Where is my order 88231?") == "done"
    assert len(capsys.readouterr().out) < 5_000


@pytest.mark.parametrize("key", ["\u201csk-abc123\u201d", "sk-abc\u00a0123"])
def test_a_key_with_typographic_quotes_or_a_nbsp_is_named_not_shown(key):
    """A key pasted with typographic quotes or a non-breaking space: ValueError
    naming TINYAGENT_API_KEY and the character, without the key."""
    with pytest.raises(ValueError, match="TINYAGENT_API_KEY holds U\\+") as info:
        LlmClient(api_key=key, base_url="http://127.0.0.1:9/v1")
    assert "abc" not in str(info.value)


@pytest.mark.parametrize("url, secret", [
    ("http://user:Zq8#xK9@127.0.0.1:{port}/v1", "Zq8#xK9"),
    ("http://user:Zq8/xK9@127.0.0.1:{port}/v1", "Zq8/xK9"),
    ("http://user:Zq8?xK9@127.0.0.1:{port}/v1", "Zq8?xK9"),
    ("http://127.0.0.1:{port}/v1?api-key=Zq8xK9", "Zq8xK9"),
])
def test_credentials_in_the_url_never_reach_the_banner_or_an_error(url, secret):
    """user:pass@ with "#", "/" or "?" in the password, and ?api-key=: neither the
    banner, the repr nor an error message shows them."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = url.format(port=port)
    try:  # refused as a bad address, or accepted and then failing to connect
        llm = LlmClient(api_key=KEY, base_url=url, max_retries=0, timeout=2.0)
    except ValueError as exc:
        assert "TINYAGENT_API_URL" in str(exc) and "%23" in str(exc)
        shown = [str(exc)]
    else:
        shown = [llm.describe(), repr(llm)]
        with pytest.raises(LlmError) as info:
            llm.chat(HELLO)
        shown.append(str(info.value))
    for text in shown:
        assert "Zq8" not in text and "xK9" not in text, text


def test_clients_load_the_certificates_once(fake_server, monkeypatch):
    """Every real client of the process shares one TLS context: building it loads
    the certificate bundle (tens of milliseconds), once, not per LlmClient."""
    from tinyagent import http_limits

    lib, made = http_limits.http_library(), []
    real = lib.create_ssl_context
    monkeypatch.setattr(lib, "create_ssl_context", lambda: made.append(1) or real())
    http_limits.shared_tls.cache_clear()
    try:
        for _ in range(3):
            assert client(fake_server).client is not None
        assert made == [1]
    finally:
        http_limits.shared_tls.cache_clear()  # the next client makes a real one
