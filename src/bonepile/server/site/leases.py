"""Leases: which process of a site decides each table's moves, judged by the database's clock.

In a site of several ``bonepile serve`` processes on one database, each table is decided in one
place at a time. Two kinds of rows say where:

* every process holds a lease on life (its ``processes`` row, ``expires`` on the database's
  clock), renewed every :data:`RENEW_EVERY` seconds: one write a process, however many tables
  it holds;
* every table has a lease (``table_leases``): its owner (a process, or nobody) and an epoch that
  goes up by one at every change of owner.

A table whose owner's lease on life has run out (a process killed, a machine lost) is claimed
by another process: the claim raises the epoch, and every write of the table names the epoch it
was decided under (:attr:`~bonepile.server.storage.store.Changes.fence`), checked in the transaction
that stores it. A process that lost a table, even one paused for a minute that wakes up sure it
still owns it, can therefore never store a move of it again: the database refuses it, whatever
the process's own clock says.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bonepile.server.storage.store import PlainSql, Store, prune_processes

LEASE_TTL = 6.0
"""Seconds a process's lease on life lasts from its last renewal."""
RENEW_EVERY = 1.5
"""Seconds between two renewals (a lease survives three missed ones)."""


@dataclass(frozen=True)
class Lease:
    """Who decides the table ``table_id``: ``owner`` (``None``: nobody) at ``epoch``; ``live``:
    whether the owner's lease on life still runs."""

    table_id: str
    owner: str | None
    epoch: int
    live: bool


@dataclass(frozen=True)
class Member:
    """A live process of the site: its id, host, pid and when its lease on life ends (on the
    database's clock)."""

    id: str
    host: str
    pid: int
    expires: float


class Leases:
    """The leases of the process ``process_id`` on ``store``'s database; every call is one
    short transaction (run them off the event loop)."""

    def __init__(self, store: Store, process_id: str, ttl: float = LEASE_TTL) -> None:
        self.store = store
        self.me = process_id
        self.ttl = ttl

    def _run(self, work: Any) -> Any:
        with self.store.engine.begin() as conn:
            return work(PlainSql(conn))

    # ------------------------------------------------------------------ the process
    def register(self, host: str, pid: int, started: float) -> None:
        """Join the site: this process's lease on life starts now."""

        def work(sql: PlainSql) -> None:
            prune_processes(sql, started)
            sql.count(
                "INSERT INTO processes (id, host, pid, started, heartbeat, expires, mode)"
                f" VALUES (?, ?, ?, ?, ?, {sql.now} + ?, 'site')",
                [self.me, host, pid, started, started, self.ttl],
            )

        self._run(work)

    def renew(self, now: float) -> bool:
        """Extend this process's lease on life by :attr:`ttl` from now; ``False`` if it had
        run out already (then the process has lapsed: its tables may be another's, and it must
        join again under a new id)."""

        def work(sql: PlainSql) -> bool:
            changed = sql.count(
                f"UPDATE processes SET expires = {sql.now} + ?, heartbeat = ?"
                f" WHERE id = ? AND expires > {sql.now}",
                [self.ttl, now, self.me],
            )
            return changed == 1

        return bool(self._run(work))

    def retire(self) -> None:
        """Leave the site: release every table this process holds and end its lease on life
        (its tables can be claimed at once)."""

        def work(sql: PlainSql) -> None:
            sql.count("UPDATE table_leases SET owner = NULL WHERE owner = ?", [self.me])
            sql.count("UPDATE processes SET expires = 0 WHERE id = ?", [self.me])

        self._run(work)

    def members(self) -> list[Member]:
        """The site's live processes, oldest lease first."""

        def work(sql: PlainSql) -> list[Member]:
            rows = sql.one(
                "SELECT id, host, pid, expires FROM processes"
                f" WHERE mode = 'site' AND expires > {sql.now} ORDER BY started, id",
                [],
            )
            return [Member(r[0], r[1], int(r[2]), float(r[3])) for r in rows]

        return list(self._run(work))

    # ------------------------------------------------------------------ tables
    def claim(self, table_id: str) -> int | None:
        """Take the table over if nobody live holds it (its owner released it or lapsed) and
        this process is live itself; the new epoch, or ``None`` if the table is held (or
        there is no such table). Of two processes claiming at once, one wins."""

        def work(sql: PlainSql) -> int | None:
            changed = sql.count(
                f"UPDATE table_leases SET owner = ?, epoch = epoch + 1, since = {sql.now}"
                " WHERE table_id = ? AND (owner IS NULL OR NOT EXISTS (SELECT 1 FROM processes"
                f" p WHERE p.id = table_leases.owner AND p.expires > {sql.now}))"
                " AND EXISTS (SELECT 1 FROM processes m WHERE m.id = ?"
                f" AND m.expires > {sql.now})",
                [self.me, table_id, self.me],
            )
            if changed != 1:
                return None
            rows = sql.one("SELECT epoch FROM table_leases WHERE table_id = ?", [table_id])
            return int(rows[0][0])

        got = self._run(work)
        return None if got is None else int(got)

    def release(self, table_id: str, epoch: int) -> bool:
        """Give the table up (it is claimed by the next process that wants it); ``False`` if
        this process did not hold it at ``epoch``."""

        def work(sql: PlainSql) -> bool:
            changed = sql.count(
                "UPDATE table_leases SET owner = NULL WHERE table_id = ? AND owner = ?"
                " AND epoch = ?",
                [table_id, self.me, epoch],
            )
            return changed == 1

        return bool(self._run(work))

    def locate(self, table_id: str) -> Lease | None:
        """Who holds the table now (``None``: no such table)."""

        def work(sql: PlainSql) -> Lease | None:
            rows = sql.one(
                f"SELECT l.owner, l.epoch, CASE WHEN p.expires > {sql.now} THEN 1 ELSE 0 END"
                " FROM table_leases l LEFT JOIN processes p ON p.id = l.owner"
                " WHERE l.table_id = ?",
                [table_id],
            )
            if not rows:
                return None
            owner, epoch, live = rows[0]
            return Lease(table_id, owner, int(epoch), owner is not None and bool(live))

        got = self._run(work)
        return got if isinstance(got, Lease) else None

    def held(self) -> dict[str, int]:
        """The tables this process holds, with their epochs."""

        def work(sql: PlainSql) -> dict[str, int]:
            rows = sql.one("SELECT table_id, epoch FROM table_leases WHERE owner = ?", [self.me])
            return {tid: int(epoch) for tid, epoch in rows}

        return dict(self._run(work))

    def orphans(self, statuses: Sequence[str] = ("open", "playing"), limit: int = 50) -> list[str]:
        """Unfinished tables nobody live holds (their owner released them or lapsed), at most
        ``limit`` of them, oldest lease first: what the site's processes claim."""

        def work(sql: PlainSql) -> list[str]:
            marks = ", ".join("?" * len(statuses))
            rows = sql.one(
                "SELECT l.table_id FROM table_leases l JOIN tables t ON t.id = l.table_id"
                " LEFT JOIN processes p ON p.id = l.owner"
                f" AND p.expires > {sql.now} WHERE t.status IN ({marks}) AND p.id IS NULL"
                f" ORDER BY l.since, l.table_id LIMIT {int(limit)}",
                [*statuses],
            )
            return [r[0] for r in rows]

        return list(self._run(work))


def site_identity(store: Store, secret: str, now: float) -> tuple[str, str]:
    """The site's name on the message bus and its secret, the same for every process on the
    database: the first process to ask makes the site's row with its own ``secret`` (so a
    server that served alone keeps its players' cookies and seats), every other reads it."""
    with store.engine.begin() as conn:
        sql = PlainSql(conn)
        rows = sql.one("SELECT key, secret FROM site WHERE id = 1", [])
        if not rows:
            key = secrets.token_hex(6)
            conflict = " ON CONFLICT (id) DO NOTHING" if sql.dialect == "postgresql" else ""
            verb = "INSERT OR IGNORE" if sql.dialect == "sqlite" else "INSERT"
            sql.count(
                f"{verb} INTO site (id, key, secret, created) VALUES (1, ?, ?, ?){conflict}",
                [key, secret, now],
            )
            rows = sql.one("SELECT key, secret FROM site WHERE id = 1", [])
    return str(rows[0][0]), str(rows[0][1])


def expire_process(store: Store, host: str, pid: int) -> int:
    """End the lease on life of the process ``pid`` on ``host`` (one known dead: a supervisor
    saw its child die), so that its tables are claimed at once; how many rows it changed."""
    with store.engine.begin() as conn:
        sql = PlainSql(conn)
        return sql.count(
            f"UPDATE processes SET expires = 0 WHERE host = ? AND pid = ? AND expires > {sql.now}",
            [host, pid],
        )


__all__ = [
    "LEASE_TTL",
    "RENEW_EVERY",
    "Lease",
    "Leases",
    "Member",
    "expire_process",
    "site_identity",
]
