"""scripts/real_model_check.py must fail on an agent broken on purpose.

The real thing needs llama-cpp-python and the model (minutes): .ci/real_model.sh
installs them and runs these tests with TINYAGENT_REAL_MODEL=1. Everywhere else the
check runs, in its quick form, against a stand-in: the offline model served over
real HTTP on 127.0.0.1. The stand-in answers well, so a failure can only come from
the damage, and a pass shows the rules do not fail a sound agent."""

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
sys.path.insert(0, str(SCRIPTS))
import local_model  # noqa: E402
import real_model_check  # noqa: E402

from tinyagent.memory.base import BaseChatMemory  # noqa: E402
from tinyagent.memory.summarizer import Summarizer  # noqa: E402
from tinyagent.offline.model import complete  # noqa: E402

REAL = os.environ.get("TINYAGENT_REAL_MODEL") == "1"
HOW = ("the real model server is not installed or TINYAGENT_REAL_MODEL is not 1: "
       "run .ci/real_model.sh, or install it (python scripts/local_model.py "
       "--install) and run TINYAGENT_REAL_MODEL=1 pytest "
       "tests/test_real_model_check.py")


@pytest.fixture(name="stand_in", scope="module")
def stand_in_fixture():
    """The offline model behind a real socket: GET /v1/models, POST chat."""
    class Handler(BaseHTTPRequestHandler):
        def answer(self, body: dict) -> None:
            raw = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self):  # noqa: N802
            self.answer({"object": "list", "data": [{"id": "bitmall-offline"}]})

        def do_POST(self):  # noqa: N802
            body = self.rfile.read(int(self.headers["Content-Length"]))
            self.answer(complete(json.loads(body)))

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def quick(url, *extra):
    return real_model_check.main(["--quick", "--url", url, "--model",
                                  "bitmall-offline", "--deadline", "60", *extra])


def test_a_sound_agent_passes_the_quick_check(stand_in, capsys):
    """Against a model that answers well, every rule of the quick check holds."""
    assert quick(stand_in) == 0, capsys.readouterr().out
    assert "the model answered in prose" in capsys.readouterr().out


BREAKS = [("memory", "FAIL  turn 2 request holds turn 1's question"),
          ("summarizer", "FAIL  a summary the model wrote is stored")]


@pytest.mark.parametrize(("broken", "rule"), BREAKS)
def test_each_break_fails_the_check(stand_in, capsys, broken, rule):
    """--break memory (add does nothing) and --break summarizer (a constant
    summary) each fail the check, on the rule written for it; the damage is
    undone afterwards."""
    add, summarize = BaseChatMemory.add, Summarizer.summarize
    assert quick(stand_in, "--break", broken) == 1
    assert rule in capsys.readouterr().out
    assert (BaseChatMemory.add, Summarizer.summarize) == (add, summarize)


def real_quick(*extra):
    return subprocess.run([sys.executable, str(SCRIPTS / "real_model_check.py"),
                           "--quick", "--deadline", "400", *extra],
                          capture_output=True, text=True, timeout=500).stdout


@pytest.mark.skipif(not (REAL and local_model.have_server()), reason=HOW)
def test_the_rules_the_breaks_trip_hold_on_the_real_model():
    """Unbroken, SmolLM2-135M passes both rules: so the failures below are the
    damage's, not the model's."""
    out = real_quick()
    assert all(rule.replace("FAIL", "PASS") in out for _, rule in BREAKS), out[-3000:]


@pytest.mark.skipif(not (REAL and local_model.have_server()), reason=HOW)
@pytest.mark.parametrize(("broken", "rule"), BREAKS)
def test_each_break_fails_the_check_on_the_real_model(broken, rule):
    """The same, against SmolLM2-135M on the local server (minutes, in CI)."""
    out = real_quick("--break", broken)
    assert rule in out and "real model check:" in out, out[-3000:]
