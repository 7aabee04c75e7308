"""Leaderboards and players' pages over HTTP: the established ratings of a game, a player's
ratings, their rating history, and the finished hands they played (unless they hide them).
"""

from __future__ import annotations

import asyncio
import io
import zipfile
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from bonepile.server.players.accounts import Account
from bonepile.server.players.web import players_of
from bonepile.server.tables.catalogue import game_and_count, ladder_bots
from bonepile.server.tables.room import RoomError

HANDS_PAGE = 50
"""Finished hands on one page of a player's list."""
RECORDS_MOST = 1000
"""Finished hands in one download of a player's records (the newest)."""


class HistoryChoice(BaseModel):
    """``POST /api/account/privacy``: whether others may see your finished hands."""

    model_config = ConfigDict(extra="forbid")
    hide_history: bool


def add_board_routes(app: FastAPI) -> None:
    """The leaderboards and players' pages (docs/server.md lists them)."""

    async def account_named(request: Request, name: str) -> Account:
        found = await asyncio.to_thread(players_of(request).accounts.named, name)
        if found is None or found.name.lower() != name.lower():
            raise RoomError("unknown", "there is no player of that name")
        return found

    @app.get("/api/leaderboard/{game}")
    async def leaderboard(request: Request, game: str, players: int | None = None) -> Any:
        g, count = game_and_count(game, players)
        game = g.name
        rows = await asyncio.to_thread(players_of(request).ratings.leaderboard, game, count)
        bots = [b for b in ladder_bots(g) if b["rating"] is not None]
        return {
            "game": game,
            "players": count,
            "rows": [{"name": name, **s.to_json()} for name, s in rows],
            "bots": [
                {"spec": b["spec"], "label": b["label"], **b["rating"]}
                for b in bots
                if b["rating"]["players"] == count
            ],
            "bots_players": bots[0]["rating"]["players"] if bots else None,
        }

    @app.get("/api/players/{name}")
    async def player(
        request: Request,
        name: str,
        game: str | None = None,
        before: float | None = None,
        opponent: str | None = None,
        result: str | None = None,
    ) -> Any:
        players = players_of(request)
        game = None if game is None else game_and_count(game)[0].name
        if result not in (None, "won", "lost"):
            raise RoomError("result", "result is won or lost")
        account = await account_named(request, name)
        who = await players.identify(request)
        itself = who.account is not None and who.account.id == account.id
        hidden = await asyncio.to_thread(players.accounts.hides_history, account.id)
        standings = await asyncio.to_thread(players.ratings.standings, account.id)
        hands: list[dict[str, Any]] | None = None
        if itself or not hidden:
            if opponent or result:
                other = None if not opponent else await account_named(request, opponent)
                rows = await asyncio.to_thread(
                    _filtered, players, account.owner, game, before, other, result
                )
            else:
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
        g, count = game_and_count(game, players)
        game = g.name
        account = await account_named(request, name)
        points = await asyncio.to_thread(
            players_of(request).ratings.history, account.id, game, count
        )
        return {"name": account.name, "game": game, "players": count, "points": points}

    @app.get("/api/players/{name}/records")
    async def records(request: Request, name: str) -> Response:
        players = players_of(request)
        account = await account_named(request, name)
        who = await players.identify(request)
        itself = who.account is not None and who.account.id == account.id
        if not itself and await asyncio.to_thread(players.accounts.hides_history, account.id):
            raise RoomError("hidden", f"{account.name} keeps their finished hands to themselves")
        rows = await asyncio.to_thread(
            players.hub.store.games, RECORDS_MOST, None, None, account.owner
        )
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as z:
            for g in rows:
                z.writestr(f"bonepile-{g.id}.json", g.record)
        return Response(
            packed.getvalue(),
            media_type="application/zip",
            headers={
                "Content-Disposition": f'attachment; filename="bonepile-{account.name}.zip"',
                "Cache-Control": "no-store",
            },
        )

    @app.post("/api/account/privacy")
    async def privacy(body: HistoryChoice, request: Request) -> Any:
        players = players_of(request)
        who = await players.signed_in(request)
        assert who.account is not None
        await asyncio.to_thread(players.accounts.hide_history, who.account, body.hide_history)
        return {"hide_history": body.hide_history}


def _filtered(
    players: Any,
    owner: str,
    game: str | None,
    before: float | None,
    opponent: Account | None,
    result: str | None,
) -> list[Any]:
    """A page of the finished hands ``owner`` played against ``opponent`` (if given) that they
    ``won`` or ``lost`` (if given), newest first."""
    from bonepile.server.storage.store import PlainSql

    found: list[Any] = []
    cursor = before
    store = players.hub.store
    while len(found) < HANDS_PAGE:
        batch = store.games(HANDS_PAGE * 4, cursor, None, owner, game)
        if not batch:
            break
        ids = [g.id for g in batch]
        marks = ", ".join("?" for _ in ids)
        with store.engine.connect() as conn:
            seats = PlainSql(conn).one(
                f"SELECT game_id, seat, owner FROM game_players WHERE game_id IN ({marks})", ids
            )
        held: dict[str, dict[int, str]] = {}
        for gid, seat, who in seats:
            held.setdefault(str(gid), {})[int(seat)] = str(who)
        for g in batch:
            mine = [k for k, o in held.get(g.id, {}).items() if o == owner]
            if opponent is not None and opponent.owner not in held.get(g.id, {}).values():
                continue
            if result is not None:
                winners = ((g.summary or {}).get("result") or {}).get("winners") or []
                won = any(k in winners for k in mine)
                if won != (result == "won"):
                    continue
            found.append(g)
            if len(found) == HANDS_PAGE:
                break
        cursor = batch[-1].finished
    return found


__all__ = ["HANDS_PAGE", "RECORDS_MOST", "HistoryChoice", "add_board_routes"]
