"""One site on many processes: real ``bonepile serve`` processes on one PostgreSQL database and
one Redis act as one site. A table made on one is joined, played and watched through the
others; a process killed outright mid-hand loses no acknowledged move, its tables are taken
over within seconds and its bots move exactly once; a process that would split the site
refuses to start, in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("redis")
pytest.importorskip("websockets")

from live_server import free_port
from site_servers import REDIS, Browser, Seat, Site, play, services_or_skip
from test_server_crash import Server

pytestmark = pytest.mark.system


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    services_or_skip()
    s = Site(tmp_path)
    yield s
    logs = s.close()
    print(logs[-6000:])  # shown when the test fails
    assert "Traceback" not in logs, logs[-4000:]


def _moves(journal: list[dict[str, object]]) -> list[object]:
    return [e.get("id") or e.get("action") for e in journal if e["type"] == "move"]


def test_three_processes_are_one_site(site: Site) -> None:
    a, b, c = site.add(), site.add(), site.add()
    ann, bob, eve = Browser(), Browser(), Browser()
    made = ann.post(a, "/api/tables", {"game": "block", "seats": ["me", "open"]})
    table = made["id"]
    joined = bob.post(c, f"/api/tables/{table}/join", {"name": "Bob"})
    assert joined["seat"] == 1 - made["seat"]
    # the same browser asks again through another process: the same seat and token
    again = bob.get(b, f"/api/tables/{table}")
    assert again["seat"] == joined["seat"] and again["token"] == joined["token"]
    # every process lists the table in its lobby
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        lines = [[t["id"] for t in eve.get(s, "/api/lobby")] for s in (a, b, c)]
        if all(table in ids for ids in lines):
            break
        time.sleep(0.2)
    else:
        raise AssertionError(f"the lobby differs between the processes: {lines}")
    for s in (a, b, c):  # every process is healthy, and says which site it serves
        health = eve.get(s, "/api/health")
        assert health["ok"] and health["redis"] and health["database"], health
    assert len({eve.get(s, "/api/health")["site"] for s in (a, b, c)}) == 1
    players = [Seat(b, table, made["token"]), Seat(c, table, joined["token"])]
    watcher = Seat(a, table, None)
    play(players)
    watcher.read(3.0)
    ends = [s.last for s in (*players, watcher)]
    assert all(e is not None and e["status"] == "over" for e in ends)
    histories = [[(h["seat"], h["action"]) for h in e["view"]["history"]] for e in ends if e]
    assert histories[0] == histories[1] == histories[2]
    assert {e["v"] for e in ends if e} == {ends[0]["v"] if ends[0] else 0}
    assert ends[2] is not None and ends[2]["you"] is None  # the watcher saw no hand
    acked = players[0].acked + players[1].acked
    assert sorted(_moves(site.journal(table))) == sorted(acked)  # each stored once
    assert made["seat"] is not None
    # the finished hand is a replay on every process
    for s in (a, b, c):
        replays = eve.get(s, f"/api/replays?table={table}")
        assert [r["table"] for r in replays] == [table], replays
    for s in (*players, watcher):
        s.close()


def test_a_process_killed_mid_hand_loses_no_acknowledged_move(site: Site) -> None:
    a, b, c = site.add(), site.add(), site.add()
    ann, bob = Browser(), Browser()
    made = ann.post(a, "/api/tables", {"game": "draw", "seats": ["me", "open"]})
    table = made["id"]
    joined = bob.post(b, f"/api/tables/{table}/join", {"name": "Bob"})
    assert site.lease(table) == (a.proc.pid if a.proc else None, 1)
    players = [Seat(b, table, made["token"]), Seat(c, table, joined["token"])]
    play(players, moves=4)
    a.kill()  # the owner dies; the players' sockets are on the other two
    start = time.monotonic()
    play(players, moves=1, within=60)
    taken = time.monotonic() - start
    play(players)
    owner, epoch = site.lease(table)
    assert owner in (b.proc.pid if b.proc else -1, c.proc.pid if c.proc else -1)
    assert epoch == 2
    acked = players[0].acked + players[1].acked
    stored = _moves(site.journal(table))
    assert sorted(stored) == sorted(acked), "every acknowledged move stored once, nothing else"
    assert taken < 45, f"the table was taken over after {taken:.1f} s"
    for s in players:
        s.close()


def test_bots_move_exactly_once_when_their_process_dies(site: Site) -> None:
    a, b = site.add("--bot-pace", "0.4"), site.add("--bot-pace", "0.4")
    ann = Browser()
    made = ann.post(a, "/api/tables", {"game": "block", "seats": ["me", "greedy"]})
    # a long match of bots: its next hand waits for someone to watch and its bots wait for
    # each other while watched, so however fast its first hand went unwatched, the table is
    # still in play when its process dies
    long_match = {"target_score": 500}
    bots = ann.post(
        a,
        "/api/tables",
        {"game": "block", "seats": ["greedy", "greedy"], "match": True, "options": long_match},
    )
    table = made["id"]
    me = Seat(b, table, made["token"])
    watcher = Seat(b, bots["id"], None)  # a table of bots plays while someone watches
    play([me], moves=2)
    watcher.read(0.5)
    assert watcher.last is not None and watcher.last["status"] == "playing"
    at_kill = watcher.last["hand_number"]
    a.kill()
    play([me], within=120)
    assert me.last is not None
    moves = [e for e in site.journal(table) if e["type"] == "move"]
    assert len(moves) == len(me.last["view"]["history"]), "a move stored twice, or one missing"
    assert site.lease(table)[1] == 2
    # the bots' table: every hand the watcher saw end, up to the one after the hand in play at
    # the kill, holds in the journal exactly the moves the watcher saw
    ended: dict[int, int] = {}
    deadline = time.monotonic() + 150
    while at_kill + 1 not in ended:
        assert time.monotonic() < deadline, "the bots' table stopped after its process died"
        watcher.read(0.5)
        seen = watcher.last
        assert seen is not None and seen["status"] == "playing", "the match ended too soon"
        if len(seen["hands"]) == seen["hand_number"]:  # the current hand is over
            ended[seen["hand_number"]] = len(seen["view"]["history"])
    per_hand: dict[int, int] = {}
    hand = 1
    for entry in site.journal(bots["id"]):
        if entry["type"] == "deal":
            hand += 1
        elif entry["type"] == "move":
            per_hand[hand] = per_hand.get(hand, 0) + 1
    for number, plies in ended.items():
        assert per_hand.get(number, 0) == plies, f"hand {number}: a move stored twice or missing"
    assert site.lease(bots["id"])[1] == 2
    me.close()
    watcher.close()


def _refused(command: list[str]) -> str:
    """Run a ``bonepile serve`` that must refuse to start (status 2, as every refused
    command); its one line."""
    done = subprocess.run(
        [sys.executable, "-m", "bonepile", "serve", *command],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def test_a_process_that_would_split_the_site_refuses_to_start(site: Site, tmp_path: Path) -> None:
    site.add()
    port = ["--port", str(free_port()), "--data", str(tmp_path / "other")]
    alone = _refused([*port, "--database", site.url])
    assert "--redis" in alone and "site" in alone, alone
    sqlite = _refused([*port, "--redis", REDIS])
    assert "PostgreSQL" in sqlite, sqlite
    nowhere = _refused([*port, "--database", site.url, "--redis", "redis://127.0.0.1:1/0"])
    assert "cannot reach Redis" in nowhere, nowhere
    # the same Redis server, another of its databases: the site's keys are not there
    other = _refused([*port, "--database", site.url, "--redis", "redis://127.0.0.1:6379/1"])
    assert "uses another Redis" in other, other


def test_a_site_process_refuses_to_join_a_server_alone(site: Site, tmp_path: Path) -> None:
    site.add(redis=None)  # a server alone on the database
    port = ["--port", str(free_port()), "--data", str(tmp_path / "other")]
    line = _refused([*port, "--database", site.url, "--redis", REDIS])
    assert "without --redis" in line, line


def test_workers_share_one_port_and_a_dead_worker_is_replaced(site: Site) -> None:
    server = site.add("--workers", "2")
    people = [Browser() for _ in range(6)]
    made = [p.post(server, "/api/tables", {"game": "block", "seats": ["me", "greedy"]})
            for p in people]  # fmt: skip
    seats = [Seat(server, t["id"], t["token"]) for t in made]
    for s in seats:
        play([s], moves=1)
    assert len(site.settled_workers(2)) == 2, "one port, two workers"
    victim = site.lease(made[0]["id"])[0]  # the worker that made the first table
    assert victim is not None
    os.kill(victim, signal.SIGKILL)
    for s in seats:
        play([s], within=120)  # every table goes on to its end
    for t, s in zip(made, seats, strict=True):
        moves = [e for e in site.journal(t["id"]) if e["type"] == "move"]
        assert s.last is not None and len(moves) == len(s.last["view"]["history"])
        assert sorted(m["id"] for m in moves if m.get("id")) == sorted(s.acked)
    live = site.settled_workers(2, gone=frozenset({victim}))  # the supervisor started another
    assert len(live) == 2 and victim not in live, f"the live workers are {live}"
    for s in seats:
        s.close()


def _a_clock_running_out(site: Site, a: Server, b: Server) -> bool:
    """A table made through ``a`` and sat at through ``b`` whose player never moves; False if
    its hand ended before the player's first turn (about one block deal in a hundred is
    blocked at the lead: a double nobody can follow)."""
    ann = Browser()
    body = {"game": "block", "seats": ["me", "greedy"], "clock_minutes": 0.02}
    made = ann.post(a, "/api/tables", body)
    table = made["id"]
    me = Seat(b, table, made["token"])  # present, through the process that does not own it
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # never moves: the clock runs out, a bot plays on
        me.read(0.5)
        if me.last is not None and me.last["status"] != "playing":
            break
    else:
        raise AssertionError("the hand did not end after the player's time ran out")
    journal = site.journal(table)
    moves = [e for e in journal if e["type"] == "move"]
    if all(e["seat"] != made["seat"] for e in moves):
        me.close()
        return False  # over before the player's turn came
    ran_out = [e for e in journal if e["type"] == "away" and e.get("why") == "time"]
    said = (me.last["status"], [(e["type"], e.get("seat"), e.get("why")) for e in journal])
    assert len(ran_out) == 1 and ran_out[0]["seat"] == made["seat"], said
    assert me.last is not None and len(moves) == len(me.last["view"]["history"])
    me.close()
    return True


def test_a_clock_runs_out_once_with_two_live_processes(site: Site) -> None:
    a, b = site.add(), site.add()
    assert any(_a_clock_running_out(site, a, b) for _ in range(5)), "five deals over at once"


def test_refusals_and_claims_are_the_same_through_any_process(site: Site) -> None:
    a, b, c = site.add(), site.add(), site.add()
    ann, bob, laptop = Browser(), Browser(), Browser()
    made = ann.post(a, "/api/tables", {"game": "block", "seats": ["me", "open"]})
    table = made["id"]
    bob.post(a, f"/api/tables/{table}/join", {"name": "Bob"})
    mine = Seat(b, table, made["token"])  # Ann through B; A owns the table
    deadline = time.monotonic() + 60
    while mine.last is None and time.monotonic() < deadline:
        mine.read(0.2)
    assert mine.last is not None
    # a move from a version long gone, and a move that is not legal: the owner's refusals
    stale = {"type": "move", "id": "x1", "v": mine.last["v"] - 1, "action": "0-0"}
    illegal = {"type": "move", "id": "x2", "v": mine.last["v"], "action": "no such move"}
    codes = []
    for move in (stale, illegal):
        mine.ws.send(json.dumps(move))
        while True:
            msg = json.loads(mine.ws.recv(timeout=60))
            if msg["type"] == "error":
                codes.append(msg["code"])
                break
    assert codes in (["stale", "illegal"], ["not_your_turn", "not_your_turn"]), codes
    # the seat's claim code, used on a laptop through C, moves the seat there: Ann's socket on
    # B is told at once and watches from then on
    code = mine.last["claim"]
    assert code
    import redis

    key = site._rows("SELECT key FROM site WHERE id = 1")[0][0]
    listener = redis.Redis.from_url(REDIS).pubsub()
    listener.subscribe(f"bp:{key}:t:{table}")  # what the bus carries of this table
    got = laptop.post(c, f"/api/tables/{table}/claim", {"code": code})
    assert got["seat"] == made["seat"] and got["token"] != made["token"]
    told = None
    deadline = time.monotonic() + 30
    while told is None and time.monotonic() < deadline:
        msg = json.loads(mine.ws.recv(timeout=30))
        if msg["type"] == "error" and msg["code"] == "token":
            told = msg
    assert told is not None, "the old device was not told its seat moved"
    heard = []
    while (m := listener.get_message(timeout=1.0)) is not None or not heard:
        if m is None:
            break
        if m["type"] == "message":
            heard.append(m["data"].decode())
    listener.close()
    assert heard and not any(code.replace("-", "") in h or '"claim"' in h for h in heard), heard
    journal = site.journal(table)
    assert [e["type"] for e in journal].count("claim") == 1
    mine.close()


def test_a_browsers_limits_hold_on_the_whole_site(site: Site) -> None:
    a = site.add("--limit", "tables_per_client=2")
    b = site.add("--limit", "tables_per_client=2")
    ann = Browser()
    body = {"game": "block", "seats": ["me", "greedy"]}
    ann.post(a, "/api/tables", body)
    ann.post(b, "/api/tables", body)
    with pytest.raises(urllib.error.HTTPError) as e:  # a third, through either process
        ann.post(a, "/api/tables", body)
    assert e.value.code == 429 and int(e.value.headers["Retry-After"]) > 0
    Browser().post(b, "/api/tables", body)  # another browser is not held to Ann's count


def test_an_owner_paused_past_its_lease_never_stores_a_move_again(site: Site) -> None:
    a, b = site.add(), site.add()
    ann = Browser()
    made = ann.post(a, "/api/tables", {"game": "draw", "seats": ["me", "greedy"]})
    table = made["id"]
    me = Seat(b, table, made["token"])
    play([me], moves=2)
    assert a.proc is not None and b.proc is not None
    os.kill(a.proc.pid, signal.SIGSTOP)  # A stops, sure it owns the table, its lease runs out
    try:
        play([me], moves=2, within=90)  # B takes the table over and the hand goes on
    finally:
        os.kill(a.proc.pid, signal.SIGCONT)  # A wakes up: whatever it wanted to store is refused
    play([me], within=120)
    owner, epoch = site.lease(table)
    assert owner == b.proc.pid and epoch >= 2
    moves = [e for e in site.journal(table) if e["type"] == "move"]
    assert me.last is not None and len(moves) == len(me.last["view"]["history"])
    assert sorted(m["id"] for m in moves if m.get("id")) == sorted(me.acked)
    deadline = time.monotonic() + 30
    while a.proc.pid not in site.live_pids() and time.monotonic() < deadline:
        time.sleep(0.5)  # A joined the site again, under a new id
    assert a.proc.pid in site.live_pids()
    me.close()


def test_an_account_is_the_same_on_every_process_and_its_guesses_are_counted_once(
    site: Site,
) -> None:
    a = site.add("--limit", "signins_per_name=3")
    b = site.add("--limit", "signins_per_name=3")
    ann, stranger, laptop = Browser(), Browser(), Browser()
    ann.post(a, "/api/account/signup", {"name": "Ann", "password": "correct horse"})
    assert ann.get(b, "/api/account")["name"] == "Ann"  # the session is the site's
    made = ann.post(b, "/api/tables", {"game": "block", "seats": ["me", "open"]})
    laptop.post(a, "/api/account/signin", {"name": "ANN", "password": "correct horse"})
    mine = laptop.get(a, f"/api/tables/{made['id']}")
    assert mine["seat"] == made["seat"] and mine["token"] == made["token"]
    codes = []
    for server in (a, b, a, b):  # wrong guesses sent round the processes count together
        try:
            stranger.post(server, "/api/account/signin", {"name": "ann", "password": "guess1234"})
        except urllib.error.HTTPError as e:
            codes.append(e.code)
    assert codes == [401, 401, 401, 429], codes
    ann.post(b, "/api/account/signout-everywhere", {})
    assert laptop.get(a, "/api/account")["signed_in"] is False


def test_two_strangers_asking_two_processes_at_once_get_one_table(site: Site) -> None:
    a, b = site.add(), site.add()
    ann, bob = Browser(), Browser()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:  # both ask at once, each through its own process
        asks = [
            pool.submit(who.post, server, "/api/pairing", {"game": "block", "name": name})
            for who, server, name in ((ann, a, "Ann"), (bob, b, "Bob"))
        ]
        seeks = [f.result() for f in asks]
    tables: list[str | None] = [s.get("table") for s in seeks]  # seated at once, or later
    deadline = time.monotonic() + 60
    while None in tables and time.monotonic() < deadline:
        for k, (who, server) in enumerate(((ann, a), (bob, b))):
            if tables[k] is None:
                got = who.get(server, f"/api/pairing/{seeks[k]['id']}")
                tables[k] = got.get("table")
        time.sleep(0.3)
    assert tables[0] is not None and tables[0] == tables[1], tables
    seats = {
        ann.get(b, f"/api/tables/{tables[0]}")["seat"],
        bob.get(a, f"/api/tables/{tables[0]}")["seat"],
    }
    assert seats == {0, 1}
    assert site._rows("SELECT COUNT(*) FROM tables")[0][0] == 1  # one table, never two


def test_a_rated_table_played_through_two_processes_is_rated_once(site: Site) -> None:
    a, b = site.add(), site.add()
    ann, bob = Browser(), Browser()
    ann.post(a, "/api/account/signup", {"name": "Ann", "password": "correct horse"})
    bob.post(b, "/api/account/signup", {"name": "Bob", "password": "correct horse"})
    made = ann.post(a, "/api/tables", {"game": "block", "seats": ["me", "open"], "rated": True})
    table = made["id"]
    joined = bob.post(b, f"/api/tables/{table}/join", {})
    players = [Seat(b, table, made["token"]), Seat(a, table, joined["token"])]
    play(players)  # each plays through the other's process
    for s in players:
        s.close()

    def games() -> list[int]:
        seen = []
        for who, server in ((ann, b), (bob, a)):
            ratings = who.get(server, "/api/players/Ann")["ratings"]
            seen += [r["games"] for r in ratings if r["game"] == "block"]
        return seen

    deadline = time.monotonic() + 60
    while games() != [1, 1] and time.monotonic() < deadline:
        time.sleep(0.5)
    assert games() == [1, 1]
    # a process that starts now sweeps for tables whose settlement is missing: none is
    c = site.add()
    for _ in range(10):  # (its sweep runs on its own task, soon after it starts)
        assert ann.get(c, "/api/players/Bob")["ratings"][0]["games"] == 1
        assert site._rows("SELECT COUNT(*) FROM rating_history")[0][0] == 2  # once each
        time.sleep(0.5)
