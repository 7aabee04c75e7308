"""What a hub's tables show their connections: each connection its own state after every
stored change (the spectators' made once per screen size and shared), the crowd's coming and
going batched, and a seat retired by a claim on another device told why."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bonepile.server.tables.live import Connection, Shared, Table, quietly, retired_message

if TYPE_CHECKING:
    from bonepile.server.tables.hub import Hub

PRESENCE_EVERY = 1.0
"""Seconds within which a table's people learn that a spectator came or went: the news of a
crowd arriving goes out once, not once a spectator to every socket (work quadratic in the
crowd). A seated player's coming and going is shown at once."""


class Broadcast:
    """Sends ``hub``'s tables to their connections."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def demote_retired(self, table: Table) -> bool:
        """Connections whose seat token was retired (a claim on another device) watch from
        now on, and are told why (before their next state); whether there were any."""
        room = table.room
        demoted = False
        for conn in list(table.conns):
            if conn.seat is None or room.seats[conn.seat].token == conn.token:
                continue
            demoted = True
            seat, conn.seat, conn.token = conn.seat, None, None
            room.disconnected(seat, self.hub.now())
            conn.last = None  # its next state comes whole
            left = room.seats[seat].token is None  # its player left the table
            await quietly(conn.send(retired_message(room.version, left)))
        return demoted

    async def send_all(self, table: Table) -> None:
        """Send everyone at the table its state: the players first, then the spectators, who
        all see the same thing. Their state is made once per screen size, and a patch once
        per state it follows (spectators who were sent the same state get the same patch), so
        a crowd costs a send a spectator, not a snapshot and a diff."""
        if table.presence_due:  # the count goes out with this state, and to the lobby
            table.presence_due = False
            self.hub.relist(table)
        conns = sorted(table.conns, key=lambda c: c.seat is None)
        shared = Shared()
        for conn in conns:
            await self.send(table, conn, shared)

    def presence_soon(self, table: Table) -> None:
        """Send everyone at the table the watcher count (and relist it) within
        :data:`PRESENCE_EVERY` seconds, once for all the spectators who came or went
        meanwhile; a state sent before then carries it already."""
        if table.presence_due:
            return
        table.presence_due = True

        async def tell() -> None:
            await asyncio.sleep(PRESENCE_EVERY)
            async with table.lock:
                if not table.presence_due or self.hub.tables.get(table.room.id) is not table:
                    return
                await self.send_all(table)

        self.hub.spawn(tell())

    async def resend_all(self, table: Table) -> None:
        """:meth:`send_all`, taking the table's lock."""
        async with table.lock:
            await self.send_all(table)

    async def send(self, table: Table, conn: Connection, shared: Shared | None = None) -> None:
        """Send ``conn`` its state (``shared``: what spectators of one broadcast share)."""
        size = (conn.width, conn.height)
        snap = None if shared is None or conn.seat is not None else shared.snaps.get(size)
        if snap is None:
            snap = table.room.snapshot(conn.seat, self.hub.now())
            snap["scene"] = table.scene(conn.width, conn.height)
            snap["notice"] = self.hub.notice()
            snap["watchers"] = self.hub.watchers(table)
            if shared is not None and conn.seat is None:
                shared.snaps[size] = snap
        try:
            await conn.send(conn.message(snap, shared))
        except Exception:  # a socket that died: its reader will clean up
            table.conns.discard(conn)


__all__ = ["PRESENCE_EVERY", "Broadcast"]
