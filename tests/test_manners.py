"""Challenges, blocks and reports through the API: a challenge accepted seats both players at
one table (answered once), declined or taken back it is over; a block keeps two players out
of each other's challenges and pairings; a report keeps the hand for the operator, who lists it
with ``bonepile reports``; a deleted account takes what it made with it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from click.testing import CliRunner
from fastapi.testclient import TestClient

from bonepile.cli import cli
from test_account_web import PASSWORD, sign_up
from test_server import as_browser, browser, make_client


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "db.sqlite"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


def two(client: TestClient) -> tuple[dict[str, str], dict[str, str]]:
    """Ann's and Bob's browsers, both signed up (the client is Bob's at the end)."""
    sign_up(client, "Ann")
    ann = browser(client)
    client.cookies.clear()
    sign_up(client, "Bob")
    return ann, browser(client)


def test_a_challenge_accepted_seats_both_at_one_table(client: TestClient) -> None:
    ann, bob = two(client)
    as_browser(client, ann)
    made = client.post("/api/challenges", json={"name": "bob", "game": "block", "rated": True})
    assert made.status_code == 200 and made.json()["to"] == "Bob", made.text
    challenge = made.json()["id"]
    assert client.get("/api/challenges").json()["outgoing"][0]["status"] == "open"
    as_browser(client, bob)
    (incoming,) = client.get("/api/challenges").json()["incoming"]
    assert (incoming["from"], incoming["game"], incoming["rated"]) == ("Ann", "block", True)
    accepted = client.post(f"/api/challenges/{challenge}/accept").json()
    table = accepted["table"]
    info = client.get(f"/api/tables/{table}").json()
    assert info["seat"] == 1 and info["rated"] and info["status"] == "playing"
    again = client.post(f"/api/challenges/{challenge}/accept")
    assert again.status_code == 409 and again.json()["error"] == "answered"
    as_browser(client, ann)
    (out,) = client.get("/api/challenges").json()["outgoing"]
    assert out["status"] == "accepted" and out["table"] == table
    (kept,) = client.get("/api/account/data").json()["challenges"]
    assert (kept["from"], kept["to"], kept["status"]) == ("Ann", "Bob", "accepted")
    assert client.get(f"/api/tables/{table}").json()["seat"] == 0


def test_a_challenge_is_declined_or_taken_back_by_the_right_player_only(client: TestClient) -> None:
    ann, bob = two(client)
    as_browser(client, ann)
    first = client.post("/api/challenges", json={"name": "Bob", "game": "draw"}).json()["id"]
    second = client.post("/api/challenges", json={"name": "Bob", "game": "doubles"}).json()["id"]
    assert client.post(f"/api/challenges/{first}/accept").status_code == 404  # not Ann's to take
    assert client.post(f"/api/challenges/{second}/cancel").json()["status"] == "cancelled"
    as_browser(client, bob)
    assert client.post(f"/api/challenges/{first}/cancel").status_code == 404
    assert client.post(f"/api/challenges/{first}/decline").json()["status"] == "declined"
    assert client.get("/api/challenges").json()["incoming"] == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "Nobody", "game": "block"}, "unknown"),
        ({"name": "Ann", "game": "block"}, "yourself"),
        ({"name": "Bob", "game": "chess"}, "unknown"),
        ({"name": "Bob", "game": "block", "players": 9}, "players"),
        ({"name": "Bob", "game": "block", "players": 99}, "bad_request"),
    ],
)
def test_a_bad_challenge_gets_one_clear_error(
    client: TestClient, body: dict[str, object], code: str
) -> None:
    ann, _ = two(client)
    as_browser(client, ann)
    r = client.post("/api/challenges", json=body)
    assert r.status_code in (400, 404, 422) and r.json()["error"] == code, r.text


def test_challenges_need_an_account_and_are_limited(client: TestClient) -> None:
    assert client.post("/api/challenges", json={"name": "Bob", "game": "block"}).status_code == 401
    assert client.get("/api/challenges").json() == {
        "signed_in": False,
        "incoming": [],
        "outgoing": [],
    }
    ann, _ = two(client)
    as_browser(client, ann)
    codes = [
        client.post("/api/challenges", json={"name": "Bob", "game": "block"}).status_code
        for _ in range(6)
    ]
    assert codes == [200] * 5 + [429]


def test_a_block_keeps_two_players_apart(client: TestClient) -> None:
    ann, bob = two(client)
    as_browser(client, bob)
    assert client.post("/api/players/ann/block").json() == {"name": "Ann", "blocked": True}
    assert client.get("/api/account/blocks").json() == {"blocked": ["Ann"]}
    assert client.get("/api/account/data").json()["blocked"] == ["Ann"]  # in what is kept
    as_browser(client, ann)
    refused = client.post("/api/challenges", json={"name": "Bob", "game": "block"})
    assert refused.status_code == 403 and refused.json()["error"] == "blocked"
    assert client.get("/api/account/blocks").json() == {"blocked": []}  # Bob's block is his
    # in a pool, the two wait side by side and are not seated together
    seek = client.post("/api/pairing", json={"game": "block"}).json()
    as_browser(client, bob)
    other = client.post("/api/pairing", json={"game": "block"}).json()
    time.sleep(0.5)
    assert client.get(f"/api/pairing/{other['id']}").json()["status"] == "waiting"
    as_browser(client, ann)
    assert client.get(f"/api/pairing/{seek['id']}").json()["status"] == "waiting"
    as_browser(client, bob)
    client.post("/api/players/Ann/unblock")
    assert client.get(f"/api/pairing/{other['id']}").json()["status"] == "seated"


def test_a_report_keeps_the_hand_for_the_operator(client: TestClient, db: Path) -> None:
    two(client)  # Bob's browser reports Ann
    assert client.post("/api/players/Ann/report", json={"text": "  "}).json()["error"] == "empty"
    assert (
        client.post("/api/players/Ann/report", json={"text": "x", "hand": "nope-1"}).status_code
        == 404
    )
    r = client.post("/api/players/Ann/report", json={"text": "rude <b>chat</b>\nall hand"})
    assert r.status_code == 200 and r.json() == {"reported": "Ann"}
    listed = CliRunner().invoke(cli, ["reports", "--database", f"sqlite:///{db}"])
    assert listed.exit_code == 0, listed.output
    (line,) = listed.output.strip().splitlines()
    assert line.endswith("Bob reported Ann: rude <b>chat</b> all hand")
    (filed,) = client.get("/api/account/data").json()["reports_filed"]  # Bob sees his report
    assert (filed["reported"], filed["text"]) == ("Ann", "rude <b>chat</b>\nall hand")
    missing = CliRunner().invoke(cli, ["reports", "--data", str(db.parent / "nothing")])
    assert missing.exit_code == 2 and "there is no server database" in missing.output
    # Bob deletes his account: the report he filed goes with it
    client.post("/api/account/delete", json={"password": PASSWORD})
    listed = CliRunner().invoke(cli, ["reports", "--database", f"sqlite:///{db}"])
    assert listed.output.strip() == "No reports."
