"""The lobby: one line per table with free seats or in play, and the sockets that watch it.

Each table's line is made when that table changes (:meth:`Lobby.relist`), and the list once
per change of any, so a request for the lobby costs the same however many tables were ever
stored; its watchers get the new list at most every :data:`LOBBY_EVERY` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
from collections.abc import Awaitable, Callable
from typing import Any

LOBBY_EVERY = 0.5
"""Seconds between two lobby lists sent to its watchers (one list for many changes)."""
LOBBY_SIZE = 200
"""Tables the lobby lists at most."""

Send = Callable[[dict[str, Any]], Awaitable[None]]


class Lobby:
    """The tables people can join or watch, open ones first, newest first."""

    def __init__(self) -> None:
        self.watchers: set[Send] = set()
        self._lines: dict[str, dict[str, Any]] = {}
        self._list: list[dict[str, Any]] | None = None
        self._task: asyncio.Task[None] | None = None

    def tables(self) -> list[dict[str, Any]]:
        """At most :data:`LOBBY_SIZE` tables' lines (each has ``status`` and ``created``)."""
        if self._list is None:
            self._list = heapq.nsmallest(
                LOBBY_SIZE,
                self._lines.values(),
                key=lambda t: (t["status"] != "open", -t["created"]),
            )
        return self._list

    def relist(self, table_id: str, line: dict[str, Any] | None) -> None:
        """The table's new line (``None``: it leaves the lobby); the watchers hear of it."""
        self._list = None
        if line is None:
            self._lines.pop(table_id, None)
        else:
            self._lines[table_id] = line
        self._changed()

    def _changed(self) -> None:
        """The watchers get the new list once the changes of the next :data:`LOBBY_EVERY`
        seconds are in (built off every table's lock: a slow watcher never holds up a game)."""
        if not self.watchers or (self._task and not self._task.done()):
            return
        self._task = asyncio.create_task(self._send())

    async def _send(self) -> None:
        await asyncio.sleep(LOBBY_EVERY)
        message = {"type": "lobby", "tables": self.tables()}  # built once for every watcher
        watchers = list(self.watchers)
        sent = await asyncio.gather(*(send(message) for send in watchers), return_exceptions=True)
        for send, outcome in zip(watchers, sent, strict=True):
            if isinstance(outcome, BaseException):
                self.watchers.discard(send)

    async def stop(self) -> None:
        """Send nothing more."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


__all__ = ["LOBBY_EVERY", "LOBBY_SIZE", "Lobby"]
