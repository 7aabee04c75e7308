"""``bonepile serve --workers N``: N server processes behind one port, on every core.

The supervisor binds the port once and starts N ``bonepile serve`` processes that inherit the
listening socket (fork and exec: nothing of the supervisor's state is shared by accident). The
kernel hands each new connection to whichever worker accepts it first, so any worker may get
any request: the workers are the processes of one site (:mod:`bonepile.server.site.site`), on one
PostgreSQL database and one Redis, exactly as processes on different machines would be.

When a worker dies the supervisor says so in one line, ends its lease on life in the database
(so that its tables are taken over at once, not after the lease runs out) and starts another,
at most :data:`RESTARTS` a minute. Ctrl-C or SIGTERM stops every worker.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

RESTARTS = 5
"""Workers started again at most, in any minute (past it the supervisor waits)."""


def _bind(host: str, port: int) -> socket.socket:
    from bonepile.server.serve import ServeError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _worker_command(fd: int) -> list[str]:
    """This command line as a worker's: the same options, without ``--workers``, with the
    listening socket's descriptor."""
    args = sys.argv[1:]
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "--workers":
            skip = True
            continue
        if arg.startswith("--workers="):
            continue
        out.append(arg)
    return [sys.executable, "-m", "bonepile", *out, "--listen-fd", str(fd)]


def supervise(
    host: str, port: int, workers: int, folder: Path, database: str, redis: str, quiet: bool
) -> None:
    """Run ``workers`` worker processes on ``host``:``port`` until interrupted."""
    from bonepile.server.serve import address
    from bonepile.server.site.leases import expire_process
    from bonepile.server.storage.store import Store, safe_url

    sock = _bind(host, port)
    env = {**os.environ, "BONEPILE_WORKERS": "1"}  # a worker supervises nothing
    command = _worker_command(sock.fileno())
    store = Store(database)
    hostname = socket.gethostname()
    running: dict[int, subprocess.Popen[bytes]] = {}
    started: deque[float] = deque()
    stopping = False

    def start_one() -> None:
        proc = subprocess.Popen(
            command, pass_fds=(sock.fileno(),), env=env, preexec_fn=_end_with_parent
        )
        running[proc.pid] = proc
        started.append(time.monotonic())

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for proc in running.values():
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _ in range(workers):
        start_one()
    print(f"bonepile is serving at {address(host, port)}  (open it in a browser)", flush=True)
    print(
        f"data: {folder}  database: {safe_url(database)}  Redis: {safe_url(redis)}  "
        f"{workers} workers  stop with Ctrl-C",
        flush=True,
    )
    try:
        while running:
            time.sleep(0.2)
            for pid, proc in list(running.items()):
                code = proc.poll()
                if code is None:
                    continue
                del running[pid]
                if stopping:
                    continue
                print(f"worker {pid} ended ({_how(code)}): starting another", file=sys.stderr)
                with contextlib.suppress(Exception):  # its tables are taken over at once
                    expire_process(store, hostname, pid)
                while started and time.monotonic() - started[0] > 60:
                    started.popleft()
                if len(started) >= RESTARTS:
                    time.sleep(max(0.0, 60 - (time.monotonic() - started[0])))
                start_one()
    finally:
        for proc in running.values():
            with contextlib.suppress(Exception):
                proc.wait(timeout=30)
        sock.close()
        store.close()


def _end_with_parent() -> None:
    """In a worker, before it runs: end when the supervisor ends, however it ends (Linux)."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _how(code: int) -> str:
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"status {code}"


__all__ = ["RESTARTS", "supervise"]
