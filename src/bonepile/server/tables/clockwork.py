"""What happens at a hub's tables with time alone: clocks running out, players away on their
turn, the dealing of bots-only matches, the heartbeat, and the closing of tables nobody uses."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from functools import partial
from typing import TYPE_CHECKING

from bonepile.server.storage.store import StorageDown
from bonepile.server.tables.collector import Collector
from bonepile.server.tables.live import Table, hand_back
from bonepile.server.tables.room import ABANDONED, Room, RoomError

if TYPE_CHECKING:
    from bonepile.server.tables.hub import Hub

log = logging.getLogger("bonepile.server")

HEARTBEAT_EVERY = 30.0
"""Seconds between two heartbeats of this process in the database."""
EVICT_AFTER = 60.0
"""Seconds a finished or closed table nobody looks at stays in memory."""


class Clockwork:
    """The passing of time at ``hub``'s tables, every half second."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def forever(self) -> None:
        """Tick every half second, beat the heart, collect garbage between ticks."""
        collector = Collector()
        beat = time.monotonic()
        while True:
            await asyncio.sleep(0.5)
            try:
                await self.tick()
                if time.monotonic() - beat >= HEARTBEAT_EVERY and self.hub.outage is None:
                    beat = time.monotonic()
                    with contextlib.suppress(StorageDown):
                        await self.hub.commit(self.hub.heartbeat())
            except Exception:
                log.exception("the table clock failed")
            collector.tick(time.monotonic())

    async def tick(self) -> None:
        """Clocks, absences, bots-only matches and tables nobody uses: what happens with time
        alone. Nothing is tried while the database refuses writes."""
        if self.hub.outage is not None:
            return
        now = self.hub.now()
        for table in list(self.hub.tables.values()):
            room = table.room
            if not table.site.owned:
                await self.tick_replica(table, now)
                continue
            if room.status in ("over", "closed"):
                if not table.conns and now - table.idle_since >= EVICT_AFTER:
                    self.hub.forget(table)
                continue
            if not self.hub.audience(table) and now - table.idle_since >= self.lifetime(room):
                await self.abandon(table)
                continue
            if room.status != "playing":
                continue
            try:
                await self.tick_table(table, now)
            except StorageDown:
                return

    def lifetime(self, room: Room) -> float:
        """How long the table is kept with nobody connected."""
        if room.status == "open":
            return self.hub.limits.open_ttl
        return self.hub.limits.idle_ttl if room.humans() else self.hub.limits.watch_ttl

    async def tick_table(self, table: Table, now: float) -> None:
        room = table.room
        if room.config.match and room.match.needs_deal and not room.humans():
            waited = now - (room.hand_over_at or now)
            if self.hub.audience(table) and waited >= 3 * self.hub.bot_pace:
                async with table.lock:
                    if table.room.match.needs_deal:
                        await self.hub.change(table, lambda r, now: r.next_hand(None, now))
            return
        if any(s.away_bot and s.connected for s in room.seats):
            async with table.lock:
                await self.hand_back_present(table)
        absent = room.absent(now)
        if absent != table.told_absent:
            table.told_absent = absent
            await self.hub.broadcast.resend_all(table)
        self.hub.bots.schedule(table)

    async def hand_back_present(self, table: Table) -> None:
        """Give every seat a bot played while its player was away back to its player, now
        connected (with the table's lock held)."""
        for k, s in enumerate(table.room.seats):
            if s.away_bot and s.connected:
                await self.hub.change(table, partial(hand_back, k))

    async def tick_replica(self, table: Table, now: float) -> None:
        """A table another process decides: forgotten once nobody here has looked at it for a
        while; its sockets told when its player on turn is absent."""
        if not table.conns:
            if now - table.idle_since >= EVICT_AFTER:
                self.hub.forget(table)
            return
        absent = table.room.absent(now)
        if absent != table.told_absent:
            table.told_absent = absent
            await self.hub.broadcast.resend_all(table)

    async def abandon(self, table: Table) -> None:
        """Close a table nobody uses any more (kept in storage, gone from memory)."""
        async with table.lock:
            if self.hub.audience(table):
                return
            try:
                await self.hub.change(table, lambda r, now: r.close(now, ABANDONED))
            except (StorageDown, RoomError):
                return
        log.info("table %s closed: nobody came for a while", table.room.id)
        self.hub.forget(table)


__all__ = ["EVICT_AFTER", "HEARTBEAT_EVERY", "Clockwork"]
