"""What the server does beside its tables: places for analyses, finished hands for replays.

Both are asked for by anyone with a browser, so both are bounded: an analysis takes a place
(:class:`AnalysisPlaces`) before any work is done for it, and finished hands, which never
change, are read once and kept for the next asker (:class:`FinishedHands`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable

from bonepile.record import dump_record
from bonepile.server.limits import Limits, RateLimiter, ServerBusy, TooMany, wait_text
from bonepile.server.storage.store import StorageDown, Store, StoredGame
from bonepile.server.tables.room import Room, RoomError

KEPT_GAMES = 128
"""Finished hands kept in memory for replays and analyses."""


class AnalysisPlaces:
    """At most ``analyses_per_client`` analyses at once for each client (a browser, an
    address), ``analyses_per_minute`` a minute each, ``max_background`` on the server."""

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.now = clock
        self._running: dict[str, int] = {}
        self._rate = RateLimiter(limits.analyses_per_minute, 60.0)
        self._taken = 0

    @contextlib.asynccontextmanager
    async def place(self, *clients: str) -> AsyncIterator[None]:
        """Hold a place for one analysis asked for by ``clients`` (empty ones ignored), or
        raise :class:`TooMany` / :class:`ServerBusy` at once."""
        keys = [c for c in clients if c]
        if any(self._running.get(k, 0) >= self.limits.analyses_per_client for k in keys):
            raise TooMany("one analysis at a time: wait for the one you asked for", 2.0)
        if self._taken >= self.limits.max_background:
            raise ServerBusy("the server is busy analysing: try again in a moment")
        now = self.now()
        for k in keys:
            wait = self._rate.check(k, now)
            if wait is not None:
                raise TooMany(f"many analyses lately: try again in {wait_text(wait)}", wait)
        for k in keys:
            self._rate.hit(k, now)
            self._running[k] = self._running.get(k, 0) + 1
        self._taken += 1
        try:
            yield
        finally:
            self._taken -= 1
            for k in keys:
                left = self._running[k] - 1
                if left:
                    self._running[k] = left
                else:
                    del self._running[k]


class FinishedHands:
    """Finished hands by id, read from ``store`` and the last :data:`KEPT_GAMES` kept."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: OrderedDict[str, StoredGame] = OrderedDict()

    async def get(self, game_id: str) -> StoredGame:
        """The hand ``game_id``; :class:`RoomError` ``unknown`` if there is none,
        :class:`StorageDown` if the database cannot be read."""
        got = self._kept.get(game_id)
        if got is not None:
            self._kept.move_to_end(game_id)
            return got
        try:
            got = await asyncio.to_thread(self.store.game, game_id[:64])
        except Exception:
            raise StorageDown("the server cannot read its games now: try again soon") from None
        if got is None:
            raise RoomError("unknown", "there is no such game")
        self._kept[game_id] = got
        if len(self._kept) > KEPT_GAMES:
            self._kept.popitem(last=False)
        return got


def finished_games(room: Room, stored: int, now: float) -> list[StoredGame]:
    """The hands of ``room`` finished since the first ``stored`` ones, as replays to keep."""
    games = []
    for index in range(stored, finished_hands(room)):
        hand = room.match.hands[index]
        names = [s.name for s in room.seats]
        headers = {"table": room.id, "hand": str(index + 1), "players": ", ".join(names)}
        result = hand.result
        games.append(
            StoredGame(
                id=f"{room.id}-{index + 1}",
                table_id=room.id,
                hand=index + 1,
                game=room.config.game,
                players=room.config.players,
                names=names,
                finished=now,
                summary={
                    "result": None if result is None else result.to_json(),
                    "scores_after": list(hand.scores),
                },
                record=dump_record(hand, headers),
                # a seat its player left is still theirs in their history
                owners=tuple(s.owner if s.kind == "human" else s.left_owner for s in room.seats),
            )
        )
    return games


def finished_hands(room: Room) -> int:
    """How many hands of ``room``'s match are finished."""
    return sum(1 for h in room.match.hands if h.is_over)


__all__ = ["KEPT_GAMES", "AnalysisPlaces", "FinishedHands", "finished_games", "finished_hands"]
