"""Quick pairing over HTTP: join a pool, ask until seated (each ask also runs a pairing pass
over the pool), leave it, or after a wait fill the other seats with bots; and how many wait
and play, for the front page.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from bonepile.games import get_game
from bonepile.server.players.pairing import BOTS_AFTER, Pairing, Pool, Seeker
from bonepile.server.players.scale import START
from bonepile.server.players.web import Identity, Players, SignedOut, players_of
from bonepile.server.tables.catalogue import default_bot, game_and_count
from bonepile.server.tables.live import new_table_id
from bonepile.server.tables.room import RoomError

log = logging.getLogger("bonepile.server")


class Seek(BaseModel):
    """``POST /api/pairing``: the pool to wait in (``players``: the game's usual count if
    left out), and the name to sit under when not signed in."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    players: int | None = Field(default=None, ge=1, le=16)
    rated: bool = False
    name: str = Field(default="", max_length=40)


def _pool(body: Seek) -> Pool:
    game, players = game_and_count(body.game, body.players)
    return Pool(game.name, players, body.rated)


def _waiting(seeker: Seeker, now: float) -> dict[str, Any]:
    span = seeker.range(now)
    return {
        "id": seeker.id,
        "status": "waiting",
        "game": seeker.pool.game,
        "players": seeker.pool.players,
        "rated": seeker.pool.rated,
        "waited": round(seeker.waited(now), 1),
        "range": None if span is None else round(span),
        "bots_after": BOTS_AFTER,
        "can_fill": seeker.waited(now) >= BOTS_AFTER,
    }


async def _seat(players: Players, table_id: str, seated: list[Seeker]) -> None:
    """Make the table ``table_id`` a pairing pass gave ``seated`` (back to the pool if it
    cannot be made)."""
    pool = seated[0].pool
    people = [(s.owner, s.name, s.account_id is not None) for s in seated]
    try:
        await players.seat(pool.game, pool.players, people, pool.rated, table_id)
    except Exception:
        log.exception("a paired table could not be made: its players wait again")
        await asyncio.to_thread(players.pairing.release, table_id)


async def pair_now(players: Players, pool: Pool) -> None:
    """One pairing pass over ``pool``, and the tables it gives."""
    made = await asyncio.to_thread(players.pairing.pair, pool, players.hub.now(), new_table_id)
    for table_id, seated in made:
        await _seat(players, table_id, seated)


def _name(who: Identity, typed: str) -> str:
    if who.account is not None:
        return who.account.name
    return typed.strip()[:24] or "Player"


def add_pairing_routes(app: FastAPI) -> None:
    """The quick pairing API (docs/server.md lists it)."""

    def pairing(request: Request) -> Pairing:
        return players_of(request).pairing

    @app.post("/api/pairing")
    async def seek(body: Seek, request: Request) -> dict[str, Any]:
        players = players_of(request)
        pool = _pool(body)
        who = await players.identify(request)
        if pool.rated and who.account is None:
            raise SignedOut("sign in to be paired for rated play")
        rating = None
        if pool.rated and who.account is not None:
            standings = await asyncio.to_thread(players.ratings.standings, who.account.id)
            rating = next(
                (s.mu for s in standings if (s.game, s.players) == (pool.game, pool.players)),
                START,
            )
        now = players.hub.now()
        account_id = None if who.account is None else who.account.id
        seeker = await asyncio.to_thread(
            pairing(request).seek, pool, who.owner, account_id, _name(who, body.name), rating, now
        )
        await pair_now(players, pool)
        return await _status(players, seeker.id, who.owner)

    async def _status(players: Players, seek_id: str, owner: str) -> dict[str, Any]:
        now = players.hub.now()
        seeker = await asyncio.to_thread(players.pairing.look, seek_id, owner, now, False)
        if seeker is None:
            raise RoomError("unknown", "you are not waiting in a pool: join one again")
        if seeker.table_id is not None:
            try:
                await players.hub.load(seeker.table_id)
            except RoomError:
                return {"id": seek_id, "status": "making"}  # made by another process
            await asyncio.to_thread(players.pairing.leave, seek_id, owner)
            return {"id": seek_id, "status": "seated", "table": seeker.table_id}
        return _waiting(seeker, now)

    @app.get("/api/pairing/{seek_id}")
    async def waiting(seek_id: str, request: Request) -> dict[str, Any]:
        players = players_of(request)
        who = await players.identify(request)
        seeker = await asyncio.to_thread(
            players.pairing.look, seek_id, who.owner, players.hub.now()
        )
        if seeker is not None and seeker.table_id is None:
            await pair_now(players, seeker.pool)
        return await _status(players, seek_id, who.owner)

    @app.post("/api/pairing/{seek_id}/leave")
    async def leave(seek_id: str, request: Request) -> dict[str, Any]:
        who = await players_of(request).identify(request)
        await asyncio.to_thread(pairing(request).leave, seek_id, who.owner)
        return {"id": seek_id, "status": "left"}

    @app.post("/api/pairing/{seek_id}/bots")
    async def with_bots(seek_id: str, request: Request) -> dict[str, Any]:
        players = players_of(request)
        who = await players.identify(request)
        now = players.hub.now()
        seeker = await asyncio.to_thread(players.pairing.look, seek_id, who.owner, now)
        if seeker is None or seeker.table_id is not None:
            raise RoomError("unknown", "you are not waiting in a pool")
        if seeker.waited(now) < BOTS_AFTER:
            raise RoomError("wait", f"bots may fill the seats after {BOTS_AFTER:g} seconds")
        await asyncio.to_thread(players.pairing.leave, seek_id, who.owner)
        game = get_game(seeker.pool.game)
        bot = default_bot(game)
        table_id, _, _ = await players.hub.create(
            game.name,
            ["me"] + [bot] * (seeker.pool.players - 1),
            {},
            False,
            None,
            who.owner,
            seeker.name,
            paired=True,
            account=who.account is not None,
        )
        return {"id": seek_id, "status": "seated", "table": table_id}

    @app.get("/api/pairing")
    async def pools(request: Request) -> dict[str, Any]:
        players = players_of(request)
        waiting = await asyncio.to_thread(pairing(request).waiting, players.hub.now())
        playing: dict[str, int] = {}
        for line in players.hub.lobby.tables():
            if line.get("status") == "playing" and not line.get("idle"):  # people at it
                playing[line["game"]] = playing.get(line["game"], 0) + 1
        return {
            "pools": [
                {
                    "game": key.split("/")[0],
                    "players": int(key.split("/")[1]),
                    "rated": key.endswith("/rated"),
                    "waiting": n,
                }
                for key, n in sorted(waiting.items())
            ],
            "playing": playing,
        }


__all__ = ["Seek", "add_pairing_routes", "pair_now"]
