"""The server's storage on SQLite and on PostgreSQL: journals, games, conflicts, restarts.

PostgreSQL is the machine's server at 127.0.0.1:5432 (database ``test``), each test in a fresh
schema; the tests skip it, saying so, when it is unreachable, unless BONEPILE_REQUIRE_POSTGRES=1.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import create_engine, text

from bonepile.server.storage.store import (
    PROCESS_KEPT,
    Store,
    StoredGame,
    StoreError,
    VersionConflict,
    engine_url,
    metadata,
)

PG = "postgresql://postgres@127.0.0.1:5432/test"


def _postgres_or_skip() -> None:
    try:
        engine = create_engine(engine_url(PG), connect_args={"connect_timeout": 3})
        with engine.connect():
            pass
        engine.dispose()
    except Exception as e:
        if os.environ.get("BONEPILE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL at 127.0.0.1:5432 is required and not reachable: {e}")
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is not reachable: {str(e).splitlines()[0]}")


@pytest.fixture(params=["sqlite", "postgresql"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[type[Store] | object]:
    """A factory of stores on one database (call it twice: two servers on the same data)."""
    made: list[Store] = []
    if request.param == "sqlite":
        url, schema = f"sqlite:///{tmp_path / 'data' / 'bonepile.db'}", None
    else:
        _postgres_or_skip()
        url, schema = PG, "t_" + secrets.token_hex(6)

    def make() -> Store:
        s = Store(url, schema=schema)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()
    if schema is not None:
        engine = create_engine(engine_url(PG))
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


def game(n: int, table: str = "t1", finished: float = 0.0) -> StoredGame:
    return StoredGame(
        id=f"{table}-{n}",
        table_id=table,
        hand=n,
        game="block",
        players=2,
        names=["Zoë", "Bot ☺"],
        finished=finished or float(n),
        summary={"result": {"winner": 0, "points": [12, 0]}, "x": 0.1},
        record='{"game": "block"}',
    )


def test_a_journal_round_trips_in_batches(make_store) -> None:  # type: ignore[no-untyped-def]
    s = make_store()
    s.create_table("t1", {"game": "block", "seed": 2**62 + 1, "name": "Ünï"}, 1.5)
    s.append("t1", [(1, {"type": "start"})], 2.0)
    s.append(
        "t1", [(2, {"type": "move", "action": "6-6"}), (3, {"type": "chat", "text": "hé 🀄"})], 3.0
    )
    got = s.table("t1")
    assert got is not None
    assert got.config == {"game": "block", "seed": 2**62 + 1, "name": "Ünï"}
    assert got.status == "open" and got.created == 1.5 and got.updated == 3.0
    assert got.entries == [
        (1, {"type": "start"}),
        (2, {"type": "move", "action": "6-6"}),
        (3, {"type": "chat", "text": "hé 🀄"}),
    ]
    assert s.table("nope") is None


def test_a_version_stored_already_or_a_gap_is_a_conflict_and_writes_nothing(make_store) -> None:  # type: ignore[no-untyped-def]
    s = make_store()
    s.create_table("t1", {}, 0)
    s.append("t1", [(1, {"a": 1}), (2, {"a": 2})], 1)
    for bad in ([(2, {"b": 1}), (3, {"b": 2})], [(4, {"b": 1})], [(3, {}), (5, {})], [(0, {})]):
        with pytest.raises(VersionConflict):
            s.append("t1", bad, 2)
    got = s.table("t1")
    assert got is not None and got.entries == [(1, {"a": 1}), (2, {"a": 2})]


def test_tables_by_status_newest_first(make_store) -> None:  # type: ignore[no-untyped-def]
    s = make_store()
    for i, status in enumerate(["open", "playing", "over", "playing"]):
        s.create_table(f"t{i}", {"i": i}, float(i))
        s.set_status(f"t{i}", status, float(10 + i))
    assert [t.id for t in s.tables(("open", "playing"))] == ["t3", "t1", "t0"]
    assert [t.id for t in s.tables(("over",))] == ["t2"]
    assert len(s.tables(("open", "playing"), limit=2)) == 2


def test_games_are_kept_once_and_paged(make_store) -> None:  # type: ignore[no-untyped-def]
    s = make_store()
    for n in range(1, 8):
        s.add_game(game(n, "t1" if n % 2 else "t2"))
    s.add_game(game(1))
    assert [g.hand for g in s.games(3)] == [7, 6, 5]
    assert [g.hand for g in s.games(3, before=5.0)] == [4, 3, 2]
    assert [g.hand for g in s.games(10, table_id="t2")] == [6, 4, 2]
    assert s.game("t1-3") == game(3)
    assert s.game("t1-99") is None


def test_concurrent_appends_store_each_version_once(make_store) -> None:  # type: ignore[no-untyped-def]
    s = make_store()
    s.create_table("t1", {}, 0)
    won: list[int] = []

    def writer(k: int) -> None:
        for v in range(1, 21):
            try:
                s.append("t1", [(v, {"writer": k})], 0)
                won.append(v)
            except VersionConflict:
                pass

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = s.table("t1")
    assert got is not None
    assert [v for v, _ in got.entries] == list(range(1, 21))
    assert sorted(won) == list(range(1, 21))


def test_a_batch_stores_every_job_but_the_refused_one(make_store) -> None:  # type: ignore[no-untyped-def]
    s = make_store()
    errors = s.batch(
        [
            s.new_table("t1", {}, 0),
            s.new_table("t2", {}, 0),
            s.changes("t1", [(1, {"a": 1}), (2, {"a": 2})], 1, games=[game(1)], status="playing"),
            s.changes("t2", [(2, {"gap": True})], 1),  # t2 has no version 1: refused
            s.changes("t2", [(1, {"b": 1})], 1, status="over"),
            s.changes("t1", [(3, {"a": 3})], 2, games=[game(1), game(2)]),
        ]
    )
    refused = [type(e) if e else None for e in errors]
    assert refused == [None, None, None, VersionConflict, None, None]
    t1, t2 = s.table("t1"), s.table("t2")
    assert t1 is not None and [v for v, _ in t1.entries] == [1, 2, 3] and t1.status == "playing"
    assert t2 is not None and t2.entries == [(1, {"b": 1})] and t2.status == "over"
    assert [g.hand for g in s.games(10)] == [2, 1]


def test_the_hubs_writer_stores_writes_that_wait_together_in_one_transaction(make_store) -> None:  # type: ignore[no-untyped-def]
    from bonepile.server.storage.writer import Writer

    s = make_store()
    batches: list[int] = []
    batch = s.batch
    queued = threading.Event()

    def counted(writes):  # type: ignore[no-untyped-def]
        queued.wait(10)  # the writer is busy while every write comes
        batches.append(len(writes))
        return batch(writes)

    s.batch = counted
    writer = Writer(s)
    first = writer.submit(s.new_table("t1", {}, 0))
    done = [writer.submit(s.changes("t1", [(v, {"v": v})], v)) for v in range(1, 301)]
    done.append(writer.submit(s.changes("t1", [(1, {"again": True})], 0)))
    queued.set()
    writer.close()
    assert first.exception() is None and all(d.exception() is None for d in done[:-1])
    assert isinstance(done[-1].exception(), VersionConflict)
    got = s.table("t1")
    assert got is not None and [v for v, _ in got.entries] == list(range(1, 301))
    assert sum(batches) == 302 and len(batches) <= 3 and max(batches) <= Writer.BATCH


def test_two_servers_on_one_database_and_a_restart_keep_everything(make_store) -> None:  # type: ignore[no-untyped-def]
    a, b = make_store(), make_store()
    a.create_table("t1", {}, 0)
    a.append("t1", [(1, {"by": "a"})], 1)
    b.append("t1", [(2, {"by": "b"})], 2)
    with pytest.raises(VersionConflict):
        a.append("t1", [(2, {"by": "a"})], 3)
    a.add_game(game(1))
    a.close()
    again = make_store()
    got = again.table("t1")
    assert got is not None and got.entries == [(1, {"by": "a"}), (2, {"by": "b"})]
    assert again.game("t1-1") == game(1)


def test_the_migrations_build_exactly_the_models(make_store) -> None:  # type: ignore[no-untyped-def]
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    pytest.importorskip("argon2")
    pytest.importorskip("openskill")
    import importlib

    for module in ("accounts", "manners", "pairing", "ratings"):  # their tables join the models
        importlib.import_module(f"bonepile.server.players.{module}")

    s = make_store()
    with s.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []


def test_a_database_that_cannot_be_opened_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(
        StoreError, match=r"cannot open the database postgresql://u@127\.0\.0\.1:1/x"
    ):
        Store("postgresql://u@127.0.0.1:1/x")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StoreError, match="cannot open the database"):
        Store(f"sqlite:///{blocker / 'sub' / 'bonepile.db'}")
    with pytest.raises(StoreError, match="unsupported database URL"):
        Store("mysql://x/y")


def test_the_writer_outlives_a_caller_that_stopped_waiting(make_store) -> None:  # type: ignore[no-untyped-def]
    from bonepile.server.storage.writer import Writer

    s = make_store()
    batch = s.batch
    go = threading.Event()

    def held(writes):  # type: ignore[no-untyped-def]
        go.wait(10)
        return batch(writes)

    s.batch = held
    writer = Writer(s)
    first = writer.submit(s.new_table("t1", {}, 0))
    gone = writer.submit(s.changes("t1", [(1, {"v": 1})], 1))
    assert gone.cancel()  # its caller was cancelled while the writer was busy
    go.set()
    assert first.result(10) is None
    later = writer.submit(s.changes("t1", [(2, {"v": 2})], 2))
    assert later.result(10) is None  # the writer is still there
    writer.close()
    got = s.table("t1")
    assert got is not None and [v for v, _ in got.entries] == [1, 2]  # the cancelled one too


def test_a_starting_process_forgets_the_long_dead_ones(make_store) -> None:  # type: ignore[no-untyped-def]
    """The processes table holds the live and the recently ended, not every process that ever
    ran: a process starting deletes those silent for over a day, unless one holds a lease."""
    store = make_store()
    now = 10 * PROCESS_KEPT
    store.create_table("t1", {}, now)
    rows = [
        ("old", now - PROCESS_KEPT - 60),  # silent for over a day: forgotten
        ("old-owner", now - PROCESS_KEPT - 60),  # as old, but a table's lease names it
        ("recent", now - 3600),  # ended an hour ago: kept
    ]
    with store.engine.begin() as conn:
        for pid, (name, beat) in enumerate(rows):
            conn.execute(
                text(
                    "INSERT INTO processes (id, host, pid, started, heartbeat)"
                    " VALUES (:id, 'h', :pid, :beat, :beat)"
                ),
                {"id": name, "pid": pid, "beat": beat},
            )
        conn.execute(text("UPDATE table_leases SET owner = 'old-owner' WHERE table_id = 't1'"))
    assert store.batch([store.heartbeat("new", "h", 99, now, now)]) == [None]
    with store.engine.connect() as conn:
        left = {r[0] for r in conn.execute(text("SELECT id FROM processes"))}
    assert left == {"old-owner", "recent", "new"}


def test_a_server_whose_database_was_taken_over_stores_nothing_more(make_store) -> None:  # type: ignore[no-untyped-def]
    """A server alone raises the serving epoch as it starts; one whose hold lapsed while a
    second started (a network cut, a database restart) has every later write refused, whole,
    while the second's writes go on: two servers never both write."""
    from bonepile.server.storage.store import DatabaseTaken

    first, second = make_store(), make_store()
    mine = first.take_over("solo", "pid 1 on a", 1.0)
    first.create_table("t1", {"game": "block"}, 1.0)
    first.append("t1", [(1, {"type": "move"})], 2.0)
    assert second.take_over("solo", "pid 2 on b", 3.0) == mine + 1
    assert second.serving() == (mine + 1, "pid 2 on b")
    move = first.changes("t1", [(2, {"type": "move", "by": "first"})], 4.0)
    fresh = first.new_table("t2", {"game": "draw"}, 4.0)
    beat = first.heartbeat("p1", "a", 1, 1.0, 4.0)
    errors = first.batch([move, fresh, beat])
    assert all(isinstance(e, DatabaseTaken) for e in errors), errors
    assert "pid 2 on b" in str(errors[0])
    stored = second.table("t1")
    assert stored is not None and [v for v, _ in stored.entries] == [1]
    assert second.table("t2") is None
    second.append("t1", [(2, {"type": "move", "by": "second"})], 5.0)
    with pytest.raises(DatabaseTaken):
        first.append("t1", [(3, {"type": "move"})], 6.0)
    assert [e for _, e in second.entries_since("t1", 0)][-1] == {"type": "move", "by": "second"}


def test_the_processes_of_a_site_share_an_epoch_that_a_server_alone_ends(make_store) -> None:  # type: ignore[no-untyped-def]
    """Processes joining a site keep its epoch (each goes on writing); a server alone that
    starts on the database while the site's hold lapsed fences every one of them off, and a
    site that starts after it fences it off in turn."""
    from bonepile.server.storage.store import DatabaseTaken

    one, two, alone, again = make_store(), make_store(), make_store(), make_store()
    epoch = one.take_over("site", "one", 1.0)
    assert two.take_over("site", "two", 1.0) == epoch
    one.create_table("t1", {"game": "block"}, 1.0)
    two.create_table("t2", {"game": "block"}, 1.0)
    assert alone.take_over("solo", "alone", 2.0) == epoch + 1
    for process in (one, two):
        with pytest.raises(DatabaseTaken, match="alone"):
            process.append("t1", [(1, {"type": "move"})], 3.0)
    alone.append("t1", [(1, {"type": "move"})], 3.0)
    assert again.take_over("site", "again", 4.0) == epoch + 2
    with pytest.raises(DatabaseTaken, match="again"):
        alone.append("t1", [(2, {"type": "move"})], 5.0)
    again.append("t1", [(2, {"type": "move"})], 5.0)
    assert [v for v, _ in again.entries_since("t1", 0)] == [1, 2]


def test_a_store_that_serves_nothing_checks_no_epoch(make_store) -> None:  # type: ignore[no-untyped-def]
    """Tools that open the database without serving it (and the tests' own stores) write
    whatever the epoch: only a serving process is fenced."""
    tool, server = make_store(), make_store()
    server.take_over("solo", "server", 1.0)
    tool.create_table("t1", {"game": "block"}, 2.0)
    assert tool.epoch is None and server.table("t1") is not None
