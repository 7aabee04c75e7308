"""The web server against the people who would abuse it: guessed deals, a database that goes
away, stolen and claimed seats, floods of tables, analyses and socket frames.

Each test plays what an auditor did to the server and checks what a player must see: no deal
foreseen, nothing shown then lost, seats that stay with their players, a table nobody can
starve. PostgreSQL is the machine's server at 127.0.0.1:5432 (database ``test``), reached
through a proxy the test cuts; its tests skip when it is unreachable, unless
BONEPILE_REQUIRE_POSTGRES=1.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from bonepile.games import get_game
from bonepile.record import read_record
from bonepile.server.limits import Limits
from bonepile.server.storage.store import Faults, Store, engine_url
from bonepile.server.tables.hub import STORAGE_DOWN, Hub
from bonepile.server.tables.room import TableConfig, restore
from bonepile.server.web.app import Settings, create_app
from tcp_proxy import TcpProxy
from test_server import live_table, my_turn_or_over, new_table, receive_state
from test_store import PG, _postgres_or_skip

pytestmark = pytest.mark.system

SECRET = "hostile-secret"


def app_on(store: Store, limits: Limits | None = None, clock: Any = time.time) -> Any:
    hub = Hub(store, executor=ThreadPoolExecutor(2), bot_pace=0.0, limits=limits, clock=clock)
    return create_app(Settings(database="unused", secret=SECRET), hub=hub)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app_on(Store(f"sqlite:///{tmp_path / 'db.sqlite'}"))) as c:
        yield c


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "since": -1, "width": 40})
    return receive_state(ws)


# ------------------------------------------------------------------------------ deals
def splitmix_inverses(out: int, index: int) -> list[int]:
    """Every match seed that SplitMix64, bonepile's old hand-seed mix, takes to ``out``."""
    mask = (1 << 64) - 1
    golden, step, mix2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB

    def unxorshift(y: int, shift: int) -> int:
        z = y
        for _ in range(64 // shift + 1):
            z = y ^ (z >> shift)
        return z & mask

    found = []
    for low in (0, 1):
        z = unxorshift((out << 1) | low, 31)
        z = unxorshift((z * pow(mix2, -1, 1 << 64)) & mask, 27)
        z = unxorshift((z * pow(step, -1, 1 << 64)) & mask, 30)
        found.append(((z - (index + 1) * step) * pow(golden, -1, 1 << 64)) & mask)
    return found


def test_a_published_hand_does_not_give_away_the_hands_still_to_be_dealt(
    client: TestClient,
) -> None:
    """The auditor read hand 1's seed from its published record, inverted the seed mix and
    dealt hand 2 before it was played. Now no inverse of a published seed is the match seed,
    and the hand seeds of one match share nothing a reader can use."""
    made = client.post(
        "/api/tables",
        json={
            "game": "block",
            "seats": ["greedy", "greedy"],
            "match": True,
            "options": {"target_score": 500},
        },
    ).json()
    hub = hub_of(client)
    with client.websocket_connect(f"/ws/table/{made['id']}") as ws:  # bots play while watched
        hello(ws, None)
        deadline = time.monotonic() + 120
        while len(client.get("/api/replays", params={"table": made["id"]}).json()) < 1:
            assert time.monotonic() < deadline, "the first hand did not end"
            time.sleep(0.2)
        ws.send_json({"type": "ping"})
    games = client.get("/api/replays", params={"table": made["id"]}).json()
    record = client.get(f"/api/replays/{games[-1]['id']}/record").text
    published = json.loads(record)
    assert "seed" in published  # a finished hand is published with its seed: that is fine...
    match_seed = hub.tables[made["id"]].room.config.seed
    assert match_seed not in splitmix_inverses(published["seed"], 0)  # ...it gives nothing back
    assert str(match_seed) not in record
    room = hub.tables[made["id"]].room
    seeds = [h.seed for h in room.match.hands]
    assert len(set(seeds)) == len(seeds)
    for k, seed in enumerate(seeds):
        for guess in splitmix_inverses(seed, k):
            assert guess != match_seed


# ------------------------------------------------------------------------------ outages
class Outage:
    """A database the test can take away and give back: SQLite through the store's fault
    hook (a full disk), PostgreSQL through a proxy the test cuts."""

    def __init__(self, kind: str, tmp: Path) -> None:
        self.kind = kind
        self.schema: str | None = None
        self.proxy: TcpProxy | None = None
        if kind == "sqlite":
            self.faults = Faults()
            self.url = f"sqlite:///{tmp / 'db.sqlite'}"
            self.store = Store(self.url, faults=self.faults)
        else:
            _postgres_or_skip()
            self.proxy = TcpProxy(("127.0.0.1", 5432))
            self.schema = "h_" + secrets.token_hex(6)
            self.url = f"postgresql://postgres@127.0.0.1:{self.proxy.port}/test"
            self.store = Store(self.url, schema=self.schema)

    def cut(self) -> None:
        if self.proxy is not None:
            self.proxy.cut()
        else:
            self.faults.active = True

    def restore(self) -> None:
        if self.proxy is not None:
            self.proxy.restore()
        else:
            self.faults.active = False

    def reopen(self) -> Store:
        """The same database, opened afresh (a restarted server)."""
        return Store(self.url, schema=self.schema)

    def close(self) -> None:
        if self.proxy is not None:
            self.proxy.close()
        if self.schema is not None:
            engine = create_engine(engine_url(PG))
            with engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
            engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def outage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Outage]:
    o = Outage(request.param, tmp_path)
    yield o
    o.close()


class Watcher:
    """Every message a socket receives, checked as it comes: the history shown never loses a
    move (nothing shown is rolled back)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.history: list[Any] = []
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.acks: list[dict[str, Any]] = []

    def next(self) -> dict[str, Any]:
        msg: dict[str, Any] = self.ws.receive_json()
        if msg["type"] == "state":
            history = msg["view"]["history"]
            assert history[: len(self.history)] == self.history, "a move shown was taken back"
            if msg["hand_number"] == 1:
                self.history = history
            self.states.append(msg)
        elif msg["type"] == "error":
            self.errors.append(msg)
        elif msg["type"] == "ack":
            self.acks.append(msg)
        return msg

    def until(self, ok: Callable[[dict[str, Any]], bool], limit: int = 400) -> dict[str, Any]:
        for _ in range(limit):
            msg = self.next()
            if ok(msg):
                return msg
        raise AssertionError("no such message came")

    def state(self) -> dict[str, Any]:
        return self.states[-1]


def test_a_storage_outage_shows_nothing_unsaved_and_the_table_resumes_by_itself(
    outage: Outage,
) -> None:
    with TestClient(app_on(outage.store)) as client:
        t = live_table(client)
        with client.websocket_connect(f"/ws/table/{t['id']}") as raw:
            ws = Watcher(raw)
            raw.send_json({"type": "hello", "token": t["token"], "since": -1, "width": 40})
            ws.until(lambda m: m["type"] == "state" and my_turn_or_over(m))
            state = ws.state()
            assert state["status"] == "playing" and state["notice"] is None
            stored_before = state["v"]

            outage.cut()
            action = state["view"]["legal"][0]
            move = {"type": "move", "id": "during", "v": state["v"], "action": action}
            raw.send_json(move)
            refused = ws.until(lambda m: m["type"] == "error")
            assert refused["code"] == "storage" and refused["id"] == "during"
            assert refused["message"] == STORAGE_DOWN
            told = ws.state()  # the table's state with the notice comes before or after
            if told["notice"] is None:
                told = ws.until(lambda m: m["type"] == "state" and m["notice"] is not None)
            assert told["notice"]["message"] == STORAGE_DOWN
            assert (
                told["v"] == stored_before and told["view"]["history"] == state["view"]["history"]
            )

            # nothing else moves meanwhile, and a new table is a 503 that says why
            made = client.post("/api/tables", json={"game": "block", "seats": ["me", "greedy"]})
            assert made.status_code == 503 and made.headers["retry-after"]
            assert made.json()["error"] == "storage" and "cannot save" in made.json()["message"]
            raw.send_json(move)  # the client sends its move again: still waiting
            again = ws.until(lambda m: m["type"] == "error")
            assert again["code"] == "storage"
            time.sleep(1.0)
            assert ws.state()["v"] == stored_before

            outage.restore()
            back = ws.until(lambda m: m["type"] == "state" and m["notice"] is None, limit=50)
            assert back["v"] >= stored_before
            raw.send_json(move)  # and once more: now it is played, once
            ws.until(lambda m: m["type"] == "ack" and m["id"] == "during")
            assert sum(1 for h in ws.state()["view"]["history"] if h["seat"] == t["seat"]) >= 1
            shown = ws.until(lambda m: m["type"] == "state" and m["v"] > back["v"])
            # the table goes on: the bot answers
            while not my_turn_or_over(shown):
                shown = ws.until(lambda m: m["type"] == "state")
            last_shown = ws.state()
    # a restarted server finds everything that was shown
    store = outage.reopen()
    stored = store.table(t["id"])
    assert stored is not None
    room = restore(stored.id, TableConfig.from_json(stored.config), stored.entries)
    assert room.version >= last_shown["v"]
    shown_moves = [h["action"] for h in last_shown["view"]["history"]]
    assert [str(a) for a in room.state.moves][: len(shown_moves)] == shown_moves
    store.close()


def test_a_write_whose_answer_was_lost_is_read_back_not_played_twice(tmp_path: Path) -> None:
    """A commit that reached the database but whose answer never came back (a connection cut
    at the wrong moment): the table is read back from storage before its next change, and
    the player's resent move is acknowledged, not played again."""
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    app = app_on(store)
    with TestClient(app) as client:
        hub = hub_of(client)
        t = new_table(client, "block", ["me", "greedy"])
        with client.websocket_connect(f"/ws/table/{t['id']}") as raw:
            ws = Watcher(raw)
            raw.send_json({"type": "hello", "token": t["token"], "since": -1, "width": 40})
            mine = ws.until(lambda m: m["type"] == "state" and my_turn_or_over(m))
            if mine["status"] == "over":
                pytest.skip("this deal was blocked at once")  # pragma: no cover
            table = hub.tables[t["id"]]
            room = table.room
            # the move is stored behind the server's back, as the lost commit was
            trial = room.copy()
            action = mine["view"]["legal"][0]
            trial.move(t["seat"], action, "lost", trial.version, time.time())
            store.append(t["id"], trial.take_journal(), time.time())
            table.suspect = True  # what the failed write marked
            raw.send_json({"type": "move", "id": "lost", "v": mine["v"], "action": action})
            ws.until(lambda m: m["type"] == "ack" and m["id"] == "lost")
            played = [h["action"] for h in ws.state()["view"]["history"] if h["seat"] == t["seat"]]
            assert played[: len(played)].count(action) == 1


# ------------------------------------------------------------------------------ seats
def test_a_claim_on_another_device_evicts_the_old_one_at_once(client: TestClient) -> None:
    t = new_table(client, "block", ["me", "open"])
    phone_cookies = dict(client.cookies)
    with client.websocket_connect(f"/ws/table/{t['id']}") as phone:
        first = hello(phone, t["token"])
        code = first["claim"]
        assert code and len(code.replace("-", "")) == 10
        client.cookies.clear()  # the laptop: another browser
        got = client.post(f"/api/tables/{t['id']}/claim", json={"code": code.lower()})
        assert got.status_code == 200 and got.json()["seat"] == t["seat"]
        laptop_token = got.json()["token"]
        told = phone.receive_json()
        while told["type"] != "error":
            told = phone.receive_json()
        assert told["code"] == "token" and "claim" in told["message"]
        demoted = receive_state(phone)
        assert demoted["you"] is None and demoted["claim"] is None
        assert demoted["view"]["hand"] in ([], None) or "hand" not in demoted["view"]
        # the old tab's moves are refused
        phone.send_json({"type": "move", "id": "x", "v": demoted["v"], "action": "draw"})
        refused = phone.receive_json()
        while refused["type"] != "error":
            refused = phone.receive_json()
        assert refused["code"] == "watching"
    # the old token no longer sits anyone, the old code no longer claims, the new one does
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        assert ws.receive_json()["code"] == "token"
    client.cookies.clear()
    for k, v in phone_cookies.items():
        client.cookies.set(k, v)
    assert client.get(f"/api/tables/{t['id']}").json()["token"] is None
    again = client.post(f"/api/tables/{t['id']}/claim", json={"code": code})
    assert again.status_code == 400
    with client.websocket_connect(f"/ws/table/{t['id']}") as laptop:
        mine = hello(laptop, laptop_token)
        assert mine["you"] == t["seat"] and mine["claim"] != code


def test_a_second_tab_gets_the_same_token_and_the_first_keeps_playing(
    client: TestClient,
) -> None:
    t = new_table(client, "block", ["me", "greedy"])
    first = client.get(f"/api/tables/{t['id']}").json()
    second = client.get(f"/api/tables/{t['id']}").json()
    assert first["token"] == second["token"] == t["token"]
    with client.websocket_connect(f"/ws/table/{t['id']}") as tab1:
        state = hello(tab1, t["token"])
        with client.websocket_connect(f"/ws/table/{t['id']}") as tab2:
            hello(tab2, second["token"])
        state = receive_state(tab1, my_turn_or_over) if not my_turn_or_over(state) else state
        if state["status"] == "playing":
            action = state["view"]["legal"][0]
            tab1.send_json({"type": "move", "id": "m", "v": state["v"], "action": action})
            reply = tab1.receive_json()
            while reply["type"] not in ("ack", "error"):
                reply = tab1.receive_json()
            assert reply["type"] == "ack"


def _peers(app: Any) -> Any:
    """``app`` seen from the network address a request names in ``x-test-peer`` (the test
    client's requests all come from one address otherwise)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        peer = dict(scope.get("headers", [])).get(b"x-test-peer")
        if peer is not None:
            scope = {**scope, "client": (peer.decode(), 50000)}
        await app(scope, receive, send)

    return wrapped


def test_claim_codes_cannot_be_guessed_and_a_stranger_cannot_lock_the_seat(
    tmp_path: Path,
) -> None:
    limits = Limits(claims_per_table=5, claims_per_client=50)
    app = _peers(app_on(Store(f"sqlite:///{tmp_path / 'db.sqlite'}"), limits))
    with TestClient(app) as client:
        t = new_table(client, "block", ["me", "open"])
        with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
            ws.send_json({"type": "hello", "token": t["token"]})
            code = receive_state(ws)["claim"]
        url = f"/api/tables/{t['id']}/claim"

        def claim(peer: str, guess: str) -> Any:
            client.cookies.clear()  # a guesser may throw its cookie away each time
            return client.post(url, json={"code": guess}, headers={"x-test-peer": peer})

        # a guesser's wrong codes: the table takes five, then refuses that guesser
        answers = [claim("203.0.113.1", f"WRONG{i:05d}") for i in range(8)]
        assert [a.status_code for a in answers[:5]] == [400] * 5
        assert all(a.status_code == 429 for a in answers[5:])
        assert int(answers[-1].headers["retry-after"]) > 0
        assert "try again" in answers[-1].json()["message"]
        # even its right code waits: it has guessed wrong here
        assert claim("203.0.113.1", code).status_code == 429
        # at a table past its wrong codes, another stranger has one try, then waits
        assert claim("203.0.113.2", "WRONG99999").status_code == 400
        assert claim("203.0.113.2", "WRONG99998").status_code == 429
        # and the seat's player on a new phone, who never guessed wrong, takes the seat back
        taken = claim("198.51.100.7", code)
        assert taken.status_code == 200, taken.text
        assert taken.json()["seat"] == t["seat"]


def test_a_spectator_cannot_speak_as_a_seated_player(client: TestClient) -> None:
    t = new_table(client, "block", ["me", "greedy"], name="Ann")
    client.cookies.clear()
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        hello(ws, None)
        ws.send_json({"type": "chat", "text": "resign, Bob", "name": "Ann"})
        said = receive_state(ws, lambda m: m["chat"])["chat"][-1]
    assert said["seat"] is None and said["watching"] is True and said["name"] == "Ann"


# ------------------------------------------------------------------------------ floods
def test_one_client_cannot_flood_the_server_with_tables(tmp_path: Path) -> None:
    limits = Limits(tables_per_client=3, tables_per_address=5, max_tables=7)
    with TestClient(app_on(Store(f"sqlite:///{tmp_path / 'db.sqlite'}"), limits)) as client:
        made = [
            client.post("/api/tables", json={"game": "block", "seats": ["me", "open"]})
            for _ in range(4)
        ]
        assert [m.status_code for m in made] == [200, 200, 200, 429]
        assert "try again" in made[-1].json()["message"]
        client.cookies.clear()  # a fresh cookie: the address still counts
        more = [
            client.post("/api/tables", json={"game": "block", "seats": ["me", "open"]})
            for _ in range(3)
        ]
        assert [m.status_code for m in more] == [200, 200, 429]


def test_the_server_holds_a_bounded_number_of_tables(tmp_path: Path) -> None:
    limits = Limits(max_tables=2)
    with TestClient(app_on(Store(f"sqlite:///{tmp_path / 'db.sqlite'}"), limits)) as client:
        for _ in range(2):
            assert client.post("/api/tables", json={"game": "block", "seats": ["me", "open"]})
        full = client.post("/api/tables", json={"game": "block", "seats": ["me", "open"]})
        assert full.status_code == 503 and full.json()["error"] == "busy"


class FakeClock:
    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


def test_abandoned_tables_are_closed_and_leave_the_lobby_and_memory(tmp_path: Path) -> None:
    clock = FakeClock()
    limits = Limits(open_ttl=60.0, idle_ttl=600.0, watch_ttl=120.0)
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    with TestClient(app_on(store, limits, clock)) as client:
        hub = hub_of(client)
        waiting = new_table(client, "block", ["me", "open"])
        bots = client.post("/api/tables", json={"game": "block", "seats": ["greedy", "greedy"]})
        people = new_table(client, "block", ["me", "greedy"])
        assert {t["id"] for t in client.get("/api/lobby").json()} == {
            waiting["id"],
            bots.json()["id"],
            people["id"],
        }
        import asyncio

        def tick() -> None:
            client.portal.call(hub.tick)  # type: ignore[union-attr]

        clock.t += 61
        tick()
        listed = {t["id"] for t in client.get("/api/lobby").json()}
        assert listed == {bots.json()["id"], people["id"]}
        clock.t += 60
        tick()
        assert {t["id"] for t in client.get("/api/lobby").json()} == {people["id"]}
        clock.t += 600
        tick()
        assert client.get("/api/lobby").json() == []
        clock.t += 120
        tick()
        assert hub.tables == {}
        assert asyncio is not None
    stored = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    assert stored.tables(("open", "playing")) == []
    assert {t.status for t in stored.tables(("closed",))} == {"closed"}


def test_a_bots_only_table_plays_only_while_watched(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "block", "seats": ["greedy", "greedy"]})
    hub = hub_of(client)
    time.sleep(0.5)
    assert hub.tables[made.json()["id"]].room.state.moves == ()
    with client.websocket_connect(f"/ws/table/{made.json()['id']}") as ws:
        hello(ws, None)
        receive_state(ws, lambda m: m["view"]["history"])


def finished_hand(client: TestClient, game: str) -> str:
    """The id of a hand of ``game`` two greedy bots played to its end (watched: bots play
    only while someone watches)."""
    made = client.post("/api/tables", json={"game": game, "seats": ["greedy", "greedy"]})
    with client.websocket_connect(f"/ws/table/{made.json()['id']}") as ws:
        hello(ws, None)
        receive_state(ws, lambda m: m["status"] == "over")
    got: str = client.get("/api/replays", params={"table": made.json()["id"]}).json()[0]["id"]
    return got


def test_one_client_gets_one_analysis_at_a_time(client: TestClient) -> None:
    game = finished_hand(client, "block")
    hub = hub_of(client)
    release = threading.Event()
    original = hub.background

    class Slow(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            def slow() -> Any:
                release.wait(30)
                return fn(*args, **kwargs)

            return original.submit(slow)

    hub.background = Slow(1)
    # the opening position: a block hand can end at its first move (about one deal in a
    # hundred, when nobody holds a tile for the lead), so position 1 may have nobody to move
    where = {"ply": 0}
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(client.get, f"/api/replays/{game}/analysis", params=where)
        time.sleep(0.5)
        second = client.get(f"/api/replays/{game}/analysis", params=where)
        client.cookies.clear()  # a fresh cookie: the address still has its analysis running
        third = client.get(f"/api/replays/{game}/analysis", params=where)
        release.set()
        assert second.status_code == 429 and "one analysis at a time" in second.json()["message"]
        assert third.status_code == 429
        answer = first.result(timeout=60)
        assert answer.status_code == 200, answer.text


# ------------------------------------------------------------------------------ socket frames
def test_hostile_frames_get_an_error_and_the_socket_lives_on(client: TestClient) -> None:
    t = new_table(client, "block", ["me", "greedy"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        hello(ws, t["token"])
        ws.send_bytes(b"\x00\x01binary")
        got = ws.receive_json()
        while got["type"] != "error":
            got = ws.receive_json()
        assert "binary" in got["message"]
        ws.send_text("[" * 2000 + "]" * 2000)
        got = ws.receive_json()
        while got["type"] != "error":
            got = ws.receive_json()
        assert got["code"] == "bad_message"
        ws.send_json({"type": "ping"})
        got = ws.receive_json()
        while got["type"] != "pong":
            got = ws.receive_json()


def test_one_address_cannot_flood_requests(tmp_path: Path) -> None:
    """Past its rate, an address is refused before the app does any work for it."""
    limits = Limits(requests_per_second=0.5, request_burst=5)
    with TestClient(app_on(Store(f"sqlite:///{tmp_path / 'db.sqlite'}"), limits)) as client:
        answers = []
        for _ in range(8):
            answers.append(client.get("/api/games"))
            client.cookies.clear()  # fresh cookies change nothing
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 3
    refused = answers[-1]
    assert refused.json()["error"] == "too_many" and int(refused.headers["retry-after"]) >= 1
    assert "set-cookie" not in refused.headers  # no session was even made for it


def test_a_socket_that_floods_is_slowed_down(tmp_path: Path) -> None:
    limits = Limits(messages_per_second=1.0, message_burst=5)
    with TestClient(app_on(Store(f"sqlite:///{tmp_path / 'db.sqlite'}"), limits)) as client:
        t = new_table(client, "block", ["me", "greedy"])
        with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
            hello(ws, t["token"])
            for _ in range(20):
                ws.send_json({"type": "ping"})
            replies = []
            while len(replies) < 20:
                m = ws.receive_json()
                if m["type"] in ("pong", "error"):
                    replies.append(m)
    assert sum(m["type"] == "pong" for m in replies) <= 7
    assert any(m.get("code") == "too_many" for m in replies)


# ------------------------------------------------------------------------------ replays
def test_a_replay_record_is_the_hand_alone(client: TestClient) -> None:
    game = finished_hand(client, "draw")
    hand = read_record(client.get(f"/api/replays/{game}/record").text)
    assert hand.is_over and get_game("draw").name == hand.game.name


@pytest.mark.parametrize(
    ("priority", "policy", "lower"),
    [("idle", os.SCHED_IDLE, 10), ("low", os.SCHED_OTHER, 10), ("normal", os.SCHED_OTHER, 0)],
)
def test_the_background_workers_run_at_the_priority_asked(
    priority: str, policy: int, lower: int
) -> None:
    """``--background-priority``: idle (the default) is Linux's idle scheduling class, niced;
    low is niced; normal is the server's own priority. Read from the system's own record of
    each worker (an idle-class worker asked to answer would wait as long as a busy machine
    keeps every core busy)."""
    from bonepile.server.tables.thinkers import bot_pool
    from test_server_processes import children

    def workers() -> set[int]:
        found = set()
        for pid in children(os.getpid()):
            with contextlib.suppress(OSError):
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.add(pid)
        return found

    def scheduling(pid: int) -> tuple[int, int]:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[38]), int(fields[16])  # the policy and the nice value

    before = workers()
    pool = bot_pool(1, priority)
    started: set[int] = set()
    try:
        want = (policy, min(19, os.nice(0) + lower))
        deadline = time.monotonic() + 60
        got = None
        while got != want and time.monotonic() < deadline:
            time.sleep(0.1)
            started = workers() - before
            got = scheduling(next(iter(started))) if started else None
        assert got == want, (priority, got)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        for pid in started:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
