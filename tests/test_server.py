"""The web app through its HTTP API and WebSockets (Starlette's test client, no browser).

A hand against bots from the first request to the kept replay; two players; spectators see
no hand; every malformed, stale, illegal or out-of-turn message gets one error and changes
nothing; a reconnection and a resent move lose nothing; a restarted server has every table
where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from bonepile.record import read_record
from bonepile.server.storage.store import Store
from bonepile.server.tables.hub import Hub
from bonepile.server.tables.patch import apply
from bonepile.server.web.app import Settings, create_app
from bonepile.view import view

TILE = re.compile(r'"(\d{1,2}-\d{1,2})"')


def make_client(db: Path) -> TestClient:
    store = Store(f"sqlite:///{db}")
    hub = Hub(store, executor=ThreadPoolExecutor(2), bot_pace=0.0)
    app = create_app(Settings(database="unused", secret="test-secret"), hub=hub)
    return TestClient(app)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "db.sqlite") as c:
        yield c


def receive_state(ws: Any, until: Any = None, limit: int = 400) -> dict[str, Any]:
    """The next state message (skipping others), or the first that satisfies ``until``."""
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == "state" and (until is None or until(msg)):
            return msg
    raise AssertionError("no such state came")


def receive_other(ws: Any, limit: int = 50) -> dict[str, Any]:
    """The next message that is not a state (states come whenever someone arrives or
    leaves, so that everyone sees who is here)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] != "state":
            return msg
    raise AssertionError("only states came")


def table_for_two(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A block table made by this client, with Bob joined from another browser: the table's
    answer (with the maker's token) and Bob's."""
    t = new_table(client, "block", ["me", "open"])
    client.cookies.clear()
    bob: dict[str, Any] = client.post(f"/api/tables/{t['id']}/join", json={"name": "Bob"}).json()
    return t, bob


def my_turn_or_over(msg: dict[str, Any]) -> bool:
    return bool(msg["view"]["legal"]) or msg["status"] == "over"


def play_to_the_end(ws: Any, first: dict[str, Any]) -> dict[str, Any]:
    msg = first
    n = 0
    while msg["status"] != "over":
        if not msg["view"]["legal"]:
            msg = receive_state(ws, my_turn_or_over)
            continue
        n += 1
        ws.send_json(
            {"type": "move", "id": f"m{n}", "v": msg["v"], "action": msg["view"]["legal"][-1]}
        )
        newer: dict[str, Any] | None = None
        while True:
            reply = ws.receive_json()
            if reply["type"] == "ack":
                assert reply["id"] == f"m{n}"
                break
            assert reply["type"] == "state", reply
            newer = reply
        # the state after the move comes before its ack; it may already be our turn again
        # (an extra turn) or the end
        if newer is not None and newer["v"] > msg["v"] and my_turn_or_over(newer):
            msg = newer
        else:
            msg = receive_state(ws, my_turn_or_over)
    return msg


def new_table(
    client: TestClient, game: str = "block", seats: list[str] | None = None, **kw: Any
) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": game, "seats": seats or ["me", "greedy"], **kw})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def live_table(
    client: TestClient, game: str = "block", seats: list[str] | None = None
) -> dict[str, Any]:
    """A new table (by default block against the greedy bot) whose hand is still on at our
    first turn: about one block deal in a hundred is blocked at the lead (a double nobody can
    follow) and over before we move, so such a table is set aside for another."""
    for _ in range(5):
        t = new_table(client, game, seats)
        with client.websocket_connect(f"/ws/table/{t['id']}") as raw:
            raw.send_json({"type": "hello", "token": t["token"], "since": -1, "width": 40})
            state = receive_state(raw, my_turn_or_over)
        if state["status"] == "playing":
            return t
    raise AssertionError("five deals in a row were over before our first move")


# ------------------------------------------------------------------------------ a whole hand
@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("block", ["me", "greedy"]),
        ("super_dominoes", ["me", "random", "random", "random"]),
        ("doubles", ["me", "random", "random"]),
        ("double_double", ["me", "random"]),
        ("draw", ["random", "me"]),
    ],
)
def test_a_hand_against_bots_from_the_first_request_to_the_replay(
    client: TestClient, game: str, seats: list[str]
) -> None:
    t = new_table(client, game, seats)
    assert t["seat"] == seats.index("me") and t["token"]
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"], "since": -1, "width": 40})
        first = receive_state(ws)
        assert first["you"] == t["seat"] and first["claim"] and first["scene"]["tiles"] is not None
        last = play_to_the_end(ws, first)
    assert last["view"]["result"] is not None and last["view"]["revealed"]
    games = client.get("/api/replays", params={"table": t["id"]}).json()
    assert len(games) == 1 and games[0]["game"] == game
    replay = client.get(f"/api/replays/{games[0]['id']}").json()
    frames = replay["frames"]
    assert frames[-1]["result"] == last["view"]["result"]
    assert all(len(f["hands"]) == len(seats) for f in frames)
    record = client.get(f"/api/replays/{games[0]['id']}/record")
    assert "attachment" in record.headers["content-disposition"]
    state = read_record(record.text)
    assert state.result is not None and state.result.to_json() == last["view"]["result"]
    # a position after the first with a seat to act; a block hand can end at its first move
    # (about one deal in a hundred: nobody holds a tile for the lead), then the first position
    acting = [i for i, f in enumerate(frames) if f["actor"] is not None]
    ply = acting[1] if len(acting) > 1 else acting[0]
    advice = client.get(
        f"/api/replays/{games[0]['id']}/analysis", params={"ply": ply, "level": "easy"}
    ).json()
    assert advice["seat"] == frames[ply]["actor"] and advice["moves"]
    assert all(0 <= m["win"] <= 1 for m in advice["moves"])
    for bad in ({"ply": len(frames) + 5}, {"ply": ply, "level": "godlike"}):
        r = client.get(f"/api/replays/{games[0]['id']}/analysis", params=bad)
        assert r.status_code == 400 and r.json()["message"], r.text


def test_a_spectator_sees_no_hand_until_the_end(client: TestClient) -> None:
    t = new_table(client, "block", ["random", "random"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello"})
        msg = receive_state(ws)
        while msg["status"] != "over":
            assert msg["you"] is None and msg["view"]["hand"] == [] and msg["claim"] is None
            assert not msg["view"]["revealed"]
            layout = {x for x in TILE.findall(json.dumps(msg["view"]["layout"]))}
            history = set(TILE.findall(json.dumps(msg["view"]["history"])))
            assert set(TILE.findall(json.dumps(msg))) <= layout | history
            msg = receive_state(ws)
        assert len(msg["view"]["revealed"]) == 2


# ------------------------------------------------------------------------------ two people
def browser(client: TestClient) -> dict[str, str]:
    return dict(client.cookies)


def as_browser(client: TestClient, jar: dict[str, str]) -> None:
    client.cookies.clear()
    for k, v in jar.items():
        client.cookies.set(k, v)


def test_two_players_join_by_link_and_a_third_watches(client: TestClient) -> None:
    t = new_table(client, "block", ["me", "open"], name="Ann")
    ann = browser(client)
    client.cookies.clear()
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["seat"] is None and info["free"] == 1 and info["status"] == "open"
    bob = client.post(f"/api/tables/{t['id']}/join", json={"name": "Bob"}).json()
    assert bob["seat"] == 1
    bob_jar = browser(client)
    client.cookies.clear()
    full = client.post(f"/api/tables/{t['id']}/join", json={"name": "Cy"})
    assert full.status_code == 409 and "watch" in full.json()["message"]
    as_browser(client, bob_jar)
    again = client.get(f"/api/tables/{t['id']}").json()  # a reload: the seat comes back
    assert again["seat"] == 1 and again["token"]
    as_browser(client, ann)
    with (
        client.websocket_connect(f"/ws/table/{t['id']}") as wa,
        client.websocket_connect(f"/ws/table/{t['id']}") as wb,
    ):
        wa.send_json({"type": "hello", "token": t["token"]})
        wb.send_json({"type": "hello", "token": again["token"]})
        sa, sb = receive_state(wa), receive_state(wb)
        assert sa["you"] == 0 and sb["you"] == 1 and sa["status"] == "playing"
        assert set(sa["view"]["hand"]).isdisjoint(TILE.findall(json.dumps(sb)))
        wa.send_json({"type": "chat", "text": "good luck"})
        said = receive_state(wb, lambda m: bool(m["chat"]))
        assert said["chat"][-1]["name"] == "Ann" and said["chat"][-1]["text"] == "good luck"


def test_a_claim_code_brings_a_player_back_on_another_browser(client: TestClient) -> None:
    t = new_table(client, "block", ["me", "open"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        code = receive_state(ws)["claim"]
    client.cookies.clear()
    assert client.post(f"/api/tables/{t['id']}/claim", json={"code": "ZZZZZZ"}).status_code == 400
    got = client.post(f"/api/tables/{t['id']}/claim", json={"code": code}).json()
    assert got["seat"] == 0
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})  # the old token no longer works
        assert ws.receive_json()["code"] == "token"


# ------------------------------------------------------------------------------ bad input
def test_bad_messages_get_one_error_and_change_nothing(client: TestClient) -> None:
    t = new_table(client, "block", ["me", "open"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        start = receive_state(ws)
        v = start["v"]
        for bad in [
            "not json",
            "[1,2]",
            json.dumps({"type": "fly"}),
            json.dumps({"type": "move", "id": "", "v": 0, "action": "x"}),
            json.dumps({"type": "move", "id": "a", "v": 0, "action": "1-1", "x": 1}),
            json.dumps({"type": "chat", "text": "x" * 5000}),
            "{" * 5000,
        ]:
            ws.send_text(bad)
            err = ws.receive_json()
            assert err["type"] == "error" and err["message"] and "Traceback" not in err["message"]
        ws.send_json({"type": "move", "id": "early", "v": v, "action": "6-6"})
        err = ws.receive_json()
        assert err["code"] == "not_started"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong", "v": v}


def test_stale_illegal_and_out_of_turn_moves_are_refused_and_the_state_resent(
    client: TestClient,
) -> None:
    t, bob = table_for_two(client)
    with (
        client.websocket_connect(f"/ws/table/{t['id']}") as wa,
        client.websocket_connect(f"/ws/table/{t['id']}") as wb,
    ):
        wa.send_json({"type": "hello", "token": t["token"]})
        wb.send_json({"type": "hello", "token": bob["token"]})
        sa, sb = receive_state(wa), receive_state(wb)
        mover, waiter, s = (wa, wb, sa) if sa["view"]["legal"] else (wb, wa, sb)
        idle = sb if mover is wa else sa
        if mover is wa:  # wa was also told that wb arrived
            assert receive_state(wa)["seats"][1]["present"]
        waiter.send_json(
            {"type": "move", "id": "w", "v": idle["v"], "action": s["view"]["legal"][0]}
        )
        assert receive_other(waiter)["code"] == "not_your_turn"
        receive_state(waiter)
        mover.send_json({"type": "move", "id": "i", "v": s["v"], "action": "0-0@6-6"})
        assert mover.receive_json()["code"] == "illegal"
        assert receive_state(mover)["v"] == s["v"]
        mover.send_json({"type": "move", "id": "ok", "v": s["v"], "action": s["view"]["legal"][0]})
        after = receive_state(mover)
        assert mover.receive_json() == {"type": "ack", "id": "ok", "v": after["v"]}
        mover.send_json({"type": "move", "id": "ok", "v": s["v"], "action": s["view"]["legal"][0]})
        assert mover.receive_json() == {"type": "ack", "id": "ok", "v": after["v"]}  # resent
        nxt = receive_state(waiter, lambda m: m["v"] == after["v"])
        if nxt["view"]["legal"]:
            waiter.send_json(
                {"type": "move", "id": "late", "v": s["v"], "action": nxt["view"]["legal"][0]}
            )
            assert waiter.receive_json()["code"] == "stale"


def test_a_table_made_over_http_cannot_seat_a_program(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "block", "seats": ["me", "external:/bin/sh"]})
    assert r.status_code == 400 and "bots" in r.json()["message"]
    for bad in [
        {"game": "chess", "seats": ["me", "open"]},
        {"game": "block", "seats": ["me"] * 9},
        {"game": "block", "seats": ["me", "open"], "options": {"max_pip": "x"}},
        {"game": "block", "seats": ["me", "me"]},
    ]:
        r = client.post("/api/tables", json=bad)
        assert r.status_code == 400, r.text
        assert r.json()["message"]
    assert client.get("/api/lobby").json() == []


# ------------------------------------------------------------------------------ patches
class Patched:
    """A socket of a client that takes patches, as the browser does: it hands on whole states."""

    def __init__(self, ws: Any) -> None:
        self.ws, self.doc, self.seq, self.patches = ws, None, 0, 0

    def send_json(self, msg: dict[str, Any]) -> None:
        self.ws.send_json(msg)

    def receive_json(self) -> dict[str, Any]:
        msg: dict[str, Any] = self.ws.receive_json()
        if msg["type"] == "patch":
            assert self.doc is not None and msg["base"] == self.seq, msg
            self.patches += 1
            msg = {**apply(self.doc, msg["ops"]), "seq": msg["seq"]}
        if msg["type"] == "state":
            self.doc, self.seq = msg, msg["seq"]
        return msg


def test_a_client_that_takes_patches_plays_a_hand_and_sees_what_the_others_see(
    client: TestClient,
) -> None:
    t = new_table(client, "super_dominoes", ["me", "random", "random", "random"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as raw:
        ws = Patched(raw)
        ws.send_json({"type": "hello", "token": t["token"], "patches": True})
        last = play_to_the_end(ws, receive_state(ws))
        assert ws.patches > 10
        with client.websocket_connect(f"/ws/table/{t['id']}") as other:
            other.send_json({"type": "hello", "token": t["token"]})  # whole states
            whole = receive_state(other)
    assert whole["type"] == "state" and whole["v"] == last["v"]
    for key in ("view", "scene", "moves", "status", "totals", "hands", "chat"):
        assert whole[key] == last[key], key


def _after(version: int, msg: dict[str, Any]) -> bool:
    return bool(msg["v"] > version or msg["status"] == "over")


def test_spectators_of_every_size_and_arrival_are_patched_to_the_same_state(
    client: TestClient,
) -> None:
    """Spectators share their state and its patch within a broadcast: spectators of two
    screen sizes, one who came mid-hand (its last state is not the others') and one taking
    whole states each end with exactly the state a newcomer of its size is sent."""
    t = new_table(client, "super_dominoes", ["me", "random", "random", "random"])
    url = f"/ws/table/{t['id']}"
    with contextlib.ExitStack() as stack:
        player = Patched(stack.enter_context(client.websocket_connect(url)))
        player.send_json({"type": "hello", "token": t["token"], "patches": True})
        first = receive_state(player)
        watchers: list[tuple[Patched, int]] = []
        for width in (40, 40, 80):
            ws = Patched(stack.enter_context(client.websocket_connect(url)))
            ws.send_json({"type": "hello", "width": width, "patches": True})
            watchers.append((ws, width))
        whole = stack.enter_context(client.websocket_connect(url))
        whole.send_json({"type": "hello", "width": 40})
        msg, late = first, None
        while msg["status"] != "over":
            if late is None and len(msg["view"]["history"]) >= 6:
                late = Patched(stack.enter_context(client.websocket_connect(url)))
                late.send_json({"type": "hello", "width": 80, "patches": True})
                watchers.append((late, 80))
            if msg["view"]["legal"]:
                move = {"type": "move", "id": f"m{msg['v']}", "v": msg["v"]}
                player.send_json({**move, "action": msg["view"]["legal"][-1]})
            msg = receive_state(player, partial(_after, msg["v"]))
        final = msg["v"]
        assert late is not None
        seen = [receive_state(ws, lambda m: m["v"] == final) for ws, _ in watchers]
        seen.append(receive_state(whole, lambda m: m["v"] == final))
        assert sum(ws.patches for ws, _ in watchers) > 20
        fresh = {}
        for width in (40, 80):
            with client.websocket_connect(url) as ws:
                ws.send_json({"type": "hello", "width": width})
                fresh[width] = receive_state(ws, lambda m: m["v"] == final)
    skip = {"seq", "watchers", "type"}
    widths = [w for _, w in watchers] + [40]
    for got, width in zip(seen, widths, strict=True):
        want = fresh[width]
        assert {k: v for k, v in got.items() if k not in skip} == {
            k: v for k, v in want.items() if k not in skip
        }, width


# ------------------------------------------------------------------------------ reconnection
def test_a_dropped_client_comes_back_to_the_game_as_it_stands(client: TestClient) -> None:
    t = live_table(client)
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        msg = receive_state(ws, my_turn_or_over)
        ws.send_json({"type": "move", "id": "a1", "v": msg["v"], "action": msg["view"]["legal"][0]})
    time.sleep(0.3)
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"], "since": msg["v"]})
        back = receive_state(ws)
        assert back["v"] > msg["v"] and back["you"] == 0
        ws.send_json({"type": "move", "id": "a1", "v": msg["v"], "action": msg["view"]["legal"][0]})
        ack = ws.receive_json()
        assert ack["type"] == "ack" and ack["id"] == "a1"
        ws.send_json({"type": "resize", "width": 40})
        again = receive_state(ws)

    def mine(m: dict[str, Any]) -> int:
        return sum(h["seat"] == 0 for h in m["view"]["history"])

    # the move made before the drop is there, and the resent copy was not played again
    assert mine(back) == mine(msg) + 1 and mine(again) == mine(back)


def test_a_restarted_server_has_every_table_where_it_was(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with make_client(db) as c:
        t = new_table(c, "super_dominoes", ["me", "random", "open", "random"])
        with c.websocket_connect(f"/ws/table/{t['id']}") as ws:
            ws.send_json({"type": "hello", "token": t["token"]})
            before = receive_state(ws)
        jar = browser(c)
    with make_client(db) as c:
        as_browser(c, jar)
        info = c.get(f"/api/tables/{t['id']}").json()
        assert info["seat"] == 0 and info["status"] == "open"
        with c.websocket_connect(f"/ws/table/{t['id']}") as ws:
            ws.send_json({"type": "hello", "token": info["token"]})
            after = receive_state(ws)
        assert after["view"] == before["view"]
        assert [s["name"] for s in after["seats"]] == [s["name"] for s in before["seats"]]
        assert [x["id"] for x in c.get("/api/lobby").json()] == [t["id"]]


def test_the_lobby_socket_lists_tables_as_they_open_and_fill(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json() == {"type": "lobby", "tables": []}
        tables = [new_table(client, "block", ["me", "open"]) for _ in range(3)]
        for _ in range(10):
            got = lobby.receive_json()
            assert got["type"] == "lobby"
            if len(got["tables"]) == 3:
                break
        assert {x["id"] for x in got["tables"]} == {t["id"] for t in tables}
        assert all(x["status"] == "open" and x["free"] == 1 for x in got["tables"])
        client.cookies.clear()  # someone else
        r = client.post(f"/api/tables/{tables[0]['id']}/join", json={"name": "B"})
        assert r.status_code == 200, r.text
        for _ in range(20):  # the table that filled up shows as playing
            got = lobby.receive_json()
            row = next(x for x in got["tables"] if x["id"] == tables[0]["id"])
            if row["status"] == "playing":
                break
        assert row["status"] == "playing" and row["free"] == 0


def test_the_game_catalogue_and_rules_pages() -> None:
    from bonepile.server.tables.catalogue import catalogue, rules_html

    names = [g["name"] for g in catalogue()]
    assert names and "super_dominoes" in names
    for g in catalogue():
        assert g["options"] and all(o["help"] for o in g["options"])
        page = rules_html(g["name"])
        assert "<h" in page["html"] and "<script" not in page["html"]


def test_views_sent_are_views(client: TestClient) -> None:
    from bonepile.server.tables.hub import Hub as _Hub

    hub: _Hub = client.app.state.hub  # type: ignore[attr-defined]
    t = new_table(client, "doubles", ["me", "random"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        msg = receive_state(ws)
        room = hub.tables[t["id"]].room  # each change makes the table a new room
        assert msg["view"] == view(room.state, 0).to_json() or msg["v"] < room.version


# ------------------------------------------------------------------------------ bots that fail
class _Stuck(ThreadPoolExecutor):
    """An executor whose work never finishes (a bot's worker that hangs)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        from concurrent.futures import Future

        return Future()


class _Broken(ThreadPoolExecutor):
    """An executor that refuses all work (a pool whose worker died)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        from concurrent.futures.process import BrokenProcessPool

        raise BrokenProcessPool("a worker died")


@pytest.mark.parametrize("executor", [_Stuck, _Broken])
def test_a_bot_that_hangs_or_dies_never_stops_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, executor: type[ThreadPoolExecutor]
) -> None:
    import bonepile.server.tables.bot_turns as bot_turns

    monkeypatch.setattr(bot_turns, "BOT_BUDGET", 0.2)
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    hub = Hub(store, executor=executor(1), bot_pace=0.0)
    app = create_app(Settings(database="unused", secret="test-secret"), hub=hub)
    bots: list[Any] = []
    with TestClient(app) as client:
        # About one block deal in a hundred ends blocked at the lead, before the bot's turn:
        # such a table proves nothing, so another is dealt.
        for _ in range(5):
            t = new_table(client, "block", ["me", "greedy"])
            with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
                ws.send_json({"type": "hello", "token": t["token"]})
                last = play_to_the_end(ws, receive_state(ws, my_turn_or_over))
            assert last["status"] == "over"
            bots = [h for h in last["view"]["history"] if h["seat"] == 1]
            if bots:
                break
    assert bots  # the bot's seat moved every time all the same


# ------------------------------------------------------------------------------ seats and tables
def test_against_bots_a_player_takes_a_move_back_then_ends_the_table(client: TestClient) -> None:
    t = new_table(client, "block", ["me", "greedy", "greedy"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        s = receive_state(ws, my_turn_or_over)

        def ply(m: dict[str, Any]) -> int:
            return len(m["view"]["history"])

        first, v = ply(s), s["v"]
        ws.send_json({"type": "move", "id": "m1", "v": v, "action": s["view"]["legal"][0]})
        s = receive_state(ws, lambda m: ply(m) > first + 1 and my_turn_or_over(m))
        assert s["status"] != "over", "this deal ends too soon for the test"
        ws.send_json({"type": "takeback"})
        back = receive_state(ws, lambda m: ply(m) == first)
        assert back["view"]["legal"]  # my turn again, where I was
        ws.send_json({"type": "end_table"})
        assert receive_state(ws, lambda m: m["status"] == "closed")["status"] == "closed"
        ws.send_json({"type": "move", "id": "m2", "v": back["v"], "action": "pass"})
        assert receive_other(ws)["type"] == "error"


def test_with_another_person_there_is_no_takeback_and_leaving_hands_the_seat_to_a_bot(
    client: TestClient,
) -> None:
    t, bob = table_for_two(client)
    with (
        client.websocket_connect(f"/ws/table/{t['id']}") as wa,
        client.websocket_connect(f"/ws/table/{t['id']}") as wb,
        client.websocket_connect(f"/ws/table/{t['id']}") as watcher,
    ):
        wa.send_json({"type": "hello", "token": t["token"]})
        wb.send_json({"type": "hello", "token": bob["token"]})
        watcher.send_json({"type": "hello"})
        # everyone hears that someone is watching
        assert receive_state(wa, lambda m: m["watchers"] == 1)["watchers"] == 1
        wa.send_json({"type": "takeback"})
        assert receive_other(wa)["code"] == "takeback"
        wa.send_json({"type": "end_table"})
        assert receive_other(wa)["code"] == "not_alone"
        wb.send_json({"type": "leave"})
        told = receive_other(wb)
        assert told["code"] == "token" and "left" in told["message"]
        seats = receive_state(watcher, lambda m: m["seats"][1]["kind"] == "bot")["seats"]
        assert seats[1]["left"] == "Bob"
        # the game goes on: the bot plays Bob's seat
        s = receive_state(wa, my_turn_or_over)
        assert s["status"] in ("playing", "over")


def test_an_unknown_page_is_the_apps_not_found_page_and_an_unknown_api_path_is_json(
    client: TestClient,
) -> None:
    for path in ("/rules", "/foo", "/t/", "/replay/"):
        r = client.get(path)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), path
        assert '<script type="module"' in r.text  # the app, which says the page is not there
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {
        "error": "unknown",
        "message": "there is no such page",
    }


def test_the_health_check_says_whether_the_process_can_serve(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    got = r.json()
    assert got["ok"] is True and got["database"] is True and "redis" not in got
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]

    def down() -> None:
        raise OSError("the database went away")

    monkeypatch.setattr(hub.store, "ping", down)
    r = client.get("/api/health")
    assert r.status_code == 503 and r.json()["ok"] is False and r.json()["database"] is False


@pytest.mark.parametrize("path", ["/ws/lobby", "/ws/table/{id}"])
def test_a_page_of_another_site_cannot_open_a_socket(client: TestClient, path: str) -> None:
    """Browsers send the page's Origin with a WebSocket and enforce nothing else: a page of
    another site is refused before the socket opens (no socket with a visitor's cookies);
    the app's own pages and programs that send no Origin (the terminal app, bots) get in."""
    from starlette.websockets import WebSocketDisconnect

    t = new_table(client, "block", ["me", "greedy"])
    url = path.format(id=t["id"])
    for origin in ("http://evil.example", "null", "http://testserver.evil.example"):
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(url, headers={"origin": origin}) as ws,
        ):
            ws.receive_json()
    for headers in ({"origin": "http://testserver"}, {"origin": "http://TestServer:80"}, {}):
        with client.websocket_connect(url, headers=headers) as ws:
            if "table" in url:
                ws.send_json({"type": "hello", "token": t["token"], "since": -1, "width": 40})
                assert receive_state(ws)["you"] == t["seat"]
            else:
                assert ws.receive_json()["type"] == "lobby"


def test_the_origin_rule() -> None:
    from bonepile.server.web.guard import same_origin

    assert same_origin(None, "example.com")  # a program
    assert same_origin("https://example.com", "example.com")
    assert same_origin("https://example.com:443", "example.com")
    assert same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert same_origin("http://[::1]:8000", "[::1]:8000")
    assert not same_origin("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not same_origin("https://example.com.evil.example", "example.com")
    assert not same_origin("null", "example.com")
    assert not same_origin("https://example.com", None)


def test_a_crowd_of_spectators_is_told_its_size_once_not_once_a_spectator(tmp_path: Path) -> None:
    """200 spectators arriving at once cost each socket a message or two, not 200 (the news of
    each arrival sent to every socket is work quadratic in the crowd); the count shown is
    right within PRESENCE_EVERY, and a seated player's arrival is shown at once."""
    from bonepile.server.tables.broadcast import PRESENCE_EVERY

    async def run() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'db.sqlite'}"), ThreadPoolExecutor(2), bot_pace=0.0)
        await hub.start()
        try:
            table_id, _, token = await hub.create(
                "block", ["me", "open"], {}, False, None, "ann", "Ann"
            )
            got: list[list[dict[str, Any]]] = [[] for _ in range(200)]
            conns = []
            for inbox in got:

                async def send(msg: dict[str, Any], inbox: list[dict[str, Any]] = inbox) -> None:
                    inbox.append(msg)

                conns.append(await hub.connect(table_id, None, send, 40))
            await asyncio.sleep(3 * PRESENCE_EVERY)
            first = got[0]
            assert len(first) <= 3, [m.get("watchers") for m in first]
            assert first[-1]["watchers"] == 200 and got[-1][-1]["watchers"] == 200
            for conn in conns[100:]:
                await hub.disconnect(table_id, conn)
            await asyncio.sleep(3 * PRESENCE_EVERY)
            assert len(first) <= 5 and first[-1]["watchers"] == 100
            # the seated player's arrival reaches the spectators at once
            before = len(first)
            player: list[dict[str, Any]] = []

            async def to_player(msg: dict[str, Any]) -> None:
                player.append(msg)

            await hub.connect(table_id, token, to_player, 40)
            assert len(first) == before + 1 and player[-1]["you"] == 0
        finally:
            await hub.stop()

    asyncio.run(run())


def _error_of(ws: Any, limit: int = 50) -> dict[str, Any]:
    """The next error message (skipping states and acknowledgements)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "error":
            return msg
    raise AssertionError("no error came")


def _takeback_at_a_table_for_two(client: TestClient) -> bool:
    """Ask, refuse, ask and allow a takeback at a new table for two; False if the deal gave
    no hand to try it in (over at once)."""
    t, bob = table_for_two(client)
    with (
        client.websocket_connect(f"/ws/table/{t['id']}") as wa,
        client.websocket_connect(f"/ws/table/{t['id']}") as wb,
    ):
        wa.send_json({"type": "hello", "token": t["token"]})
        wb.send_json({"type": "hello", "token": bob["token"]})
        seats = {0: wa, 1: wb} if t["seat"] == 0 else {0: wb, 1: wa}
        actor = receive_state(wa)["view"]["actor"]
        if actor is None:
            return False
        mover, other = seats[actor], seats[1 - actor]
        first = receive_state(mover, lambda m: bool(m["view"]["legal"]))
        action = first["view"]["legal"][0]
        mover.send_json({"type": "move", "id": "m1", "v": first["v"], "action": action})
        moved = receive_state(other, lambda m: m["v"] > first["v"])
        if moved["status"] != "playing":
            return False
        # refused: nothing is taken back
        mover.send_json({"type": "takeback"})
        asked = receive_state(other, lambda m: m["takeback_asked"] is not None)
        assert asked["takeback_asked"] == {"seat": actor, "yes": []}
        mover.send_json({"type": "takeback"})  # asking twice is one clear error
        assert _error_of(mover)["code"] == "takeback"
        mover.send_json({"type": "takeback_answer", "yes": True})  # not theirs to answer
        assert _error_of(mover)["code"] == "takeback"
        other.send_json({"type": "takeback_answer", "yes": False})
        refused = receive_state(other, lambda m: m["takeback_asked"] is None)
        assert len(refused["view"]["history"]) == len(moved["view"]["history"])
        # allowed: the move is taken back, and the mover is to play again
        mover.send_json({"type": "takeback"})
        asked = receive_state(other, lambda m: m["takeback_asked"] is not None)
        other.send_json({"type": "takeback_answer", "yes": True})
        back = receive_state(other, lambda m: m["takeback_asked"] is None and m["v"] > asked["v"])
        assert back["view"]["history"] == first["view"]["history"]
        assert back["view"]["actor"] == actor
    return True


def test_with_another_person_a_takeback_is_asked_and_done_only_when_allowed(
    client: TestClient,
) -> None:
    assert any(_takeback_at_a_table_for_two(client) for _ in range(10)), "ten deals over at once"


# ------------------------------------------------------------------ the first hour (issue 47)
def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def _lobby_line(client: TestClient, table_id: str) -> dict[str, Any] | None:
    got = client.get("/api/lobby")
    assert got.status_code == 200, got.text
    lines: list[dict[str, Any]] = got.json()
    return next((line for line in lines if line["id"] == table_id), None)


def _playing(client: TestClient, game: str) -> int:
    got: int = client.get("/api/pairing").json()["playing"].get(game, 0)
    return got


def test_a_table_nobody_is_at_is_marked_idle_and_leaves_the_lobby_until_someone_comes_back(
    client: TestClient,
) -> None:
    t = live_table(client, "block", ["me", "greedy"])
    hub = _hub(client)
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        receive_state(ws)
        line = _lobby_line(client, t["id"])
        assert line is not None and line["status"] == "playing" and not line.get("idle"), line
        assert _playing(client, "block") == 1
    # the player went away: at once the table is marked as nobody's there
    deadline = time.monotonic() + 60
    while not (_lobby_line(client, t["id"]) or {}).get("idle"):
        assert time.monotonic() < deadline, _lobby_line(client, t["id"])
        time.sleep(0.5)
    # long after, it has left the list (and is not counted as played any more)
    from bonepile.server.tables.lobby import IDLE_AFTER

    hub.lobby.clock = lambda: time.monotonic() + IDLE_AFTER + 1
    assert _lobby_line(client, t["id"]) is None
    assert _playing(client, "block") == 0
    # the player comes back: it is listed as playing again
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        receive_state(ws)
        line = _lobby_line(client, t["id"])
        assert line is not None and not line.get("idle"), line
        # ended by its player: closed, and out of the lobby at once
        ws.send_json({"type": "end_table"})
        receive_state(ws, lambda m: m["status"] == "closed")
    assert _lobby_line(client, t["id"]) is None


def test_a_closed_table_offers_no_move_and_says_why(client: TestClient) -> None:
    t = live_table(client, "block", ["me", "greedy"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        s = receive_state(ws, my_turn_or_over)
        assert s["moves"] and s["closed"] is None
        ws.send_json({"type": "end_table"})
        closed = receive_state(ws, lambda m: m["status"] == "closed")
    assert closed["moves"] == [] and closed["closed"]["reason"].startswith("ended by ")
    # a page opened later is told the same
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"]})
        again = receive_state(ws)
    assert again["status"] == "closed" and again["moves"] == [] and again["closed"]


def test_the_moves_of_a_player_who_left_keep_the_name_they_were_made_under(
    client: TestClient,
) -> None:
    t, bob = table_for_two(client)
    with (
        client.websocket_connect(f"/ws/table/{t['id']}") as wa,
        client.websocket_connect(f"/ws/table/{t['id']}") as wb,
    ):
        wa.send_json({"type": "hello", "token": t["token"]})
        wb.send_json({"type": "hello", "token": bob["token"]})
        # Bob plays a move of his own first (after the host's lead, if the host leads)
        host = receive_state(wa, lambda m: m["seats"][1]["present"] and m["status"] != "open")
        if host["view"]["legal"]:
            wa.send_json(
                {"type": "move", "id": "a1", "v": host["v"], "action": host["view"]["legal"][0]}
            )
        s = receive_state(wb, my_turn_or_over)
        if s["status"] == "over":
            pytest.skip("the deal ended before Bob's first move")
        ws_moves = len(s["view"]["history"])
        wb.send_json({"type": "move", "id": "b1", "v": s["v"], "action": s["view"]["legal"][0]})
        receive_state(wa, lambda m: len(m["view"]["history"]) > ws_moves)
        wb.send_json({"type": "leave"})
        after = receive_state(wa, lambda m: m["seats"][1]["kind"] == "bot")
    seat = after["seats"][1]
    assert seat["left"] == "Bob" and seat["name"] == "Bob (left)"
    # the plies before it are Bob's: his move among them
    assert seat["left_ply"] == ws_moves + 1
    assert after["view"]["history"][ws_moves]["seat"] == 1


def _forced_position(client: TestClient) -> tuple[str, int]:
    """A finished hand of draw two greedy bots played, and a position in it where the seat to
    act has one legal move only (a draw, a pass...)."""
    from bonepile.server.tables.analysis import positions

    for _ in range(5):
        t = new_table(client, "draw", ["greedy", "greedy"])
        with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
            ws.send_json({"type": "hello"})
            receive_state(ws, lambda m: m["status"] == "over")
        game = client.get("/api/replays", params={"table": t["id"]}).json()[0]["id"]
        record = client.get(f"/api/replays/{game}/record").text
        for ply, (state, _) in enumerate(positions(record)):
            if state.actor is not None and len(state.legal_actions()) == 1:
                return game, ply
    raise AssertionError("five hands of draw without a forced move")


def test_a_forced_move_is_answered_at_once_whatever_the_level(client: TestClient) -> None:
    game, ply = _forced_position(client)
    got = client.get(f"/api/replays/{game}/analysis", params={"ply": ply, "level": "hard"})
    assert got.status_code == 200, got.text
    advice = got.json()
    assert advice["forced"] and advice["verdict"] == "forced" and len(advice["moves"]) == 1
    # no search: a tenth of a second of playouts at most (the hard level plays 200 at least)
    assert 1 <= advice["simulations"] <= 50
    assert 0 <= advice["moves"][0]["win"] <= 1
