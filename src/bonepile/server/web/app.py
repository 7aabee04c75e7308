"""The web app: pages, the JSON API, and one WebSocket per client at a table.

:func:`create_app` builds the ASGI app on a :class:`~bonepile.server.storage.store.Store`. The pages
are one static client (``static/``) that routes by path: ``/`` the front page and lobby,
``/t/{id}`` a table, ``/replays`` and ``/replay/{id}`` the kept games, ``/rules/{game}`` a rules
page. docs/server.md describes the API and the socket messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import orjson
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.websockets import WebSocketState

from bonepile.errors import BonepileError
from bonepile.server.limits import Limits, TooMany
from bonepile.server.players.boards import add_board_routes
from bonepile.server.players.manners_api import add_manners_routes
from bonepile.server.players.pairing_api import add_pairing_routes
from bonepile.server.players.web import (
    Identity,
    Players,
    SignedOut,
    add_account_routes,
    anonymous_id,
    players_of,
)
from bonepile.server.storage.store import Store
from bonepile.server.tables.analysis import analyse, replay_frames
from bonepile.server.tables.catalogue import catalogue, rules_html
from bonepile.server.tables.commands import Command
from bonepile.server.tables.hub import Connection, Hub, StorageDown
from bonepile.server.tables.room import RoomError
from bonepile.server.tables.thinkers import bot_pool
from bonepile.server.web.guard import RateRule, add_guards, api_docs_options, same_origin
from bonepile.server.web.protocol import (
    Chat,
    ClaimSeat,
    EndTable,
    Hello,
    JoinTable,
    Leave,
    LetBotPlay,
    Move,
    NewTable,
    NextHand,
    Ping,
    ProtocolError,
    Rematch,
    Resize,
    Takeback,
    TakebackAnswer,
    TakeSeat,
    parse_client,
)

log = logging.getLogger("bonepile.server")
T = TypeVar("T")

STATIC = Path(str(resources.files("bonepile.server.web") / "static"))
HELLO_TIMEOUT = 15.0


@dataclass
class Settings:
    """Where the server keeps its data and how it behaves."""

    database: str
    secret: str
    bot_pace: float = 0.8
    bot_workers: int = 2
    """Processes for the bots of tables with people."""
    background_workers: int = 1
    """Processes, at a lower priority, for analyses and tables of bots only."""
    background_priority: str = "idle"
    """Their priority (see :data:`~bonepile.server.tables.thinkers.PRIORITIES`)."""
    limits: Limits = field(default_factory=Limits)
    api_docs: bool = False
    """Serve the OpenAPI schema at /openapi.json and its pages at /docs and /redoc."""
    secure_cookies: bool = False
    """Send the browser's cookie over HTTPS only (a server behind TLS)."""
    redis: str | None = None
    """The site's Redis: this process is one of a site of several (None: it serves alone)."""
    site_key: str | None = None
    """The site's name on the bus (from the database)."""


def make_hub(settings: Settings, store: Store) -> Hub:
    """The hub for ``settings`` on ``store``, with its pools of bot workers (and, with
    ``settings.redis``, its part in the site)."""
    site = None
    if settings.redis:
        from bonepile.server.site.site import Site

        site = Site(settings.redis, settings.site_key or "bonepile")
    return Hub(
        store,
        executor=bot_pool(settings.bot_workers),
        bot_pace=settings.bot_pace,
        background=bot_pool(settings.background_workers, settings.background_priority),
        limits=settings.limits,
        secret=seat_key(settings.secret),
        site=site,
        background_priority=settings.background_priority,
    )


def seat_key(secret: str) -> bytes:
    """The key seat tokens are derived with, from the server's secret (one way)."""
    return hashlib.blake2b(secret.encode(), key=b"bonepile-seat-tokens", digest_size=32).digest()


def _is_ping(text: str | None) -> bool:
    """Whether a lobby socket's message is a ping (a short JSON object of type ``ping``)."""
    if not text or len(text) > 64:
        return False
    try:
        msg = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return isinstance(msg, dict) and msg.get("type") == "ping"


def create_app(settings: Settings, hub: Hub | None = None) -> FastAPI:
    """The ASGI app. ``hub`` may be given (tests); by default one is made on the database."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        nonlocal hub
        if hub is None:
            store = await asyncio.to_thread(Store, settings.database)
            hub = make_hub(settings, store)
        app.state.hub = hub
        players = app.state.players = Players(hub, settings.secure_cookies)
        await hub.start()
        players.rated.start()
        try:
            yield
        finally:
            players.rated.stop()
            await hub.stop()
            hub.store.close()

    app = FastAPI(
        title="bonepile",
        lifespan=lifespan,
        # no OpenTelemetry here: its per-request checks are time a flood of requests multiplies
        telemetry={"tracing": False, "metrics": False, "logs": False},
        **api_docs_options(settings.api_docs),
    )
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.secret,
        session_cookie="bonepile",
        max_age=400 * 24 * 3600,
        same_site="lax",
        https_only=settings.secure_cookies,
    )
    # security headers, bounded bodies, validation errors that never echo the input
    add_guards(
        app,
        api_docs=settings.api_docs,
        rates=address_rates(hub.limits if hub is not None else settings.limits),
    )
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    add_account_routes(app)
    add_board_routes(app)
    add_pairing_routes(app)
    add_manners_routes(app)

    def the_hub(request: Request | WebSocket) -> Hub:
        got: Hub = request.app.state.hub
        return got

    async def identity(request: Request) -> Identity:
        return await players_of(request).identify(request)

    async def owner(request: Request) -> str:
        return (await identity(request)).owner

    @app.exception_handler(BonepileError)
    async def refused(request: Request, exc: BonepileError) -> JSONResponse:
        code = getattr(exc, "code", "bad_request")
        status = STATUS.get(code, 400)
        headers = {}
        if isinstance(exc, TooMany):
            headers["Retry-After"] = str(max(1, round(exc.retry)))
        elif status == 503:
            headers["Retry-After"] = "5"
        body = {"error": code, "message": str(exc)}
        return JSONResponse(body, status_code=status, headers=headers)

    # ------------------------------------------------------------------ pages
    index = (STATIC / "index.html").read_text(encoding="utf-8")

    @app.get("/", response_class=HTMLResponse)
    @app.get("/t/{table_id}", response_class=HTMLResponse)
    @app.get("/replays", response_class=HTMLResponse)
    @app.get("/replay/{game_id}", response_class=HTMLResponse)
    @app.get("/rules/{game}", response_class=HTMLResponse)
    @app.get("/new", response_class=HTMLResponse)
    @app.get("/account", response_class=HTMLResponse)
    @app.get("/leaderboard", response_class=HTMLResponse)
    @app.get("/leaderboard/{game}", response_class=HTMLResponse)
    @app.get("/p/{name}", response_class=HTMLResponse)
    async def page(request: Request) -> HTMLResponse:
        anonymous_id(request)
        return HTMLResponse(index, headers={"Cache-Control": "no-store"})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """A page that does not exist is the app's own "not found" page (status 404); the
        API's errors are JSON in the app's one shape."""
        path = request.url.path
        if (
            exc.status_code == 404
            and request.method in ("GET", "HEAD")
            and not path.startswith(("/api/", "/static/", "/ws/"))
        ):
            return HTMLResponse(index, status_code=404, headers={"Cache-Control": "no-store"})
        code = "unknown" if exc.status_code == 404 else "bad_request"
        message = "there is no such page" if exc.status_code == 404 else str(exc.detail)
        return JSONResponse(
            {"error": code, "message": message},
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    @app.get("/favicon.ico")
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    # ------------------------------------------------------------------ the API
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return catalogue()

    @app.get("/api/rules/{game}")
    async def rules(game: str) -> dict[str, str]:
        return rules_html(game)

    @app.get("/api/health")
    async def health(request: Request) -> JSONResponse:
        """Whether this process can serve (for a reverse proxy's health checks): its database
        takes writes and answers, and (in a site) its Redis answers. 503 when not."""
        got = await the_hub(request).health()
        return JSONResponse(got, status_code=200 if got["ok"] else 503)

    @app.post("/api/tables")
    async def new_table(body: NewTable, request: Request) -> dict[str, Any]:
        clock = None
        if body.clock_minutes is not None:
            clock = (body.clock_minutes * 60.0, float(body.clock_increment))
        who = await identity(request)
        if body.rated and who.account is None:
            raise SignedOut("sign in to play a rated table")
        table_id, seat, token = await the_hub(request).create(
            body.game,
            body.seats,
            body.options,
            body.match,
            clock,
            who.owner,
            body.name if who.account is None else who.account.name,
            address(request),
            rated=body.rated,
            account=who.account is not None,
        )
        return {"id": table_id, "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        hub = the_hub(request)
        table = await hub.load(table_id)
        mine = await hub.mine(table_id, await owner(request))
        room = table.room
        return {
            "id": table_id,
            "game": room.config.game,
            "status": room.status,
            "seats": [s.public() for s in room.seats],
            "free": room.free_seat(),
            "seat": None if mine is None else mine[0],
            "token": None if mine is None else mine[1],
            "rematch": room.rematch,
            "rated": room.config.rated,
        }

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        who = await identity(request)
        await _may_sit(the_hub(request), table_id, who)
        name = body.name if who.account is None else who.account.name
        seat, token = await the_hub(request).join(
            table_id, who.owner, name, body.seat, who.account is not None
        )
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/claim")
    async def claim(table_id: str, body: ClaimSeat, request: Request) -> dict[str, Any]:
        who = await identity(request)
        await _may_sit(the_hub(request), table_id, who)
        seat, token = await the_hub(request).claim(table_id, who.owner, body.code, address(request))
        return {"seat": seat, "token": token}

    @app.get("/api/lobby")
    async def lobby(request: Request) -> list[dict[str, Any]]:
        return the_hub(request).lobby.tables()

    @app.get("/api/replays")
    async def replays(
        request: Request, before: float | None = None, table: str | None = None
    ) -> list[dict[str, Any]]:
        hub = the_hub(request)
        rows = await _read(hub.store.games, 50, before, table)
        return [
            {
                "id": g.id,
                "table": g.table_id,
                "hand": g.hand,
                "game": g.game,
                "players": g.players,
                "names": g.names,
                "finished": g.finished,
                "summary": g.summary,
            }
            for g in rows
        ]

    @app.get("/api/replays/{game_id}")
    async def replay(
        game_id: str, request: Request, width: int = 40, height: int | None = None
    ) -> dict[str, Any]:
        g = await the_hub(request).finished.get(game_id)
        tall = None if height is None else max(4, min(height, 400))
        data = await asyncio.to_thread(replay_frames, g.record, max(8, min(width, 400)), tall)
        data.update({"id": g.id, "table": g.table_id, "hand": g.hand, "names": g.names})
        return data

    @app.get("/api/replays/{game_id}/record")
    async def record(game_id: str, request: Request) -> Response:
        g = await the_hub(request).finished.get(game_id)
        return Response(
            g.record,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="bonepile-{g.id}.json"'},
        )

    @app.get("/api/replays/{game_id}/analysis")
    async def analysis(
        game_id: str, request: Request, ply: int, seat: int | None = None, level: str = "medium"
    ) -> dict[str, Any]:
        hub = the_hub(request)
        # the search runs in the background worker processes, not in the server's, at most
        # one at a time per browser and per address; a refused request costs nothing
        async with hub.analyses.place(await owner(request), address(request)):
            g = await hub.finished.get(game_id)
            got: dict[str, Any] = await hub.in_background(
                partial(analyse, g.record, ply, seat, level)
            )
        return got

    # ------------------------------------------------------------------ sockets
    async def opened(ws: WebSocket) -> bool:
        """Accept the socket if a page of this site (or a program) asks; refuse it (403)
        if a page of another site does."""
        if not same_origin(ws.headers.get("origin"), ws.headers.get("host")):
            await ws.close(code=1008)
            return False
        await ws.accept()
        return True

    @app.websocket("/ws/lobby")
    async def lobby_socket(ws: WebSocket) -> None:
        if not await opened(ws):
            return
        hub = the_hub(ws)

        async def send(msg: dict[str, Any]) -> None:
            await ws.send_json(msg)

        hub.lobby.watchers.add(send)
        try:
            await send({"type": "lobby", "tables": hub.lobby.tables()})
            while True:  # nothing to hear but pings (the page's watchdog): the rest is dropped
                got = await ws.receive()
                if got["type"] == "websocket.disconnect":
                    break
                if _is_ping(got.get("text")):
                    await send({"type": "pong"})
        except WebSocketDisconnect:
            pass
        finally:
            hub.lobby.watchers.discard(send)

    @app.websocket("/ws/table/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        if not await opened(ws):
            return
        hub = the_hub(ws)
        lock = asyncio.Lock()

        async def send(msg: dict[str, Any]) -> None:
            async with lock:
                try:
                    await ws.send_text(orjson.dumps(msg).decode())
                except RuntimeError:  # the client went away while we answered
                    raise WebSocketDisconnect(1006) from None

        conn: Connection | None = None
        try:
            try:
                raw = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
                hello = parse_client(raw)
                if not isinstance(hello, Hello):
                    raise ProtocolError("the first message is a hello")
                conn = await hub.connect(
                    table_id,
                    hello.token,
                    send,
                    hello.width,
                    patches=hello.patches,
                    height=hello.height,
                )
                with contextlib.suppress(Exception):  # no account: a guest's chat name
                    who = await players_of(ws).identify(ws)
                    conn.account = None if who.account is None else who.account.name
            except (BonepileError, TimeoutError) as e:
                code = getattr(e, "code", "hello")
                await send({"type": "error", "code": code, "message": str(e) or "no hello"})
                await ws.close(code=4000)
                return
            while True:
                try:
                    raw = await _receive(ws)
                except ProtocolError as e:
                    await send(
                        {
                            "type": "error",
                            "id": None,
                            "code": "bad_message",
                            "message": str(e),
                            "v": None,
                        }
                    )
                    continue
                if not hub.allow_message(conn):
                    await send(
                        {
                            "type": "error",
                            "id": None,
                            "code": "too_many",
                            "message": "slow down: too many messages",
                            "v": None,
                        }
                    )
                    continue
                await _handle(hub, table_id, conn, raw, send)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # starlette's "not connected": the client is gone
            connected = WebSocketState.CONNECTED
            if ws.client_state == connected and ws.application_state == connected:
                raise
        finally:
            if conn is not None:
                await hub.disconnect(table_id, conn)

    return app


async def _may_sit(hub: Hub, table_id: str, who: Identity) -> None:
    """Refuse a browser that is not signed in a seat at a rated table."""
    table = await hub.load(table_id)
    if table.room.config.rated and who.account is None:
        raise SignedOut("this table is rated: sign in to sit here")


async def _handle(hub: Hub, table_id: str, conn: Connection, raw: str, send: Any) -> None:
    """One client message: do it, or answer with one error and change nothing."""
    move_id = None
    try:
        msg = parse_client(raw)
        if isinstance(msg, Move):
            move_id = msg.id
            # the seat is checked where the move is made: a claim on another device may have
            # retired the token this connection sat down with
            args = {"action": msg.action, "id": msg.id, "v": msg.v}
            v = await hub.act(table_id, conn, _command(conn, "move", **args))
            await send({"type": "ack", "id": msg.id, "v": v})
        elif isinstance(msg, Chat):
            signed = conn.account  # a signed-in browser speaks under its account's name
            name = signed if signed is not None else msg.name
            chat = _command(
                conn, "chat", name=name, key=conn.key, text=msg.text, verified=signed is not None
            )
            await hub.act(table_id, conn, chat)
        elif isinstance(msg, NextHand):
            await hub.act(table_id, conn, _command(conn, "next_hand"))
        elif isinstance(msg, LetBotPlay):
            await hub.act(table_id, conn, _command(conn, "let_bot_play", seat=msg.seat))
        elif isinstance(msg, Rematch):
            _seated(conn)
            new_id = await hub.rematch(table_id, conn)
            await send({"type": "rematch", "table": new_id})
        elif isinstance(msg, TakeSeat):
            await hub.act(table_id, conn, _command(conn, "take_seat"))
        elif isinstance(msg, Leave):
            await hub.act(table_id, conn, _command(conn, "leave"))
        elif isinstance(msg, EndTable):
            await hub.act(table_id, conn, _command(conn, "end_table"))
        elif isinstance(msg, Takeback):
            await hub.act(table_id, conn, _command(conn, "takeback"))
        elif isinstance(msg, TakebackAnswer):
            await hub.act(table_id, conn, _command(conn, "takeback_answer", yes=msg.yes))
        elif isinstance(msg, Resize):
            conn.width, conn.height = msg.width, msg.height
            await hub.resend(table_id, conn)
        elif isinstance(msg, Ping):
            await send({"type": "pong", "v": hub.get(table_id).room.version})
        elif isinstance(msg, Hello):
            raise ProtocolError("already said hello")
    except BonepileError as e:
        code = getattr(e, "code", "bad_message")
        table = hub.tables.get(table_id)
        now = table.room.version if table is not None else None
        await send({"type": "error", "id": move_id, "code": code, "message": str(e), "v": now})
        if code in ("stale", "not_your_turn", "illegal", "away", "conflict"):
            await hub.resend(table_id, conn)


STATUS = {
    "unknown": 404,
    "signin": 401,
    "signed_out": 401,
    "cross_site": 403,
    "hidden": 403,
    "name_taken": 409,
    "answered": 409,
    "blocked": 403,
    "full": 409,
    "taken": 409,
    "too_many": 429,
    "storage": 503,
    "busy": 503,
}
"""The HTTP status of a refusal, by its code (400 for the others)."""


def address_rates(limits: Limits) -> list[RateRule]:
    """The request rates one client address is held to, checked before the app does any work
    for a request: all requests; the API's; requests for new tables, at twice the tables an
    address may make (the hub counts the tables made, and says how long to wait: past twice
    that, the asking itself stops costing anything)."""
    tables = 2 * limits.tables_per_address
    return [
        RateRule("/", limits.requests_per_second, limits.request_burst),
        RateRule("/api/", limits.api_requests_per_second, limits.api_request_burst),
        RateRule(
            "/api/tables",
            tables / limits.tables_window,
            tables,
            method="POST",
            message="too many new tables from your address: try again later",
        ),
    ]


def address(request: Request) -> str:
    """The network address a request came from (the peer's: behind a reverse proxy, the
    proxy's, unless the server is told to trust its ``X-Forwarded-For``)."""
    client = request.client
    return client.host if client is not None else ""


async def _read(read: Callable[..., T], *args: Any) -> T:
    """A read from the database, in a thread; a database that cannot answer is a 503."""
    try:
        return await asyncio.to_thread(read, *args)
    except (SQLAlchemyError, OSError):
        raise StorageDown("the server cannot read its games right now: try again soon") from None


async def _receive(ws: WebSocket) -> str:
    """The next text frame; a binary frame is a :class:`ProtocolError` (the socket stays)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ProtocolError("messages are JSON text, not binary frames")
    return str(text)


def _command(conn: Connection, op: str, **args: Any) -> Command:
    """What ``conn`` asks: ``op`` from its seat, with the token it sat down with."""
    return Command(op, conn.seat, conn.token, args)


def _seated(conn: Connection) -> int:
    if conn.seat is None:
        raise RoomError("watching", "you are watching this table")
    return conn.seat


__all__ = ["Settings", "create_app"]
