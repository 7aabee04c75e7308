"""Rated tables: who may sit at one, and the settlement of its ratings once its end is stored.

A rated table seats signed-in people only (the creator, and whoever joins or claims a seat
while signed in). At its end the hub calls :meth:`RatedTables.ended`, which rates it once
(:meth:`~bonepile.server.players.ratings.Ratings.settle`); a sweep at start and every
:data:`SWEEP_EVERY` seconds rates any rated table whose end was stored but whose settlement was
not (its process died in between), so a rating is never lost and never counted twice.
"""

from __future__ import annotations

import asyncio
import logging

from bonepile.games import get_game
from bonepile.server.players.accounts import Accounts
from bonepile.server.players.ratings import Ratings, finishing_ranks
from bonepile.server.storage.store import PlainSql
from bonepile.server.tables.hub import Hub
from bonepile.server.tables.room import ABANDONED, Room, RoomError

log = logging.getLogger("bonepile.server")

SWEEP_EVERY = 300.0
"""Seconds between two looks for rated tables that ended without their settlement."""


def leavers(room: Room) -> list[bool]:
    """Which seats of an ended rated table count as having left it, and so rank below everyone
    who stayed: a player who left (a bot played their seat from then on), a player whose seat a
    bot was playing at the end because they were away (gone, or their time ran out and they did
    not take the seat back), and, at a table closed because nobody came back while it waited
    for a move, the player it waited for."""
    gone = [bool(s.left) or s.away_bot for s in room.seats]
    if room.closed and room.close_reason == ABANDONED and room.started:
        k = room.state.actor
        if k is not None and not room.state.is_over:
            gone[k] = True
    return gone


class RatedTables:
    """Settles the rated tables of a hub's database."""

    def __init__(self, hub: Hub, ratings: Ratings, accounts: Accounts) -> None:
        self.hub = hub
        self.ratings = ratings
        self.accounts = accounts
        self._sweeper: asyncio.Task[None] | None = None

    async def ended(self, room: Room) -> None:
        """Rate ``room``'s table if it is rated (its end, or its closing, is stored)."""
        if not room.config.rated or room.status not in ("over", "closed"):
            return
        try:
            await asyncio.to_thread(self.settle, room)
        except Exception:  # the sweep tries again
            log.exception("table %s: its ratings could not be settled now", room.id)

    def settle(self, room: Room) -> bool:
        """Rate the ended rated table of ``room`` (in a thread), once: False if it was
        settled before, or has nothing to rate (a seat that is no account's, a table closed
        before it began or with nobody to blame; settled as unrated)."""
        config = room.config
        now = self.hub.now()
        gone = leavers(room)
        if room.status == "closed" and not any(gone):
            self.ratings.unrated(room.id, config.game, config.players, now)
            return False
        owners = [s.owner or s.left_owner for s in room.seats]
        found = self.accounts.ids_by_owner([o for o in owners if o])
        accounts = [found.get(o) if o else None for o in owners]
        if any(a is None for a in accounts):
            log.warning("table %s: a seat is no account's, so it is not rated", room.id)
            self.ratings.unrated(room.id, config.game, config.players, now)
            return False
        game = get_game(config.game)
        teams = game.teams(config.players, game.make_options(config.options))
        ranks = finishing_ranks(room.match.totals, room.match.winners, gone)
        ids = [a for a in accounts if a is not None]
        return self.ratings.settle(room.id, config.game, teams, ids, ranks, now)

    # ------------------------------------------------------------------ the sweep
    def unsettled(self) -> list[str]:
        """Rated tables whose end (or closing) is stored and whose settlement is not."""
        with self.hub.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT t.id FROM tables t LEFT JOIN rated_tables r ON r.table_id = t.id"
                " WHERE t.status IN ('over', 'closed') AND r.table_id IS NULL"
                " AND t.config LIKE ?",
                ['%"rated":true%'],
            )
        return [str(r[0]) for r in rows]

    async def sweep(self) -> int:
        """Rate every table :meth:`unsettled` finds; how many were rated."""
        done = 0
        for table_id in await asyncio.to_thread(self.unsettled):
            try:
                table = await self.hub.load(table_id)
                done += await asyncio.to_thread(self.settle, table.room)
            except (RoomError, OSError) as e:
                log.warning("table %s: not rated yet: %s", table_id, e)
        return done

    def start(self) -> None:
        """Sweep now and every :data:`SWEEP_EVERY` seconds (until :meth:`stop`)."""

        async def forever() -> None:
            while True:
                try:
                    await self.sweep()
                except Exception:
                    log.exception("the sweep of rated tables failed")
                await asyncio.sleep(SWEEP_EVERY)

        self._sweeper = asyncio.create_task(forever())

    def stop(self) -> None:
        """Stop the sweep."""
        if self._sweeper is not None:
            self._sweeper.cancel()


__all__ = ["SWEEP_EVERY", "RatedTables", "leavers"]
