"""Slow and greedy clients, which only the HTTP server below the ASGI app can see.

:func:`uvicorn_options` gives keyword arguments for :func:`uvicorn.run`, among them an HTTP
protocol class (a small subclass of uvicorn's own: uvicorn has no deadline for a request that is
still arriving, and httptools no bound on a request's head) that closes a connection whose
request, headers and body, has not arrived within ``request_timeout`` seconds, caps the size of
a request's head, and refuses a connection when its peer address already holds ``max_per_peer``
open connections (WebSockets included) or the server ``max_connections``.

The per-peer cap counts TCP peers. Behind a reverse proxy every client is the proxy: give its
address in ``trusted_proxies`` (it is then exempt from the per-peer cap and uvicorn believes its
``X-Forwarded-For``) and let the proxy limit its own clients and slow requests.
"""

from __future__ import annotations

import asyncio
import http
import ipaddress
import logging
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

log = logging.getLogger("bonepile.server")

REQUEST_TIMEOUT = 10.0
"""Seconds a client has to send a whole request (headers and body), counted from the
connection's opening or from the first byte after an answer."""
MAX_PER_PEER = 64
"""Open connections (HTTP and WebSocket) one peer address may hold: a browser uses up to six
for HTTP plus one socket per open tab, and a household behind one NAT address a few of those."""
MAX_HEADER_BYTES = 32 * 1024
"""The largest request head (request line and headers), about."""
KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection stays open (uvicorn's default, made explicit)."""
RETRY_AFTER = 5
"""Seconds a client refused for want of room (429, 503) is told to wait (``Retry-After``)."""

_FD_RESERVE = 128
"""File descriptors kept for the database, the static files and the bots when the server is
full."""


# ---------------------------------------------------------------------------- connections
def _default_max_connections() -> int:
    """Open connections the server takes: its file-descriptor limit less a reserve."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return 1000
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 10000
    return max(64, soft - _FD_RESERVE)


class _Gate:
    """The open connections of each peer address, shared by one server's connections."""

    def __init__(self, per_peer: int, total: int, trusted: Sequence[str]) -> None:
        self.per_peer = per_peer
        self.total = total
        self.trusted = [ipaddress.ip_network(t, strict=False) for t in trusted]
        self.held: dict[str, set[asyncio.BaseTransport]] = {}
        self.admitted = 0
        self.warned = 0.0

    def exempt(self, host: str) -> bool:
        """Whether ``host`` is a trusted proxy (no per-peer cap)."""
        if not self.trusted:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self.trusted)

    def admit(self, host: str | None, transport: asyncio.BaseTransport, open_now: int) -> str:
        """Take the connection (``""``), or say why it is refused."""
        if open_now > self.total:
            return "full"
        if host is None or self.exempt(host):
            return ""
        self.admitted += 1
        if self.admitted % 1024 == 0:
            self._sweep()
        held = self.held.setdefault(host, set())
        if len(held) >= self.per_peer:
            # a connection upgraded to a WebSocket is released only when found closed
            _prune(held)
            if len(held) >= self.per_peer:
                return "busy"
        held.add(transport)
        return ""

    def release(self, host: str | None, transport: asyncio.BaseTransport) -> None:
        """Forget a closed connection."""
        held = self.held.get(host) if host is not None else None
        if held is not None and host is not None:
            held.discard(transport)
            if not held:
                del self.held[host]

    def warn(self, message: str, *args: Any) -> None:
        """Log a refusal, at most once a minute."""
        now = time.monotonic()
        if now - self.warned >= 60.0:
            self.warned = now
            log.warning(message, *args)

    def _sweep(self) -> None:
        for host in list(self.held):
            _prune(self.held[host])
            if not self.held[host]:
                del self.held[host]


def _prune(held: set[asyncio.BaseTransport]) -> None:
    held.difference_update([t for t in held if t.is_closing()])


class _Guarded(asyncio.Protocol):
    """What the guarded protocols add to uvicorn's: the per-peer and total caps, and the
    deadline for a request to arrive. Mixed in before uvicorn's protocol class."""

    gate: ClassVar[_Gate]
    request_timeout: ClassVar[float]
    max_header_bytes: ClassVar[int]

    # set by uvicorn's protocol
    transport: asyncio.Transport
    client: tuple[str, int] | None
    loop: asyncio.AbstractEventLoop
    server_state: ServerState

    _host: str | None = None
    _deadline: asyncio.TimerHandle | None = None
    _got_bytes = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Take the connection if its peer and the server have room, and start its clock."""
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        why = self.gate.admit(host, transport, len(self.server_state.connections))
        if why == "busy":
            self.gate.warn("refusing connections from %s: it holds %d", host, self.gate.per_peer)
            self._answer_and_close(429, "too many connections from your address")
        elif why == "full":
            self.gate.warn("refusing connections: %d are open", self.gate.total)
            self._answer_and_close(503, "the server is busy, try again soon")
        else:
            self._host = host
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock and free the peer's place."""
        self._disarm()
        self.gate.release(self._host, self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Feed uvicorn's parser; the clock runs while a request is incomplete."""
        if self._deadline is None and self._reading():
            self._arm()
        self._got_bytes = True
        super().data_received(data)
        if self.transport.get_protocol() is not self or not self._reading():
            self._disarm()  # upgraded to a WebSocket, or the whole request is in

    def _reading(self) -> bool:
        """Whether the connection awaits (the rest of) a request rather than its answer."""
        cycle = getattr(self, "cycle", None)
        return cycle is None or bool(cycle.more_body) or bool(cycle.response_complete)

    def _arm(self) -> None:
        self._disarm()
        self._got_bytes = False
        self._deadline = self.loop.call_later(self.request_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        cycle = getattr(self, "cycle", None)
        if self._got_bytes and (cycle is None or cycle.response_complete):
            self._answer_and_close(408, "the request did not arrive in time")
        else:  # nothing sent yet, or a body too slow under a running request: just close
            self.transport.close()

    def _answer_and_close(self, status: int, text: str) -> None:
        """Write a small plain-text answer, then close the connection (a refusal for room,
        429 or 503, says when to try again)."""
        body = text.encode()
        retry = f"retry-after: {RETRY_AFTER}\r\n" if status in (429, 503) else ""
        head = (
            f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
            "content-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\n"
            "x-content-type-options: nosniff\r\n"
            f"{retry}connection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.transport.close()


class _GuardedH11(_Guarded, H11Protocol):
    """uvicorn's h11 protocol, guarded (its head size is capped by h11 itself)."""


_BASES: dict[str, type[_Guarded]] = {"h11": _GuardedH11}

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is optional
    pass
else:

    class _GuardedHttpTools(_Guarded, HttpToolsProtocol):
        """uvicorn's httptools protocol, guarded; httptools has no limit of its own on the
        size of a request's head, so this counts it."""

        _head = -1  # bytes received since the request began, while its head is incomplete

        def on_message_begin(self) -> None:
            """A request begins: count its head."""
            super().on_message_begin()
            self._head = 0

        def on_headers_complete(self) -> None:
            """The head is in."""
            self._head = -1
            super().on_headers_complete()

        def data_received(self, data: bytes) -> None:
            """Feed the parser; answer 431 to a head over the limit."""
            super().data_received(data)
            if self._head >= 0 and not self.transport.is_closing():
                self._head += len(data)
                if self._head > self.max_header_bytes:
                    self._answer_and_close(431, "the request's headers are too large")

    _BASES["httptools"] = _GuardedHttpTools


def guarded_protocol(
    *,
    request_timeout: float = REQUEST_TIMEOUT,
    max_per_peer: int = MAX_PER_PEER,
    max_connections: int | None = None,
    max_header_bytes: int = MAX_HEADER_BYTES,
    trusted_proxies: Sequence[str] = (),
    http: str = "auto",
) -> type[asyncio.Protocol]:
    """A uvicorn HTTP protocol class with the limits of :func:`uvicorn_options` (one class per
    server: its connections share the count of each peer's connections)."""
    if request_timeout <= 0 or max_per_peer < 1 or max_header_bytes < 1024:
        raise ValueError("the request timeout, per-peer cap and head size must be positive")
    name = ("httptools" if "httptools" in _BASES else "h11") if http == "auto" else http
    if name not in _BASES:
        raise ValueError(f"no HTTP protocol {name!r} (choose from {sorted(_BASES)})")
    total = max_connections if max_connections is not None else _default_max_connections()
    attributes = {
        "gate": _Gate(max_per_peer, total, trusted_proxies),
        "request_timeout": request_timeout,
        "max_header_bytes": max_header_bytes,
    }
    return type("BonepileHTTPProtocol", (_BASES[name],), attributes)


class NoLinePerConnection(logging.Filter):
    """Drops the line uvicorn and websockets write for every WebSocket opened, accepted,
    refused or closed: the server writes no line per request or connection (a crowd of
    spectators would flood its log), and what matters has a line of the server's own."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is kept: anything above INFO, and INFO that is not per socket."""
        if record.levelno > logging.INFO or not isinstance(record.msg, str):
            return True
        return not (record.msg.startswith("connection ") or '"WebSocket %s"' in record.msg)


def quiet_connections() -> None:
    """Keep uvicorn's log (``uvicorn.error``, where it and websockets write) free of a line
    per WebSocket. Call after uvicorn has configured its logging (making its ``Config``)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, NoLinePerConnection) for f in logger.filters):
        logger.addFilter(NoLinePerConnection())


def uvicorn_options(
    *,
    request_timeout: float = REQUEST_TIMEOUT,
    max_per_peer: int = MAX_PER_PEER,
    max_connections: int | None = None,
    max_header_bytes: int = MAX_HEADER_BYTES,
    trusted_proxies: Sequence[str] = (),
    http: str = "auto",
) -> dict[str, Any]:
    """Keyword arguments for :func:`uvicorn.run` (or :class:`uvicorn.Config`) that guard the
    server against slow and greedy clients.

    A request (headers and body) must arrive within ``request_timeout`` seconds, or the
    connection is closed (with a 408 if part of it came); a head over ``max_header_bytes``
    gets 431; a peer address holding ``max_per_peer`` open connections gets 429 on its next
    one, and every client 503 once ``max_connections`` are open (by default the process's
    file-descriptor limit less a reserve). ``trusted_proxies`` (addresses or networks) are
    exempt from the per-peer cap, and only their ``X-Forwarded-For`` is believed (no one's
    without them). ``http`` picks uvicorn's parser (``auto``, ``httptools`` or ``h11``). For
    one server process (not ``workers``)."""
    options: dict[str, Any] = {
        "http": guarded_protocol(
            request_timeout=request_timeout,
            max_per_peer=max_per_peer,
            max_connections=max_connections,
            max_header_bytes=max_header_bytes,
            trusted_proxies=trusted_proxies,
            http=http,
        ),
        "timeout_keep_alive": KEEP_ALIVE,
        "h11_max_incomplete_event_size": max_header_bytes,
        "server_header": False,
        # X-Forwarded-For is believed from the trusted proxies only (uvicorn's default would
        # believe any loopback peer, which the per-peer cap does not exempt)
        "proxy_headers": bool(trusted_proxies),
    }
    if trusted_proxies:
        options["forwarded_allow_ips"] = list(trusted_proxies)
    return options


__all__ = [
    "KEEP_ALIVE",
    "MAX_HEADER_BYTES",
    "MAX_PER_PEER",
    "REQUEST_TIMEOUT",
    "RETRY_AFTER",
    "NoLinePerConnection",
    "guarded_protocol",
    "quiet_connections",
    "uvicorn_options",
]
