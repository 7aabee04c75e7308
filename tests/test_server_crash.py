"""A real ``bonepile serve`` killed with SIGKILL in the middle of games restarts with every
table where it was: no acknowledged move is lost, and the players sit where they sat."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from websockets.sync.client import ClientConnection, connect

from live_server import free_port

pytestmark = pytest.mark.system


class Server:
    """``bonepile serve`` in a child process on a data folder (``extra``: more options)."""

    def __init__(self, data: Path, extra: list[str] | None = None) -> None:
        self.data = data
        self.extra = list(extra or [])
        self.port = free_port()
        self.proc: subprocess.Popen[str] | None = None
        data.parent.mkdir(parents=True, exist_ok=True)
        self.log_path = data.parent / "server.log"
        self.log = open(self.log_path, "ab")  # noqa: SIM115 (closed by the fixture)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> str:
        """Start it; the first line it prints (the address to open)."""
        command = [sys.executable, "-m", "bonepile", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--data", str(self.data), "--bot-pace", "0"]
        command += self.extra
        self.proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/api/games", timeout=5):
                    return first
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not answer within 60 s")

    def kill(self) -> None:
        """SIGKILL, no goodbye (the whole process group: the bots' workers too)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            got: dict[str, Any] = json.loads(r.read())
            return got

    def socket(self, table: str) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/ws/table/{table}", open_timeout=30)


def _hello(ws: ClientConnection, token: str) -> None:
    ws.send(json.dumps({"type": "hello", "token": token, "since": -1, "width": 40}))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "data")
    yield s
    s.kill()
    s.log.close()
    log = s.log_path.read_text(errors="replace")
    print(log[-5000:])  # shown when the test fails
    assert "Traceback" not in log, log[-3000:]


def _recv(ws: ClientConnection) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=60))
    return msg


def _my_turn(ws: ClientConnection) -> dict[str, Any]:
    """The next state in which this seat has a move (or the hand is over)."""
    while True:
        msg = _recv(ws)
        if msg["type"] == "state" and (msg["view"]["legal"] or msg["status"] != "playing"):
            return msg


def _play(
    ws: ClientConnection, moves: int, acked: list[str], msg: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Play up to ``moves`` moves (from the state ``msg`` when it is already this seat's
    turn), each sent once and recorded when acknowledged."""
    if msg is None or not msg["view"]["legal"]:
        msg = _my_turn(ws)
    for _ in range(moves):
        if msg["status"] != "playing":
            break
        action = msg["view"]["legal"][0]
        move_id = uuid.uuid4().hex  # unique per table: a known id is a resend, acked and not played
        ws.send(json.dumps({"type": "move", "id": move_id, "v": msg["v"], "action": action}))
        newer = None
        while True:
            reply = _recv(ws)
            if reply["type"] == "ack":
                acked.append(action)
                break
            assert reply["type"] == "state", reply
            newer = reply
        # the state the move made may already be this seat's next turn, or the hand's end (a
        # move that ends the hand is answered by the final state before the ack)
        if newer and (newer["view"]["legal"] or newer["status"] != "playing"):
            msg = newer
        else:
            msg = _my_turn(ws)
    return msg


def _mine(state: dict[str, Any], seat: int) -> list[str]:
    return [h["action"] for h in state["view"]["history"] if h["seat"] == seat]


def test_a_server_killed_mid_game_restarts_with_every_table_and_every_acknowledged_move(
    server: Server,
) -> None:
    first = server.start()
    assert f"http://localhost:{server.port}/" in first, first
    tables = [
        server.post("/api/tables", {"game": game, "seats": seats})
        for game, seats in [
            ("block", ["me", "greedy"]),
            ("super_dominoes", ["me", "random", "random", "random"]),
            ("double_double", ["me", "random"]),
        ]
    ]
    acked: dict[str, list[str]] = {t["id"]: [] for t in tables}
    before: dict[str, dict[str, Any]] = {}
    for t in tables:
        with server.socket(t["id"]) as ws:
            _hello(ws, t["token"])
            before[t["id"]] = _play(ws, 3, acked[t["id"]])
    # one more move on the first table, and the kill comes right after its acknowledgement
    t0 = tables[0]
    with server.socket(t0["id"]) as ws:
        _hello(ws, t0["token"])
        _play(ws, 1, acked[t0["id"]])
        server.kill()

    server.start()
    for t in tables:
        with server.socket(t["id"]) as ws:
            _hello(ws, t["token"])
            back = _recv(ws)
            while back["type"] != "state":
                back = _recv(ws)
            assert back["you"] == t["seat"], "the player's token still names their seat"
            assert _mine(back, t["seat"])[: len(acked[t["id"]])] == acked[t["id"]]
            assert back["v"] >= before[t["id"]]["v"]
            if back["status"] == "playing":
                # and the game goes on from there
                after = _play(ws, 1, acked[t["id"]], back)
                assert len(_mine(after, t["seat"])) > len(_mine(back, t["seat"])) or (
                    after["status"] != "playing"
                )
