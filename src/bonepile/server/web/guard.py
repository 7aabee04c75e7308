"""HTTP hardening of the web app: body sizes, validation answers, security headers and the
API docs switch.

:func:`add_guards` puts on the FastAPI app a pure ASGI middleware (security headers on every
HTTP answer, 413 for a body over ``max_body``, the API docs hidden) and an answer to validation
errors that names the fields and the problems without echoing the input. Slow clients are
stopped below the app, by :mod:`bonepile.server.web.slowclients`.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024
"""The largest request body (bytes): the API's bodies are a few hundred bytes."""


# ---------------------------------------------------------------------------- the app
class DocsOptions(TypedDict):
    """The keywords of :class:`fastapi.FastAPI` that place the OpenAPI schema and docs."""

    openapi_url: str | None
    docs_url: str | None
    redoc_url: str | None


def api_docs_options(enabled: bool) -> DocsOptions:
    """The :class:`fastapi.FastAPI` keywords that serve the OpenAPI schema and its docs pages
    (``enabled``) or none of them."""
    if enabled:
        return {"openapi_url": "/openapi.json", "docs_url": "/docs", "redoc_url": "/redoc"}
    return {"openapi_url": None, "docs_url": None, "redoc_url": None}


class BodyTooLarge(HTTPException):
    """A request body over the limit (raised while it streams in)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"a request body has at most {limit} bytes")


_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:\d{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?")

_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _authority(value: str, scheme: str) -> str:
    """``host[:port]`` in lower case, without the scheme's default port."""
    value = value.strip().lower()
    if value.endswith(":" + _DEFAULT_PORTS.get(scheme, "-")):
        value = value.rsplit(":", 1)[0]
    return value


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket asked for with the ``Origin`` header ``origin`` may open on the
    server named ``host`` (its ``Host`` header). A browser always sends the page's origin, so a
    page of another site gets a refusal (no socket of the app opens with a visitor's cookies
    from a page that is not the app's); programs (the terminal app, bots, tests) send none and
    are let in. Behind a reverse proxy the proxy passes the ``Host`` on (deploy/nginx.conf)."""
    if origin is None:
        return True
    if host is None or "://" not in origin:
        return False  # "null" (a sandboxed page or a file), or no name to match
    scheme, _, rest = origin.partition("://")
    scheme = scheme.lower()
    return _authority(rest.rstrip("/"), scheme) == _authority(host, scheme)


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""The methods that change nothing (every other one is checked against forgery)."""


def _cross_site(scope: Scope, host: bytes | None) -> bool:
    """Whether a request that changes something comes from a page of another site: its
    ``Origin`` names another site, or the browser says so (``Sec-Fetch-Site: cross-site``).
    With the cookies' ``SameSite=Lax``, the defence against forged requests that the OWASP
    cheat sheet asks for; programs send neither header and are let in."""
    origin = _header(scope, b"origin")
    if origin is not None and not same_origin(
        origin.decode("latin-1"), host.decode("latin-1") if host else None
    ):
        return True
    return _header(scope, b"sec-fetch-site") == b"cross-site"


PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
"""Powerful browser features no page of the app uses."""


def content_security_policy(host: str | None = None) -> str:
    """The pages' Content-Security-Policy: everything from this origin only (static ES
    modules and one stylesheet, no inline script or style attribute), WebSockets to this
    host (``'self'`` covers them in CSP 3 browsers; ``host`` names them for older ones), and
    no framing."""
    sockets = f" ws://{host} wss://{host}" if host and _HOST.fullmatch(host) else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        f"connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


def security_headers(host: str | None = None, csp: bool = True) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer carries (``csp=False``: all but the
    Content-Security-Policy)."""
    headers = [
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"permissions-policy", PERMISSIONS_POLICY.encode()),
    ]
    if csp:
        headers.insert(0, (b"content-security-policy", content_security_policy(host).encode()))
    return headers


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            value_bytes: bytes = value
            return value_bytes
    return None


class GuardMiddleware:
    """Pure ASGI middleware for HTTP: the security headers on every answer, 413 for a body
    over ``max_body`` (declared or streamed), 404 for the ``hidden`` paths; no
    Content-Security-Policy on the ``bare`` paths; 429 for a client address past one of the
    ``rates``, before anything else runs (a flood of requests costs the server as little as
    can be). WebSockets pass untouched."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int = MAX_BODY,
        hidden: frozenset[str] = frozenset(),
        bare: frozenset[str] = frozenset(),
        rates: Sequence[RateRule] = (),
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.hidden = hidden
        self.bare = bare
        self.rates = [(rule, AddressRates(rule.rate, rule.burst)) for rule in rates]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one request."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        extra = security_headers(
            host.decode("latin-1") if host else None, csp=scope["path"] not in self.bare
        )
        started = False

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                present = {bytes(name).lower() for name, _ in headers}
                headers += [(k, v) for k, v in extra if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        if self.rates:
            client = scope.get("client")
            address, now = (client[0] if client else ""), time.monotonic()
            wait, message = None, ""
            for rule, buckets in self.rates:
                if rule.covers(scope["path"], scope["method"]):
                    wait, message = buckets.take(address, now), rule.message
                    if wait is not None:
                        break
            if wait is not None:
                answer = _error(429, "too_many", message)
                answer.headers["Retry-After"] = str(max(1, math.ceil(wait)))
                await answer(scope, receive, send_guarded)
                return
        if scope["path"] in self.hidden:
            await _error(404, "unknown", "there is no such page")(scope, receive, send_guarded)
            return
        if scope["method"] not in SAFE_METHODS and _cross_site(scope, host):
            answer = _error(403, "cross_site", "a page of another site cannot ask this")
            await answer(scope, receive, send_guarded)
            return
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            await self._too_large(scope, receive, send_guarded)
            return
        seen = 0

        async def receive_counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        try:
            await self.app(scope, receive_counted, send_guarded)
        except BodyTooLarge:
            if started:
                raise
            await self._too_large(scope, receive, send_guarded)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = str(BodyTooLarge(self.max_body).detail)
        await _error(413, "too_large", message)(scope, receive, send)


@dataclass(frozen=True)
class RateRule:
    """At most ``rate`` requests a second, ``burst`` at once, per client address, to the
    paths starting with ``prefix`` (with ``method``, if given); past it, ``message``."""

    prefix: str
    rate: float
    burst: int
    method: str | None = None
    message: str = "too many requests: slow down"

    def covers(self, path: str, method: str) -> bool:
        """Whether a request counts against this rule."""
        return path.startswith(self.prefix) and (self.method is None or method == self.method)


class AddressRates:
    """A token bucket per client address: ``rate`` requests a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, addresses: int = 50_000) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.addresses = addresses
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, address: str, now: float) -> float | None:
        """Spend one request of ``address``: ``None``, or the seconds until it may."""
        tokens, at = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self.buckets[address] = (tokens, now)
            return (1.0 - tokens) / self.rate
        if len(self.buckets) >= self.addresses and address not in self.buckets:
            # forget the addresses whose buckets are full again: they owe nothing
            full = self.burst / self.rate
            self.buckets = {a: b for a, b in self.buckets.items() if now - b[1] < full}
        self.buckets[address] = (tokens - 1.0, now)
        return None


def describe_errors(errors: Sequence[Any], most: int = 3) -> str:
    """Validation errors in one short line: where and what, never the input."""
    parts = []
    for e in errors[:most]:
        if e.get("type") == "json_invalid":
            parts.append("the body is not valid JSON")
            continue
        loc = [str(p) for p in e.get("loc", ())]
        if len(loc) > 1 and loc[0] == "body":
            loc = loc[1:]
        where = ".".join(_clip(p, 32) for p in loc) or "request"
        parts.append(f"{where}: {_clip(str(e.get('msg', 'invalid')), 100)}")
    if len(errors) > most:
        parts.append(f"and {len(errors) - most} more")
    return "; ".join(parts) or "the request is not valid"


def _clip(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    line = " ".join("".join(c if c.isprintable() else " " for c in text[: limit + 1]).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return _error(422, "bad_request", describe_errors(errors))


async def _body_too_large(request: Request, exc: Exception) -> JSONResponse:
    detail = exc.detail if isinstance(exc, HTTPException) else "the request body is too large"
    return _error(413, "too_large", str(detail))


def add_guards(
    app: FastAPI,
    *,
    max_body: int = MAX_BODY,
    api_docs: bool = False,
    rates: Sequence[RateRule] = (),
) -> None:
    """Guard ``app``'s HTTP answers: security headers on every one, 413 for a request body
    over ``max_body`` bytes, 422 ``bad_request`` naming the fields for a validation error
    (without the input), and no OpenAPI schema or docs pages unless ``api_docs`` (build the
    app with :func:`api_docs_options` as well; when they are served, the docs pages, which
    load their scripts from a CDN, carry no Content-Security-Policy). A client address past
    one of the ``rates`` gets 429 before the app does any work for the request."""
    urls = (app.openapi_url, app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url)
    docs = frozenset(url for url in urls if url)
    app.add_middleware(
        GuardMiddleware,
        max_body=max_body,
        hidden=frozenset() if api_docs else docs,
        bare=docs - {app.openapi_url} if api_docs else frozenset(),
        rates=rates,
    )
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(BodyTooLarge, _body_too_large)


__all__ = [
    "MAX_BODY",
    "AddressRates",
    "BodyTooLarge",
    "DocsOptions",
    "GuardMiddleware",
    "RateRule",
    "add_guards",
    "api_docs_options",
    "content_security_policy",
    "describe_errors",
    "same_origin",
    "security_headers",
]
