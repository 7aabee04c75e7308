"""The terminal as a person of a web server: ``bonepile login`` keeps a sign-in (never the
password) that ``play --join`` sits with, at the account's own seat; ``logout`` ends it on the
server; two terminals waiting in a pool are paired at one table; a refused sign-in is one line."""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
pytest.importorskip("websockets")

from click.testing import CliRunner

from bonepile.cli import cli
from bonepile.tui.remote import RemoteTable
from bonepile.tui.web import Web, logins_file, pair
from live_server import running_server

pytestmark = pytest.mark.system

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("data")) as base:
        yield base


@pytest.fixture(autouse=True)
def own_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BONEPILE_LOGINS", str(tmp_path / "logins.json"))
    monkeypatch.setenv("BONEPILE_SEATS", str(tmp_path / "seats.json"))


def account(server: str, name: str) -> Web:
    """A browser that made the account ``name`` (and is signed in to it)."""
    browser = Web(server)
    browser.ok("POST", "/api/account/signup", {"name": name, "password": PASSWORD})
    return browser


def test_login_keeps_a_sign_in_and_the_terminal_sits_at_the_accounts_seat(server: str) -> None:
    phone = account(server, "Tia")
    made = phone.ok("POST", "/api/tables", {"game": "block", "seats": ["me", "open"]})
    runner = CliRunner()
    got = runner.invoke(
        cli, ["login", server, "--name", "tia", "--password-stdin"], input=PASSWORD + "\n"
    )
    assert got.exit_code == 0 and "as Tia" in got.output, got.output
    kept = logins_file().read_text()
    assert PASSWORD not in kept and json.loads(kept)[server]["name"] == "Tia"
    assert stat.S_IMODE(logins_file().stat().st_mode) == 0o600
    assert Web(server).ok("GET", "/api/account")["name"] == "Tia"
    remote = RemoteTable.connect(f"{server}/t/{made['id']}")
    try:
        assert remote.seat == made["seat"] and remote.token == made["token"]
    finally:
        remote.close()
    out = runner.invoke(cli, ["logout", server])
    assert out.exit_code == 0 and "Signed out" in out.output
    assert Web(server).ok("GET", "/api/account")["signed_in"] is False
    assert phone.ok("GET", "/api/account")["name"] == "Tia"  # only the terminal signed out


def test_a_refused_sign_in_is_one_line_and_keeps_nothing(server: str) -> None:
    account(server, "Uma")
    got = CliRunner().invoke(
        cli, ["login", server, "--name", "Uma", "--password-stdin"], input="wrong guess\n"
    )
    assert got.exit_code == 2
    assert got.output.strip().splitlines()[-1] == "bonepile: error: wrong name or password"
    assert not logins_file().exists()
    bad = CliRunner().invoke(cli, ["login", "nowhere", "--name", "Uma", "--password-stdin"])
    assert bad.exit_code == 2 and "is not a server's address" in bad.output


def test_two_terminals_in_a_pool_are_paired_at_one_table(server: str) -> None:
    terminals = [Web(server), Web(server)]
    tables: list[str] = []

    def wait(web: Web) -> None:
        tables.append(pair(web, "draw", None, False, "terminal"))

    threads = [threading.Thread(target=wait, args=(w,)) for w in terminals]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert len(tables) == 2 and tables[0] == tables[1], tables
    seats = []
    for web in terminals:
        remote = RemoteTable.connect(f"{server}/t/{tables[0]}", web=web)
        seats.append(remote.seat)
        remote.close()
    assert sorted(s for s in seats if s is not None) == [0, 1]


def test_rated_pairing_from_the_terminal_needs_a_sign_in(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bonepile.cli_web import paired_table

    with pytest.raises(SystemExit) as ended:
        paired_table(server, "block", None, True)
    assert ended.value.code == 2
    assert capsys.readouterr().err.strip() == (
        f"bonepile: error: rated play needs a sign-in: bonepile login {server}"
    )
