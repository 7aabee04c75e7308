"""How a rated table that people walked away from is rated: a seat a bot was playing at the end
because its player was away counts as left, a table closed because nobody came back blames the
player it waited for, and a table that never began, or that nobody can be blamed for, is settled
once as unrated (never looked at again)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("openskill")

from fastapi.testclient import TestClient

from bonepile.server.players.rated import leavers
from bonepile.server.players.ratings import finishing_ranks
from bonepile.server.storage.store import Store
from bonepile.server.tables.hub import Hub
from bonepile.server.tables.room import ABANDONED, GRACE, Room, open_room, restore
from bonepile.server.web.app import Settings, create_app
from test_account_web import rating_of, sign_up
from test_room import config
from test_server import new_table


def _rated_pair() -> Room:
    room = open_room("t", config(seats=("open", "open"), rated=True), 0.0)
    room.join("a", "Ann", 0.0, account=True)
    room.join("b", "Bob", 0.0, account=True)
    return room


def _play_first_legal(room: Room, seat: int, now: float) -> None:
    action = str(room.state.legal_actions()[0])
    room.move(seat, action, f"m{room.version}", room.version, now)


def test_a_seat_a_bot_finished_for_an_away_player_ranks_as_left() -> None:
    room = _rated_pair()
    now = 1.0
    for k in (0, 1):
        room.connected(k, now)
    room.disconnected(1, now)  # Bob closes his tab
    while room.state.actor == 0:
        _play_first_legal(room, 0, now)
    assert not room.over and room.state.actor == 1
    now += GRACE + 1
    assert room.absent(now) == 1
    room.let_bot_play(0, 1, now)  # Ann lets a bot play for him, and the hand goes on
    while not room.over:
        turn = room.bot_turn(now)
        if turn is not None:
            room.bot_move(turn, room.state.legal_actions()[0], now)
        else:
            _play_first_legal(room, 0, now)
    gone = leavers(room)
    assert gone == [False, True]
    winners = list(room.match.winners)
    ranks = finishing_ranks(room.match.totals, winners, gone)
    assert ranks == [1, 2]  # whatever the bot scored for him


def test_a_table_closed_while_waiting_blames_the_player_it_waited_for() -> None:
    room = _rated_pair()
    k = room.state.actor
    assert k is not None
    room.close(5.0, ABANDONED)
    assert leavers(room) == [seat == k for seat in range(2)]
    # the reason is in the journal: a process that restores the table (the sweep) sees it too
    again = restore("t", room.config, room.take_journal())
    assert again.close_reason == ABANDONED and leavers(again) == leavers(room)


def test_nobody_is_blamed_for_a_table_that_never_began_or_that_a_player_ended() -> None:
    waiting = open_room("t", config(seats=("open", "open"), rated=True), 0.0)
    waiting.join("a", "Ann", 0.0, account=True)
    waiting.close(5.0, ABANDONED)
    assert leavers(waiting) == [False, False]
    ended = _rated_pair()
    ended.close(5.0, "ended by Ann")  # not "abandoned": nobody waited on anyone
    assert leavers(ended) == [False, False]


# ------------------------------------------------------------------------------ on the server
class Clock:
    """A clock the test moves: the hub's idea of now."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def _client(db: Path, clock: Clock) -> TestClient:
    hub = Hub(Store(f"sqlite:///{db}"), executor=ThreadPoolExecutor(2), bot_pace=0.0, clock=clock)
    return TestClient(create_app(Settings(database="unused", secret="test-secret"), hub=hub))


def _wait_for(check: Any, limit: float = 60.0) -> Any:
    deadline = time.monotonic() + limit  # the settlement runs on its own task
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.5)  # within the API's 5 requests a second
    raise AssertionError("the settlement did not come")


def test_an_abandoned_rated_table_is_a_loss_for_the_player_it_waited_for(tmp_path: Path) -> None:
    clock = Clock()
    with _client(tmp_path / "db.sqlite", clock) as client:
        sign_up(client, "Ann")
        t = new_table(client, "block", ["me", "open"], rated=True)
        client.cookies.clear()
        sign_up(client, "Bob")
        client.post(f"/api/tables/{t['id']}/join", json={})
        hub = client.app.state.hub  # type: ignore[attr-defined]
        room = hub.tables[t["id"]].room
        k = room.state.actor
        assert k is not None and room.status == "playing"
        # nobody comes for longer than a table with people is kept: it is closed, and rated
        clock.now += hub.limits.idle_ttl + 1
        client.portal.call(hub.tick)  # type: ignore[union-attr]
        waited_for, other = ("Ann", "Bob") if k == t["seat"] else ("Bob", "Ann")
        loser = _wait_for(lambda: rating_of(client, waited_for))
        winner = rating_of(client, other)
        assert winner is not None
        assert (loser["games"], loser["wins"], winner["games"], winner["wins"]) == (1, 0, 1, 1)
        assert loser["rating"] < 1500 < winner["rating"]
        rated = client.app.state.players.rated  # type: ignore[attr-defined]
        assert rated.unsettled() == []  # settled once: the sweep finds nothing


def test_a_rated_table_that_never_began_is_settled_unrated(tmp_path: Path) -> None:
    clock = Clock()
    with _client(tmp_path / "db.sqlite", clock) as client:
        sign_up(client, "Ann")
        t = new_table(client, "block", ["me", "open"], rated=True)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        clock.now += hub.limits.open_ttl + 1  # nobody joined: the open table is closed
        client.portal.call(hub.tick)  # type: ignore[union-attr]
        rated = client.app.state.players.rated  # type: ignore[attr-defined]
        _wait_for(lambda: t["id"] not in rated.unsettled())
        assert client.get(f"/api/tables/{t['id']}").json()["status"] == "closed"
        assert rating_of(client, "Ann") is None
