"""The lobby: one line per table with free seats or in play, and the sockets that watch it.

Each table's line is made when that table changes (:meth:`Lobby.relist`), and the list once
per change of any, so a request for the lobby costs the same however many tables were ever
stored; its watchers get the new list at most every :data:`LOBBY_EVERY` seconds.

A table nobody is at (no person of its seats connected, nobody watching) is marked ``idle``
in its line; one idle for :data:`IDLE_AFTER` seconds leaves the list (it is not "playing" any
more: its people went away, or it is bots nobody watches) until somebody comes back to it.
Tables that end or close leave it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import time
from collections.abc import Awaitable, Callable
from typing import Any

LOBBY_EVERY = 0.5
"""Seconds between two lobby lists sent to its watchers (one list for many changes)."""
LOBBY_SIZE = 200
"""Tables the lobby lists at most."""
IDLE_AFTER = 300.0
"""Seconds a table may have nobody at it (no person of its seats connected, nobody watching)
before it leaves the lobby's list."""

Send = Callable[[dict[str, Any]], Awaitable[None]]


def deserted(line: dict[str, Any]) -> bool:
    """Whether nobody is at the table of ``line``: no person of its seats is connected and
    nobody watches."""
    people = any(s.get("kind") == "human" and s.get("present") for s in line.get("seats", ()))
    return not people and not line.get("watchers")


class Lobby:
    """The tables people can join or watch, open ones first, newest first. ``clock`` gives the
    time in seconds (tests change it)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.watchers: set[Send] = set()
        self.clock = clock
        self._lines: dict[str, dict[str, Any]] = {}
        self._idle: dict[str, float] = {}
        """Since when nobody is at each table that has nobody."""
        self._list: list[dict[str, Any]] | None = None
        self._expires = float("inf")
        """When the list must be made again: an idle table's time in it runs out."""
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def tables(self) -> list[dict[str, Any]]:
        """At most :data:`LOBBY_SIZE` tables' lines (each has ``status`` and ``created``, and
        ``idle`` when nobody is at the table), without those nobody has been at for
        :data:`IDLE_AFTER` seconds."""
        now = self.clock()
        if self._list is None or now >= self._expires:
            self._expires = float("inf")
            shown = []
            for table_id, line in self._lines.items():
                since = self._idle.get(table_id)
                if since is None:
                    shown.append(line)
                    continue
                ends = since + IDLE_AFTER
                if now >= ends:
                    continue
                self._expires = min(self._expires, ends)
                shown.append({**line, "idle": True})
            self._list = heapq.nsmallest(
                LOBBY_SIZE, shown, key=lambda t: (t["status"] != "open", -t["created"])
            )
        return self._list

    def relist(self, table_id: str, line: dict[str, Any] | None) -> None:
        """The table's new line (``None``: it leaves the lobby); the watchers hear of it."""
        self._list = None
        if line is None:
            self._lines.pop(table_id, None)
            self._idle.pop(table_id, None)
        else:
            self._lines[table_id] = line
            if not deserted(line):
                self._idle.pop(table_id, None)
            elif table_id not in self._idle:
                self._idle[table_id] = self.clock()
                if self._timer is None:  # (a timer set already ends no later than this one)
                    self._expire_later()
        self._changed()

    def _changed(self) -> None:
        """The watchers get the new list once the changes of the next :data:`LOBBY_EVERY`
        seconds are in (built off every table's lock: a slow watcher never holds up a game)."""
        if not self.watchers or (self._task and not self._task.done()):
            return
        self._task = asyncio.create_task(self._send())

    def _expire_later(self) -> None:
        """Tell the watchers again when the next idle table leaves the list (one timer at a
        time: set when a table falls idle with none pending, and again as each one fires; a
        table that is no longer idle only makes its timer fire for nothing)."""
        now = self.clock()
        ends = [since + IDLE_AFTER for since in self._idle.values()]
        due = min((end for end in ends if end > now), default=None)
        if due is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a test's lobby): the list is made when asked
            return
        self._timer = loop.call_later(due - now + 0.05, self._expired)

    def _expired(self) -> None:
        self._timer = None
        self._list = None
        self._expire_later()
        self._changed()

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
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


__all__ = ["IDLE_AFTER", "LOBBY_EVERY", "LOBBY_SIZE", "Lobby", "deserted"]
