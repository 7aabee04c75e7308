"""A table as the hub holds it in memory: its room, lock and connections (:class:`Table`,
:class:`Connection`), and the small helpers the hub and the site share."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bonepile.errors import BonepileError
from bonepile.geometry import scene
from bonepile.server.limits import TokenBucket
from bonepile.server.site.ownership import SiteTable
from bonepile.server.tables.lobby import Send
from bonepile.server.tables.patch import diff
from bonepile.server.tables.room import Room
from bonepile.view import view

log = logging.getLogger("bonepile.server")

T = TypeVar("T")


@dataclass(eq=False)
class Connection:
    """One client socket at a table: its seat (``None``: watching) and how to send to it."""

    send: Send
    seat: int | None
    width: int = 40
    height: int | None = None
    key: str = field(default_factory=lambda: secrets.token_hex(8))
    patches: bool = False
    """Whether the client takes each state after the first as a patch on the one before."""
    token: str | None = None
    """The hash of the seat token it sat down with: when the seat's token changes (a claim on
    another device), the connection is made a spectator at once."""
    bucket: TokenBucket | None = None
    """Its message rate (see :class:`~bonepile.server.limits.Limits`)."""
    last: dict[str, Any] | None = None
    """The last state sent (with ``patches``)."""
    seq: int = 0
    """How many states were sent: a patch names the one it applies to (``base``)."""
    account: str | None = None
    """The account name of the browser, when it is signed in (its chat goes under it)."""

    def message(self, snap: dict[str, Any], shared: Shared | None = None) -> dict[str, Any]:
        """What to send for the state ``snap``: the state, or a patch on the last one sent.
        With ``shared``, connections that were sent the same state share its patch."""
        self.seq += 1
        last, self.last = self.last, (snap if self.patches else None)
        if last is None:
            return {"type": "state", "seq": self.seq, **snap}
        ops = diff(last, snap) if shared is None else shared.patch(last, snap)
        return {"type": "patch", "v": snap["v"], "seq": self.seq, "base": self.seq - 1, "ops": ops}


@dataclass
class Shared:
    """What the spectators of one broadcast share: their state by screen size, and the
    patches made, by the two state objects each joins (see :meth:`Connection.message`)."""

    snaps: dict[tuple[int, int | None], dict[str, Any]] = field(default_factory=dict)
    patches: dict[tuple[int, int], tuple[Any, Any, list[Any]]] = field(default_factory=dict)

    def patch(self, old: dict[str, Any], new: dict[str, Any]) -> list[Any]:
        """``diff(old, new)``, made once for the broadcast (the states are kept with it, so
        that no id names another object while it lasts)."""
        key = (id(old), id(new))
        got = self.patches.get(key)
        if got is None:
            got = self.patches[key] = (old, new, diff(old, new))
        return got[2]


@dataclass
class Table:
    """A room with its lock, its connections and its running bot move."""

    room: Room
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    thinking: asyncio.Task[None] | None = None
    stored_hands: int = 0
    last_move: float = 0.0
    told_absent: int | None = None
    stored_status: str = ""
    idle_since: float = field(default_factory=time.time)
    """Since when nobody has been connected (while someone is, the time they came)."""
    suspect: bool = False
    """A write of this table failed: its stored journal may be ahead of memory (a commit whose
    answer was lost), so it is read back before its next change."""
    creator: str = ""
    created: float = 0.0
    """When the table was made (the lobby's order; never a time that moves with play)."""
    scenes: dict[tuple[int, int, int | None], dict[str, Any]] = field(default_factory=dict)
    site: SiteTable = field(default_factory=SiteTable)
    """Whether this process decides the table (always, for a server alone on its database)."""
    presence_due: bool = False
    """A watcher came or went and the others have not been sent the new count yet (it goes
    out with the next state, or on its own within
    :data:`~bonepile.server.tables.broadcast.PRESENCE_EVERY`)."""

    def scene(self, width: int, height: int | None = None) -> dict[str, Any]:
        """The table's scene for a screen ``width`` by ``height``, worked out once per version
        and size (every connection of that size gets the same one)."""
        key = (self.room.version, width, height)
        got = self.scenes.get(key)
        if got is None:
            if len(self.scenes) > 8 or any(k[0] != key[0] for k in self.scenes):
                self.scenes.clear()
            got = self.scenes[key] = scene_of(self.room, width, height)
        return got


@dataclass
class Outage:
    """The database has refused writes since ``since``."""

    since: float
    reason: str


async def unbroken(work: Awaitable[T]) -> T:
    """Await ``work`` in a task of its own that a cancelled caller does not cancel: a table's
    change, once begun, is stored and sent to the end. What it raises when nobody waits any
    more is logged."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_log_failure)
        raise


def _log_failure(task: asyncio.Future[Any]) -> None:
    if task.cancelled() or task.exception() is None:
        return
    if isinstance(task.exception(), BonepileError):
        return  # refused (a stale move, a storage outage): nothing was changed
    log.error("a table change failed after its caller left", exc_info=task.exception())


def hand_back(seat: int, room: Room, now: float) -> bool:
    return room.hand_back(seat, now)


def retired_message(version: int, left: bool = False) -> dict[str, Any]:
    """What a connection whose seat token was retired is told (``left``: its player left the
    table, here or on another device)."""
    message = (
        "you left the table: you are watching"
        if left
        else "your seat was taken back with its claim code on another device: you are watching"
    )
    return {"type": "error", "id": None, "code": "token", "message": message, "v": version}


async def quietly(work: Awaitable[None]) -> None:
    with contextlib.suppress(Exception):
        await work


def new_table_id() -> str:
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


def scene_of(room: Room, width: int, height: int | None) -> dict[str, Any]:
    """Where every tile of the table goes, for a screen ``width`` by ``height`` tile halves."""
    return scene(view(room.state, None).layout, width=width, height=height).to_json()


__all__ = [
    "Connection",
    "Outage",
    "Shared",
    "Table",
    "hand_back",
    "new_table_id",
    "quietly",
    "retired_message",
    "scene_of",
    "unbroken",
]
