"""Real ``bonepile serve`` processes forming one site on the machine's PostgreSQL (a fresh
database for each test) and Redis, and a player that plays through any of them.

The site's tests skip, saying so, when PostgreSQL or Redis cannot be reached, unless
BONEPILE_REQUIRE_POSTGRES=1 or BONEPILE_REQUIRE_REDIS=1 (CI sets both)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import secrets
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bonepile.server.storage.store import Store, engine_url
from test_server_crash import Server

PG = "postgresql://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/0"


def services_or_skip() -> None:
    """Skip (or fail, where they are required) without PostgreSQL and Redis."""
    from test_store import _postgres_or_skip

    _postgres_or_skip()
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except Exception as e:
        if os.environ.get("BONEPILE_REQUIRE_REDIS") == "1":
            pytest.fail(f"Redis at 127.0.0.1:6379 is required and not reachable: {e}")
        pytest.skip(f"Redis at 127.0.0.1:6379 is not reachable: {e}")


class Site:
    """A fresh database, and the site's processes on it (started with :meth:`add`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = "bp_" + secrets.token_hex(5)
        admin = create_engine(engine_url(PG), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{self.name}"'))
        admin.dispose()
        self.url = PG.rsplit("/", 1)[0] + "/" + self.name
        self.servers: list[Server] = []

    def add(self, *extra: str, redis: str | None = REDIS) -> Server:
        """One more process of the site (started)."""
        options = ["--database", self.url, *extra]
        if redis is not None:
            options += ["--redis", redis]
        server = Server(self.folder / f"s{len(self.servers)}" / "data", options)
        self.servers.append(server)
        server.start()
        return server

    def store(self) -> Store:
        return Store(self.url)

    def journal(self, table: str) -> list[dict[str, Any]]:
        """The table's stored journal entries, in order."""
        store = self.store()
        try:
            stored = store.table(table)
            assert stored is not None
            versions = [v for v, _ in stored.entries]
            assert versions == list(range(1, len(versions) + 1)), "a gap in the journal"
            return [e for _, e in stored.entries]
        finally:
            store.close()

    def _rows(self, sql: str, **params: Any) -> list[Any]:
        """The rows of one query on the site's database."""
        engine = create_engine(engine_url(self.url))
        try:
            with engine.connect() as conn:
                return list(conn.execute(text(sql), params).all())
        finally:
            engine.dispose()

    def lease(self, table: str) -> tuple[int | None, int]:
        """The pid of the process that owns the table (``None``: nobody live) and its epoch."""
        pid, epoch = self._rows(
            "SELECT p.pid, l.epoch FROM table_leases l LEFT JOIN processes p"
            " ON p.id = l.owner AND p.expires > extract(epoch FROM clock_timestamp())"
            " WHERE l.table_id = :t",
            t=table,
        )[0]
        return pid, int(epoch)

    def live_pids(self) -> set[int]:
        """The pids of the site's live processes (in the database)."""
        rows = self._rows(
            "SELECT pid FROM processes WHERE mode = 'site'"
            " AND expires > extract(epoch FROM clock_timestamp())"
        )
        return {int(r[0]) for r in rows}

    def settled_workers(
        self, count: int, gone: frozenset[int] = frozenset(), within: float = 60.0
    ) -> set[int]:
        """The live pids once there are ``count`` of them and none of ``gone`` (a busy machine
        starts a worker slowly), or as they are after ``within`` seconds."""
        deadline = time.monotonic() + within
        live = self.live_pids()
        while (len(live) != count or live & gone) and time.monotonic() < deadline:
            time.sleep(0.5)
            live = self.live_pids()
        return live

    def close(self) -> str:
        """Stop every process, drop the database and the site's Redis keys; every log."""
        logs = []
        key = None
        for server in self.servers:
            server.kill()
            server.log.close()
            logs.append(server.log_path.read_text(errors="replace"))
        try:
            key = self._rows("SELECT key FROM site WHERE id = 1")[0][0]
        except Exception:
            key = None
        admin = create_engine(engine_url(PG), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        admin.dispose()
        if key:
            import redis

            client = redis.Redis.from_url(REDIS)
            keys = list(client.scan_iter(match=f"bp:{key}:*"))
            if keys:
                client.delete(*keys)
            client.close()
        return "\n".join(logs)


class Browser:
    """A person's browser: its cookie (any process of the site takes it) and its requests."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def post(self, server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            server.base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with self.opener.open(req, timeout=60) as r:
            got: dict[str, Any] = json.loads(r.read())
            return got

    def get(self, server: Server, path: str) -> Any:
        with self.opener.open(server.base + path, timeout=60) as r:
            return json.loads(r.read())


class Seat:
    """A socket at a table through one process, as a player (``token``) or watching."""

    def __init__(
        self, server: Server, table: str, token: str | None, origin: str | None = None
    ) -> None:
        """``origin``: the Origin header a browser would send (a program sends none)."""
        self.address = f"ws://127.0.0.1:{server.port}/ws/table/{table}"
        self.origin = origin
        self.token = token
        self.last: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None
        self.acked: list[str] = []
        self.reconnects = 0
        self.ws = self._connect()

    def _connect(self) -> ClientConnection:
        # entered as a context manager (closed by :meth:`close`)
        ws: ClientConnection = connect(
            self.address, open_timeout=60, origin=self.origin
        ).__enter__()
        ws.send(json.dumps({"type": "hello", "token": self.token, "since": -1, "width": 40}))
        return ws

    def _reconnect(self) -> None:
        """The socket closed (its process died): connect again, as the clients do, and send
        the unanswered move again with its id."""
        self.reconnects += 1
        deadline = time.monotonic() + 60
        while True:
            try:
                self.ws = self._connect()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        if self.pending is not None:
            self.ws.send(json.dumps(self.pending))

    def read(self, timeout: float) -> None:
        """Take what came within ``timeout`` s: states (the last one kept), acks, errors (a
        move refused for a storage fault is sent again, with its id, as the clients do)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                msg = json.loads(self.ws.recv(timeout=max(0.0, left)))
            except TimeoutError:
                return
            except ConnectionClosed:
                self._reconnect()
                continue
            if msg["type"] == "state":
                self.last = msg
            elif msg["type"] == "patch":
                raise AssertionError("the test's sockets ask for whole states")
            elif msg["type"] == "ack" and self.pending and msg["id"] == self.pending["id"]:
                self.acked.append(self.pending["id"])
                self.pending = None
            elif msg["type"] == "error" and self.pending and msg["id"] == self.pending["id"]:
                if msg["code"] == "storage":
                    time.sleep(0.5)
                    self.ws.send(json.dumps(self.pending))
                else:
                    self.pending = None  # refused (stale...): the next state says what now
            if left <= 0:
                return

    def move(self) -> bool:
        """Send this seat's first legal move, if it has one and no move is unanswered."""
        if self.pending is not None or self.last is None or self.last["status"] != "playing":
            return False
        legal = self.last["view"]["legal"]
        if not legal:
            return False
        self.pending = {"type": "move", "id": uuid.uuid4().hex, "v": self.last["v"],
                        "action": legal[0]}  # fmt: skip
        try:
            self.ws.send(json.dumps(self.pending))
        except ConnectionClosed:
            self._reconnect()
        return True

    def close(self) -> None:
        self.ws.close()


def play(seats: list[Seat], moves: int | None = None, within: float = 180.0) -> None:
    """Play through ``seats`` until the hand ends (or ``moves`` more were acknowledged),
    failing past ``within`` seconds."""
    start = sum(len(s.acked) for s in seats)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for s in seats:
            s.read(0.05)
            s.move()
        done = sum(len(s.acked) for s in seats) - start
        over = all(s.last is not None and s.last["status"] != "playing" for s in seats)
        if over and not any(s.pending for s in seats):
            return
        if moves is not None and done >= moves:
            return
    raise AssertionError(f"the hand did not go on within {within} s")


__all__ = ["PG", "REDIS", "Browser", "Seat", "Site", "play", "services_or_skip"]
