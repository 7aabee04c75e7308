"""HTTP hardening (``bonepile.server.web.guard``).

Against a real uvicorn server on a loopback port, with both of uvicorn's parsers: a crowd of
slow clients trickling headers from one address is cut to the per-peer cap and closed at the
request deadline while another address is served at once; WebSockets count toward the cap and
free their place when closed; a trusted proxy has no cap; a half-sent request gets 408, a
silent connection is closed, a slow body is cut, a huge head is refused, and a keep-alive
connection that behaves lives past the deadline. Then, in-process: 413 in the app's JSON shape
for a body too large by its Content-Length or as it streams (chunked); validation errors name
the field without echoing a megabyte of input; the security headers on pages, API answers,
static files and errors; pages with nothing inline for the CSP to block; no API docs unless
asked for.
"""

from __future__ import annotations

import contextlib
import json
import re
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

import httpx
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

from bonepile.server.storage.store import Store
from bonepile.server.tables.catalogue import rules_html
from bonepile.server.tables.hub import Hub
from bonepile.server.web.app import STATIC, Settings, create_app
from bonepile.server.web.guard import (
    MAX_BODY,
    add_guards,
    api_docs_options,
    content_security_policy,
)
from bonepile.server.web.slowclients import uvicorn_options
from live_server import free_port

pytestmark = pytest.mark.system

WAIT = 30.0  # the longest any single answer may take (a busy machine)
PARSERS = ["httptools", "h11"]


def make_app(tmp: Path) -> FastAPI:
    """The app on a fresh database, guarded."""
    db = f"sqlite:///{tmp}/db"
    hub = Hub(Store(db), executor=ThreadPoolExecutor(1), bot_pace=0)
    app = create_app(Settings(database=db, secret="t"), hub=hub)
    return app


@contextlib.contextmanager
def live(app: FastAPI, **limits: Any) -> Iterator[int]:
    """``app`` served by uvicorn, with :func:`uvicorn_options`, in a thread; yields the port."""
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="error", **uvicorn_options(**limits)
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(60)


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A raw connection to the server from ``source`` (any 127.x address is this machine)."""
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(source, 0))


def read_answer(s: socket.socket) -> bytes:
    """Everything the server sends until it closes (a reset counts as a close)."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := s.recv(65536):
            data += chunk
    return data


def get(port: int, path: str, source: str = "127.0.0.1") -> tuple[int, bytes]:
    """One GET on a fresh connection: the status and the whole answer."""
    with connect(port, source) as s:
        with contextlib.suppress(OSError):  # a refused connection may be closed already
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data = read_answer(s)
    assert data.startswith(b"HTTP/1.1 "), data[:200]
    return int(data.split(b" ", 2)[1]), data


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


# ---------------------------------------------------------------------------- slow clients
@pytest.mark.parametrize("parser", PARSERS)
def test_slow_clients_are_capped_and_cut_off_while_others_are_served(
    tmp_path: Path, parser: str
) -> None:
    timeout, per_peer, crowd = 4.0, 40, 200
    with live(
        make_app(tmp_path), request_timeout=timeout, max_per_peer=per_peer, http=parser
    ) as port:
        slow: list[socket.socket] = []
        opened: dict[socket.socket, float] = {}
        try:
            for _ in range(crowd):
                s = connect(port)
                opened[s] = time.monotonic()
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
                slow.append(s)

            # (a) another client is answered at once while the crowd hangs on
            start = time.monotonic()
            status, body = get(port, "/api/games", source="127.0.0.2")
            assert status == 200 and b"super_dominoes" in body
            assert time.monotonic() - start < WAIT

            # (b) the crowd keeps trickling headers; the server closes every connection:
            # those over the cap at once (429), the others at the deadline (408)
            answers: dict[socket.socket, bytes] = {}
            closed_at: dict[socket.socket, float] = {}
            sel = selectors.DefaultSelector()
            for s in slow:
                s.setblocking(False)
                sel.register(s, selectors.EVENT_READ)
            give_up = time.monotonic() + timeout + WAIT
            next_trickle = 0.0
            while len(closed_at) < crowd and time.monotonic() < give_up:
                for key, _ in sel.select(0.2):
                    s = key.fileobj
                    assert isinstance(s, socket.socket)
                    try:
                        chunk = s.recv(65536)
                    except BlockingIOError:
                        continue
                    except ConnectionResetError:
                        chunk = b""
                    answers[s] = answers.get(s, b"") + chunk
                    if not chunk:
                        closed_at[s] = time.monotonic()
                        sel.unregister(s)
                if time.monotonic() >= next_trickle:
                    next_trickle = time.monotonic() + 0.5
                    for s in slow:
                        if s not in closed_at:
                            with contextlib.suppress(OSError):
                                s.send(b"X-Slow: 1\r\n")
            sel.close()
        finally:
            for s in slow:
                s.close()

    assert len(closed_at) == crowd, f"{crowd - len(closed_at)} slow connections still open"
    refused = [s for s in slow if status_of(answers[s]) == 429]
    held = [s for s in slow if status_of(answers[s]) != 429]
    assert len(held) == per_peer, [answers[s][:40] for s in held[:5]]
    assert all(closed_at[s] - opened[s] < WAIT for s in refused)
    for s in held:  # a 408 or, if a trickled byte crossed the close, just a close
        assert status_of(answers[s]) in (408, 0), answers[s][:80]
        lived = closed_at[s] - opened[s]
        assert timeout - 0.5 < lived < timeout + WAIT, lived


def test_websockets_count_toward_the_cap_and_free_their_place(tmp_path: Path) -> None:
    from websockets.sync.client import connect as ws_connect

    with live(make_app(tmp_path), max_per_peer=3) as port, contextlib.ExitStack() as stack:
        url = f"ws://127.0.0.1:{port}/ws/lobby"
        sockets = [stack.enter_context(ws_connect(url, open_timeout=WAIT)) for _ in range(3)]
        for ws in sockets:
            assert json.loads(ws.recv(timeout=WAIT))["type"] == "lobby"
        status, body = get(port, "/api/games")
        assert status == 429 and b"too many connections" in body
        assert b"\r\nretry-after: 5\r\n" in body.lower()  # when to come back
        assert get(port, "/api/games", source="127.0.0.2")[0] == 200
        sockets[0].close()
        deadline = time.monotonic() + WAIT
        while (status := get(port, "/api/games")[0]) == 429 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status == 200


def test_a_trusted_proxy_has_no_per_peer_cap(tmp_path: Path) -> None:
    with live(make_app(tmp_path), max_per_peer=2, trusted_proxies=["127.0.0.0/30"]) as port:
        held = [connect(port) for _ in range(5)]
        try:
            for s in held:
                s.sendall(b"GET / HTTP/1.1\r\n")
            assert get(port, "/api/games")[0] == 200
            assert get(port, "/api/games", source="127.0.0.5")[0] == 200
        finally:
            for s in held:
                s.close()
    proxied = uvicorn_options(trusted_proxies=["10.0.0.1"])
    assert proxied["proxy_headers"] and proxied["forwarded_allow_ips"] == ["10.0.0.1"]
    assert uvicorn_options()["proxy_headers"] is False  # nobody's X-Forwarded-For by default


@pytest.mark.parametrize("parser", PARSERS)
def test_the_request_deadline_and_head_size(tmp_path: Path, parser: str) -> None:
    timeout = 2.0
    with live(make_app(tmp_path), request_timeout=timeout, http=parser) as port:
        # half a request: 408 at the deadline
        with connect(port) as s:
            start = time.monotonic()
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
            answer = read_answer(s)
            assert status_of(answer) == 408 and timeout - 0.5 < time.monotonic() - start < WAIT
        # nothing at all: closed without a word
        with connect(port) as s:
            start = time.monotonic()
            assert read_answer(s) == b""
            assert timeout - 0.5 < time.monotonic() - start < WAIT
        # a body that trickles under a running request: cut
        with connect(port) as s:
            start = time.monotonic()
            s.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{"
            )
            read_answer(s)
            assert timeout - 0.5 < time.monotonic() - start < WAIT
        # a head of 100 KB: refused (431 here, 400 from h11's own limit)
        with connect(port) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
            with contextlib.suppress(OSError):
                for _ in range(100):
                    s.sendall(b"a" * 1000)
            assert status_of(read_answer(s)) in (400, 431)
        # a keep-alive connection that behaves outlives the deadline, request after request
        with connect(port) as s:
            for _ in range(3):
                s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = s.recv(65536)
                    assert chunk, "the server closed a keep-alive connection"
                    head += chunk
                assert status_of(head) == 200
                length = int(re.search(rb"content-length: (\d+)", head, re.I)[1])  # type: ignore[index]
                body = head.split(b"\r\n\r\n", 1)[1]
                while len(body) < length:
                    body += s.recv(65536)
                time.sleep(timeout * 0.75)


# ---------------------------------------------------------------------------- bodies
def chunks(total: int, size: int = 8192) -> Iterator[bytes]:
    """``total`` bytes of a JSON string in pieces (sent chunked: no Content-Length)."""
    yield b'{"game": "'
    for _ in range(total // size):
        yield b"a" * size
    yield b'"}'


def test_a_body_over_the_limit_gets_413_in_the_app_shape(tmp_path: Path) -> None:
    with live(make_app(tmp_path)) as port:
        url = f"http://127.0.0.1:{port}/api/tables"
        headers = {"Content-Type": "application/json"}
        with httpx.Client(timeout=WAIT) as client:
            declared = client.post(url, content=b"a" * (MAX_BODY + 1), headers=headers)
            streamed = client.post(url, content=chunks(20 * MAX_BODY), headers=headers)
            under = client.post(url, content=b"a" * (MAX_BODY - 10), headers=headers)
        assert "transfer-encoding" in streamed.request.headers
        assert "content-length" not in streamed.request.headers
        for r in (declared, streamed):
            assert r.status_code == 413
            assert r.json() == {
                "error": "too_large",
                "message": f"a request body has at most {MAX_BODY} bytes",
            }
            assert r.headers["x-content-type-options"] == "nosniff"
        assert under.status_code == 422
        assert under.json() == {"error": "bad_request", "message": "the body is not valid JSON"}


def test_validation_errors_name_the_field_without_echoing_it(tmp_path: Path) -> None:
    long = "g" * 60_000  # under the body limit: validation sees it
    with TestClient(make_app(tmp_path)) as client:
        r = client.post("/api/tables", json={"game": long, "seats": ["me"]})
        assert r.status_code == 422 and len(r.content) < 300
        assert r.json() == {
            "error": "bad_request",
            "message": "game: String should have at most 40 characters",
        }

        r = client.post("/api/tables", json={long: 1, "seats": 3})
        assert r.status_code == 422 and len(r.content) < 400
        body = r.json()
        assert body["error"] == "bad_request" and "\n" not in body["message"]
        assert "game: Field required" in body["message"]
        assert "seats: Input should be a valid list" in body["message"]
        assert "Extra inputs are not permitted" in body["message"]
        assert "g" * 40 not in body["message"]

        r = client.get("/api/replays?before=" + "x" * 10_000)
        assert r.status_code == 422 and len(r.content) < 300
        assert r.json()["message"].startswith("query.before: ")
        assert "x" * 40 not in r.text

        # a megabyte does not even reach validation at the default limit
        r = client.post("/api/tables", json={"game": "g" * 1_000_000, "seats": ["me"]})
        assert r.status_code == 413 and len(r.content) < 200


class Named(BaseModel):
    """A body with two checked fields."""

    name: str = Field(max_length=40)
    count: int


def test_a_megabyte_in_a_field_is_not_echoed() -> None:
    app = FastAPI()

    @app.post("/named")
    async def named(body: Named) -> dict[str, str]:
        return {"name": body.name}

    add_guards(app, max_body=4_000_000)
    with TestClient(app) as client:
        r = client.post("/named", json={"name": "m" * 1_000_000, "count": "m" * 1_000_000})
    assert r.status_code == 422 and len(r.content) < 300
    assert r.json() == {
        "error": "bad_request",
        "message": "name: String should have at most 40 characters; "
        "count: Input should be a valid integer, unable to parse string as an integer",
    }


# ---------------------------------------------------------------------------- headers
def test_every_http_answer_carries_the_security_headers(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        for path in ("/", "/t/abc", "/api/games", "/static/main.js", "/api/nope", "/favicon.ico"):
            r = client.get(path, headers={"Host": "play.example:8080"})
            assert r.status_code in (200, 404), path
            csp = r.headers["content-security-policy"]
            assert csp == content_security_policy("play.example:8080")
            directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
            assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
            assert directives["default-src"] == "'self'"
            assert directives["frame-ancestors"] == "'none'"
            assert directives["connect-src"] == (
                "'self' ws://play.example:8080 wss://play.example:8080"
            )
            assert "unsafe" not in csp
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "same-origin"
            assert "camera=()" in r.headers["permissions-policy"]
        # a Host header that is not a plain host[:port] never reaches the policy
        r = client.get("/", headers={"Host": "evil; script-src *"})
        assert "evil" not in r.headers["content-security-policy"]
        # the cookie the pages set is still there
        client.cookies.clear()
        assert "bonepile=" in client.get("/").headers["set-cookie"]


def test_the_pages_have_nothing_inline_for_the_policy_to_block() -> None:
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", index)
    assert scripts and all('src="/static/' in tag for tag in scripts)
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", index)  # no inline script body
    assert "<style" not in index and " style=" not in index
    assert not re.search(r"\son[a-z]+=", index)
    for js in STATIC.glob("*.js"):
        text = js.read_text(encoding="utf-8")
        assert not re.search(r"""style=["'\\]""", text), js.name  # style= in an HTML string
        assert "eval(" not in text and "new Function" not in text, js.name
    from bonepile.games import all_games

    for game in all_games():  # the rules pages go in through innerHTML
        for html in rules_html(game.name).values():
            assert " style=" not in html and "<script" not in html, game.name


# ---------------------------------------------------------------------------- API docs
def test_no_api_docs_unless_asked(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        for path in ("/openapi.json", "/docs", "/redoc", "/docs/oauth2-redirect"):
            assert client.get(path).status_code == 404, path

    hidden = FastAPI(**api_docs_options(False))
    assert hidden.openapi_url is None and hidden.docs_url is None and hidden.redoc_url is None

    shown = FastAPI(**api_docs_options(True))
    add_guards(shown, api_docs=True)
    with TestClient(shown) as client:
        assert client.get("/openapi.json").json()["openapi"].startswith("3.")
        docs = client.get("/docs")
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
        # the docs pages load their scripts from a CDN: no CSP there, the rest still
        assert "content-security-policy" not in docs.headers
        assert docs.headers["x-frame-options"] == "DENY"
        assert "content-security-policy" in client.get("/openapi.json").headers
