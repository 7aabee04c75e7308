"""Quick pairing: choose a game, wait in its pool, and be seated with people of a similar rating.

A **pool** is a game, a number of players and rated or casual play. Signed-in people may wait in
either; anonymous people only in casual pools, among themselves. A rated pool seats people whose
ratings (in that game at that count) are within a range that widens the longer the oldest of
them has waited: :data:`RANGE_START` at first, :data:`RANGE_GROWTH` more every
:data:`GROW_EVERY` seconds, and any rating after :data:`ANY_AFTER` seconds.

The pools live in the server's database, so every process of a site sees the same ones. A
pairing pass runs in one transaction that first writes the one row of ``pairing_lock``: passes
take turns, on SQLite and PostgreSQL alike, and a seeker is given to one table only (the update
that gives it is conditional on its having none). Waiting browsers ask every second or two; a
seeker not heard from for :data:`STALE_AFTER` seconds has left the pool.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BigInteger, Boolean, Column, Float, Index, Integer, String, Table

from bonepile.server.players.manners import blocked_pairs
from bonepile.server.storage.store import PlainSql, Store, metadata

RANGE_START = 100.0
"""Rating points either side a new seeker of a rated pool is paired within."""
RANGE_GROWTH = 50.0
"""How much the range widens ..."""
GROW_EVERY = 5.0
"""... every this many seconds of waiting."""
ANY_AFTER = 60.0
"""Seconds after which any rating will do."""
STALE_AFTER = 15.0
"""Seconds a seeker stays in its pool without asking."""
BOTS_AFTER = 20.0
"""Seconds of waiting after which the seeker may fill the other seats with bots."""
STUCK_AFTER = 30.0
"""Seconds after which seekers given to a table that was never made (its process died while
making it) are put back in their pool."""

seekers_t = Table(
    "seekers",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("pool", String(64), nullable=False),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("owner", String(32), nullable=False, unique=True),
    Column("account_id", String(32), nullable=True),
    Column("name", String(40), nullable=False),
    Column("rating", Float, nullable=True),
    Column("since", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("table_id", String(32), nullable=True),
    Index("ix_seekers_pool", "pool"),
)

pairing_lock_t = Table(
    "pairing_lock",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("passes", BigInteger, nullable=False),
)


@dataclass(frozen=True)
class Pool:
    """A game, its number of players, and whether its tables are rated."""

    game: str
    players: int
    rated: bool

    @property
    def key(self) -> str:
        """The pool's name in the database."""
        return f"{self.game}/{self.players}/{'rated' if self.rated else 'casual'}"


@dataclass(frozen=True)
class Seeker:
    """Someone waiting in a pool (``table_id`` once they are seated)."""

    id: str
    pool: Pool
    owner: str
    account_id: str | None
    name: str
    rating: float | None
    since: float
    seen: float
    table_id: str | None

    def waited(self, now: float) -> float:
        """Seconds in the pool."""
        return max(0.0, now - self.since)

    def range(self, now: float) -> float | None:
        """How far from their rating they may be paired (``None``: any rating, or a casual
        pool)."""
        waited = self.waited(now)
        if not self.pool.rated or waited >= ANY_AFTER:
            return None
        return RANGE_START + RANGE_GROWTH * int(waited // GROW_EVERY)


_COLUMNS = "id, game, players, rated, owner, account_id, name, rating, since, seen, table_id"


def _seeker(row: Sequence[Any]) -> Seeker:
    pool = Pool(str(row[1]), int(row[2]), bool(row[3]))
    rating = None if row[7] is None else float(row[7])
    return Seeker(
        str(row[0]),
        pool,
        str(row[4]),
        None if row[5] is None else str(row[5]),
        str(row[6]),
        rating,
        float(row[8]),
        float(row[9]),
        None if row[10] is None else str(row[10]),
    )


def fits(a: Seeker, b: Seeker, now: float, apart: set[frozenset[str]] | None = None) -> bool:
    """Whether ``a`` and ``b`` may sit at one table: never two players one of whom blocked
    the other (``apart``: such pairs of account ids); a casual pool seats anyone else; a rated
    one people within the wider of their two ranges."""
    if apart and a.account_id and b.account_id and frozenset((a.account_id, b.account_id)) in apart:
        return False
    ranges = (a.range(now), b.range(now))
    if a.rating is None or b.rating is None or None in ranges:
        return True
    return abs(a.rating - b.rating) <= max(r for r in ranges if r is not None)


def groups(
    waiting: Sequence[Seeker], now: float, apart: set[frozenset[str]] | None = None
) -> list[list[Seeker]]:
    """Tables to make from the seekers ``waiting`` in one pool, oldest first: each seats the
    oldest seeker left with the nearest ratings that fit everyone at it (see :func:`fits`)."""
    left = sorted(waiting, key=lambda s: (s.since, s.id))
    made: list[list[Seeker]] = []
    while left:
        first, rest = left[0], left[1:]
        need = first.pool.players
        if first.rating is not None:
            rating = first.rating
            rest = sorted(rest, key=lambda s: abs((s.rating or rating) - rating))
        table = [first]
        for s in rest:
            if len(table) == need:
                break
            if all(fits(s, t, now, apart) for t in table):
                table.append(s)
        if len(table) == need:
            made.append(table)
            left = [s for s in left if s not in table]
        else:
            left = left[1:]  # the oldest cannot be seated yet: the others may still be
    return made


class Pairing:
    """The pools of a store's database. Safe to use from threads."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def seek(
        self,
        pool: Pool,
        owner: str,
        account_id: str | None,
        name: str,
        rating: float | None,
        now: float,
    ) -> Seeker:
        """Wait in ``pool`` (leaving any pool the browser ``owner`` waited in before)."""
        seeker = Seeker(
            secrets.token_hex(16), pool, owner, account_id, name, rating, now, now, None
        )
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            sql.many("DELETE FROM seekers WHERE owner = ?", [(owner,)])
            sql.many(
                f"INSERT INTO seekers ({_COLUMNS}, pool) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                " ?, ?)",
                [
                    (
                        seeker.id,
                        pool.game,
                        pool.players,
                        pool.rated,
                        owner,
                        account_id,
                        name,
                        rating,
                        now,
                        now,
                        None,
                        pool.key,
                    )
                ],
            )
        return seeker

    def look(self, seek_id: str, owner: str, now: float, note: bool = True) -> Seeker | None:
        """The seek ``seek_id`` of the browser ``owner``, or ``None`` if it is gone; with
        ``note``, the browser is noted as still waiting."""
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            rows = sql.one(
                f"SELECT {_COLUMNS} FROM seekers WHERE id = ? AND owner = ?", [seek_id, owner]
            )
            if rows and note:
                sql.many(
                    "UPDATE seekers SET seen = ? WHERE id = ? AND table_id IS NULL",
                    [(now, seek_id)],
                )
        return _seeker(rows[0]) if rows else None

    def leave(self, seek_id: str, owner: str) -> None:
        """Leave the pool (or forget a seek that was seated)."""
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "DELETE FROM seekers WHERE id = ? AND owner = ?", [(seek_id, owner)]
            )

    def pair(
        self, pool: Pool, now: float, new_id: Callable[[], str]
    ) -> list[tuple[str, list[Seeker]]]:
        """One pairing pass over ``pool``: the tables to make now, each with its id and its
        seekers, who are given to it (and to no other table) before this returns."""
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            if sql.count("UPDATE pairing_lock SET passes = passes + 1 WHERE id = 1", []) != 1:
                raise RuntimeError("the pairing lock's row is missing (migration 0008)")
            sql.many(
                "DELETE FROM seekers WHERE seen < ? AND table_id IS NULL", [(now - STALE_AFTER,)]
            )
            # a seeker's ``seen`` is when it was given its table (asking notes only those
            # waiting): a table not made by then never will be
            sql.count(
                "UPDATE seekers SET table_id = NULL, seen = ? WHERE table_id IS NOT NULL"
                " AND seen < ? AND NOT EXISTS (SELECT 1 FROM tables t WHERE t.id ="
                " seekers.table_id)",
                [now, now - STUCK_AFTER],
            )
            rows = sql.one(
                f"SELECT {_COLUMNS} FROM seekers WHERE pool = ? AND table_id IS NULL",
                [pool.key],
            )
            waiting = [_seeker(r) for r in rows]
            apart = blocked_pairs(sql, (s.account_id for s in waiting if s.account_id))
            made = []
            for table in groups(waiting, now, apart):
                table_id = new_id()
                secrets.SystemRandom().shuffle(table)  # who sits first is the deal's
                marks = ", ".join("?" for _ in table)
                given = sql.count(
                    f"UPDATE seekers SET table_id = ?, seen = ? WHERE table_id IS NULL"
                    f" AND id IN ({marks})",
                    [table_id, now, *(s.id for s in table)],
                )
                if given != len(table):  # pragma: no cover - passes take turns
                    raise RuntimeError("a seeker was given to two tables")
                made.append((table_id, table))
        return made

    def release(self, table_id: str) -> None:
        """Put the seekers given to ``table_id`` back in their pool (it could not be made)."""
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "UPDATE seekers SET table_id = NULL WHERE table_id = ?", [(table_id,)]
            )

    def waiting(self, now: float) -> dict[str, int]:
        """How many wait in each pool (by its key), counting those heard from lately."""
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT pool, COUNT(*) FROM seekers WHERE table_id IS NULL AND seen >= ?"
                " GROUP BY pool",
                [now - STALE_AFTER],
            )
        return {str(p): int(n) for p, n in rows}


__all__ = [
    "ANY_AFTER",
    "BOTS_AFTER",
    "GROW_EVERY",
    "RANGE_GROWTH",
    "RANGE_START",
    "STALE_AFTER",
    "STUCK_AFTER",
    "Pairing",
    "Pool",
    "Seeker",
    "fits",
    "groups",
    "pairing_lock_t",
    "seekers_t",
]
