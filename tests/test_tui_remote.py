"""``bonepile play --join``: the terminal app at a table of a real ``bonepile serve``, as a
client of the documented protocol; a hand played by keys, a seat taken back, watching, and a
move made while the connection was down played once."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")
pytest.importorskip("websockets")
pytest.importorskip("fastapi")

from bonepile.actions import DRAW, PASS
from bonepile.tui.app import BonepileApp
from bonepile.tui.remote import JoinError, RemoteTable, parse_table_url
from bonepile.tui.screen import LETTERS, tile_of
from live_server import free_port, running_server
from tui_driver import screen_text

pytestmark = pytest.mark.system


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("data")) as base:
        yield base


@pytest.fixture(autouse=True)
def seats_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "seats.json"
    monkeypatch.setenv("BONEPILE_SEATS", str(path))
    return path


def _table(base: str, game: str, seats: list[str], **more: Any) -> str:
    body = json.dumps({"game": game, "seats": seats, **more}).encode()
    req = urllib.request.Request(
        base + "/api/tables", body, {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return f"{base}/t/{json.loads(r.read())['id']}"


async def _play_remote(app: BonepileApp, pilot: Any, remote: RemoteTable, hook: Any = None) -> None:
    """Press a player's keys at the remote table until the hand is over."""
    deadline = time.time() + 60
    while time.time() < deadline:
        await pilot.pause(0.02)
        if remote.over:
            return
        v = app.current_view()
        if v.actor != v.seat or remote.pending is not None or not v.legal:
            continue
        if hook is not None and await hook(app, pilot, remote):
            continue
        tiles = [a for a in v.legal if tile_of(a) is not None]
        if tiles:
            index = v.hand.index(tile_of(tiles[0]))  # type: ignore[arg-type]
            await pilot.press(str(index + 1) if index < 9 else "right")
            await pilot.pause()
            await pilot.press(LETTERS[0])
        else:
            await pilot.press("d" if DRAW in v.legal else "p" if PASS in v.legal else "s")
        await pilot.pause(0.05)
    raise AssertionError("the hand did not end")


def test_a_hand_at_a_server_table_by_keys(server: str) -> None:
    url = _table(server, "block", ["open", "random"])
    remote = RemoteTable.connect(url)
    assert remote.seat == 0

    async def run() -> str:
        app = BonepileApp(remote, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_remote(app, pilot, remote)
            await pilot.pause(0.2)
            app.redraw()
            await pilot.pause()
            return screen_text(app)

    try:
        text = asyncio.run(run())
    finally:
        remote.close()
    assert "Hand over" in text, text


def test_a_match_deals_on_by_enter_and_ends_with_its_winner_and_totals(server: str) -> None:
    url = _table(server, "block", ["open", "random"], match=True, options={"target_score": 60})
    remote = RemoteTable.connect(url)

    async def run() -> tuple[list[str], str, str, dict[str, Any]]:
        app = BonepileApp(remote, pace=0)
        between: list[str] = []
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.time() + 600
            while time.time() < deadline:
                await pilot.pause(0.02)
                snap = remote.snap
                assert snap is not None
                if snap.get("match_over"):
                    break
                v = app.current_view()
                if v.result is not None:  # between two hands: Enter deals the next one
                    hand = snap["hand_number"]
                    app.redraw()
                    await pilot.pause()
                    between.append(" ".join(screen_text(app).split()))
                    await pilot.press("enter")
                    while remote.snap["hand_number"] == hand and time.time() < deadline:
                        await pilot.pause(0.05)
                    continue
                if v.actor != v.seat or remote.pending is not None or not v.legal:
                    continue
                tiles = [a for a in v.legal if tile_of(a) is not None]
                if tiles:
                    index = v.hand.index(tile_of(tiles[0]))  # type: ignore[arg-type]
                    await pilot.press(str(index + 1) if index < 9 else "right")
                    await pilot.pause()
                    await pilot.press(LETTERS[0])
                else:
                    await pilot.press("d" if DRAW in v.legal else "p")
                await pilot.pause(0.05)
            await pilot.pause(0.2)
            app.redraw()
            await pilot.pause()
            text = screen_text(app)
            snap = remote.snap
            assert snap is not None
            return between, " ".join(text.split()), text.splitlines()[-1], snap

    try:
        between, ended, footer, snap = asyncio.run(run())
        bot = f"P1 {remote.names()[1]}"
    finally:
        remote.close()
    assert snap["match_over"] and between, "the match never went on to a second hand"
    for words in between:
        assert "Totals: P0 you" in words and "[Enter] next hand" in words, words
    who = "You win" if snap["winners"] == [0] else f"{bot} wins"
    assert f"{who} the match!" in ended, ended
    totals = snap["totals"]
    assert f"Totals: P0 you {totals[0]}" in ended and f"{bot} {totals[1]}" in ended, ended
    assert "q leave" in footer and "next hand" not in footer, footer


def test_the_seat_is_taken_back_and_others_watch(server: str) -> None:
    url = _table(server, "doubles", ["open", "greedy"])
    first = RemoteTable.connect(url)
    first.close()
    again = RemoteTable.connect(url)  # the kept token: the same seat
    assert again.seat == 0 and again.view().seat == 0
    again.close()
    import os

    os.environ["BONEPILE_SEATS"] = os.environ["BONEPILE_SEATS"] + ".other"
    watcher = RemoteTable.connect(url)
    try:
        assert watcher.seat is None and watcher.view().seat is None
        assert watcher.view().hand == ()
        assert "watching" in watcher.title()
    finally:
        watcher.close()


def test_a_move_made_while_disconnected_is_played_once(server: str) -> None:
    url = _table(server, "draw", ["open", "random"])
    remote = RemoteTable.connect(url)
    cut = {"done": False}

    async def drop_then_move(app: BonepileApp, pilot: Any, r: RemoteTable) -> bool:
        if cut["done"]:
            return False
        cut["done"] = True
        before = len(r.view().history)
        ws = r.ws
        r.ws = None  # the connection is down: the move waits
        ws.close()
        move = r.view().legal[0]
        app.play(move)
        assert r.pending is not None
        for _ in range(200):
            await pilot.pause(0.05)
            if r.pending is None and len(r.view().history) > before:
                break
        played = [str(t.action) for t in r.view().history[before:]]
        assert played.count(str(move)) == 1 and r.view().history[before].action == move
        return True

    async def run() -> None:
        app = BonepileApp(remote, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_remote(app, pilot, remote, hook=drop_then_move)

    try:
        asyncio.run(run())
    finally:
        remote.close()
    assert cut["done"]


def test_bad_addresses_give_one_clear_error(server: str) -> None:
    with pytest.raises(JoinError, match="not a table's address"):
        parse_table_url("ftp://x/t/1")
    with pytest.raises(JoinError, match="no such table"):
        RemoteTable.connect(server + "/t/nope")
    with pytest.raises(JoinError, match="cannot reach"):
        RemoteTable.connect(f"http://127.0.0.1:{free_port()}/t/abc")


def _seat(name: str, **fields: Any) -> dict[str, Any]:
    """A seat of the server's state message (docs/server.md)."""
    seat = {"kind": "human", "name": name, "bot": None, "away_bot": False, "away_why": ""}
    seat.update({"left": "", "present": True, "bank": None})
    seat.update(fields)
    return seat


def test_a_seat_reads_away_only_when_its_player_is_not_connected() -> None:
    remote = RemoteTable("http://127.0.0.1:1", "t", 0, "token")
    remote.snap = {
        "you": 0,
        "seats": [
            _seat("terminal"),
            _seat("Bartholomew the Patient"),  # connected: never away, however long the name
            _seat("Ann", away_bot=True, away_why="time"),  # connected, out of time: a bot plays
            _seat("Cornelius Longfellow", present=False),  # not connected: away, said whole
            _seat("Dee", present=False, away_bot=True, away_why="gone"),
            _seat("", kind="bot", bot="ismcts:hard"),
        ],
    }
    names = remote.names()
    assert names[0] == "you"
    assert "away" not in names[1] and names[1].startswith("Bartholomew")
    assert names[2] == "Ann (bot plays)"
    assert names[3].endswith(" (away)") and names[3].startswith("Cornelius")
    assert names[4] == "Dee (away, bot plays)"
    assert names[5] == "ismcts:hard"


def test_the_other_player_reads_away_only_while_not_connected(server: str) -> None:
    from websockets.sync.client import connect

    url = _table(server, "block", ["open", "open"])
    remote = RemoteTable.connect(url)
    try:
        assert remote.seat == 0
        body = json.dumps({"name": "webby"}).encode()
        req = urllib.request.Request(
            url.replace("/t/", "/api/tables/") + "/join",
            body,
            {"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            token = json.loads(r.read())["token"]

        def name_of_seat_1(connected: bool) -> str:
            for _ in range(1200):  # the state that says so arrives on the socket's thread
                if remote.snap is not None and remote.snap["seats"][1]["present"] == connected:
                    return remote.names()[1]
                time.sleep(0.05)
            raise AssertionError(f"the server never said seat 1 is connected={connected}")

        host = server.split("://", 1)[1]
        with connect(f"ws://{host}/ws/table/{url.rsplit('/', 1)[1]}", open_timeout=60) as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "patches": True}))
            assert name_of_seat_1(True) == "webby"
        assert name_of_seat_1(False) == "webby (away)"
    finally:
        remote.close()


def test_a_frozen_server_is_noticed_within_seconds_and_play_resumes(tmp_path: Path) -> None:
    """A server that stops answering (a SIGSTOP, a stalled machine) keeps its sockets open:
    the terminal's pings go unanswered, and within seconds the player reads that the
    connection was lost; once the server answers again, the table comes back by itself."""
    import os
    import signal

    from test_server_processes import Served

    served = Served(tmp_path / "data")
    frozen = False
    try:
        remote = RemoteTable.connect(_table(served.base, "block", ["open", "greedy"]))
        try:
            time.sleep(3)  # a ping or two answered: the connection is live
            assert remote.note == ""
            os.kill(served.proc.pid, signal.SIGSTOP)
            frozen, since = True, time.monotonic()
            while not remote.note.startswith("connection lost") and time.monotonic() < since + 60:
                time.sleep(0.1)
            noticed = time.monotonic() - since
            assert remote.note.startswith("connection lost"), remote.note
            assert noticed < 12, f"the terminal saw the server frozen after {noticed:.1f} s"
            os.kill(served.proc.pid, signal.SIGCONT)
            frozen, since = False, time.monotonic()
            while (remote.note or remote.ws is None) and time.monotonic() < since + 60:
                time.sleep(0.1)
            assert remote.note == "" and remote.ws is not None, remote.note
            assert remote.view().legal  # its turn, on the table as it was
        finally:
            remote.close()
    finally:
        if frozen:
            os.kill(served.proc.pid, signal.SIGCONT)
        served.stop()
