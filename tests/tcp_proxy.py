"""A TCP proxy the tests put in front of a database and cut, to play a network outage.

While cut, every connection through it is reset and new ones are closed as soon as they come;
restored, it forwards again. It runs in threads of its own, so a test (or a server in the same
process) goes on while it cuts.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Iterator


class TcpProxy:
    """Forwards 127.0.0.1:``port`` to ``target``; :meth:`cut` and :meth:`restore` it."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._cut = threading.Event()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        """Reset every connection through the proxy, and every new one until restored."""
        self._cut.set()
        with self._lock:
            doomed, self._open = self._open, set()
        for s in doomed:
            _reset(s)

    def restore(self) -> None:
        """Forward again."""
        self._cut.clear()

    def close(self) -> None:
        """Stop the proxy."""
        self._closed = True
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._cut.is_set():
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _reset(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data or self._cut.is_set():
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with self._lock:
                    self._open.discard(s)
                _reset(s)


def _reset(s: socket.socket) -> None:
    """Close ``s`` with a reset (the peer sees the connection broken, not ended), at once:
    a socket that another thread waits on closes only when that wait ends (an idle connection
    would never be cut), so it is shut down first, which ends the wait."""
    with contextlib.suppress(OSError):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        s.close()


@contextlib.contextmanager
def proxy_to(host: str, port: int) -> Iterator[TcpProxy]:
    """A proxy to ``host:port`` for the length of the block."""
    proxy = TcpProxy((host, port))
    try:
        yield proxy
    finally:
        proxy.close()
