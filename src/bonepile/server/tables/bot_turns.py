"""A hub's bots: each bot's turn thought out in a process pool, off the event loop (the bots
of tables with people first, those of tables of bots only below them and at a bounded pace), and
played like any move; a bot that fails or hangs is replaced by the greedy player for that move,
and a pool whose worker died by a new one."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from bonepile.agents.registry import make_agent
from bonepile.seeds import random_seed
from bonepile.server.storage.store import StorageDown
from bonepile.server.tables.live import Table
from bonepile.server.tables.room import BotTurn, RoomError
from bonepile.server.tables.thinkers import bot_pool, think

if TYPE_CHECKING:
    from bonepile.server.tables.hub import Hub

log = logging.getLogger("bonepile.server")

BOT_BUDGET = 30.0
"""Seconds a bot's move may take in its worker before the greedy player moves in its place
(the search bot's levels take well under a second: this only catches a worker that hangs or a
pool that broke)."""


class BotTurns:
    """Plays the bots of ``hub``'s tables (in ``hub.executor`` and ``hub.background``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.background_next = 0.0
        """When the next move of a table of bots only may be played."""

    def schedule(self, table: Table) -> None:
        """Start thinking for the table's bot if it is a bot's turn (and nothing stops it)."""
        if table.thinking is not None and not table.thinking.done():
            return
        if self.hub.outage is not None:
            return  # nothing could be stored: the bots wait with everyone
        if not table.site.owned:
            return  # its owner's bots play it
        room = table.room
        if not room.humans() and not self.hub.audience(table):
            return  # a table of bots only plays while someone watches
        turn = room.bot_turn(self.hub.now())
        if turn is None:
            return
        table.thinking = asyncio.create_task(self.play(table, turn))

    async def play(self, table: Table, turn: BotTurn) -> None:
        """Think out ``turn`` and play it (at the bots' pace where people follow)."""
        loop = asyncio.get_running_loop()
        seed = random_seed()
        people = bool(table.room.humans())
        pool = self.hub.executor if people else self.hub.background
        try:
            action = await asyncio.wait_for(
                loop.run_in_executor(pool, think, turn.spec, seed, turn.view), BOT_BUDGET
            )
        except Exception as e:  # the table goes on: the greedy player moves for the bot
            if isinstance(e, TimeoutError):
                log.error("a bot took over %g s at table %s", BOT_BUDGET, table.room.id)
            else:
                log.exception("a bot failed at table %s", table.room.id)
            if isinstance(e, BrokenProcessPool):
                self.replace_pool(pool)
            action = make_agent("greedy", seed).act(turn.view)
        if people or self.hub.audience(table):
            wait = table.last_move + self.hub.bot_pace - self.hub.now()
            if wait > 0:
                await asyncio.sleep(wait)
        if not people:
            await self.background_turn()
        async with table.lock:
            table.thinking = None
            if not table.site.owned:
                return
            try:
                await self.hub.change(table, lambda r, now: r.bot_move(turn, action, now))
            except (StorageDown, RoomError) as e:
                log.info("a bot move at table %s waits: %s", table.room.id, e)

    async def background_turn(self) -> None:
        """Wait for a turn among the moves of tables of bots only: at most
        ``background_moves_per_second`` of them on the whole server, one after another, so
        that however many there are, the tables with people keep the server's time."""
        now = self.hub.now()
        at = max(now, self.background_next)
        self.background_next = at + 1.0 / self.hub.limits.background_moves_per_second
        if at > now:
            await asyncio.sleep(at - now)

    def replace_pool(self, pool: Executor) -> None:
        """A worker died: the pool takes no more work, so new workers take its place."""
        if not isinstance(pool, ProcessPoolExecutor):
            return
        workers = getattr(pool, "_max_workers", 2)
        if pool is self.hub.executor:
            self.hub.executor = bot_pool(workers)
            if self.hub.background is pool:
                self.hub.background = self.hub.executor
        elif pool is self.hub.background:
            self.hub.background = bot_pool(workers, self.hub.background_priority)


__all__ = ["BOT_BUDGET", "BotTurns"]
