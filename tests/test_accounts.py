"""Accounts: the rule for names and when two are the same, passwords kept only as Argon2id
hashes, and sign-in sessions that end when they should, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest

pytest.importorskip("argon2")

from bonepile.server.players import passwords
from bonepile.server.players.accounts import (
    SESSION_IDLE,
    SESSION_LIFE,
    Account,
    Accounts,
    NameTaken,
)
from bonepile.server.players.names import BadName, name_key, parse_name
from bonepile.server.players.passwords import BadPassword, check_password, verify_password
from test_store import make_store  # noqa: F401 - the fixture

PASSWORD = "correct horse"


# ------------------------------------------------------------------------------ names
@pytest.mark.parametrize("name", ["Zoe", "ann-b", "bob_2", "A" * 20, "x1y", "Mary-Jane_3"])
def test_names_the_rule_allows(name: str) -> None:
    assert parse_name(f"  {name} ") == name


@pytest.mark.parametrize(
    "name",
    ["", "ab", "A" * 21, "1abc", "_abc", "abc_", "a--b", "a_-b", "zoë", "а́nn", "bob 2", "<b>x", 3],
)
def test_names_the_rule_refuses_say_the_rule(name: Any) -> None:
    with pytest.raises(BadName, match="3 to 20 characters"):
        parse_name(name)


def test_look_alike_names_are_one_name() -> None:
    same = ["Bob_1", "bob-l", "BOBI", "bobl", "B0b1"]
    assert len({name_key(n) for n in same}) == 1
    assert name_key("barn") == name_key("bam") and name_key("vvolf") == name_key("wolf")
    assert name_key("ann") != name_key("anna")


# ------------------------------------------------------------------------------ passwords
def test_passwords_are_argon2id_with_the_documented_parameters() -> None:
    hashed = passwords.hash_password(PASSWORD)
    assert hashed.startswith("$argon2id$v=19$m=65536,t=3,p=4$"), hashed
    assert PASSWORD not in hashed
    assert hashed != passwords.hash_password(PASSWORD)  # a salt of its own each time
    assert verify_password(hashed, PASSWORD)
    assert not verify_password(hashed, PASSWORD + "!")
    assert not verify_password(None, PASSWORD)  # no account: no, after the same work
    assert not verify_password("not a hash", PASSWORD)


@pytest.mark.parametrize(("password", "why"), [("short", "at least 8"), ("x" * 257, "at most")])
def test_passwords_too_short_or_too_long_are_refused(password: str, why: str) -> None:
    with pytest.raises(BadPassword, match=why):
        check_password(password)


# ------------------------------------------------------------------------------ accounts
def test_an_account_is_a_name_and_a_hash(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    store = make_store()
    accounts = Accounts(store)
    ann = accounts.sign_up(" Ann-B ", PASSWORD, 1.0)
    assert ann.name == "Ann-B" and accounts.named("ann_b") == ann
    with store.engine.connect() as conn:
        rows = [tuple(r) for r in conn.exec_driver_sql("SELECT * FROM accounts")]
    assert len(rows) == 1 and not any(PASSWORD in str(value) for value in rows[0])
    assert accounts.check("ANN-B", PASSWORD, 2.0) == ann
    assert accounts.check("Ann-B", "wrong password", 2.0) is None
    assert accounts.check("nobody", PASSWORD, 2.0) is None
    for taken in ("ann-b", "ANN_B", "annb"):
        with pytest.raises(NameTaken):
            accounts.sign_up(taken, "another password", 3.0)
    with pytest.raises(BadName):
        accounts.sign_up("a", PASSWORD, 3.0)
    with pytest.raises(BadPassword):
        accounts.sign_up("Bea", "short", 3.0)
    assert accounts.named("Bea") is None


def test_an_unknown_name_costs_a_password_check_as_a_wrong_password_does(
    make_store,  # type: ignore[no-untyped-def]  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No answer tells whether a name exists: both paths verify a hash once."""
    accounts = Accounts(make_store())
    accounts.sign_up("Ann", PASSWORD, 1.0)
    real = passwords.HASHER
    calls: list[str] = []

    class Counting:
        def verify(self, stored: str, password: str) -> bool:
            calls.append(stored[:10])
            return real.verify(stored, password)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    monkeypatch.setattr(passwords, "HASHER", Counting())
    assert accounts.check("Ann", "wrong password", 2.0) is None
    assert accounts.check("Nobody", "wrong password", 2.0) is None
    assert calls == ["$argon2id$", "$argon2id$"]


def test_one_name_signed_up_twice_at_once_makes_one_account(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    store = make_store()
    outcomes: list[object] = []

    def sign_up(name: str) -> None:
        try:
            outcomes.append(Accounts(store).sign_up(name, PASSWORD, 1.0))
        except NameTaken as e:
            outcomes.append(e)

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in ("Cleo", "CLEO", "cle0")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(o, Account) for o in outcomes) == 1, outcomes


# ------------------------------------------------------------------------------ sessions
def test_a_session_is_a_token_the_database_keeps_only_hashed(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    store = make_store()
    accounts = Accounts(store)
    ann = accounts.sign_up("Ann", PASSWORD, 1.0)
    token = accounts.open_session(ann, 10.0)
    other = accounts.open_session(ann, 11.0)
    assert token != other and len(token) >= 40
    assert accounts.session(token, 12.0) == ann
    with store.engine.connect() as conn:
        kept = " ".join(str(r) for r in conn.exec_driver_sql("SELECT * FROM account_sessions"))
    assert token not in kept and other not in kept
    for bad in ("", "x" * 43, token[:-1] + ("a" if token[-1] != "a" else "b"), None):
        assert accounts.session(bad, 12.0) is None  # type: ignore[arg-type]
    accounts.close_session(token)  # signing out ends that session only
    assert accounts.session(token, 13.0) is None and accounts.session(other, 13.0) == ann


def test_sessions_end_unused_too_long_and_old_enough(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    accounts = Accounts(make_store())
    ann = accounts.sign_up("Ann", PASSWORD, 0.0)
    idle = accounts.open_session(ann, 0.0)
    assert accounts.session(idle, SESSION_IDLE + 1) is None
    used = accounts.open_session(ann, 0.0)
    at = 0.0
    while at + SESSION_IDLE / 2 < SESSION_LIFE:  # used every few days: alive until its life ends
        at += SESSION_IDLE / 2
        assert accounts.session(used, at) == ann
    assert accounts.session(used, SESSION_LIFE + 1) is None


def test_signing_out_everywhere_a_new_password_and_deletion_end_sessions(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    accounts = Accounts(make_store())
    ann, bea = accounts.sign_up("Ann", PASSWORD, 1.0), accounts.sign_up("Bea", PASSWORD, 1.0)
    phone, laptop, beas = (accounts.open_session(a, 2.0) for a in (ann, ann, bea))
    assert accounts.close_all(ann) == 2
    assert accounts.session(phone, 3.0) is None and accounts.session(laptop, 3.0) is None
    assert accounts.session(beas, 3.0) == bea

    phone, laptop = accounts.open_session(ann, 4.0), accounts.open_session(ann, 4.0)
    assert not accounts.change_password(ann, "wrong password", "new password", 5.0, keep=phone)
    assert accounts.session(laptop, 5.0) == ann  # nothing changed
    assert accounts.change_password(ann, PASSWORD, "new password", 5.0, keep=phone)
    assert accounts.session(phone, 6.0) == ann and accounts.session(laptop, 6.0) is None
    assert accounts.check("Ann", PASSWORD, 6.0) is None
    assert accounts.check("Ann", "new password", 6.0) == ann

    accounts.delete(ann)
    assert accounts.session(phone, 7.0) is None and accounts.named("Ann") is None
    assert accounts.sessions(bea) and accounts.session(beas, 7.0) == bea
    assert accounts.sign_up("ann", PASSWORD, 8.0).name == "ann"  # the name is free again


def test_a_new_owner_id_keeps_the_account_and_its_sessions_list_marks_this_one(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    accounts = Accounts(make_store())
    ann = accounts.sign_up("Ann", PASSWORD, 1.0)
    phone, laptop = accounts.open_session(ann, 2.0), accounts.open_session(ann, 3.0)
    listed = accounts.sessions(ann, current=phone)
    assert [s["this"] for s in listed] == [False, True]  # newest first: the laptop's
    assert accounts.session(laptop, 4.0) == ann
    renewed = accounts.new_owner(ann)
    assert renewed.id == ann.id and renewed.owner != ann.owner
    assert accounts.session(phone, 5.0) == renewed and accounts.named("ann") == renewed
