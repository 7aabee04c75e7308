"""A hub's storage outages: while the database refuses writes, every change is refused and
everyone is told; a probe waits for the database to come back, and the tables then go on by
themselves (a table whose last write's answer was lost is read back first)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bonepile.server.storage.store import StorageDown
from bonepile.server.tables.background import finished_hands
from bonepile.server.tables.live import Outage, Table
from bonepile.server.tables.room import RoomError, restore

if TYPE_CHECKING:
    from bonepile.server.tables.hub import Hub

log = logging.getLogger("bonepile.server")

WRITE_BUDGET = 20.0
"""Seconds a write may take before the database counts as unavailable."""


class Outages:
    """The storage outages of ``hub``'s process (``hub.outage`` is the one going on)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.probe: asyncio.Task[None] | None = None
        """The task that waits for the database to take writes again."""

    def failed(self, error: BaseException) -> None:
        """A write failed: refuse changes and tell everyone until a probe finds the database
        taking writes again."""
        if self.hub.outage is not None:
            return
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        log.error("the database refuses writes (%s): tables wait until it is back", reason)
        self.hub.outage = Outage(self.hub.now(), reason)
        self.probe = asyncio.create_task(self.wait())
        for table in list(self.hub.tables.values()):
            self.hub.spawn(self.hub.broadcast.resend_all(table))

    async def wait(self) -> None:
        """Try a heartbeat, more slowly each time, until the database takes it; then let the
        tables go on (their clocks given back the time the outage took)."""
        delay = 0.25
        while True:
            await asyncio.sleep(delay)
            delay = min(delay * 1.6, 3.0)
            future = asyncio.wrap_future(self.hub.writer.submit(self.hub.heartbeat()))
            try:
                await asyncio.wait_for(asyncio.shield(future), WRITE_BUDGET)
            except Exception:
                continue
            break
        outage, self.hub.outage = self.hub.outage, None
        paused = self.hub.now() - outage.since if outage is not None else 0.0
        log.warning("the database takes writes again after %.1f s", paused)
        for table in list(self.hub.tables.values()):
            if not table.site.owned:
                # its owner stores and publishes what it missed
                await self.hub.replicas.catch_up(table)
                continue
            try:
                async with table.lock:
                    if table.suspect:
                        await self.resync(table)
                    if table.room.config.clock is not None:
                        await self.hub.change(table, lambda r, now: r.pause(paused, now))
                    await self.hub.broadcast.send_all(table)
                    self.hub.bots.schedule(table)
            except StorageDown:
                return  # down again: the new probe carries on
            except Exception:
                log.exception("table %s could not resume", table.room.id)

    async def resync(self, table: Table) -> None:
        """Read the table back from storage; if its journal is ahead of memory (a commit whose
        answer was lost), the stored one wins: it has only what was stored, nothing shown is
        lost. Called with the table's lock held."""
        try:
            stored = await asyncio.to_thread(self.hub.store.table, table.room.id)
        except Exception as e:
            self.failed(e)
            raise StorageDown() from None
        if stored is None:
            raise RoomError("unknown", "there is no such table")
        if stored.entries and stored.entries[-1][0] != table.room.version:
            old = table.room
            room = restore(old.id, old.config, stored.entries, self.hub.token_key)
            for mine, was in zip(room.seats, old.seats, strict=True):
                mine.connected, mine.gone_since = was.connected, was.gone_since
            log.warning(
                "table %s: read back at version %d (memory had %d)",
                old.id,
                room.version,
                old.version,
            )
            table.room = room
            table.stored_hands = finished_hands(room)
            table.stored_status = stored.status
            await self.hub.broadcast.send_all(table)
        table.suspect = False


__all__ = ["WRITE_BUDGET", "Outages"]
