"""Ratings: one per player, game and player count, with its uncertainty, moved once per rated
table at its end.

The model is OpenSkill's Plackett-Luce (the ``openskill`` package): it rates any number of
players or teams from a finishing order, which covers two to four players, partnerships and
ties in one model (docs/ratings.md argues the choice). Its numbers are scaled so that a new
player starts at 1500 with a deviation of 350, the scale people know from chess sites; a rating
is **provisional** for its first :data:`PROVISIONAL_GAMES` rated tables.

A table is rated once: its settlement and the table's row in ``rated_tables`` are one
transaction, and a second settlement of the same table (another process of a site, a process
that took the table over) finds the row and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table
from sqlalchemy.exc import IntegrityError

from bonepile.server.players.scale import BETA, START, START_SIGMA, TAU
from bonepile.server.storage.store import PlainSql, Store, metadata

PROVISIONAL_GAMES = 10
"""A rating is provisional (shown with a question mark, and below the established ones on the
leaderboard) until
this many rated tables. Plackett-Luce's deviation shrinks slowly (about 265 after ten even
games, 155 after forty), so the count, not the deviation, says when a rating is established."""

MODEL = PlackettLuce(mu=START, sigma=START_SIGMA, beta=BETA, tau=TAU)
"""OpenSkill's defaults (mu 25, sigma 25/3, beta sigma/2, tau sigma/100) at this scale."""

ratings_t = Table(
    "ratings",
    metadata,
    Column(
        "account_id",
        String(32),
        ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("game", String(32), primary_key=True),
    Column("players", Integer, primary_key=True, autoincrement=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ratings_board", "game", "players", "mu"),
)

rating_history_t = Table(
    "rating_history",
    metadata,
    Column(
        "account_id",
        String(32),
        ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("table_id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rank", Integer, nullable=False),
    Index("ix_rating_history_account", "account_id", "game", "players", "at"),
)

rated_tables_t = Table(
    "rated_tables",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass(frozen=True)
class Standing:
    """A player's rating in one game at one player count."""

    game: str
    players: int
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def provisional(self) -> bool:
        """Whether the rating is still too unsure to compare (few games)."""
        return self.games < PROVISIONAL_GAMES

    def to_json(self) -> dict[str, Any]:
        """As the API gives it: the rating rounded, its deviation, games and wins."""
        return {
            "game": self.game,
            "players": self.players,
            "rating": round(self.mu),
            "deviation": round(self.sigma),
            "provisional": self.provisional,
            "games": self.games,
            "wins": self.wins,
        }


def finishing_ranks(
    totals: Sequence[int], winners: Sequence[int], left: Sequence[bool]
) -> list[int]:
    """Each seat's place (1 first; equal places for a tie) from what decides a table: a seat
    whose player left ranks below every seat whose player stayed, then the winners, then the
    totals (points of the hand, or of the match).

    >>> finishing_ranks([10, 30, 0], [1], [False, False, False])
    [2, 1, 3]
    >>> finishing_ranks([50, 0], [0], [True, False])
    [2, 1]
    """
    keys = [(not left[k], k in winners, totals[k]) for k in range(len(totals))]
    order = sorted(set(keys), reverse=True)
    return [order.index(key) + 1 for key in keys]


def side_ranks(ranks: Sequence[int], teams: Sequence[Sequence[int]]) -> list[int]:
    """Each side's place from its seats' places: its worst seat's (a side one of whose players
    left ranks with them)."""
    return [max(ranks[k] for k in side) for side in teams]


def rated(
    before: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """The new ``(mu, sigma)`` of every member of every side, from their ratings ``before``
    and the sides' places ``ranks`` (1 first)."""
    sides = [[MODEL.create_rating([mu, sigma]) for mu, sigma in side] for side in before]
    after = MODEL.rate(sides, ranks=list(ranks))
    return [[(float(r.mu), float(r.sigma)) for r in side] for side in after]


class Ratings:
    """The ratings kept in a store's database. Safe to use from threads."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def settle(
        self,
        table_id: str,
        game: str,
        teams: Sequence[Sequence[int]],
        accounts: Sequence[str],
        ranks: Sequence[int],
        now: float,
    ) -> bool:
        """Rate the finished table ``table_id``: ``accounts`` is the account of each seat,
        ``ranks`` each seat's place, ``teams`` the sides. False (nothing changed) if the table
        was rated before."""
        try:
            self._settle(table_id, game, teams, accounts, ranks, now)
        except IntegrityError:  # rated already (its row in rated_tables is there)
            return False
        return True

    def unrated(self, table_id: str, game: str, players: int, now: float) -> None:
        """Note that the ended rated table ``table_id`` moves no rating (it has nothing to
        rate), so that it is not looked at again (nothing if it was settled before)."""
        try:
            with self.store.engine.begin() as conn:
                PlainSql(conn).many(
                    "INSERT INTO rated_tables (table_id, game, players, at) VALUES (?, ?, ?, ?)",
                    [(table_id, game, players, now)],
                )
        except IntegrityError:
            pass

    def _settle(
        self,
        table_id: str,
        game: str,
        teams: Sequence[Sequence[int]],
        accounts: Sequence[str],
        ranks: Sequence[int],
        now: float,
    ) -> None:
        players = len(accounts)
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            sql.many(
                "INSERT INTO rated_tables (table_id, game, players, at) VALUES (?, ?, ?, ?)",
                [(table_id, game, players, now)],
            )
            marks = ", ".join("?" for _ in accounts)
            rows = sql.one(
                "SELECT account_id, mu, sigma, games, wins FROM ratings WHERE game = ?"
                f" AND players = ? AND account_id IN ({marks})",
                [game, players, *accounts],
            )
            known = {str(r[0]): (float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in rows}
            start = (START, START_SIGMA, 0, 0)
            before = [[known.get(accounts[k], start)[:2] for k in side] for side in teams]
            after = rated(before, side_ranks(ranks, teams))
            for side, new in zip(teams, after, strict=True):
                for k, (mu, sigma) in zip(side, new, strict=True):
                    account = accounts[k]
                    _, _, games, wins = known.get(account, start)
                    won = int(ranks[k] == 1)
                    if account in known:
                        sql.many(
                            "UPDATE ratings SET mu = ?, sigma = ?, games = ?, wins = ?,"
                            " updated = ? WHERE account_id = ? AND game = ? AND players = ?",
                            [(mu, sigma, games + 1, wins + won, now, account, game, players)],
                        )
                    else:
                        sql.many(
                            "INSERT INTO ratings (account_id, game, players, mu, sigma, games,"
                            " wins, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            [(account, game, players, mu, sigma, 1, won, now)],
                        )
                    sql.many(
                        "INSERT INTO rating_history (account_id, table_id, game, players, at,"
                        " mu, sigma, rank) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [(account, table_id, game, players, now, mu, sigma, ranks[k])],
                    )

    def standings(self, account_id: str) -> list[Standing]:
        """Every rating of the account, most played first."""
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT game, players, mu, sigma, games, wins FROM ratings"
                " WHERE account_id = ? ORDER BY games DESC, game, players",
                [account_id],
            )
        return [
            Standing(str(g), int(p), float(m), float(s), int(n), int(w))
            for g, p, m, s, n, w in rows
        ]

    def leaderboard(self, game: str, players: int, limit: int = 50) -> list[tuple[str, Standing]]:
        """The best ratings of a game at a player count, each with its account's name:
        established ones first, best first, then (up to ``limit`` in all) provisional ones."""
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT a.name, r.mu, r.sigma, r.games, r.wins FROM ratings r"
                " JOIN accounts a ON a.id = r.account_id WHERE r.game = ? AND r.players = ?"
                " ORDER BY CASE WHEN r.games >= ? THEN 0 ELSE 1 END, r.mu DESC, a.name"
                " LIMIT ?",
                [game, players, PROVISIONAL_GAMES, limit],
            )
        return [
            (str(n), Standing(game, players, float(m), float(s), int(g), int(w)))
            for n, m, s, g, w in rows
        ]

    def history(self, account_id: str, game: str, players: int) -> list[dict[str, Any]]:
        """The account's rating after each rated table of a game, oldest first."""
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT table_id, at, mu, sigma, rank FROM rating_history WHERE account_id = ?"
                " AND game = ? AND players = ? ORDER BY at, table_id",
                [account_id, game, players],
            )
        return [
            {
                "table": str(t),
                "at": float(a),
                "rating": round(m),
                "deviation": round(s),
                "rank": int(r),
            }
            for t, a, m, s, r in rows
        ]

    def forget(self, account_id: str) -> None:
        """Delete the account's ratings and their history (the account is being deleted)."""
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            sql.many("DELETE FROM rating_history WHERE account_id = ?", [(account_id,)])
            sql.many("DELETE FROM ratings WHERE account_id = ?", [(account_id,)])


__all__ = [
    "MODEL",
    "PROVISIONAL_GAMES",
    "Ratings",
    "Standing",
    "finishing_ranks",
    "rated",
    "rated_tables_t",
    "rating_history_t",
    "ratings_t",
    "side_ranks",
]
