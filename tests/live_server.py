"""A real ``bonepile serve`` in a child process on a free loopback port, for the tests that
talk to it as a browser or the terminal app would."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def running_server(data: Path) -> Iterator[str]:
    """``bonepile serve`` on ``data`` (bots without pauses), yielding its base URL once it
    answers; stopped at the end. Its output goes to ``data/server.log``."""
    port = free_port()
    command = [sys.executable, "-m", "bonepile", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--data", str(data), "--bot-pace", "0"]
    # every test's browser is the same loopback address: a whole suite of people, one after
    # another, would pass what one address may ask for (the limits have their own tests)
    rates = ("requests_per_second", "request_burst", "api_requests_per_second", "api_request_burst")
    for name in rates:
        command += ["--limit", f"{name}=1000000"]
    log = open(data / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/api/games", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(
                    "the server did not start:\n" + (data / "server.log").read_text()[-3000:]
                )
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
