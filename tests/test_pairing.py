"""Quick pairing: who sits with whom (the oldest seeker first, ratings within a range that
widens with the wait), every seeker given to one table however many passes run at once (on
SQLite and PostgreSQL), and the API: two strangers seated at one table in seconds, rated pools
for signed-in people only, bots after a wait, the counts for the front page."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from fastapi.testclient import TestClient

from bonepile.server.players import pairing_api
from bonepile.server.players.pairing import (
    ANY_AFTER,
    GROW_EVERY,
    RANGE_GROWTH,
    RANGE_START,
    STUCK_AFTER,
    Pairing,
    Pool,
    Seeker,
    groups,
)
from test_account_web import sign_up
from test_server import as_browser, browser, make_client
from test_store import make_store  # noqa: F401 - the fixture

RATED = Pool("block", 2, True)
CASUAL3 = Pool("doubles", 3, False)


def seeker(name: str, since: float, rating: float | None = None, pool: Pool = RATED) -> Seeker:
    return Seeker(name, pool, name, None, name, rating, since, since, None)


def test_the_oldest_seeker_sits_with_the_nearest_rating_that_fits() -> None:
    a, b, c = seeker("a", 0, 1500), seeker("b", 1, 1900), seeker("c", 2, 1560)
    (table,) = groups([a, b, c], now=3)
    assert {s.id for s in table} == {"a", "c"}  # b is 400 away: not yet


def test_the_range_widens_with_the_wait_until_any_rating_will_do() -> None:
    a, b = seeker("a", 0, 1500), seeker("b", 0, 1500 + RANGE_START + RANGE_GROWTH)
    assert groups([a, b], now=1) == []
    assert len(groups([a, b], now=GROW_EVERY + 0.1)) == 1  # one step wider: they fit
    far = seeker("far", 0, 3000)
    assert groups([a, far], now=ANY_AFTER - 1) == []
    assert len(groups([a, far], now=ANY_AFTER)) == 1


def test_a_pool_of_three_waits_for_three_and_casual_pools_ignore_ratings() -> None:
    one, two = seeker("a", 0, pool=CASUAL3), seeker("b", 1, pool=CASUAL3)
    assert groups([one, two], now=100) == []
    three = seeker("c", 2, pool=CASUAL3)
    (table,) = groups([one, two, three], now=3)
    assert len(table) == 3


def test_passes_at_once_give_each_seeker_to_one_table(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    store = make_store()
    pairing = Pairing(store)
    pool = Pool("block", 2, False)
    for k in range(6):
        pairing.seek(pool, f"{k:032x}", None, f"P{k}", None, float(k))
    made: list[tuple[str, list[Seeker]]] = []
    start = threading.Barrier(3)
    counter = iter(range(1000))

    def run() -> None:
        start.wait()
        made.extend(pairing.pair(pool, 10.0, lambda: f"t{next(counter)}"))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    seated = [s.id for _, table in made for s in table]
    assert len(made) == 3 and len(seated) == len(set(seated)) == 6
    assert pairing.waiting(10.0) == {}


def test_a_seeker_not_heard_from_leaves_the_pool(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    pairing = Pairing(make_store())
    pool = Pool("block", 2, False)
    gone = pairing.seek(pool, "a" * 32, None, "Gone", None, 0.0)
    assert pairing.waiting(1.0) == {pool.key: 1}
    pairing.seek(pool, "b" * 32, None, "Here", None, 100.0)
    assert pairing.pair(pool, 100.0, lambda: "t1") == []  # the first one left long ago
    assert pairing.look(gone.id, "a" * 32, 100.0) is None


# ------------------------------------------------------------------------------ the API
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "db.sqlite") as c:
        yield c


def wait_seated(client: TestClient, seek: dict[str, Any], within: float = 60) -> str:
    deadline = time.monotonic() + within
    while seek["status"] != "seated":
        assert time.monotonic() < deadline, seek
        time.sleep(0.3)
        seek = client.get(f"/api/pairing/{seek['id']}").json()
    table: str = seek["table"]
    return table


def test_two_strangers_are_seated_at_one_table(client: TestClient) -> None:
    ann = client.post("/api/pairing", json={"game": "block", "name": "Ann"}).json()
    assert ann["status"] == "waiting" and ann["players"] == 2 and ann["range"] is None
    counts = client.get("/api/pairing").json()
    assert counts["pools"] == [{"game": "block", "players": 2, "rated": False, "waiting": 1}]
    ann_jar = browser(client)
    client.cookies.clear()
    bob = client.post("/api/pairing", json={"game": "block", "name": "Bob"}).json()
    table = wait_seated(client, bob)
    bob_seat = client.get(f"/api/tables/{table}").json()
    as_browser(client, ann_jar)
    assert wait_seated(client, ann) == table
    ann_seat = client.get(f"/api/tables/{table}").json()
    assert {ann_seat["seat"], bob_seat["seat"]} == {0, 1}
    assert ann_seat["status"] == "playing" and not ann_seat["rated"]
    assert sorted(s["name"] for s in ann_seat["seats"]) == ["Ann", "Bob"]
    assert client.get("/api/pairing").json()["pools"] == []


def test_rated_pools_are_for_signed_in_people_and_seat_them_rated(client: TestClient) -> None:
    refused = client.post("/api/pairing", json={"game": "block", "rated": True})
    assert refused.status_code == 401
    sign_up(client, "Ann")
    ann = client.post("/api/pairing", json={"game": "block", "rated": True}).json()
    assert ann["range"] == RANGE_START
    ann_jar = browser(client)
    client.cookies.clear()
    sign_up(client, "Bob")
    table = wait_seated(
        client, client.post("/api/pairing", json={"game": "block", "rated": True}).json()
    )
    info = client.get(f"/api/tables/{table}").json()
    assert info["rated"] and sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob"]
    as_browser(client, ann_jar)
    assert wait_seated(client, ann) == table


def test_a_bad_pool_gets_one_clear_error(client: TestClient) -> None:
    for body, code in (
        ({"game": "chess"}, "unknown"),
        ({"game": "block", "players": 9}, "players"),
        ({"game": "block", "extra": 1}, "bad_request"),
    ):
        r = client.post("/api/pairing", json=body)
        assert r.status_code in (400, 404, 422) and r.json()["error"] == code, r.text
    assert client.get("/api/pairing/nope").status_code == 404


def test_after_a_wait_bots_may_fill_the_seats(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seek = client.post("/api/pairing", json={"game": "doubles", "players": 3}).json()
    early = client.post(f"/api/pairing/{seek['id']}/bots")
    assert early.status_code == 400 and early.json()["error"] == "wait"
    monkeypatch.setattr(pairing_api, "BOTS_AFTER", 0.0)
    assert client.get(f"/api/pairing/{seek['id']}").json()["can_fill"]
    got = client.post(f"/api/pairing/{seek['id']}/bots").json()
    info = client.get(f"/api/tables/{got['table']}").json()
    assert info["seat"] == 0 and [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
    assert client.get(f"/api/pairing/{seek['id']}").status_code == 404  # out of the pool


def test_leaving_the_pool(client: TestClient) -> None:
    seek = client.post("/api/pairing", json={"game": "draw"}).json()
    assert client.post(f"/api/pairing/{seek['id']}/leave").json()["status"] == "left"
    assert client.get("/api/pairing").json()["pools"] == []


def test_seekers_given_to_a_table_never_made_wait_again(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The process making their table died: after a while its seekers are paired again."""
    pairing = Pairing(make_store())
    pool = Pool("block", 2, False)
    a = pairing.seek(pool, "a" * 32, None, "Ann", None, 0.0)
    pairing.seek(pool, "b" * 32, None, "Bob", None, 0.0)
    ((first, _),) = pairing.pair(pool, 1.0, lambda: "never-made")
    for t in (5.0, 10.0, 20.0):  # they keep asking meanwhile
        seen = pairing.look(a.id, "a" * 32, t)
        assert seen is not None and seen.table_id == first
        assert pairing.pair(pool, t, lambda: "again") == []  # not yet: it may still be made
    ((again, seated),) = pairing.pair(pool, 1.0 + STUCK_AFTER + 1, lambda: "again")
    assert again == "again" and {s.name for s in seated} == {"Ann", "Bob"}
