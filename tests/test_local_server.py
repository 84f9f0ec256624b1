"""The room's server (scripts/local_server.py, local_llama.py, local_queue.py): the
parts that need no model. The loop guard, a request refused with a clear message,
the bounded line (503 past it), a client that hangs up, waiting or computing; the
HTTP side runs over a stand-in model. The model itself runs in CI's real-model
check (.ci/real_model.sh)."""

import json
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import local_llama  # noqa: E402
import local_queue  # noqa: E402
import local_server  # noqa: E402


@pytest.mark.parametrize(("text", "loops"), [
    ("- order 88231\n- refund RF1\n- order 88231\n", True),
    ("- order 88231\n- refund RF1\n", False),
    ("- order 88231\n- order 88231", False),  # the line is not finished yet
    ("Hello.\n\nHello.\n", True),  # blank lines do not hide a repeat
    ("", False)])
def test_a_finished_line_that_repeats_an_earlier_one_is_a_loop(text, loops):
    """Greedy decoding loops on whole lines; the server stops at the first repeat."""
    assert local_llama.repeats_a_line(text) is loops


def test_the_repeated_line_is_dropped_from_the_reply():
    """The reply keeps everything before the repeat, and nothing else changes."""
    assert local_llama.drop_repeat("- a\n- b\n- a\n") == "- a\n- b"
    assert local_llama.drop_repeat("- a\n- b") == "- a\n- b"


class NoModel(local_llama.Model):
    def __init__(self):  # the checks before the model is touched need none
        pass


@pytest.mark.parametrize(("request_body", "message"), [
    ({"messages": [], "stream": False}, "messages must be a non-empty list"),
    ({"messages": [{"role": "user", "content": "hi"}], "stream": True},
     "streaming is not supported")])
def test_a_request_the_server_cannot_serve_gets_a_clear_400(request_body, message):
    """Streaming and an empty message list are refused with a one-line reason."""
    with pytest.raises(local_llama.BadRequest, match=message):
        NoModel().complete(request_body)


WAIT = 10  # seconds: reached only when a test is broken


def until(condition, what):
    """Wait for a state, not for a time; fail naming it if it never comes."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)


def test_a_socket_is_hung_up_once_the_other_end_closes_it():
    """Open and quiet: not hung up; data waiting (a next request): not hung up;
    closed by the client: hung up."""
    ours, theirs = socket.socketpair()
    with ours:
        assert not local_queue.hung_up(ours)
        theirs.sendall(b"GET")
        assert not local_queue.hung_up(ours)
        ours.recv(3)
        theirs.close()
        assert local_queue.hung_up(ours)


class FakeModel:
    """Computes a reply until released, looking at gone() as the real one does at
    every token; counts its calls."""

    alias = "fake"

    def __init__(self):
        self.calls = 0
        self.release, self.saw_gone = threading.Event(), threading.Event()

    def complete(self, request, gone):
        self.calls += 1
        while not self.release.wait(0.01):
            if gone():
                self.saw_gone.set()
                break
        return {"choices": [{"index": 0, "finish_reason": "stop", "message": {
            "role": "assistant", "content": "hi"}}], "usage": {
            "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2,
            "prompt_tokens_details": {"cached_tokens": 0}}}


def post(port):
    """A raw client socket that has sent one chat request."""
    body = json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode()
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                 + str(len(body)).encode() + b"\r\n\r\n" + body)
    return sock


def status(sock):
    """(status code, the whole response): read to the end, which the server marks
    by closing (HTTP/1.0), since the head and the body may come in two reads."""
    sock.settimeout(WAIT)
    parts = []
    while chunk := sock.recv(65536):
        parts.append(chunk)
    whole = b"".join(parts).decode()
    return int(whole.split()[1]), whole


@pytest.fixture
def room():
    model = FakeModel()
    server = local_server.make_server(model, "127.0.0.1", 0, waiting=1)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    yield model, server, server.server_address[1]
    model.release.set()
    server.shutdown()
    server.server_close()


def test_past_the_line_a_request_gets_503_and_a_leaver_costs_nothing(room):
    """One computes, one waits (waiting=1): a third is refused at once with HTTP 503
    and Retry-After. The waiting client hangs up: it leaves the line, and the model
    never computes it. The first is then answered."""
    model, server, port = room
    first = post(port)
    until(lambda: model.calls == 1, "the first request computing")
    second = post(port)
    until(lambda: len(server.line) == 2, "the second request waiting")
    third = post(port)
    code, head = status(third)
    assert code == 503 and "Retry-After: 30" in head and "busy" in head
    second.close()
    until(lambda: server.line.dropped == 1, "the leaver dropped from the line")
    model.release.set()
    assert status(first)[0] == 200 and model.calls == 1
    for sock in (first, third):
        sock.close()


def test_a_client_that_hangs_up_mid_reply_stops_the_computation(room):
    """The model is told the client left (gone() turns true), so it stops at its
    next token instead of computing a reply nobody reads."""
    model, _, port = room
    client = post(port)
    until(lambda: model.calls == 1, "the request computing")
    client.close()
    until(model.saw_gone.is_set, "the model seeing the client gone")


def test_the_line_is_first_come_first_served():
    """Three requests wait while a fourth computes: they get the model in the
    order they came."""
    line, order, inside = local_queue.Line(waiting=3), [], threading.Event()
    release = threading.Event()

    def request(name):
        with line.turn(lambda: False) as ours:
            assert ours
            order.append(name)
            if name == "first":
                inside.set()
                release.wait(WAIT)

    threads = [threading.Thread(target=request, args=("first",))]
    threads[0].start()
    inside.wait(WAIT)
    for n, name in enumerate(("a", "b", "c"), 2):
        threads.append(threading.Thread(target=request, args=(name,)))
        threads[-1].start()
        until(lambda n=n: len(line) == n, f"{name} in line")
    release.set()
    for thread in threads:
        thread.join(WAIT)
    assert order == ["first", "a", "b", "c"] and line.served == 4


@pytest.mark.parametrize(("flags", "missing"), [
    ("fpu sse4_2 avx avx2 fma f16c bmi2 avx512f", []),
    ("fpu sse4_2 avx", ["avx2", "fma", "f16c", "bmi2"]),
    ("fpu sse4_2 avx avx2 fma bmi2", ["f16c"])])
def test_the_cpu_check_names_each_instruction_set_the_build_needs(flags, missing):
    """The portable build still uses AVX2, FMA, F16C and BMI2: a CPU without one is
    named before the model loads, instead of dying on its first reply."""
    cpuinfo = f"processor\t: 0\nflags\t\t: {flags}\n"
    assert local_llama.missing_cpu_flags(cpuinfo) == missing
