"""The hub's part in a site of several processes (:mod:`bonepile.server.site.site`): taking a
table over, following a table another process owns (a replica), and counting who is at a table
on every process. The hub's collaborator (``hub.replicas``); a server alone never calls it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from bonepile.errors import BonepileError
from bonepile.server.site.ownership import TAKEOVER_PAUSE, SiteTable
from bonepile.server.storage.store import StorageDown
from bonepile.server.tables.background import finished_hands
from bonepile.server.tables.live import Table
from bonepile.server.tables.room import RoomError, TableConfig, restore

if TYPE_CHECKING:
    from bonepile.server.tables.hub import Hub

log = logging.getLogger("bonepile.server")


class Replicas:
    """What the hub ``hub`` does as one process of a site."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def adopt(self, table_id: str, epoch: int) -> Table:
        """This process has just claimed the table at ``epoch`` (its owner was gone): read
        it back whole, decide it from now on, give a clock the time nobody could move, and
        tell the site."""
        site = self.hub.site
        assert site is not None
        stored = await asyncio.to_thread(self.hub.store.table, table_id)
        if stored is None:
            raise RoomError("unknown", "there is no such table")
        room = restore(
            table_id, TableConfig.from_json(stored.config), stored.entries, self.hub.token_key
        )
        table = self.hub.tables.get(table_id)
        if table is None:
            table = Table(room, idle_since=self.hub.now())
            self.hub.tables[table_id] = table
        async with table.lock:
            now = self.hub.now()
            table.room = room
            table.stored_hands = finished_hands(room)
            table.stored_status, table.created = stored.status, stored.created
            table.suspect = False
            table.site = SiteTable(owned=True, epoch=epoch, owner=site.me)
            table.site.counted = [0] * len(room.seats)
            for conn in table.conns:
                if conn.seat is not None:
                    room.connected(conn.seat, now)
            await site.unfollow(table_id)
            await site.announce(table)
            if room.status == "playing" and room.config.clock is not None:
                with contextlib.suppress(StorageDown, RoomError):
                    await self.hub.change(table, lambda r, now: r.pause(TAKEOVER_PAUSE, now))
            await self.hub.broadcast.send_all(table)
            self.hub.relist(table)
            self.hub.bots.schedule(table)
        return table

    async def catch_up(self, table: Table) -> None:
        """A replica reads what its owner stored since its version (after a gap in what it
        heard, or a change of owner) and shows it."""
        await self._follow(table, None)

    async def follow_entries(self, table: Table, message: dict[str, Any]) -> None:
        """A replica hears entries its owner stored (in the order they were published: each
        message's task waits for the table's lock first, and the lock is fair)."""
        raw = message.get("entries")
        if isinstance(raw, list):
            await self._follow(table, [(int(v), e) for v, e in raw if isinstance(e, dict)])
        else:  # entries with a secret: read from the database
            await self._follow(table, None)

    async def _follow(self, table: Table, entries: list[tuple[int, dict[str, Any]]] | None) -> None:
        """Apply ``entries`` to a replica; those it missed (a gap, or ``None``: any) are read
        back from the database first."""
        async with table.lock:
            room = table.room
            if table.site.owned or (entries and entries[-1][0] <= room.version):
                return  # heard already (or published late by an owner that lost the table)
            if not entries or entries[0][0] > room.version + 1:
                try:
                    entries = await asyncio.to_thread(
                        self.hub.store.entries_since, room.id, room.version
                    )
                except Exception:
                    log.warning("table %s could not be read back", room.id)
                    return
            try:
                applied = room.extend(entries)
            except ValueError:
                log.warning("table %s: a gap in its entries", room.id)
                return
            if not applied:
                return
            table.stored_hands = finished_hands(room)
            table.stored_status = room.status
            demoted = await self.hub.broadcast.demote_retired(table)
            await self.hub.broadcast.send_all(table)
        if demoted and self.hub.site is not None:
            await self.hub.site.here(table)

    async def follow_presence(self, table: Table, message: dict[str, Any]) -> None:
        """A replica hears who is at the table on the whole site (its owner's count)."""
        seats, watchers = message.get("seats"), message.get("watchers")
        if not isinstance(seats, list) or len(seats) != len(table.room.seats):
            return
        async with table.lock:
            for s, (count, gone) in zip(table.room.seats, seats, strict=True):
                s.connected = int(count)
                s.gone_since = None if gone is None else float(gone)
            table.site.watchers = int(watchers) if isinstance(watchers, int) else 0
            await self.hub.broadcast.send_all(table)

    async def presence_changed(self, table: Table) -> None:
        """On the owner: count the other processes' sockets into the room (their ``here``),
        then hand a seat back to its returning player and tell everyone."""
        async with table.lock:
            if not table.site.owned:
                return
            room, now = table.room, self.hub.now()
            counted = table.site.counted or [0] * len(room.seats)
            total = [
                sum(r.seats[k] for r in table.site.remote.values()) for k in range(len(room.seats))
            ]
            for k, (was, new) in enumerate(zip(counted, total, strict=True)):
                for _ in range(new - was):
                    room.connected(k, now)
                for _ in range(was - new):
                    room.disconnected(k, now)
            table.site.counted = total
            if self.hub.audience(table):
                table.idle_since = now
            with contextlib.suppress(StorageDown, RoomError):  # the clock task tries again
                await self.hub.clockwork.hand_back_present(table)
            await self.hub.broadcast.send_all(table)
            self.hub.relist(table)
            self.hub.bots.schedule(table)
        await self.shared_presence(table)

    async def shared_presence(self, table: Table) -> None:
        """In a site: the owner publishes who is at the table; a replica tells the owner what
        it has."""
        site = self.hub.site
        if site is None:
            return
        try:
            if table.site.owned:
                seats = [[s.connected, s.gone_since] for s in table.room.seats]
                await site.presence(table, seats, self.hub.watchers(table))
            else:
                await site.here(table)
        except BonepileError as e:
            log.warning("table %s: presence not shared: %s", table.room.id, e)

    async def replica(self, table: Table) -> None:
        """In a site: the table just read follows its owner (or is taken over, if its owner is
        gone). It hears the table's channel from now on, then reads what was stored
        meanwhile, so that no entry falls between the read and the subscription."""
        site = self.hub.site
        assert site is not None
        table.site = SiteTable(owned=False)
        await site.follow(table)
        owner, _, live = await site.owner_of(table.room.id)
        if (not live or owner is None) and await site.take_over(table.room.id):
            return
        table.site.owner = owner if live else None
        await self.catch_up(table)


__all__ = ["Replicas"]
