"""Where the server keeps its tables and finished games: SQLAlchemy 2 on SQLite or PostgreSQL.

A table is its configuration plus a journal of numbered entries (see
:mod:`bonepile.server.tables.room`); each entry is stored once, under its version, before anyone is
told of it. Finished hands are kept as game records. The schema is made and upgraded by the
Alembic migrations in ``migrations/`` when a store opens.

A :class:`Faults` hook makes the database refuse writes as a full disk would, so that the
server's behaviour in a storage outage can be tested on SQLite (PostgreSQL's outages are tested
through a proxy the tests cut).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Sequence, Sized
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from bonepile.errors import BonepileError

metadata = MetaData()


tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("config", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_tables_status", "status"),
)

entries_t = Table(
    "entries",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("entry", Text, nullable=False),
    Column("at", Float, nullable=False),
)

games_t = Table(
    "games",
    metadata,
    Column("id", String(48), primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("hand", Integer, nullable=False),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("names", Text, nullable=False),
    Column("finished", Float, nullable=False),
    Column("summary", Text, nullable=False),
    Column("record", Text, nullable=False),
    Index("ix_games_finished", "finished"),
    Index("ix_games_table_id", "table_id"),
)

game_players_t = Table(
    "game_players",
    metadata,
    Column("game_id", String(48), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("owner", String(32), nullable=True),
    Index("ix_game_players_owner", "owner"),
)
"""The browser (or account) id that held each person's seat of a finished hand."""

processes_t = Table(
    "processes",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("started", Float, nullable=False),
    Column("heartbeat", Float, nullable=False),
    Column("expires", Float, nullable=False, server_default="0"),
    Column("mode", String(8), nullable=False, server_default="solo"),
)

leases_t = Table(
    "table_leases",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("owner", String(32), nullable=True),
    Column("epoch", BigInteger, nullable=False, server_default="0"),
    Column("since", Float, nullable=False),
    Index("ix_table_leases_owner", "owner"),
)

site_t = Table(
    "site",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("key", String(32), nullable=False),
    Column("secret", String(128), nullable=False),
    Column("created", Float, nullable=False),
)

serving_t = Table(
    "serving",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("epoch", BigInteger, nullable=False),
    Column("mode", String(8), nullable=False),
    Column("holder", String(255), nullable=False),
    Column("since", Float, nullable=False),
)
"""One row: the epoch the serving processes write under (see :meth:`Store.take_over`)."""


STORAGE_DOWN = "the server cannot save moves right now; your move will be sent again"
"""What players are told while the database refuses writes."""


class StorageDown(BonepileError):
    """The database refuses writes: the change was not made (nor shown); try it again later."""

    code = "storage"

    def __init__(self, message: str = STORAGE_DOWN) -> None:
        super().__init__(message)


class StoreError(BonepileError):
    """The database cannot be opened or used."""


class VersionConflict(BonepileError):
    """Entries that do not continue a table's journal (a version stored already, or a gap)."""

    code = "conflict"


class LeaseLost(BonepileError):
    """A write fenced off: the writing process no longer holds the table's lease (another
    process took the table over, or the writer's own lease on life ran out). Nothing of the
    write was stored."""

    code = "moved"


class DatabaseTaken(BonepileError):
    """A write fenced off: another server took the database over since this process started
    serving it (its hold lapsed meanwhile). Nothing of the write was stored; the process must
    stop serving, since its tables are no longer the database's."""

    code = "taken"


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: its configuration, status and journal (in version order)."""

    id: str
    config: dict[str, Any]
    status: str
    created: float
    updated: float
    entries: list[tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class StoredGame:
    """A finished hand: who played it, its summary and its game record."""

    id: str
    table_id: str
    hand: int
    game: str
    players: int
    names: list[str]
    finished: float
    summary: dict[str, Any]
    record: str
    owners: tuple[str | None, ...] = ()
    """The browser (or account) id that held each seat (``None``: a bot's), by seat; kept
    apart from the record, which is published, so that a player's history can be found."""


@dataclass(frozen=True)
class NewTable:
    """A write: a new table, ``open``, with the first entries of its journal (stored in the
    same transaction: a table is never stored without them)."""

    table_id: str
    config: dict[str, Any]
    now: float
    entries: tuple[tuple[int, dict[str, Any]], ...] = ()
    status: str = "open"
    owner: str | None = None
    """The process that decides the table's moves (in a site of several processes; its lease
    starts at epoch 1), or ``None`` (a server alone on its database: nobody holds a lease)."""


@dataclass(frozen=True)
class Changes:
    """A write: what a table did (journal entries, finished hands, a new status)."""

    table_id: str
    entries: list[tuple[int, dict[str, Any]]]
    now: float
    games: tuple[StoredGame, ...] = ()
    status: str | None = None
    touch: bool = True
    """Whether the table's ``updated`` time becomes ``now``."""
    fence: tuple[str, int] | None = None
    """``(process, epoch)``: store the write only if that process holds the table's lease at
    that epoch and its own lease on life has not run out (else :class:`LeaseLost`); checked in
    the transaction that stores it. ``None``: no check (a server alone on its database)."""


@dataclass(frozen=True)
class Heartbeat:
    """A write: the server process ``process_id`` is alive at ``now`` (one row per process).
    Storing it proves that the database takes writes."""

    process_id: str
    host: str
    pid: int
    started: float
    now: float


Write = NewTable | Changes | Heartbeat
"""What :meth:`Store.batch` stores."""


class Faults:
    """A fault hook for tests: while :meth:`failing` is true, every write to the database fails
    as it would on a full disk (``database or disk is full``), and nothing of it is stored.
    ``flag`` names a file whose existence turns the fault on (for a server in another
    process: ``BONEPILE_STORAGE_FAULT``); ``active`` turns it on in this process."""

    def __init__(self, flag: str | None = None) -> None:
        self.flag = flag
        self.active = False

    def failing(self) -> bool:
        """Whether writes fail now."""
        return self.active or (self.flag is not None and os.path.exists(self.flag))

    @classmethod
    def from_environment(cls) -> Faults | None:
        """The hook named by ``BONEPILE_STORAGE_FAULT`` (a file path), if it is set."""
        flag = os.environ.get("BONEPILE_STORAGE_FAULT")
        return cls(flag) if flag else None


def engine_url(url: str) -> str:
    """``url`` with PostgreSQL spelled for the installed driver (psycopg 3)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


_MIGRATE_LOCK = threading.Lock()

NOW_SQL = {
    "postgresql": "extract(epoch FROM clock_timestamp())",
    "sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
}
"""The database's own clock in seconds since the epoch, by dialect: leases are judged by the
one clock every process shares, never by a process's own."""


class Store:
    """The database at ``url`` (``sqlite:///file``, ``sqlite://`` in memory, or PostgreSQL);
    ``schema`` names a PostgreSQL schema to keep everything in. Safe to use from threads."""

    def __init__(
        self, url: str, *, schema: str | None = None, faults: Faults | None = None
    ) -> None:
        self.url = engine_url(url)
        self.schema = schema
        self.faults = faults
        self.epoch: int | None = None
        """The serving epoch every write checks (set by :meth:`take_over`), or ``None``."""
        try:
            self.engine = self._engine()
            self._migrate()
            if faults is not None:
                event.listen(self.engine, "before_cursor_execute", self._fault)
        except SQLAlchemyError as e:
            raise StoreError(f"cannot open the database {safe_url(url)}: {_reason(e)}") from None
        except OSError as e:
            raise StoreError(
                f"cannot open the database {safe_url(url)}: {e.strerror or e}"
            ) from None

    def _engine(self) -> Engine:
        if self.url.startswith("sqlite"):
            path = self.url.split("///", 1)[1] if "///" in self.url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                engine = create_engine(self.url, connect_args={"timeout": 10})
            else:
                engine = create_engine(
                    "sqlite://",
                    connect_args={"check_same_thread": False},
                    poolclass=StaticPool,
                )

            @event.listens_for(engine, "connect")
            def _pragmas(conn: Any, _: Any) -> None:
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA busy_timeout=10000")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()

            return engine
        if self.url.startswith("postgresql"):
            # a database that stops answering mid-statement (a network cut without a reset) is
            # noticed within seconds instead of at the system's TCP timeout, minutes later
            engine = create_engine(
                self.url,
                pool_pre_ping=True,
                connect_args={
                    "connect_timeout": 5,
                    "keepalives": 1,
                    "keepalives_idle": 5,
                    "keepalives_interval": 2,
                    "keepalives_count": 3,
                    "tcp_user_timeout": 10000,
                },
            )
            if self.schema:
                with engine.begin() as conn:
                    conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
                schema = self.schema

                @event.listens_for(engine, "connect")
                def _path(conn: Any, _: Any) -> None:
                    cur = conn.cursor()
                    cur.execute(f'SET search_path TO "{schema}"')
                    cur.close()
                    conn.commit()

                engine.dispose()
            return engine
        raise StoreError(
            f"unsupported database URL {safe_url(self.url)}: use sqlite:/// or postgresql://"
        )

    def _migrate(self) -> None:
        from alembic import command
        from alembic.config import Config

        folder = resources.files("bonepile.server.storage") / "migrations"
        config = Config()
        config.set_main_option("script_location", str(folder))
        with _MIGRATE_LOCK, self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(727272)"))
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def _fault(self, conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        if self.faults is not None and self.faults.failing():
            verb = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else ""
            if verb in ("INSERT", "UPDATE", "DELETE"):
                raise OperationalError(
                    statement, None, sqlite3.OperationalError("database or disk is full")
                )

    # ------------------------------------------------------------------ serving
    def take_over(self, mode: str, holder: str, now: float) -> int:
        """Serve the database from this process from now on: ``mode`` ``solo`` (a server
        alone) raises the serving epoch, as does ``site`` (a process of a site) unless a site
        serves it already; ``holder`` names the process. Every later write of this store
        checks that the epoch is still the one returned, and stores nothing (raising
        :class:`DatabaseTaken`) once another server raised it: a process that lost its hold
        on the database and missed another starting can never write beside it."""
        with self.engine.begin() as conn:
            sql = PlainSql(conn)
            sql.many(
                "UPDATE serving SET epoch = CASE WHEN mode = 'site' AND ? = 'site' THEN epoch"
                " ELSE epoch + 1 END, mode = ?, holder = ?, since = ? WHERE id = 1",
                [(mode, mode, holder[:255], now)],
            )
            epoch = int(sql.one("SELECT epoch FROM serving WHERE id = 1", [])[0][0])
        self.epoch = epoch
        return epoch

    def serving(self) -> tuple[int, str]:
        """The serving epoch and the process that raised it last."""
        with self.engine.connect() as conn:
            row = conn.execute(select(serving_t.c.epoch, serving_t.c.holder)).one()
        return int(row.epoch), str(row.holder)

    # ------------------------------------------------------------------ writing
    def heartbeat(
        self, process_id: str, host: str, pid: int, started: float, now: float
    ) -> Heartbeat:
        """The write that says the process ``process_id`` is alive at ``now``."""
        return Heartbeat(process_id, host, pid, started, now)

    def new_table(
        self,
        table_id: str,
        config: dict[str, Any],
        now: float,
        entries: Sequence[tuple[int, dict[str, Any]]] = (),
        status: str = "open",
        owner: str | None = None,
    ) -> NewTable:
        """The write that adds a table with the first ``entries`` of its journal (versions
        from 1) and its ``status``; ``owner``: the process that holds its lease from the
        start."""
        versions = [v for v, _ in entries]
        if versions != list(range(1, len(versions) + 1)):
            raise VersionConflict(f"table {table_id}: a new journal starts at version 1")
        return NewTable(table_id, config, now, tuple(entries), status, owner)

    def changes(
        self,
        table_id: str,
        entries: list[tuple[int, dict[str, Any]]],
        now: float,
        games: Sequence[StoredGame] = (),
        status: str | None = None,
        fence: tuple[str, int] | None = None,
    ) -> Changes:
        """The write of what a table did: journal entries, which must continue the stored
        ones (else :class:`VersionConflict`, and nothing of it is written), finished hands
        and a new status; with ``fence``, only under that lease (see :class:`Changes`)."""
        versions = [v for v, _ in entries]
        if versions and versions != list(range(versions[0], versions[0] + len(versions))):
            raise VersionConflict(f"table {table_id}: the versions {versions} are not consecutive")
        return Changes(table_id, list(entries), now, tuple(games), status, fence=fence)

    def batch(self, writes: Sequence[Write]) -> list[Exception | None]:
        """Store ``writes`` in one transaction with a few statements for all of them, so that
        many moves cost one commit; returns each write's error, or ``None`` once it is stored.
        A write refused by :class:`VersionConflict` stores nothing and leaves the others be; if
        the database fails the transaction, each write is tried again on its own. Once another
        server took the database over (:meth:`take_over`), each error is
        :class:`DatabaseTaken`."""
        try:
            with self.engine.begin() as conn:
                return _store(conn, writes, self.epoch)
        except DatabaseTaken as e:  # none of them is stored, nor ever will be
            return [e] * len(writes)
        except IntegrityError as e:
            if len(writes) == 1:  # a row stored already: the journal moved on without us
                return [VersionConflict(f"a row is stored already: {_reason(e)}")]
        except SQLAlchemyError as e:
            if len(writes) == 1:
                return [e]
        return [self.batch([w])[0] for w in writes]

    def _run(self, write: Write) -> None:
        error = self.batch([write])[0]
        if error is not None:
            raise error

    def create_table(self, table_id: str, config: dict[str, Any], now: float) -> None:
        """A new table, ``open``, with an empty journal."""
        self._run(self.new_table(table_id, config, now))

    def append(self, table_id: str, entries: list[tuple[int, dict[str, Any]]], now: float) -> None:
        """Add journal entries, which must continue the stored ones (else
        :class:`VersionConflict`, and nothing is written)."""
        if entries:
            self._run(self.changes(table_id, entries, now))

    def set_status(self, table_id: str, status: str, now: float) -> None:
        """Record the table's status (``open``, ``playing``, ``over``...)."""
        self._run(self.changes(table_id, [], now, status=status))

    def table(self, table_id: str) -> StoredTable | None:
        """The table ``table_id`` with its whole journal, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            return self._with_entries(conn, [row])[0]

    def entries_since(self, table_id: str, version: int) -> list[tuple[int, dict[str, Any]]]:
        """The table's journal entries after ``version``, in order."""
        query = (
            select(entries_t.c.version, entries_t.c.entry)
            .where(entries_t.c.table_id == table_id, entries_t.c.version > version)
            .order_by(entries_t.c.version)
        )
        with self.engine.connect() as conn:
            return [(v, json.loads(e)) for v, e in conn.execute(query)]

    def tables(self, statuses: tuple[str, ...], limit: int | None = None) -> list[StoredTable]:
        """The tables in one of ``statuses``, most recently updated first, with journals."""
        query = (
            select(tables_t)
            .where(tables_t.c.status.in_(statuses))
            .order_by(tables_t.c.updated.desc(), tables_t.c.id)
        )
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return self._with_entries(conn, list(conn.execute(query)))

    @staticmethod
    def _with_entries(conn: Any, rows: list[Any]) -> list[StoredTable]:
        journals: dict[str, list[tuple[int, dict[str, Any]]]] = {r.id: [] for r in rows}
        ids = list(journals)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            query = (
                select(entries_t.c.table_id, entries_t.c.version, entries_t.c.entry)
                .where(entries_t.c.table_id.in_(chunk))
                .order_by(entries_t.c.table_id, entries_t.c.version)
            )
            for tid, version, entry in conn.execute(query):
                journals[tid].append((version, json.loads(entry)))
        return [
            StoredTable(r.id, json.loads(r.config), r.status, r.created, r.updated, journals[r.id])
            for r in rows
        ]

    # ------------------------------------------------------------------ games
    def add_game(self, game: StoredGame) -> None:
        """Keep a finished hand (a second add of the same id is ignored)."""
        self._run(Changes(game.table_id, [], game.finished, (game,), None, touch=False))

    def games(
        self,
        limit: int = 50,
        before: float | None = None,
        table_id: str | None = None,
        owner: str | None = None,
        game: str | None = None,
    ) -> list[StoredGame]:
        """Finished hands, newest first: ``limit`` of them, finished before ``before``, of the
        table ``table_id``, played by the id ``owner`` (a browser's or an account's), of the
        game ``game``."""
        query = select(games_t).order_by(games_t.c.finished.desc(), games_t.c.id).limit(limit)
        if before is not None:
            query = query.where(games_t.c.finished < before)
        if table_id is not None:
            query = query.where(games_t.c.table_id == table_id)
        if owner is not None:
            played = select(game_players_t.c.game_id).where(game_players_t.c.owner == owner)
            query = query.where(games_t.c.id.in_(played))
        if game is not None:
            query = query.where(games_t.c.game == game)
        with self.engine.connect() as conn:
            return [_game(r) for r in conn.execute(query)]

    def tables_held_by(self, owner: str) -> list[str]:
        """The tables still open or in play whose journal names the browser id ``owner`` (a
        seat it holds or held there: the room says which it still holds)."""
        if not owner or not all(c in "0123456789abcdef" for c in owner):
            return []
        with self.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT DISTINCT e.table_id FROM entries e JOIN tables t ON t.id = e.table_id"
                " WHERE t.status IN ('open', 'playing') AND e.entry LIKE ?",
                [f'%"owner":"{owner}"%'],
            )
        return sorted(str(r[0]) for r in rows)

    def move_games(self, owner: str, to: str | None) -> int:
        """Give the finished hands played by the id ``owner`` to ``to`` (an account that
        signed up from that browser), or to nobody (``None``: an account deleted)."""
        with self.engine.begin() as conn:
            return PlainSql(conn).count(
                "UPDATE game_players SET owner = ? WHERE owner = ?", [to, owner]
            )

    def game(self, game_id: str) -> StoredGame | None:
        """The finished hand ``game_id``, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_t).where(games_t.c.id == game_id)).first()
        return None if row is None else _game(row)

    def ping(self) -> None:
        """Ask the database something (raises if it cannot answer)."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()


def _store(
    conn: Connection, writes: Sequence[Write], epoch: int | None = None
) -> list[Exception | None]:
    """Store ``writes`` on ``conn`` (in its transaction); each one's error or ``None``. With
    ``epoch``, first check that the database is still served at that epoch (else raise
    :class:`DatabaseTaken`, storing nothing).

    Every move passes here, so the statements go to the driver as written (the same plain SQL
    on SQLite and PostgreSQL, in the driver's parameter style): building them with SQLAlchemy's
    expression language cost several times the database's own work, on the thread that shares
    the interpreter with the event loop."""
    sql = PlainSql(conn)
    if epoch is not None:
        _check_serving(sql, epoch)
    out: list[Exception | None] = [None] * len(writes)
    tables = [w for w in writes if isinstance(w, NewTable)]
    if tables:
        sql.many(
            "INSERT INTO tables (id, config, status, created, updated) VALUES (?, ?, ?, ?, ?)",
            [(w.table_id, _dump(w.config), w.status, w.now, w.now) for w in tables],
        )
        sql.many(
            "INSERT INTO table_leases (table_id, owner, epoch, since) VALUES (?, ?, ?, ?)",
            [(w.table_id, w.owner, 0 if w.owner is None else 1, w.now) for w in tables],
        )
        opening = [(w.table_id, v, _dump(e), w.now) for w in tables for v, e in w.entries]
        if opening:
            sql.many(
                "INSERT INTO entries (table_id, version, entry, at) VALUES (?, ?, ?, ?)", opening
            )
    for w in writes:
        if isinstance(w, Heartbeat):
            found = sql.one("SELECT id FROM processes WHERE id = ?", [w.process_id])
            if found:
                sql.many("UPDATE processes SET heartbeat = ? WHERE id = ?", [(w.now, w.process_id)])
            else:  # a process starting: it also forgets the long dead
                prune_processes(sql, w.now)
                sql.many(
                    "INSERT INTO processes (id, host, pid, started, heartbeat)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(w.process_id, w.host, w.pid, w.started, w.now)],
                )
    changes = [(i, w) for i, w in enumerate(writes) if isinstance(w, Changes)]
    fenced = [(i, w) for i, w in changes if w.fence is not None]
    if fenced:
        held = _held(sql, [w for _, w in fenced])
        for i, w in fenced:
            if w.fence not in held.get(w.table_id, ()):
                owner, epoch = w.fence or ("", 0)
                out[i] = LeaseLost(
                    f"table {w.table_id}: process {owner} does not hold its lease at epoch {epoch}"
                )
        changes = [(i, w) for i, w in changes if out[i] is None]
    ids = sorted({w.table_id for _, w in changes if w.entries})
    last: dict[str, int] = {}
    if ids:
        found = sql.one(
            f"SELECT table_id, MAX(version) FROM entries WHERE table_id IN ({_marks(ids)})"
            " GROUP BY table_id",
            ids,
        )
        last = {tid: version for tid, version in found}
    rows: list[tuple[Any, ...]] = []
    games: dict[str, StoredGame] = {}
    touched: dict[str, tuple[float, str | None]] = {}
    for i, w in changes:
        if w.entries:
            first, expected = w.entries[0][0], last.get(w.table_id, 0) + 1
            if first != expected:
                out[i] = VersionConflict(
                    f"table {w.table_id}: version {first} does not follow {expected - 1}"
                )
                continue
            last[w.table_id] = w.entries[-1][0]
            rows.extend((w.table_id, v, _dump(e), w.now) for v, e in w.entries)
        for g in w.games:
            games.setdefault(g.id, g)
        if w.touch:
            status = w.status if w.status is not None else touched.get(w.table_id, (0, None))[1]
            touched[w.table_id] = (w.now, status)
    if rows:
        sql.many("INSERT INTO entries (table_id, version, entry, at) VALUES (?, ?, ?, ?)", rows)
    if games:
        for (gid,) in sql.one(f"SELECT id FROM games WHERE id IN ({_marks(games)})", [*games]):
            del games[gid]
    if games:
        sql.many(
            "INSERT INTO games (id, table_id, hand, game, players, names, finished, summary,"
            " record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [_game_row(g) for g in games.values()],
        )
        seats = [(g.id, k, o) for g in games.values() for k, o in enumerate(g.owners) if o]
        if seats:
            sql.many("INSERT INTO game_players (game_id, seat, owner) VALUES (?, ?, ?)", seats)
    plain = [(up, tid) for tid, (up, st) in touched.items() if st is None]
    if plain:
        sql.many("UPDATE tables SET updated = ? WHERE id = ?", plain)
    moved = [(up, st, tid) for tid, (up, st) in touched.items() if st is not None]
    if moved:
        sql.many("UPDATE tables SET updated = ?, status = ? WHERE id = ?", moved)
    return out


def _check_serving(sql: PlainSql, epoch: int) -> None:
    """Raise :class:`DatabaseTaken` unless the database is served at ``epoch``, before the
    transaction writes anything. On PostgreSQL the row is locked (shared) until the
    transaction ends, so that a server taking the database over waits for this write to commit
    and then loads it. SQLite runs one writer at a time, and the check is a write (the
    transaction takes the database's write lock with it), so no takeover commits between the
    check and the commit."""
    if sql.dialect == "sqlite":
        if sql.count("UPDATE serving SET epoch = epoch WHERE id = 1 AND epoch = ?", [epoch]):
            return
    else:
        found = sql.one("SELECT epoch FROM serving WHERE id = 1 FOR SHARE", [])
        if found and int(found[0][0]) == epoch:
            return
    rows = sql.one("SELECT holder FROM serving WHERE id = 1", [])
    holder = str(rows[0][0]) if rows and rows[0][0] else "another server"
    raise DatabaseTaken(
        f"another bonepile serve ({holder}) took the database over: this one stops serving it"
    )


def _held(sql: PlainSql, writes: Sequence[Changes]) -> dict[str, set[tuple[str, int]]]:
    """The leases, among those the fenced ``writes`` name, that are held now: by table, the
    ``(owner, epoch)`` of a live owner. On PostgreSQL the rows are locked (shared) until the
    transaction ends, so that no claim can take a table over between this check and the
    commit; a claim that came first is seen here."""
    owners = sorted({w.fence[0] for w in writes if w.fence is not None})
    ids = sorted({w.table_id for w in writes})
    lock = " FOR SHARE OF l" if sql.dialect == "postgresql" else ""
    rows = sql.one(
        "SELECT l.table_id, l.owner, l.epoch FROM table_leases l JOIN processes p"
        f" ON p.id = l.owner WHERE p.expires > {sql.now} AND l.owner IN ({_marks(owners)})"
        f" AND l.table_id IN ({_marks(ids)}){lock}",
        [*owners, *ids],
    )
    held: dict[str, set[tuple[str, int]]] = {}
    for tid, owner, epoch in rows:
        held.setdefault(tid, set()).add((owner, int(epoch)))
    return held


PROCESS_KEPT = 24 * 3600.0
"""Seconds a process's row outlives its last heartbeat (to tell what ran, and when)."""


def prune_processes(sql: PlainSql, now: float) -> int:
    """Forget the processes whose last heartbeat is over :data:`PROCESS_KEPT` seconds before
    ``now`` and that own no table's lease (a live process beats every half minute); how many.
    Each process starting calls it, so the table holds the live and the recently ended."""
    return sql.count(
        "DELETE FROM processes WHERE heartbeat < ? AND id NOT IN"
        " (SELECT owner FROM table_leases WHERE owner IS NOT NULL)",
        [now - PROCESS_KEPT],
    )


class PlainSql:
    """Plain SQL with ``?`` marks, run on ``conn`` in its driver's parameter style."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.qmark = conn.dialect.paramstyle == "qmark"
        self.dialect = conn.dialect.name
        self.now = NOW_SQL.get(self.dialect, NOW_SQL["postgresql"])
        """The database's clock, in seconds since the epoch, as an SQL expression."""

    def _text(self, statement: str) -> str:
        return statement if self.qmark else statement.replace("?", "%s")

    def one(self, statement: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one statement."""
        return list(self.conn.exec_driver_sql(self._text(statement), tuple(params)))

    def many(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        """One statement for each of ``rows``."""
        self.conn.exec_driver_sql(self._text(statement), rows)

    def count(self, statement: str, params: Sequence[Any]) -> int:
        """Run one statement; how many rows it changed."""
        return int(self.conn.exec_driver_sql(self._text(statement), tuple(params)).rowcount)


def _marks(items: Sized) -> str:
    return ", ".join("?" * len(items))


def _game_row(game: StoredGame) -> tuple[Any, ...]:
    return (
        game.id,
        game.table_id,
        game.hand,
        game.game,
        game.players,
        _dump(game.names),
        game.finished,
        _dump(game.summary),
        game.record,
    )


def _game(r: Any) -> StoredGame:
    return StoredGame(
        r.id,
        r.table_id,
        r.hand,
        r.game,
        r.players,
        json.loads(r.names),
        r.finished,
        json.loads(r.summary),
        r.record,
    )


def _dump(data: Any) -> str:
    return orjson.dumps(data).decode()


def _reason(e: SQLAlchemyError) -> str:
    orig = getattr(e, "orig", None)
    msg = str(orig if orig is not None else e).strip().splitlines()
    return msg[0] if msg else type(e).__name__


def safe_url(url: str) -> str:
    """``url`` without its password, to show to a person."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}{':***' if ':' in creds else ''}@{host}"
    return url


__all__ = [
    "PROCESS_KEPT",
    "STORAGE_DOWN",
    "Changes",
    "DatabaseTaken",
    "Faults",
    "Heartbeat",
    "LeaseLost",
    "NewTable",
    "PlainSql",
    "StorageDown",
    "Store",
    "StoreError",
    "StoredGame",
    "StoredTable",
    "VersionConflict",
    "Write",
    "engine_url",
    "metadata",
    "prune_processes",
    "safe_url",
]
