"""Leaderboards and players' pages over HTTP: the established ratings of a game, a player's
ratings, their rating history, and the finished hands they played (unless they hide them).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict

from bonepile.games import all_games, get_game
from bonepile.server.players.accounts import Account
from bonepile.server.players.web import players_of
from bonepile.server.room import RoomError

HANDS_PAGE = 50
"""Finished hands on one page of a player's list."""


class HistoryChoice(BaseModel):
    """``POST /api/account/privacy``: whether others may see your finished hands."""

    model_config = ConfigDict(extra="forbid")
    hide_history: bool


def _game(name: str) -> str:
    if name not in {g.name for g in all_games()}:
        raise RoomError("unknown", f"there is no game {name!r}")
    return name


def _players(game: str, players: int | None) -> int:
    g = get_game(game)
    low, high = g.player_range(g.make_options({}))
    if players is None:
        return low
    if not low <= players <= high:
        raise RoomError("players", f"{get_game(game).title} is played by {low} to {high}")
    return players


def add_board_routes(app: FastAPI) -> None:
    """The leaderboards and players' pages (docs/server.md lists them)."""

    async def account_named(request: Request, name: str) -> Account:
        found = await asyncio.to_thread(players_of(request).accounts.named, name)
        if found is None or found.name.lower() != name.lower():
            raise RoomError("unknown", "there is no player of that name")
        return found

    @app.get("/api/leaderboard/{game}")
    async def leaderboard(request: Request, game: str, players: int | None = None) -> Any:
        game = _game(game)
        count = _players(game, players)
        rows = await asyncio.to_thread(players_of(request).ratings.leaderboard, game, count)
        return {
            "game": game,
            "players": count,
            "rows": [{"name": name, **s.to_json()} for name, s in rows],
        }

    @app.get("/api/players/{name}")
    async def player(
        request: Request, name: str, game: str | None = None, before: float | None = None
    ) -> Any:
        players = players_of(request)
        game = None if game is None else _game(game)
        account = await account_named(request, name)
        who = await players.identify(request)
        itself = who.account is not None and who.account.id == account.id
        hidden = await asyncio.to_thread(players.accounts.hides_history, account.id)
        standings = await asyncio.to_thread(players.ratings.standings, account.id)
        hands: list[dict[str, Any]] | None = None
        if itself or not hidden:
            rows = await asyncio.to_thread(
                players.hub.store.games, HANDS_PAGE, before, None, account.owner, game
            )
            hands = [
                {
                    "id": g.id,
                    "table": g.table_id,
                    "hand": g.hand,
                    "game": g.game,
                    "names": g.names,
                    "finished": g.finished,
                    "summary": g.summary,
                }
                for g in rows
            ]
        return {
            "name": account.name,
            "created": account.created,
            "you": itself,
            "hide_history": hidden,
            "ratings": [s.to_json() for s in standings],
            "hands": hands,
        }

    @app.get("/api/players/{name}/ratings/{game}")
    async def rating_history(
        request: Request, name: str, game: str, players: int | None = None
    ) -> Any:
        game = _game(game)
        count = _players(game, players)
        account = await account_named(request, name)
        points = await asyncio.to_thread(
            players_of(request).ratings.history, account.id, game, count
        )
        return {"name": account.name, "game": game, "players": count, "points": points}

    @app.post("/api/account/privacy")
    async def privacy(body: HistoryChoice, request: Request) -> Any:
        players = players_of(request)
        who = await players.signed_in(request)
        assert who.account is not None
        await asyncio.to_thread(players.accounts.hide_history, who.account, body.hide_history)
        return {"hide_history": body.hide_history}


__all__ = ["HANDS_PAGE", "HistoryChoice", "add_board_routes"]
