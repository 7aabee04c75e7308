"""Accounts through the web app's API (Starlette's test client): signing up keeps what the
browser played; sign-in, sign-out (here and everywhere), a new password and deletion do what
they say to every device; the cookies are HttpOnly, SameSite and new at each sign-in; wrong
passwords are limited per name and per client; a page of another site cannot act."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from fastapi.testclient import TestClient

from test_server import (
    as_browser,
    browser,
    make_client,
    new_table,
    play_to_the_end,
    receive_state,
)

PASSWORD = "correct horse battery"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "db.sqlite") as c:
        yield c


def sign_up(client: TestClient, name: str = "Ann", password: str = PASSWORD) -> dict[str, Any]:
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()
    return got


def sign_in(client: TestClient, name: str = "Ann", password: str = PASSWORD) -> Any:
    return client.post("/api/account/signin", json={"name": name, "password": password})


def me(client: TestClient) -> dict[str, Any]:
    got: dict[str, Any] = client.get("/api/account").json()
    return got


def seat_of(client: TestClient, table: str) -> tuple[int | None, str | None]:
    got = client.get(f"/api/tables/{table}").json()
    return got["seat"], got["token"]


def acts_with(client: TestClient, table: str, token: str | None) -> bool:
    """Whether ``token`` still holds a seat at ``table`` (a socket that says hello with it is
    seated; a retired token is refused with the error ``token``)."""
    with client.websocket_connect(f"/ws/table/{table}") as ws:
        ws.send_json({"type": "hello", "token": token, "since": -1, "width": 40})
        first = ws.receive_json()
        if first["type"] == "error":
            assert first["code"] == "token", first
            return False
        return (
            receive_state(ws, lambda m: True)["you"] is not None
            if first["type"] != "state"
            else first["you"] is not None
        )


def test_signing_up_sets_a_safe_cookie_and_names_the_browser(client: TestClient) -> None:
    assert me(client) == {"signed_in": False, "name": None}
    r = client.post("/api/account/signup", json={"name": "Ann_B", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["name"] == "Ann_B"
    cookie = r.headers.get_list("set-cookie")
    signin = next(c for c in cookie if c.startswith("bonepile_signin="))
    assert "HttpOnly" in signin and "SameSite=lax" in signin and "Path=/" in signin
    assert me(client)["name"] == "Ann_B"
    # a table made while signed in is sat at under the account's name, whatever is typed
    t = new_table(client, "block", ["me", "greedy"], name="Somebody else")
    seats = client.get(f"/api/tables/{t['id']}").json()["seats"]
    assert seats[t["seat"]]["name"] == "Ann_B"


@pytest.mark.parametrize(
    ("name", "password", "code"),
    [
        ("an", PASSWORD, "bad_name"),
        ("<script>", PASSWORD, "bad_name"),
        ("Ann", "short", "bad_password"),
        ("Ann", "x" * 300, "bad_password"),
    ],
)
def test_a_name_or_password_the_rule_refuses_gets_one_clear_error(
    client: TestClient, name: str, password: str, code: str
) -> None:
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 400 and r.json()["error"] == code, r.text
    assert r.json()["message"] and "bonepile_signin" not in r.headers.get("set-cookie", "")
    assert me(client)["signed_in"] is False


def test_a_look_alike_name_is_taken(client: TestClient) -> None:
    sign_up(client, "Bob_1")
    client.cookies.clear()
    r = client.post("/api/account/signup", json={"name": "bobl", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"


def test_signing_up_keeps_the_browsers_seats_and_hands_and_retires_its_old_tokens(
    client: TestClient,
) -> None:
    # a whole hand played anonymously, and a table still in play
    done = new_table(client, "block", ["me", "greedy"])
    with client.websocket_connect(f"/ws/table/{done['id']}") as ws:
        ws.send_json({"type": "hello", "token": done["token"], "since": -1, "width": 40})
        play_to_the_end(ws, receive_state(ws))
    live = new_table(client, "block", ["me", "open"])
    anonymous = browser(client)
    sign_up(client, "Ann")
    seat, token = seat_of(client, live["id"])
    assert seat == live["seat"] and token and token != live["token"]
    assert acts_with(client, live["id"], token)
    seats = client.get(f"/api/tables/{live['id']}").json()["seats"]
    assert seats[seat]["name"] == "Ann"  # the seat now shows the account's name
    assert not acts_with(client, live["id"], live["token"])  # the anonymous token: retired
    hands = client.get("/api/account/data").json()["hands"]
    assert [h["id"] for h in hands] == [f"{done['id']}-1"]
    # the browser's cookie from before it signed up holds nothing of the account's
    as_browser(client, anonymous)
    assert seat_of(client, live["id"]) == (None, None)
    assert me(client)["signed_in"] is False


def test_signing_in_on_another_device_finds_the_same_seats(client: TestClient) -> None:
    sign_up(client, "Ann")
    t = new_table(client, "block", ["me", "open"])
    phone = browser(client)
    client.cookies.clear()
    assert seat_of(client, t["id"]) == (None, None)
    r = sign_in(client, "ann")  # names are found whatever their case
    assert r.status_code == 200 and r.json()["name"] == "Ann"
    assert seat_of(client, t["id"]) == (t["seat"], t["token"])
    laptop = browser(client)
    assert laptop["bonepile_signin"] != phone["bonepile_signin"]  # a new token each sign-in
    # signing out here ends this session only
    assert client.post("/api/account/signout").json()["signed_in"] is False
    assert seat_of(client, t["id"]) == (None, None)
    as_browser(client, laptop)
    assert me(client)["signed_in"] is False
    as_browser(client, phone)
    assert me(client)["name"] == "Ann"


def test_a_sign_in_token_from_before_is_not_kept(client: TestClient) -> None:
    """Session fixation: a token planted before sign-in is not the one signed in."""
    sign_up(client, "Ann")
    planted = browser(client)["bonepile_signin"]
    client.post("/api/account/signout")
    client.cookies.set("bonepile_signin", planted)
    assert me(client)["signed_in"] is False  # signed out: the old token is dead
    given = sign_in(client).headers["set-cookie"]
    assert "bonepile_signin=" in given and planted not in given


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    sign_up(client, "Ann")
    client.cookies.clear()
    wrong = sign_in(client, "Ann", "not the password")
    unknown = sign_in(client, "Nobody", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {
            "error": "signin",
            "message": "wrong name or password",
        }
    )


def test_wrong_passwords_are_limited_per_name_without_locking_out_its_owner(
    tmp_path: Path,
) -> None:
    with make_client(tmp_path / "db.sqlite") as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        limits = hub.limits
        sign_up(client, "Ann")
        client.cookies.clear()
        for _ in range(limits.signins_per_name):  # a stranger (one browser, one address)
            assert sign_in(client, "Ann", "guess guess").status_code == 401
        refused = sign_in(client, "Ann", PASSWORD)  # even the right password, from them
        assert refused.status_code == 429 and refused.json()["error"] == "too_many"
        assert int(refused.headers["retry-after"]) > 0
        # the test client's address is the stranger's: the owner, from another address
        # (and browser), is let in
        other = TestClient(client.app, client=("10.0.0.2", 5000))
        assert sign_in(other, "Ann").status_code == 200


def test_a_browser_that_guesses_many_names_is_stopped(tmp_path: Path) -> None:
    with make_client(tmp_path / "db.sqlite") as client:
        limits = client.app.state.hub.limits  # type: ignore[attr-defined]
        for k in range(limits.signins_per_client):
            assert sign_in(client, f"Name{k}x", "guess guess").status_code == 401
        assert sign_in(client, "Another", "guess guess").status_code == 429


def test_signing_out_everywhere_ends_every_session_and_every_seat_token(
    client: TestClient,
) -> None:
    sign_up(client, "Ann")
    t = new_table(client, "block", ["me", "open"])
    phone = browser(client)
    client.cookies.clear()
    sign_in(client)
    r = client.post("/api/account/signout-everywhere")
    assert r.status_code == 200 and r.json()["ended"] == 2
    assert me(client)["signed_in"] is False
    as_browser(client, phone)
    assert me(client)["signed_in"] is False  # the other device is signed out too
    assert not acts_with(client, t["id"], t["token"])  # and its seat token is dead
    sign_in(client)
    seat, token = seat_of(client, t["id"])  # the seat is still the account's
    assert seat == t["seat"] and token != t["token"] and acts_with(client, t["id"], token)


def test_a_new_password_keeps_this_session_and_ends_the_others(client: TestClient) -> None:
    sign_up(client, "Ann")
    phone = browser(client)
    client.cookies.clear()
    sign_in(client)
    bad = client.post("/api/account/password", json={"old": "wrong one", "new": "new password"})
    assert bad.status_code == 401 and bad.json()["error"] == "signin"
    short = client.post("/api/account/password", json={"old": PASSWORD, "new": "short"})
    assert short.status_code == 400 and short.json()["error"] == "bad_password"
    ok = client.post("/api/account/password", json={"old": PASSWORD, "new": "new password"})
    assert ok.status_code == 200 and me(client)["name"] == "Ann"
    as_browser(client, phone)
    assert me(client)["signed_in"] is False
    assert sign_in(client).status_code == 401
    assert sign_in(client, "Ann", "new password").status_code == 200


def test_a_person_sees_and_deletes_what_is_stored_about_them(client: TestClient) -> None:
    sign_up(client, "Ann")
    t = new_table(client, "block", ["me", "open"])
    data = client.get("/api/account/data")
    assert "attachment" in data.headers["content-disposition"]
    stored = data.json()
    assert stored["account"]["name"] == "Ann" and len(stored["sessions"]) == 1
    assert stored["sessions"][0]["this"] is True
    assert PASSWORD not in data.text and "argon2" not in data.text
    refused = client.post("/api/account/delete", json={"password": "not it at all"})
    assert refused.status_code == 401 and me(client)["name"] == "Ann"
    r = client.post("/api/account/delete", json={"password": PASSWORD})
    assert r.status_code == 200 and me(client)["signed_in"] is False
    # this browser keeps the seat (the game can end), and the name is free again
    seat, token = seat_of(client, t["id"])
    assert seat == t["seat"] and token and acts_with(client, t["id"], token)
    assert sign_in(client).status_code == 401
    sign_up(client, "ann")


@pytest.mark.parametrize(
    "path", ["/api/account/signout-everywhere", "/api/account/data", "/api/account/password"]
)
def test_what_needs_an_account_says_so(client: TestClient, path: str) -> None:
    if path.endswith("data"):
        r = client.get(path)
    else:
        r = client.post(path, json={"old": PASSWORD, "new": "new password"})
    assert r.status_code == 401 and r.json()["error"] == "signed_out"


def test_a_page_of_another_site_cannot_sign_in_or_act(client: TestClient) -> None:
    sign_up(client, "Ann")
    evil = {"origin": "https://evil.example"}
    for path, body in (
        ("/api/account/signout-everywhere", {}),
        ("/api/account/signin", {"name": "Ann", "password": PASSWORD}),
        ("/api/tables", {"game": "block", "seats": ["me", "greedy"]}),
    ):
        r = client.post(path, json=body, headers=evil)
        assert r.status_code == 403 and r.json()["error"] == "cross_site", path
    r = client.post("/api/account/signout", headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    assert me(client)["name"] == "Ann"  # nothing changed
    same = {"origin": "http://testserver"}
    assert client.post("/api/account/signout", headers=same).status_code == 200


# ------------------------------------------------------------------------------ rated tables
def rating_of(client: TestClient, name: str, game: str = "block") -> dict[str, Any] | None:
    got = client.get(f"/api/players/{name}").json()
    assert "ratings" in got, got
    return next((r for r in got["ratings"] if r["game"] == game), None)


def test_a_rated_table_seats_accounts_only_and_rates_a_leaver_last(client: TestClient) -> None:
    bad = client.post("/api/tables", json={"game": "block", "seats": ["me", "open"], "rated": True})
    assert bad.status_code == 401 and bad.json()["error"] == "signed_out"
    sign_up(client, "Ann")
    with_bot = client.post(
        "/api/tables", json={"game": "block", "seats": ["me", "greedy"], "rated": True}
    )
    assert with_bot.status_code == 400 and with_bot.json()["error"] == "rated"
    t = new_table(client, "block", ["me", "open"], rated=True)
    assert client.get(f"/api/tables/{t['id']}").json()["rated"] is True
    ann = browser(client)
    client.cookies.clear()  # an anonymous browser may watch, not sit
    refused = client.post(f"/api/tables/{t['id']}/join", json={"name": "Eve"})
    assert refused.status_code == 401 and "sign in" in refused.json()["message"]
    sign_up(client, "Bob")
    bob = client.post(f"/api/tables/{t['id']}/join", json={}).json()
    seats = client.get(f"/api/tables/{t['id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob"]
    with client.websocket_connect(f"/ws/table/{t['id']}") as wb:
        wb.send_json({"type": "hello", "token": bob["token"]})
        receive_state(wb)
        wb.send_json({"type": "leave"})  # Bob walks out: a bot plays his seat to the end
        assert wb.receive_json()["code"] == "token"
    as_browser(client, ann)
    with client.websocket_connect(f"/ws/table/{t['id']}") as wa:
        wa.send_json({"type": "hello", "token": t["token"], "since": -1, "width": 40})
        end = play_to_the_end(wa, receive_state(wa))
    assert end["status"] == "over"
    deadline = time.monotonic() + 60  # the settlement runs on its own once the end is stored
    while rating_of(client, "Bob") is None and time.monotonic() < deadline:
        time.sleep(0.5)  # within the API's 5 requests a second
    a, b = rating_of(client, "Ann"), rating_of(client, "Bob")
    assert a is not None and b is not None
    assert (a["games"], a["wins"], b["games"], b["wins"]) == (1, 1, 1, 0)  # whoever left lost
    assert a["rating"] > 1500 > b["rating"] and a["provisional"]
    history = client.get("/api/players/ann/ratings/block").json()["points"]
    assert [p["table"] for p in history] == [t["id"]] and history[0]["rating"] == a["rating"]
    # settled once: the sweep finds nothing more to rate
    import asyncio

    players = client.app.state.players  # type: ignore[attr-defined]
    assert asyncio.run(players.rated.sweep()) == 0
    board = client.get("/api/leaderboard/block").json()["rows"]
    assert [(r["name"], r["provisional"]) for r in board] == [("Ann", True), ("Bob", True)]
    # Ann's hands, filtered by opponent and result, and all her records in one download
    hands = lambda q: [h["table"] for h in client.get(f"/api/players/Ann?{q}").json()["hands"]]  # noqa: E731
    won = t["seat"] in end["view"]["result"]["winners"]  # the hand's result (the bot may win it)
    assert hands("opponent=bob") == hands(f"result={'won' if won else 'lost'}") == [t["id"]]
    assert hands(f"result={'lost' if won else 'won'}") == []
    sign_up(client, "Cyd")  # a player Ann never met
    assert hands("opponent=Cyd") == []
    assert client.get("/api/players/Ann?result=maybe").status_code == 400
    import io
    import zipfile

    from bonepile.record import read_record

    got = client.get("/api/players/Ann/records")
    assert got.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(got.content)) as z:
        (name,) = z.namelist()
        assert name == f"bonepile-{t['id']}-1.json"
        assert read_record(z.read(name).decode()).is_over


def test_a_player_may_hide_their_hands_from_others(client: TestClient) -> None:
    sign_up(client, "Ann")
    t = new_table(client, "block", ["me", "greedy"])
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": t["token"], "since": -1, "width": 40})
        play_to_the_end(ws, receive_state(ws))
    page = client.get("/api/players/Ann").json()
    assert page["you"] and [h["table"] for h in page["hands"]] == [t["id"]]
    assert client.post("/api/account/privacy", json={"hide_history": True}).status_code == 200
    ann = browser(client)
    client.cookies.clear()
    other = client.get("/api/players/ann").json()
    assert other["hands"] is None and other["hide_history"] and not other["you"]
    assert client.get("/api/players/ann/records").status_code == 403
    assert client.get("/api/players/Nobody").status_code == 404
    as_browser(client, ann)
    assert client.get("/api/players/Ann").json()["hands"]  # still shown to Ann herself


def test_nothing_secret_of_an_account_reaches_anyone_else(client: TestClient) -> None:
    """An account's id, the id its seats are held under, its password's hash and its session
    token never leave the server to another player, a spectator, or the public API."""
    sign_up(client, "Ann")
    ann = browser(client)
    t = new_table(client, "block", ["me", "open"], rated=True)
    client.cookies.clear()
    sign_up(client, "Bob")
    client.post(f"/api/tables/{t['id']}/join", json={})
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with hub.store.engine.connect() as conn:
        from sqlalchemy import text

        rows = conn.execute(text("SELECT id, owner, password FROM accounts WHERE name = 'Ann'"))
        secrets = [str(v) for v in rows.one()] + [ann["bonepile_signin"]]
    seen: list[str] = []
    with client.websocket_connect(f"/ws/table/{t['id']}") as watcher:  # Bob's browser, watching
        watcher.send_json({"type": "hello", "since": -1, "width": 40})
        seen.append(json.dumps(receive_state(watcher)))
    with client.websocket_connect("/ws/lobby") as lobby:
        seen.append(json.dumps(lobby.receive_json()))
    for path in (
        f"/api/tables/{t['id']}",
        "/api/players/Ann",
        "/api/players/Ann/ratings/block",
        "/api/leaderboard/block",
        "/api/lobby",
        "/api/pairing",
        "/api/challenges",
    ):
        seen.append(client.get(path).text)
    wire = "\n".join(seen)
    assert "Ann" in wire  # the name is public
    for secret in secrets:
        assert secret not in wire


def test_a_signed_in_persons_name_is_marked_and_cannot_be_borrowed(client: TestClient) -> None:
    sign_up(client, "Ann")
    t = new_table(client, "block", ["me", "open"])
    client.cookies.clear()
    client.post(f"/api/tables/{t['id']}/join", json={"name": "Ann"})  # a guest who says Ann
    seats = client.get(f"/api/tables/{t['id']}").json()["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [("Ann", True), ("Ann", False)]
    client.cookies.clear()
    sign_up(client, "Bob")
    with client.websocket_connect(f"/ws/table/{t['id']}") as bob:  # Bob watches, signed in
        bob.send_json({"type": "hello", "width": 40})
        receive_state(bob)
        bob.send_json({"type": "chat", "name": "Ann", "text": "I am Ann"})
        said = receive_state(bob, lambda m: bool(m["chat"]))["chat"][-1]
    assert (said["name"], said["account"], said["watching"]) == ("Bob", True, True)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/table/{t['id']}") as guest:
        guest.send_json({"type": "hello", "width": 40})
        receive_state(guest)
        guest.send_json({"type": "chat", "name": "Ann", "text": "me too"})
        said = receive_state(guest, lambda m: len(m["chat"]) == 2)["chat"][-1]
    assert (said["name"], said["account"]) == ("Ann", False)
