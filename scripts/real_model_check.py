"""Run the course's agent and memories against a real model server, over real HTTP.

Every test talks to the offline model in-process; this script takes the path a
learner with a key takes. It starts the small local server (scripts/local_model.py,
SmolLM2-135M-Instruct) on 127.0.0.1, or uses the one `--url` names, puts a recording
proxy in front of it (scripts/recording_proxy.py), and runs the agent with each
memory strategy for a few turns, one compression included. It asserts only what
holds for ANY model (scripts/real_model_rules.py): requests accepted, the history
each request carries, a prose answer, a summary the model wrote, tool-call ids that
match, summaries within budget, no key printed; then (scripts/real_model_faults.py)
clear handling of a slow call, an empty answer, a cut-off reply and malformed ones;
then one dialog with no cap from the proxy, each call's time and cached prompt
tokens printed (scripts/real_model_timing.py). Wording, recall, savings: not asserted.

    python scripts/real_model_check.py [--install] [--quick] [--url URL]
                                       [--break NAME] [--only MEMORY ...]

`--break NAME` damages the run on purpose, to show that the check catches it (the
breaks, and the rule each must trip: scripts/real_model_breaks.py; `--break list`
names them). If the server process exits, its exit code and the tail of its log are
printed, and the check fails at once. Exit code 1 on any failure, after "real model
check: N passed, M failed".
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import local_model  # noqa: E402
from real_model_breaks import BREAKS, broken  # noqa: E402
from real_model_faults import command_line, faults  # noqa: E402
from real_model_rules import Results, Tee  # noqa: E402
from real_model_strategies import report, strategies  # noqa: E402
from real_model_timing import REPLY_TOKENS, timing  # noqa: E402
from recording_proxy import RecordingProxy  # noqa: E402

from tinyagent import LlmClient  # noqa: E402


def watch(server: subprocess.Popen[bytes], log: Path, r: Results,
          once: bool = False) -> None:
    """If the server exits while the check runs: its exit code, its log's tail,
    and a failure at once (every later call would only say HTTP 502). `once`: look
    now (the proxy could not reach the server), else until it exits."""
    deadline = time.monotonic() + 2
    while server.poll() is None and (not once or time.monotonic() < deadline):
        time.sleep(0.1)
    if server.poll() is None or getattr(server, "stopping", False):
        return
    code = server.returncode
    why = f", {signal.Signals(-code).name}" if code < 0 else ""
    print(f"\n  FAIL  the model server exited with code {code}{why} (pid {server.pid});"
          f" the end of its log:\n{local_model.log_tail(log)}\n"
          f"real model check: {r.passed} passed, {r.failed + 1} failed",
          file=sys.__stdout__, flush=True)  # not the agent's redirected stdout
    os._exit(1)


def start(args: argparse.Namespace, r: Results) -> tuple[str, Path | None, object]:
    """The upstream URL, the server's log, and the server (None with --url)."""
    if args.url:
        return args.url.rstrip("/").removesuffix("/v1"), None, None
    log, port = Path(tempfile.mkdtemp()) / "server.log", local_model.free_port()
    # A small context bounds a runaway prompt; max_tokens bounds every reply.
    server = local_model.start_server(local_model.find_model(), "127.0.0.1", port,
                                      log, n_ctx=4096, threads=args.threads)
    try:
        ready = local_model.wait_ready(f"http://127.0.0.1:{port}/v1", server)
    except RuntimeError as exc:
        local_model.stop_server(server)
        print(f"  FAIL  {exc}; the end of its log:\n{local_model.log_tail(log)}")
        raise SystemExit(1) from None
    print(f"server ready in {ready:.1f}s (pid {server.pid}, log {log})")
    threading.Thread(target=watch, args=(server, log, r), daemon=True).start()
    return f"http://127.0.0.1:{port}", log, server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install", action="store_true",
                        help="pip-install the server and the model when missing")
    parser.add_argument("--break", dest="broken", choices=[*BREAKS, "list"],
                        default="", help="damage the run to show the check fails")
    parser.add_argument("--quick", action="store_true",
                        help="two strategies only: no faults, no timing")
    parser.add_argument("--only", nargs="+", default=(), metavar="MEMORY",
                        help="with --quick: these memories only (e.g. in-memory)")
    parser.add_argument("--url", help="use this running server (e.g. Ollama's "
                        "http://127.0.0.1:11434/v1) instead of starting one")
    parser.add_argument("--model", default=local_model.MODEL_ALIAS,
                        help="the model name to ask for (with --url)")
    parser.add_argument("--deadline", type=float, default=900,
                        help="hard wall-clock limit in seconds (default 900)")
    parser.add_argument("--threads", type=int, default=local_model.cores(),
                        help="server threads (default: the cores it may use)")
    args = parser.parse_args(argv)
    if args.broken == "list":
        for name, damage in BREAKS.items():
            print(f"{name:11} {damage.what} (fails: {damage.rules[0][6:]})")
        return 0
    shown, started = sys.stdout, time.monotonic()
    sys.stdout = tee = Tee(shown)
    r, out = Results(), io.StringIO()
    try:
        if args.install:
            local_model.install()
        if not args.url and not local_model.have_server():
            print("real model check: the server is missing: "
                  f"{local_model.INSTALL_HINT}")
            return 1
        if args.broken:
            print(f"--break {args.broken}: {BREAKS[args.broken].what}")
        return run(args, r, out, tee, started)
    finally:
        sys.stdout = shown


def run(args: argparse.Namespace, r: Results, out: io.StringIO, tee: Tee,
        started: float) -> int:
    key = "sk-check-" + secrets.token_hex(16)  # fake, and greppable in every output
    upstream, log, server = start(args, r)
    proxy = RecordingProxy(upstream)
    if server is not None:  # a refused connection: has the server died?
        proxy.on_error = lambda: watch(server, log, r, once=True)  # type: ignore

    def give_up() -> None:  # the hard limit: no hang outlives the CI budget
        print(f"real model check: {r.passed} passed, {r.failed + 1} failed (the "
              f"deadline of {args.deadline:g}s passed)", file=sys.__stdout__,
              flush=True)  # not the agent's redirected stdout
        if server is not None:
            local_model.stop_server(server)  # type: ignore[arg-type]
        os._exit(1)

    timer = threading.Timer(args.deadline, give_up)
    timer.daemon = True
    timer.start()
    try:
        with broken(args.broken):
            url = proxy.start()
            llm = LlmClient(key, url, args.model, timeout=120, max_retries=0)
            strategies(r, proxy, llm, out, args.broken, quick=args.quick,
                       only=tuple(args.only))
            if not args.quick:
                faults(r, proxy, url, key, out)
                command_line(r, proxy, url, key, out)
            report(r, proxy)
            if not args.quick:
                timing(r, proxy, LlmClient(key, url, args.model, timeout=120,
                                           max_retries=0,
                                           max_reply_tokens=REPLY_TOKENS), out)
    finally:
        proxy.stop()
        if server is not None:
            server.stopping = True  # type: ignore[attr-defined]
            local_model.stop_server(server)  # type: ignore[arg-type]
        timer.cancel()
    printed = tee.getvalue() + out.getvalue() + (
        log.read_text(errors="replace") if log else "")
    r.expect(key not in printed, "the key is never printed (output, agent, server)")
    print(f"real model check: {r.passed} passed, {r.failed} failed "
          f"({time.monotonic() - started:.0f}s)")
    return 1 if r.failed else 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stop the server
    sys.exit(main())
