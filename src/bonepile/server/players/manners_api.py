"""Challenges, blocks and reports over HTTP (signed-in players only)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from bonepile.server.players.accounts import Account
from bonepile.server.players.manners import Challenge, MannersError
from bonepile.server.players.web import Identity, Players, players_of
from bonepile.server.tables.catalogue import game_and_count
from bonepile.server.tables.room import RoomError


class NewChallenge(BaseModel):
    """``POST /api/challenges``: whom to challenge to which game."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64)
    game: str = Field(max_length=40)
    players: int | None = Field(default=None, ge=2, le=16)
    rated: bool = False


class Report(BaseModel):
    """``POST /api/players/{name}/report``: what happened (and the hand, if one)."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=4000)
    hand: str | None = Field(default=None, max_length=48)


async def _other(players: Players, name: str, who: Identity) -> Account:
    found = await asyncio.to_thread(players.accounts.named, name)
    if found is None:
        raise RoomError("unknown", "there is no player of that name")
    return found


def _shown(c: Challenge, names: dict[str, str], me: str) -> dict[str, Any]:
    return {
        "id": c.id,
        "from": names.get(c.from_id, "?"),
        "to": names.get(c.to_id, "?"),
        "mine": c.from_id == me,
        "game": c.game,
        "players": c.players,
        "rated": c.rated,
        "created": c.created,
        "status": c.status,
        "table": c.table_id,
    }


def add_manners_routes(app: FastAPI) -> None:
    """The challenge, block and report API (docs/server.md lists it)."""

    async def me(request: Request) -> tuple[Players, Identity, Account]:
        players = players_of(request)
        who = await players.signed_in(request)
        assert who.account is not None
        return players, who, who.account

    async def run(work: Any, *args: Any) -> Any:
        try:
            return await asyncio.to_thread(work, *args)
        except MannersError as e:
            raise RoomError(e.code, str(e)) from None

    @app.post("/api/challenges")
    async def challenge(body: NewChallenge, request: Request) -> dict[str, Any]:
        players, who, account = await me(request)
        other = await _other(players, body.name, who)
        game, count = game_and_count(body.game, body.players, least=2)
        made = await run(
            players.manners.challenge,
            account.id,
            other.id,
            game.name,
            count,
            body.rated,
            players.hub.now(),
        )
        return _shown(made, {account.id: account.name, other.id: other.name}, account.id)

    @app.get("/api/challenges")
    async def listed(request: Request) -> dict[str, Any]:
        players = players_of(request)
        who = await players.identify(request)
        if who.account is None:  # signed out (perhaps on another device): nothing to show
            return {"signed_in": False, "incoming": [], "outgoing": []}
        account = who.account
        found = await run(players.manners.challenges, account.id, players.hub.now())
        ids = sorted({c.from_id for c in found} | {c.to_id for c in found})
        names = {i: a.name for i, a in (await run(players.accounts.by_ids, ids)).items()}
        shown = [_shown(c, names, account.id) for c in found]
        return {
            "signed_in": True,
            "incoming": [c for c in shown if not c["mine"] and c["status"] == "open"],
            "outgoing": [c for c in shown if c["mine"]],
        }

    @app.post("/api/challenges/{challenge_id}/{answer}")
    async def answered(challenge_id: str, answer: str, request: Request) -> dict[str, Any]:
        players, _, account = await me(request)
        status = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}.get(answer)
        if status is None:
            raise RoomError("unknown", "a challenge is accepted, declined or cancelled")
        c = await run(players.manners.answer, challenge_id, account.id, status, players.hub.now())
        names = {account.id: account.name}
        if status != "accepted":
            return _shown(c, names, account.id)
        challenger = (await run(players.accounts.by_ids, [c.from_id])).get(c.from_id)
        if challenger is None:
            raise RoomError("unknown", "the player who challenged you is gone")
        people = [(challenger.owner, challenger.name, True), (account.owner, account.name, True)]
        table_id = await players.seat(c.game, c.players, people, c.rated)
        await run(players.manners.seated, c.id, table_id)
        names[challenger.id] = challenger.name
        return {**_shown(c, names, account.id), "table": table_id}

    @app.post("/api/players/{name}/block")
    async def block(name: str, request: Request) -> dict[str, Any]:
        players, who, account = await me(request)
        other = await _other(players, name, who)
        await run(players.manners.block, account.id, other.id, players.hub.now())
        return {"name": other.name, "blocked": True}

    @app.post("/api/players/{name}/unblock")
    async def unblock(name: str, request: Request) -> dict[str, Any]:
        players, who, account = await me(request)
        other = await _other(players, name, who)
        await run(players.manners.unblock, account.id, other.id)
        return {"name": other.name, "blocked": False}

    @app.get("/api/account/blocks")
    async def blocks(request: Request) -> dict[str, Any]:
        players, _, account = await me(request)
        ids = await run(players.manners.blocks, account.id)
        named = await run(players.accounts.by_ids, ids)
        return {"blocked": sorted(a.name for a in named.values())}

    @app.post("/api/players/{name}/report")
    async def report(name: str, body: Report, request: Request) -> dict[str, Any]:
        players, who, account = await me(request)
        other = await _other(players, name, who)
        if other.id == account.id:
            raise RoomError("yourself", "you cannot report yourself")
        if (
            body.hand is not None
            and await asyncio.to_thread(players.hub.store.game, body.hand) is None
        ):
            raise RoomError("unknown", "there is no such hand")
        await run(
            players.manners.report,
            (account.id, account.name),
            (other.id, other.name),
            body.hand,
            body.text,
            players.hub.now(),
        )
        return {"reported": other.name}


__all__ = ["NewChallenge", "Report", "add_manners_routes"]
