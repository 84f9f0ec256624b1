"""scripts/real_model_check.py must fail on an agent broken on purpose.

Every break of scripts/real_model_breaks.py, each on the rule written for it. The
real thing needs llama-cpp-python and the model: .ci/real_model.sh installs them and
runs these tests with TINYAGENT_REAL_MODEL=1 (a few minutes: one server for all the
runs, whose prefix cache makes each run after the first quick). Everywhere else the
check runs, in its quick form, against a stand-in: the offline model served over
real HTTP on 127.0.0.1. The stand-in answers well, so a failure can only come from
the damage, and a pass shows the rules do not fail a sound agent."""

import json
import os
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
sys.path.insert(0, str(SCRIPTS))
import local_model  # noqa: E402
import real_model_check  # noqa: E402
from real_model_breaks import BREAKS  # noqa: E402

from tinyagent.memory.base import BaseChatMemory  # noqa: E402
from tinyagent.memory.summarizer import Summarizer  # noqa: E402
from tinyagent.offline.model import complete  # noqa: E402

REAL = os.environ.get("TINYAGENT_REAL_MODEL") == "1"
HOW = ("the real model server is not installed or TINYAGENT_REAL_MODEL is not 1: "
       "run .ci/real_model.sh, or install it (python scripts/local_model.py "
       "--install) and run TINYAGENT_REAL_MODEL=1 pytest "
       "tests/test_real_model_check.py")


def serve(handler):
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # polled every 0.02 s: shutdown() waits for the loop to look (0.5 s by default)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1"


@pytest.fixture(name="stand_in", scope="module")
def stand_in_fixture():
    """The offline model behind a real socket: GET /v1/models, POST chat; a request
    it cannot serve gets HTTP 400, as from a real provider."""
    class Handler(BaseHTTPRequestHandler):
        def answer(self, body: dict, status: int = 200) -> None:
            raw = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self):  # noqa: N802
            self.answer({"object": "list", "data": [{"id": "bitmall-offline"}]})

        def do_POST(self):  # noqa: N802
            body = self.rfile.read(int(self.headers["Content-Length"]))
            try:
                self.answer(complete(json.loads(body)))
            except (ValueError, TypeError) as exc:
                self.answer({"error": {"message": str(exc)}}, 400)

        def log_message(self, *args):
            pass

    server, url = serve(Handler)
    yield url
    server.shutdown()
    server.server_close()


def quick(url, model, *extra):
    return real_model_check.main(["--quick", "--url", url, "--model", model,
                                  "--deadline", "600", *extra])


def test_a_sound_agent_passes_the_quick_check(stand_in, capsys):
    """Against a model that answers well, every rule of the quick check holds."""
    assert quick(stand_in, "bitmall-offline") == 0, capsys.readouterr().out
    assert "the model answered in prose" in capsys.readouterr().out


def broken_run(url, model, name, capsys):
    """The quick check with `--break name`, on the memories that show it: (exit
    status, what it printed)."""
    damage = BREAKS[name]
    status = quick(url, model, "--break", name, "--only", *damage.strategies)
    return status, capsys.readouterr().out


@pytest.mark.parametrize("name", list(BREAKS))
def test_each_break_fails_the_check_on_its_rule(stand_in, capsys, name):
    """Each break fails the check, on the rule written for it; the damage is undone
    afterwards."""
    add, summarize = BaseChatMemory.add, Summarizer.summarize
    status, out = broken_run(stand_in, "bitmall-offline", name, capsys)
    assert status == 1 and any(rule in out for rule in BREAKS[name].rules), out
    assert (BaseChatMemory.add, Summarizer.summarize) == (add, summarize)


@pytest.fixture(name="real_server", scope="module")
def real_server_fixture():
    """SmolLM2-135M on the local server, one for every run of this module; a
    server that dies fails the test with the end of its log."""
    if not (REAL and local_model.have_server()):
        pytest.skip(HOW)
    log, port = Path(tempfile.mkdtemp()) / "server.log", local_model.free_port()
    server = local_model.start_server(local_model.find_model(), "127.0.0.1", port,
                                      log, threads=local_model.cores())
    try:
        try:
            local_model.wait_ready(f"http://127.0.0.1:{port}/v1", server)
        except RuntimeError as exc:  # died or hung at start: say why, with its log
            pytest.fail(f"{exc}; the end of its log:\n{local_model.log_tail(log)}")
        yield f"http://127.0.0.1:{port}/v1", server, log
    finally:
        local_model.stop_server(server)


def on_real(real_server, capsys, *extra):
    url, server, log = real_server
    status = quick(url, local_model.MODEL_ALIAS, *extra)
    out = capsys.readouterr().out
    assert server.poll() is None, (f"the server exited with {server.returncode}:\n"
                                   f"{local_model.log_tail(log)}")
    return status, out


def test_a_sound_agent_passes_on_the_real_model(real_server, capsys):
    """Unbroken, SmolLM2-135M passes the quick check (three turns in memory, two
    compressions): so the failures below are the damage's, not the model's."""
    status, out = on_real(real_server, capsys)
    assert status == 0, out[-4000:]


@pytest.mark.parametrize("name", list(BREAKS))
def test_each_break_fails_the_check_on_the_real_model(real_server, capsys, name):
    """The same breaks, against SmolLM2-135M on the local server (CI)."""
    damage = BREAKS[name]
    status, out = on_real(real_server, capsys, "--break", name, "--only",
                          *damage.strategies)
    assert status == 1 and any(rule in out for rule in damage.rules), out[-4000:]
