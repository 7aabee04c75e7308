"""Leases: one process decides a table's moves at a time, and a process that lost a table can
never store a move of it again, on SQLite and on PostgreSQL (the machine's server, each test in
a fresh schema; see test_store.py)."""

from __future__ import annotations

import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import create_engine, text

from bonepile.server.site.leases import Leases, expire_process, site_identity
from bonepile.server.storage.store import LeaseLost, Store, VersionConflict
from test_store import make_store  # noqa: F401 - the fixture

ENTRY = {"type": "chat", "seat": None, "name": "x", "text": "hi", "t": 0.0}


def _site(store: Store, name: str, ttl: float = 30.0) -> Leases:
    leases = Leases(store, name, ttl=ttl)
    leases.register("host", 1000 + len(name), time.time())
    return leases


def _new(store: Store, table: str, owner: str | None) -> None:
    store._run(store.new_table(table, {"game": "block"}, 1.0, [(1, ENTRY)], owner=owner))


def _move(store: Store, table: str, version: int, fence: tuple[str, int] | None) -> Any:
    write = store.changes(table, [(version, ENTRY)], 2.0, fence=fence)
    return store.batch([write])[0]


def test_a_new_table_is_held_by_its_maker_and_takes_its_fenced_writes(make_store: Any) -> None:  # noqa: F811
    store = make_store()
    a = _site(store, "a")
    _new(store, "t1", "a")
    lease = a.locate("t1")
    assert lease is not None and (lease.owner, lease.epoch, lease.live) == ("a", 1, True)
    assert _move(store, "t1", 2, ("a", 1)) is None
    assert [v for v, _ in store.entries_since("t1", 0)] == [1, 2]
    assert [v for v, _ in store.entries_since("t1", 1)] == [2]
    assert a.held() == {"t1": 1}
    # a wrong epoch or another process stores nothing, and says why
    for fence in (("a", 2), ("b", 1)):
        error = _move(store, "t1", 3, fence)
        assert isinstance(error, LeaseLost) and error.code == "moved"
    assert [v for v, _ in store.entries_since("t1", 0)] == [1, 2]


def test_a_fenced_write_leaves_the_others_of_its_batch_be(make_store: Any) -> None:  # noqa: F811
    store = make_store()
    _site(store, "a")
    _new(store, "t1", "a")
    _new(store, "t2", "a")
    writes = [
        store.changes("t1", [(2, ENTRY)], 2.0, fence=("a", 7)),
        store.changes("t2", [(2, ENTRY)], 2.0, fence=("a", 1)),
        store.changes("t2", [(9, ENTRY)], 2.0, fence=("a", 1)),
    ]
    out = store.batch(writes)
    assert isinstance(out[0], LeaseLost) and out[1] is None and isinstance(out[2], VersionConflict)
    assert len(store.entries_since("t1", 0)) == 1 and len(store.entries_since("t2", 0)) == 2


def test_a_lapsed_owner_loses_its_table_and_can_never_write_it_again(make_store: Any) -> None:  # noqa: F811
    store = make_store()
    a = _site(store, "a", ttl=0.6)
    b = _site(store, "b")
    _new(store, "t1", "a")
    assert b.claim("t1") is None  # its owner is live
    assert a.renew(time.time())
    time.sleep(1.0)  # a misses its renewals (paused, killed, cut off)
    assert not a.renew(time.time())  # lapsed: it must join again under a new id
    lease = b.locate("t1")
    assert lease is not None and not lease.live
    assert b.orphans() == ["t1"]
    assert b.claim("t1") == 2
    assert b.claim("t1") is None  # held now, by b itself
    assert b.held() == {"t1": 2} and b.orphans() == []
    # a wakes up sure it still owns the table: the database refuses its move
    assert isinstance(_move(store, "t1", 2, ("a", 1)), LeaseLost)
    assert _move(store, "t1", 2, ("b", 2)) is None
    assert [m.id for m in b.members()] == ["b"]


def test_of_two_claims_at_once_exactly_one_wins(make_store: Any) -> None:  # noqa: F811
    store = make_store()
    _site(store, "dead", ttl=0.3)
    _new(store, "t1", "dead")
    time.sleep(0.6)
    claimers = [_site(store, f"c{k}") for k in range(6)]
    won: list[tuple[str, int | None]] = []
    gate = threading.Barrier(len(claimers))

    def claim(leases: Leases) -> None:
        gate.wait()
        won.append((leases.me, leases.claim("t1")))

    threads = [threading.Thread(target=claim, args=(c,)) for c in claimers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    winners = [(me, epoch) for me, epoch in won if epoch is not None]
    assert len(won) == 6 and len(winners) == 1 and winners[0][1] == 2
    lease = claimers[0].locate("t1")
    assert lease is not None and (lease.owner, lease.epoch) == winners[0]


def test_release_retire_and_a_dead_process_free_their_tables_at_once(make_store: Any) -> None:  # noqa: F811
    store = make_store()
    a, b = _site(store, "a"), _site(store, "b")
    for t in ("t1", "t2", "t3"):
        _new(store, t, "a")
    assert not b.release("t1", 1)  # not b's to give
    assert a.release("t1", 1) and b.orphans() == ["t1"]
    assert b.claim("t1") == 2
    a.retire()  # a graceful stop: every table of a is free now
    assert sorted(b.orphans()) == ["t2", "t3"]
    assert [m.id for m in b.members()] == ["b"]
    c = _site(store, "ccc")
    assert expire_process(store, "host", 1003) == 1  # the supervisor saw it die
    assert expire_process(store, "host", 1003) == 0
    assert not c.renew(time.time())


def test_a_table_made_by_a_server_alone_is_claimed_by_a_site(make_store: Any) -> None:  # noqa: F811
    store = make_store()
    _new(store, "solo", None)  # no lease holder: what a server alone on its database makes
    assert store.batch([store.changes("solo", [(2, ENTRY)], 2.0)]) == [None]
    a = _site(store, "a")
    lease = a.locate("solo")
    assert lease is not None and (lease.owner, lease.epoch, lease.live) == (None, 0, False)
    assert a.orphans() == ["solo"] and a.claim("solo") == 1
    assert a.locate("nothing") is None and a.claim("nothing") is None


def test_the_migration_gives_every_stored_table_a_lease(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option(
        "script_location", str(resources.files("bonepile.server.storage") / "migrations")
    )
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0002")  # the schema of the release before leases
        conn.execute(
            text(
                "INSERT INTO tables (id, config, status, created, updated)"
                " VALUES ('old', '{}', 'playing', 5.0, 6.0)"
            )
        )
    engine.dispose()
    store = Store(url)
    lease = Leases(store, "a").locate("old")
    assert lease is not None and (lease.owner, lease.epoch) == (None, 0)
    store.close()


def test_a_claim_waits_for_a_write_checked_under_the_old_lease(make_store: Any) -> None:  # noqa: F811
    """A write whose lease was checked just before the owner lapsed is either stored before the
    claim (which then reads it) or fenced: never stored behind the new owner's back."""
    from bonepile.server.storage.store import _store

    store = make_store()
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing can come between")
    _site(store, "a", ttl=1.0)
    b = _site(store, "b")
    _new(store, "t1", "a")
    claimed: list[int | None] = []
    with store.engine.connect() as conn:
        transaction = conn.begin()
        out = _store(conn, [store.changes("t1", [(2, ENTRY)], 2.0, fence=("a", 1))])
        assert out == [None]  # checked and written, not yet committed
        time.sleep(1.3)  # a's lease runs out meanwhile
        claim = threading.Thread(target=lambda: claimed.append(b.claim("t1")))
        claim.start()
        claim.join(1.0)
        assert claim.is_alive(), "the claim did not wait for the write checked under the lease"
        transaction.commit()
    claim.join(60)
    assert claimed == [2]
    assert [v for v, _ in store.entries_since("t1", 0)] == [1, 2]  # the new owner reads it


def test_every_process_of_a_site_gets_the_same_name_and_secret(make_store: Any) -> None:  # noqa: F811
    store = make_store()
    first = site_identity(store, "secret-of-the-first", 1.0)
    assert first[1] == "secret-of-the-first" and len(first[0]) == 12
    assert site_identity(make_store(), "another-secret", 2.0) == first
