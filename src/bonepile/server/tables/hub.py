"""The server's tables in memory: rooms, their storage, their connections and their bots.

The :class:`Hub` is what the web app talks to. A change is tried on a copy of the table's
room; the copy's journal entries are stored (in the writer thread), and only then does the copy
become the table and each connection get its own snapshot: nothing a player is shown was not
stored first, so nothing shown is ever rolled back. While the database refuses writes, every
change is refused with :class:`StorageDown` (players are told, and their clients send their
moves again), a probe waits for the database to come back, and the tables then go on by
themselves (:mod:`~bonepile.server.tables.outages`). Bots think in process pools, off the event
loop, those of tables with people first (:mod:`~bonepile.server.tables.bot_turns`); a background
task runs clocks, absences, the dealing of bots-only matches and the closing of tables nobody
uses (:mod:`~bonepile.server.tables.clockwork`); what the connections are sent is
:mod:`~bonepile.server.tables.broadcast`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from bonepile.errors import BonepileError
from bonepile.games import get_game
from bonepile.server.limits import (
    Counter,
    Guesses,
    Limits,
    Local,
    RateLimiter,
    ServerBusy,
    TokenBucket,
    TooMany,
    wait_text,
)
from bonepile.server.site.ownership import MOVING, SiteTable
from bonepile.server.site.replicas import Replicas
from bonepile.server.storage.store import (
    STORAGE_DOWN,
    LeaseLost,
    StorageDown,
    Store,
    VersionConflict,
    Write,
)
from bonepile.server.storage.writer import Writer
from bonepile.server.tables.background import (
    AnalysisPlaces,
    FinishedHands,
    finished_games,
    finished_hands,
)
from bonepile.server.tables.bot_turns import BotTurns
from bonepile.server.tables.broadcast import Broadcast
from bonepile.server.tables.catalogue import BOT_SPECS
from bonepile.server.tables.clockwork import Clockwork
from bonepile.server.tables.commands import Command, apply_command
from bonepile.server.tables.live import (
    Connection,
    Outage,
    Table,
    new_table_id,
    unbroken,
)
from bonepile.server.tables.lobby import Lobby, Send
from bonepile.server.tables.outages import WRITE_BUDGET, Outages
from bonepile.server.tables.room import (
    Room,
    RoomError,
    TableConfig,
    new_config,
    open_room,
    restore,
)
from bonepile.server.tables.thinkers import bot_pool, think

if TYPE_CHECKING:
    from bonepile.server.site.site import Site

log = logging.getLogger("bonepile.server")

T = TypeVar("T")

CANNOT_READ = "the server cannot read its games right now: try again soon"
"""What a client is told when the database cannot answer a read."""


class Hub:
    """Every table of the server. ``bot_pace`` is the least time (s) between two moves when
    a person is at the table (or watches a table of bots), so that people can follow the bots.
    ``executor`` runs the bots of tables with people, ``background`` (by default the same)
    analyses and the bots of tables of bots only. ``secret`` derives the seats' tokens."""

    def __init__(
        self,
        store: Store,
        executor: Executor | None = None,
        bot_pace: float = 0.8,
        clock: Callable[[], float] = time.time,
        *,
        background: Executor | None = None,
        limits: Limits | None = None,
        secret: bytes | None = None,
        site: Site | None = None,
        background_priority: str = "idle",
    ) -> None:
        self.store = store
        self.background_priority = background_priority
        """The background workers' priority
        (:data:`~bonepile.server.tables.thinkers.PRIORITIES`)."""
        self.site = site
        self.replicas = Replicas(self)
        """Taking tables over and following those other processes own (in a site)."""
        self.executor = executor or bot_pool(2)
        self.background = background or self.executor
        self.bot_pace = bot_pace
        self.now = clock
        self.limits = limits or Limits()
        self.token_key = secret or secrets.token_bytes(32)
        self.tables: dict[str, Table] = {}
        self.lobby = Lobby()
        self.outage: Outage | None = None
        self._process_id = secrets.token_hex(8)
        self.started = self.now()
        self._ticker: asyncio.Task[None] | None = None
        self.writer = Writer(store)
        """The thread that stores what the tables write, in batches."""
        self.outages = Outages(self)
        """The database's outages: while one goes on (:attr:`outage`), changes are refused."""
        self.broadcast = Broadcast(self)
        """What the tables show their connections."""
        self.bots = BotTurns(self)
        """The bots' turns."""
        self.clockwork = Clockwork(self)
        """What happens with time alone."""
        limits = self.limits
        counter = self.counter
        self._made_by_client = counter(
            "tables-client", limits.tables_per_client, limits.tables_window
        )
        self._made_by_address = counter(
            "tables-address", limits.tables_per_address, limits.tables_window
        )
        self._claims = Guesses(
            counter("claims-client", limits.claims_per_client, limits.claims_window),
            counter("claims-table", limits.claims_per_table, limits.claims_window),
            counter("claims-here", 1, limits.claims_window),
            "claim codes",
        )
        self.analyses = AnalysisPlaces(self.limits, clock)
        self.finished = FinishedHands(store)
        self._tasks: set[asyncio.Task[None]] = set()
        self.on_end: Callable[[Room], Awaitable[None]] | None = None
        """Called (on its own task) with a table's room once its end is stored: the end of
        its game (``over``) or its closing before that (``closed``)."""

    def counter(self, name: str, limit: int, window: float) -> Counter:
        """A limit of ``limit`` events per key in ``window`` seconds, named ``name``: on a
        site, counted in its Redis (a client sent round the processes by a proxy gets the
        limit once, not once a process)."""
        local = RateLimiter(limit, window)
        return self.site.shared(name, local) if self.site is not None else Local(local)

    # ------------------------------------------------------------------ life
    @property
    def process_id(self) -> str:
        """This process's id in the database (its site id, in a site)."""
        return self.site.me if self.site is not None else self._process_id

    async def start(self) -> None:
        """Load every unfinished table from storage and start the clock task (in a site: join
        it; the tables are shared out among its processes)."""
        if self.site is not None:
            await self.site.start(self)
            self._ticker = asyncio.create_task(self.clockwork.forever())
            return
        stored = await asyncio.to_thread(self.store.tables, ("open", "playing"))
        for t in stored:
            try:
                room = restore(t.id, TableConfig.from_json(t.config), t.entries, self.token_key)
            except Exception:  # a table the code cannot read any more: keep the server up
                log.exception("table %s could not be restored", t.id)
                continue
            table = Table(room, stored_hands=finished_hands(room), idle_since=self.now())
            table.stored_status, table.created = room.status, t.created
            self.tables[t.id] = table
            self.relist(table)
        for table in self.tables.values():
            self.bots.schedule(table)
        with contextlib.suppress(StorageDown):
            await self.commit(self.heartbeat())
        self._ticker = asyncio.create_task(self.clockwork.forever())

    async def stop(self) -> None:
        """Stop the clock task and the bots (in a site: leave it, freeing this process's
        tables for the others at once)."""
        if self.site is not None:
            await self.site.stop()
        await self.lobby.stop()
        for task in (self._ticker, self.outages.probe):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for table in self.tables.values():
            if table.thinking is not None:
                table.thinking.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self.background is not self.executor:
            self.background.shutdown(wait=False, cancel_futures=True)
        self.writer.close()

    async def commit(self, write: Write) -> None:
        """Store ``write`` (in the writer's next transaction). Raises :class:`VersionConflict`
        if the journal moved on without us, :class:`StorageDown` if the database failed (or did
        not answer within :data:`WRITE_BUDGET`). A cancelled caller stops waiting, but the
        write is stored all the same."""
        future = asyncio.wrap_future(self.writer.submit(write))
        try:
            await asyncio.wait_for(asyncio.shield(future), WRITE_BUDGET)
        except (VersionConflict, LeaseLost):
            raise
        except asyncio.CancelledError:
            raise
        except Exception as e:
            self.outages.failed(e)
            raise StorageDown() from None

    def spawn(self, work: Awaitable[None]) -> None:
        """Run ``work`` on its own (kept referenced until it ends)."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def heartbeat(self) -> Write:
        """This process's heartbeat, as a write (the site and the operator see it alive)."""
        return self.store.heartbeat(
            self.process_id, socket.gethostname(), os.getpid(), self.started, self.now()
        )

    # ------------------------------------------------------------------ health
    async def health(self) -> dict[str, Any]:
        """This process's health: whether its database takes writes and answers, and (in a
        site) its Redis; ``ok`` when all do."""
        database = self.outage is None
        if database:
            try:
                await asyncio.wait_for(asyncio.to_thread(self.store.ping), 5.0)
            except Exception:
                database = False
        out: dict[str, Any] = {"process": self.process_id, "database": database}
        if self.site is not None:
            out["site"] = self.site.key
            out["redis"] = await self.site.healthy()
        out["tables"] = len(self.tables)
        out["ok"] = database and out.get("redis", True)
        return out

    def notice(self) -> dict[str, Any] | None:
        """What every player is told about the server now (``None``: nothing)."""
        if self.outage is None:
            return None
        return {"code": "storage", "message": STORAGE_DOWN, "since": round(self.outage.since, 3)}

    # ------------------------------------------------------------------ tables
    async def create(
        self,
        game: str,
        seats: list[str],
        options: dict[str, Any],
        match: bool,
        clock: tuple[float, float] | None,
        owner: str,
        name: str,
        address: str = "",
        rated: bool = False,
        table_id: str | None = None,
        paired: bool = False,
        account: bool = False,
    ) -> tuple[str, int | None, str | None]:
        """Set up a table; the creator sits at the seat marked ``me`` (if any). Returns the
        table id, the creator's seat and its token. ``owner`` (a browser) and ``address`` (its
        network address) are held to :class:`Limits`. A ``rated`` table seats people only,
        the creator among them (that they are signed in is the caller's to check);
        ``table_id`` names the table (by default a new random id); a table ``paired`` by
        quick pairing is not counted against its first player's limits (their seat in the pool
        was); ``account``: the creator is signed in (``name`` is the account's)."""
        g = get_game(game)
        players = len(seats)
        opts = g.make_options(options)
        g.check_players(players, opts)
        if match and g.target_score(opts) is None:
            raise RoomError("options", "a match needs a target_score")
        for spec in seats:
            if spec not in ("me", "open") and spec not in BOT_SPECS:
                raise RoomError(
                    "seats",
                    "a seat is me, open or one of the bots: " + ", ".join(sorted(BOT_SPECS)),
                )
        mine = [k for k, s in enumerate(seats) if s == "me"]
        if len(mine) > 1:
            raise RoomError("seats", "you can take one seat")
        if rated and (not mine or any(s not in ("me", "open") for s in seats)):
            raise RoomError("rated", "a rated table seats people only, you among them")
        await self._may_create(owner, address, counted=not paired)
        config = new_config(
            g.name,
            players,
            options,
            ["open" if s in ("me", "open") else s for s in seats],
            match,
            clock,
            rated=rated,
        )
        table_id = table_id or new_table_id()
        now = self.now()
        room = open_room(table_id, config, now, self.token_key)
        seat, token = None, None
        if mine:
            seat, token = room.join(owner, name, now, mine[0], account)
        await self._new_table(room, owner, now)
        return table_id, seat, token

    async def _may_create(self, owner: str, address: str, counted: bool = True) -> None:
        """Refuse a new table past the creator's limits (if ``counted``) or the server's."""
        if self.outage is not None:
            raise StorageDown("the server cannot save games right now: try again in a moment")
        now = self.now()
        if len(self.tables) >= self.limits.max_tables:
            raise ServerBusy("the server has as many tables as it can hold: try again later")
        if not counted:
            return
        for limiter, key in ((self._made_by_client, owner), (self._made_by_address, address)):
            wait = await limiter.check(key, now)
            if wait is not None:
                raise TooMany(
                    f"you have made many tables lately: try again in {wait_text(wait)}", wait
                )
        await self._made_by_client.hit(owner, now)
        await self._made_by_address.hit(address, now)

    async def _new_table(self, room: Room, creator: str, now: float) -> Table:
        """Store a new room with its first entries, then keep it: nothing of it is in memory
        until it is stored."""
        if self.outage is not None:
            raise StorageDown("the server cannot save games right now: try again in a moment")
        entries = room.take_journal()
        config = room.config.to_json()
        owner = None if self.site is None else self.site.me
        await self.commit(self.store.new_table(room.id, config, now, entries, room.status, owner))
        table = Table(room, idle_since=now, creator=creator, stored_status=room.status, created=now)
        table.site = SiteTable(owned=True, epoch=0 if owner is None else 1, owner=owner)
        self.tables[room.id] = table
        self.relist(table)
        self.bots.schedule(table)
        return table

    def get(self, table_id: str) -> Table:
        """The table ``table_id`` (``RoomError`` ``unknown`` if there is none)."""
        table = self.tables.get(table_id)
        if table is None:
            raise RoomError("unknown", "there is no such table (it may have ended)")
        return table

    async def load(self, table_id: str) -> Table:
        """The table, from memory or (a finished one) from storage."""
        if table_id in self.tables:
            return self.tables[table_id]
        if len(table_id) > 32:
            raise RoomError("unknown", "there is no such table")
        try:
            stored = await asyncio.to_thread(self.store.table, table_id)
        except Exception:
            raise StorageDown(CANNOT_READ) from None
        if stored is None:
            raise RoomError("unknown", "there is no such table")
        if table_id in self.tables:  # loaded by someone else meanwhile
            return self.tables[table_id]
        config = TableConfig.from_json(stored.config)
        room = restore(stored.id, config, stored.entries, self.token_key)
        table = Table(room, stored_hands=finished_hands(room), idle_since=self.now())
        table.stored_status, table.created = stored.status, stored.created
        self.tables[table_id] = table
        if self.site is not None:
            await self.replicas.replica(table)
        return table

    async def join(
        self, table_id: str, owner: str, name: str, seat: int | None, account: bool = False
    ) -> tuple[int, str]:
        """Sit at a table (see :meth:`Room.join`)."""
        table = await self.load(table_id)
        args = {"owner": owner, "name": name, "seat": seat, "account": account}
        got = await self._request(table, Command("join", None, None, args))
        return (int(got[0]), str(got[1]))

    async def claim(
        self, table_id: str, owner: str, code: str, address: str, account: bool = False
    ) -> tuple[int, str]:
        """Take a seat back with its claim code. Wrong codes are counted per browser and per
        address (their own limit, across tables) and per table: past the table's limit, the
        browsers and addresses that guessed wrong there are refused for a while, and the others
        may still try, so that a stranger guessing cannot keep the seat's player from their
        seat. Every connection of the seat's old token is made a spectator at once."""
        table = await self.load(table_id)
        now = self.now()
        await self._claims.check(table_id, (owner, address), now)
        try:
            got = await self._request(
                table,
                Command("claim", None, None, {"owner": owner, "code": code, "account": account}),
            )
        except RoomError as e:
            if e.code == "claim":
                await self._claims.missed(table_id, (owner, address), now)
            raise
        return (int(got[0]), str(got[1]))

    async def adopt(self, owner: str, to: str, name: str = "", account: bool = False) -> int:
        """Give every seat the browser ``owner`` holds, at tables still open or in play, to the
        id ``to`` (the browser signed up or in: its account's), under ``name`` if given, and
        the hands it finished; the old seat tokens stop working at once. Returns how many
        seats moved."""
        try:
            found = await asyncio.to_thread(self.store.tables_held_by, owner)
            await asyncio.to_thread(self.store.move_games, owner, to)
        except Exception:
            raise StorageDown(CANNOT_READ) from None
        held = set(found) | {
            tid for tid, t in self.tables.items() if t.room.seat_of_owner(owner) is not None
        }
        moved = 0
        for table_id in sorted(held):
            try:
                table = await self.load(table_id)
                got = await self._request(
                    table,
                    Command(
                        "adopt",
                        None,
                        None,
                        {"owner": owner, "to": to, "name": name, "account": account},
                    ),
                )
            except RoomError:
                continue  # closed or gone meanwhile
            moved += got is not None
        return moved

    async def mine(self, table_id: str, owner: str) -> tuple[int, str] | None:
        """The seat and token of the browser ``owner`` at the table, if it has one: the same
        token every time (a second tab does not break the first)."""
        table = await self.load(table_id)
        got = await self._request(table, Command("my_seat", None, None, {"owner": owner}))
        return None if got is None else (int(got[0]), str(got[1]))

    async def _request(self, table: Table, command: Command) -> Any:
        """Carry ``command`` out where the table is decided: here, or (in a site) on the
        process that owns it."""
        if self.site is not None and not table.site.owned:
            return await self.site.forward(table, "cmd", command.to_json())
        return await self._carry_out(table, command)

    async def _carry_out(self, table: Table, command: Command) -> Any:
        """Carry ``command`` out on a table this process decides. Once begun it runs to its
        end, even if the caller is cancelled."""

        async def run() -> Any:
            async with table.lock:
                if self.site is not None and not table.site.owned:
                    raise StorageDown(MOVING)
                return await self.change(table, partial(apply_command, command))

        return await unbroken(run())

    async def run_owned(self, table: Table, op: str, body: Any) -> Any:
        """Carry out a request another process of the site sent for a table this one decides:
        a command (``cmd``, as JSON) or a rematch (``rematch``: ``{"seat", "token"}``)."""
        if op == "rematch" and isinstance(body, dict):
            seat, token = body.get("seat"), body.get("token")
            if not isinstance(seat, int) or not isinstance(token, str | None):
                raise RoomError("bad_message", "a rematch names its seat")
            return await unbroken(self._rematch(table, seat, token))
        if op != "cmd":
            raise RoomError("bad_message", f"unknown request {op!r}")
        return await self._carry_out(table, Command.from_json(body))

    async def rematch(self, table_id: str, conn: Connection) -> str:
        """Set up the same table again, every person in their seat; returns its id."""
        table = self.get(table_id)
        if conn.seat is None:
            raise RoomError("rematch", "only a player at the table can ask for a rematch")
        if self.site is not None and not table.site.owned:
            body = {"seat": conn.seat, "token": conn.token}
            return str(await self.site.forward(table, "rematch", body))
        return await unbroken(self._rematch(table, conn.seat, conn.token))

    async def _rematch(self, table: Table, seat: int, token: str | None) -> str:
        async with table.lock:
            old = table.room
            if old.rematch is not None:
                return old.rematch
            if not old.over:
                raise RoomError("not_over", "the game is not over yet")
            if not 0 <= seat < len(old.seats) or old.seats[seat].kind != "human":
                raise RoomError("rematch", "only a player at the table can ask for a rematch")
            if old.seats[seat].token != token:
                raise RoomError("watching", "you are watching this table")
            if self.outage is not None:
                raise StorageDown()
            config = new_config(
                old.config.game,
                old.config.players,
                old.config.options,
                old.config.seats,
                old.config.match,
                old.config.clock,
                old.config.board,
            )
            new_id = new_table_id()
            now = self.now()
            room = open_room(new_id, config, now, self.token_key)
            for k, s in enumerate(old.seats):
                if s.kind == "human" and s.owner is not None:
                    room.join(s.owner, s.name, now, k)
            await self._new_table(room, table.creator, now)
            await self.change(table, lambda r, now: r.start_rematch(seat, new_id, now))
        return new_id

    # ------------------------------------------------------------------ the lobby
    def relist(self, table: Table) -> None:
        """Make the table's lobby line again (or drop it, for a table that ended). In a site,
        the table's owner makes it, for every process."""
        room = table.room
        site = self.site
        if site is not None and not table.site.owned:
            return
        if room.status in ("over", "closed") or room.id not in self.tables:
            self.lobby.relist(room.id, None)
            if site is not None:
                site.relist(table, None)
            return
        line = {
            "id": room.id,
            "game": room.config.game,
            "title": get_game(room.config.game).title,
            "status": room.status,
            "match": room.config.match,
            "clock": room.config.clock,
            "rated": room.config.rated,
            "seats": [s.public() for s in room.seats],
            "free": sum(s.kind == "open" for s in room.seats),
            "watchers": self.watchers(table),
            "created": table.created,
        }
        self.lobby.relist(room.id, line)
        if site is not None:
            site.relist(table, line)

    def watchers(self, table: Table) -> int:
        """How many watch the table (on every process of a site)."""
        here = sum(c.seat is None for c in table.conns)
        if self.site is None:
            return here
        if table.site.owned:
            return here + sum(r.watchers for r in table.site.remote.values())
        return max(here, table.site.watchers)

    def audience(self, table: Table) -> bool:
        """Whether anyone is connected to the table (on any process of a site)."""
        return bool(table.conns) or any(
            r.watchers or any(r.seats) for r in table.site.remote.values()
        )

    # ------------------------------------------------------------------ connections
    async def connect(
        self,
        table_id: str,
        token: str | None,
        send: Send,
        width: int,
        patches: bool = False,
        height: int | None = None,
    ) -> Connection:
        """A client socket joins the table (as its seat, or watching), its screen ``width`` by
        ``height`` tile halves; with ``patches`` it is sent each state after the first as a
        patch."""
        table = await self.load(table_id)
        async with table.lock:
            room = table.room
            seat = room.seat_of_token(token)
            if token and seat is None:
                raise RoomError("token", "that seat token is not valid here: you are watching")
            limits = self.limits
            conn = Connection(
                send,
                seat,
                width,
                height,
                patches=patches,
                token=None if seat is None else room.seats[seat].token,
                bucket=TokenBucket(limits.messages_per_second, limits.message_burst, self.now()),
            )
            table.conns.add(conn)
            table.idle_since = self.now()
            if not table.site.owned:
                await self.broadcast.send(table, conn)
            elif seat is None:
                # the newcomer gets the table; the others, how many watch, soon
                await self.broadcast.send(table, conn)
                self.broadcast.presence_soon(table)
                self.bots.schedule(table)  # a table of bots plays while someone watches
            else:
                room.connected(seat, self.now())
                # the newcomer gets the table, the others that the player is here
                await self.broadcast.send_all(table)
                if room.seats[seat].away_bot:
                    with contextlib.suppress(StorageDown):  # the clock task tries again
                        await self.change(table, lambda r, now: r.hand_back(seat, now))
                self.relist(table)
                self.bots.schedule(table)
        await self.replicas.shared_presence(table)
        return conn

    async def disconnect(self, table_id: str, conn: Connection) -> None:
        """A client socket closed."""
        table = self.tables.get(table_id)
        if table is None or conn not in table.conns:
            return

        async def run() -> None:
            async with table.lock:
                table.conns.discard(conn)
                if not table.conns:
                    table.idle_since = self.now()
                if not table.site.owned:
                    return
                if conn.seat is None:  # the others learn how many watch, soon
                    self.broadcast.presence_soon(table)
                    return
                table.room.disconnected(conn.seat, self.now())
                self.relist(table)
                # the others see who is here
                await self.broadcast.send_all(table)

        await unbroken(run())
        await self.replicas.shared_presence(table)

    async def act(self, table_id: str, conn: Connection, command: Command) -> Any:
        """Carry ``command`` out on the table (under its lock; in a site, on the process that
        owns the table), store what it wrote, then show it; returns what the command returns.
        Once begun this runs to its end even if the caller is cancelled (a client that hangs
        up just after a move): a change is never left unstored or unsent."""
        return await self._request(self.get(table_id), command)

    async def resend(self, table_id: str, conn: Connection) -> None:
        """Send ``conn`` the table as it stands (after a stale move, a resize...)."""
        table = self.get(table_id)
        async with table.lock:
            await self.broadcast.send(table, conn)

    def allow_message(self, conn: Connection) -> bool:
        """Whether ``conn`` is within its message rate."""
        return conn.bucket is None or conn.bucket.take(self.now())

    # ------------------------------------------------------------------ the core step
    async def change(self, table: Table, do: Callable[[Room, float], T]) -> T:
        """Try ``do(room, now)`` on a copy of the room; store what it wrote; only then make
        the copy the table's room and show it. A refused request (``RoomError``) or a failed
        write leaves the table as it was. Called with the table's lock held."""
        if table.suspect and self.outage is None:
            await self.outages.resync(table)
        for attempt in (0, 1):
            trial = table.room.copy()
            result = do(trial, self.now())
            try:
                await self.keep(table, trial, self.now())
            except VersionConflict:
                # the stored journal moved on (a commit whose answer was lost): read it back
                # and try once more on it
                table.suspect = True
                await self.outages.resync(table)
                if attempt:
                    raise RoomError("conflict", "the table changed meanwhile: try again") from None
                continue
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    async def keep(self, table: Table, trial: Room, now: float) -> None:
        """Store ``trial``'s new journal entries (and the hands it finished), then make it the
        table's room and show it to everyone."""
        entries = trial.take_journal()
        if entries:
            if self.outage is not None:
                raise StorageDown()
            games = finished_games(trial, table.stored_hands, now)
            status = trial.status if trial.status != table.stored_status else None
            fence = None if self.site is None else (self.site.me, table.site.epoch)
            write = self.store.changes(trial.id, entries, now, games, status, fence)
            try:
                await self.commit(write)
            except StorageDown:
                table.suspect = True
                raise
            except LeaseLost:
                # another process took the table over: nothing was stored; follow it
                log.warning("table %s: another process owns it now", trial.id)
                if self.site is not None:
                    await self.site.demote(table)
                raise StorageDown(MOVING) from None
            if self.site is not None:
                try:
                    await self.site.stored(table, entries)
                except BonepileError as e:  # the replicas read it back at the next entries
                    log.warning("table %s: entries not published: %s", trial.id, e)
            table.stored_hands += len(games)
            table.stored_status = trial.status
            if status in ("over", "closed") and self.on_end is not None:
                self.spawn(self.on_end(trial))
            if any(e["type"] == "move" for _, e in entries):
                table.last_move = now
        table.room = trial
        if entries:
            await self.broadcast.demote_retired(table)
            await self.broadcast.send_all(table)
            self.relist(table)
        self.bots.schedule(table)

    # ------------------------------------------------------------------ work and time
    async def in_background(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the background workers (below the bots of tables with people)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.background, work)

    async def tick(self) -> None:
        """What happens with time alone, once (:meth:`Clockwork.tick`)."""
        await self.clockwork.tick()

    def forget(self, table: Table) -> None:
        """Drop a table from memory (it stays stored), from the lobby and from the site."""
        if table.thinking is not None:
            table.thinking.cancel()
        self.tables.pop(table.room.id, None)
        self.relist(table)
        if self.site is not None:
            self.spawn(self.site.forget(table))


__all__ = [
    "STORAGE_DOWN",
    "Connection",
    "Hub",
    "StorageDown",
    "Table",
    "bot_pool",
    "think",
]
