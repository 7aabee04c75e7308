"""How players treat each other: challenges to a named player, blocks, and reports.

- A **challenge** invites one signed-in player to a game; they accept (a table is made with both
  seated) or decline, or the challenger takes it back. One left unanswered for
  :data:`CHALLENGE_LIFE` seconds lapses. An account has at most :data:`OPEN_CHALLENGES` open
  at once.
- A **block** keeps two players apart: neither may challenge the other, and quick pairing never
  seats them together. Either's block is enough; only its maker sees it and may lift it.
- A **report** tells the site's operator about a player, with a hand attached if the reporter
  names one; ``bonepile reports`` lists them.

All three are rows in the server's database, so every process of a site sees them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text
from sqlalchemy.exc import IntegrityError

from bonepile.errors import BonepileError
from bonepile.server.storage.store import PlainSql, Store, metadata

CHALLENGE_LIFE = 600.0
"""Seconds a challenge waits for its answer."""
OPEN_CHALLENGES = 5
"""Open challenges one account may have made at once."""
REPORT_MAX = 2000
"""Characters of a report's text."""

challenges_t = Table(
    "challenges",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("from_id", String(32), nullable=False),
    Column("to_id", String(32), nullable=False),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("table_id", String(32), nullable=True),
    Index("ix_challenges_to", "to_id", "status"),
    Index("ix_challenges_from", "from_id", "status"),
)

blocks_t = Table(
    "blocks",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("blocked_id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Index("ix_blocks_blocked", "blocked_id"),
)

reports_t = Table(
    "reports",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("reporter_id", String(32), nullable=False),
    Column("reporter", String(20), nullable=False),
    Column("reported_id", String(32), nullable=False),
    Column("reported", String(20), nullable=False),
    Column("hand", String(48), nullable=True),
    Column("text", Text, nullable=False),
    Column("created", Float, nullable=False),
    Index("ix_reports_created", "created"),
)


def blocked_pairs(sql: PlainSql, accounts: Iterable[str]) -> set[frozenset[str]]:
    """The pairs among ``accounts`` that either side blocked, read through ``sql`` (so a
    pairing pass reads them in its own transaction)."""
    ids = sorted(set(accounts))
    if len(ids) < 2:
        return set()
    marks = ", ".join("?" for _ in ids)
    rows = sql.one(
        f"SELECT account_id, blocked_id FROM blocks WHERE account_id IN ({marks})"
        f" AND blocked_id IN ({marks})",
        [*ids, *ids],
    )
    return {frozenset((str(a), str(b))) for a, b in rows}


class MannersError(BonepileError):
    """A challenge, block or report that cannot be made (its ``code`` says why)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Challenge:
    """A challenge from one account to another (``status``: ``open``, ``accepted``,
    ``declined`` or ``cancelled``; ``table_id`` once accepted)."""

    id: str
    from_id: str
    to_id: str
    game: str
    players: int
    rated: bool
    created: float
    status: str
    table_id: str | None


_CHALLENGE = "id, from_id, to_id, game, players, rated, created, status, table_id"


def _challenge(row: Any) -> Challenge:
    return Challenge(
        str(row[0]),
        str(row[1]),
        str(row[2]),
        str(row[3]),
        int(row[4]),
        bool(row[5]),
        float(row[6]),
        str(row[7]),
        None if row[8] is None else str(row[8]),
    )


class Manners:
    """The challenges, blocks and reports of a store's database. Safe to use from threads."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ blocks
    def block(self, account_id: str, blocked_id: str, now: float) -> None:
        """``account_id`` blocks ``blocked_id`` (again: nothing changes)."""
        if account_id == blocked_id:
            raise MannersError("yourself", "you cannot block yourself")
        try:
            with self.store.engine.begin() as conn:
                PlainSql(conn).many(
                    "INSERT INTO blocks (account_id, blocked_id, created) VALUES (?, ?, ?)",
                    [(account_id, blocked_id, now)],
                )
        except IntegrityError:
            pass

    def unblock(self, account_id: str, blocked_id: str) -> None:
        """Lift ``account_id``'s block of ``blocked_id``."""
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "DELETE FROM blocks WHERE account_id = ? AND blocked_id = ?",
                [(account_id, blocked_id)],
            )

    def blocks(self, account_id: str) -> list[str]:
        """The accounts ``account_id`` blocked (ids)."""
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT blocked_id FROM blocks WHERE account_id = ?", [account_id]
            )
        return [str(r[0]) for r in rows]

    def apart(self, accounts: Iterable[str]) -> set[frozenset[str]]:
        """The pairs among ``accounts`` that either side blocked."""
        with self.store.engine.connect() as conn:
            return blocked_pairs(PlainSql(conn), accounts)

    # ------------------------------------------------------------------ challenges
    def challenge(
        self, from_id: str, to_id: str, game: str, players: int, rated: bool, now: float
    ) -> Challenge:
        """A new challenge (refused between blocked players, to yourself, or past
        :data:`OPEN_CHALLENGES`)."""
        if from_id == to_id:
            raise MannersError("yourself", "you cannot challenge yourself")
        if self.apart((from_id, to_id)):
            raise MannersError("blocked", "you cannot challenge that player")
        made = Challenge(
            secrets.token_hex(16), from_id, to_id, game, players, rated, now, "open", None
        )
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            self._lapse(sql, now)
            (count,) = sql.one(
                "SELECT COUNT(*) FROM challenges WHERE from_id = ? AND status = 'open'", [from_id]
            )[0]
            if int(count) >= OPEN_CHALLENGES:
                raise MannersError(
                    "too_many", f"you have {OPEN_CHALLENGES} open challenges: wait for answers"
                )
            sql.many(
                f"INSERT INTO challenges ({_CHALLENGE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        made.id,
                        from_id,
                        to_id,
                        game,
                        players,
                        rated,
                        now,
                        "open",
                        None,
                    )
                ],
            )
        return made

    def _lapse(self, sql: PlainSql, now: float) -> None:
        sql.count(
            "UPDATE challenges SET status = 'lapsed' WHERE status = 'open' AND created < ?",
            [now - CHALLENGE_LIFE],
        )

    def challenges(self, account_id: str, now: float) -> list[Challenge]:
        """The account's open challenges, made and received, and those it made that were
        answered in the last :data:`CHALLENGE_LIFE` seconds, newest first."""
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                f"SELECT {_CHALLENGE} FROM challenges WHERE (to_id = ? OR from_id = ?)"
                " AND created >= ? ORDER BY created DESC",
                [account_id, account_id, now - CHALLENGE_LIFE],
            )
        return [_challenge(r) for r in rows]

    def answer(self, challenge_id: str, account_id: str, status: str, now: float) -> Challenge:
        """Settle an open challenge: ``accepted`` or ``declined`` by whom it challenges,
        ``cancelled`` by who made it. Only one answer counts."""
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            self._lapse(sql, now)
            rows = sql.one(f"SELECT {_CHALLENGE} FROM challenges WHERE id = ?", [challenge_id])
            if not rows:
                raise MannersError("unknown", "there is no such challenge")
            c = _challenge(rows[0])
            mine = c.from_id if status == "cancelled" else c.to_id
            if mine != account_id:
                raise MannersError("unknown", "there is no such challenge")
            if c.status != "open":
                raise MannersError("answered", f"that challenge is {c.status} already")
            if (
                sql.count(
                    "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
                    [status, challenge_id],
                )
                != 1
            ):
                raise MannersError("answered", "that challenge was answered already")
        return Challenge(**{**c.__dict__, "status": status})

    def seated(self, challenge_id: str, table_id: str) -> None:
        """The table an accepted challenge made."""
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "UPDATE challenges SET table_id = ? WHERE id = ?", [(table_id, challenge_id)]
            )

    # ------------------------------------------------------------------ reports
    def report(
        self,
        reporter: tuple[str, str],
        reported: tuple[str, str],
        hand: str | None,
        text: str,
        now: float,
    ) -> str:
        """Keep a report for the operator: who (id, name) reports whom, about which hand."""
        text = text.strip()
        if not text:
            raise MannersError("empty", "say what happened")
        if len(text) > REPORT_MAX:
            raise MannersError("too_long", f"a report has at most {REPORT_MAX} characters")
        report_id = secrets.token_hex(16)
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "INSERT INTO reports (id, reporter_id, reporter, reported_id, reported, hand,"
                " text, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(report_id, *reporter, *reported, hand, text, now)],
            )
        return report_id

    def reports(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest reports, for the operator."""
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT created, reporter, reported, hand, text FROM reports"
                " ORDER BY created DESC LIMIT ?",
                [limit],
            )
        return [
            {"created": float(c), "reporter": str(a), "reported": str(b), "hand": h, "text": str(t)}
            for c, a, b, h, t in rows
        ]

    def kept(self, account_id: str) -> dict[str, Any]:
        """What is kept of the account's manners, for its own eyes: whom it blocked (ids), the
        challenges it made or received, and the reports it filed."""
        with self.store.engine.connect() as conn:
            sql = PlainSql(conn)
            blocked = sql.one("SELECT blocked_id FROM blocks WHERE account_id = ?", [account_id])
            made = sql.one(
                f"SELECT {_CHALLENGE} FROM challenges WHERE from_id = ? OR to_id = ?"
                " ORDER BY created DESC",
                [account_id, account_id],
            )
            filed = sql.one(
                "SELECT created, reported, hand, text FROM reports WHERE reporter_id = ?"
                " ORDER BY created DESC",
                [account_id],
            )
        return {
            "blocked": [str(r[0]) for r in blocked],
            "challenges": [_challenge(r) for r in made],
            "reports": [
                {"created": float(c), "reported": str(n), "hand": h, "text": str(t)}
                for c, n, h, t in filed
            ],
        }

    def forget(self, account_id: str) -> None:
        """Delete what the account made: its blocks, its challenges, the reports it filed
        (reports about it stay with the operator)."""
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            sql.many(
                "DELETE FROM blocks WHERE account_id = ? OR blocked_id = ?",
                [(account_id, account_id)],
            )
            sql.many(
                "DELETE FROM challenges WHERE from_id = ? OR to_id = ?",
                [(account_id, account_id)],
            )
            sql.many("DELETE FROM reports WHERE reporter_id = ?", [(account_id,)])


__all__ = [
    "CHALLENGE_LIFE",
    "OPEN_CHALLENGES",
    "REPORT_MAX",
    "Challenge",
    "Manners",
    "MannersError",
    "blocked_pairs",
    "blocks_t",
    "challenges_t",
    "reports_t",
]
