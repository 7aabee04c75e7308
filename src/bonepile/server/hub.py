"""The server's tables in memory: rooms, their storage, their connections and their bots.

The :class:`Hub` is what the web app talks to. For every change it asks the room, stores the
room's new journal entries (in a worker thread) and only then sends each connection its own
snapshot, so nothing acknowledged is ever lost. Bots think in a process pool, off the event
loop; a background task runs clocks, absences and the dealing of bots-only matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import queue
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from bonepile.actions import Action
from bonepile.agents.registry import make_agent
from bonepile.games import get_game
from bonepile.geometry import scene
from bonepile.record import dump_record
from bonepile.seeds import random_seed
from bonepile.server.catalogue import BOT_SPECS
from bonepile.server.patch import diff
from bonepile.server.room import (
    BotTurn,
    Room,
    RoomError,
    TableConfig,
    new_config,
    open_room,
    restore,
)
from bonepile.server.store import Store, StoredGame, Write
from bonepile.view import View, view

log = logging.getLogger("bonepile.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]

LOBBY_EVERY = 0.5
"""Seconds the lobby's watchers wait for the changes of many tables to come as one list."""
T = TypeVar("T")


BOT_BUDGET = 30.0
"""Seconds a bot's move may take in its worker before the greedy player moves in its place
(the search bot's levels take well under a second: this only catches a worker that hangs or a
machine that is badly overloaded, so that no table ever waits forever)."""


def think(spec: str, seed: int, v: View) -> Action:
    """An agent's move from a view (runs in a worker process)."""
    return make_agent(spec, seed).act(v)


def bot_pool(workers: int) -> ProcessPoolExecutor:
    """The processes bots (and analyses) think in. They are spawned, never forked: a fork
    copies the server while its other threads (the database writer, the event loop's helpers)
    may hold locks, an import's among them, and a child that needs such a lock waits forever,
    and with it every table whose bot move it holds. The workers start at once, not on the
    first move."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    for _ in range(workers):
        pool.submit(_warm)
    return pool


def _warm() -> None:
    """Import what a bot needs, so a worker's first move is as quick as its others."""
    make_agent("ismcts:1", 0)


@dataclass(eq=False)
class Connection:
    """One client socket at a table: its seat (``None``: watching) and how to send to it."""

    send: Send
    seat: int | None
    width: int = 40
    key: str = field(default_factory=lambda: secrets.token_hex(8))
    patches: bool = False
    """Whether the client takes each state after the first as a patch on the one before."""
    last: dict[str, Any] | None = None
    """The last state sent (with ``patches``)."""
    seq: int = 0
    """How many states were sent: a patch names the one it applies to (``base``)."""

    def message(self, snap: dict[str, Any]) -> dict[str, Any]:
        """What to send for the state ``snap``: the state, or a patch on the last one sent."""
        self.seq += 1
        last, self.last = self.last, (snap if self.patches else None)
        if last is None:
            return {"type": "state", "seq": self.seq, **snap}
        ops = diff(last, snap)
        return {"type": "patch", "v": snap["v"], "seq": self.seq, "base": self.seq - 1, "ops": ops}


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
    scenes: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)

    def scene(self, width: int) -> dict[str, Any]:
        """The table's scene at ``width``, worked out once per version and width (every
        connection of that width gets the same one)."""
        key = (self.room.version, width)
        got = self.scenes.get(key)
        if got is None:
            if len(self.scenes) > 8 or any(v != key[0] for v, _ in self.scenes):
                self.scenes.clear()
            got = self.scenes[key] = _scene(self.room, width)
        return got


class Hub:
    """Every table of the server. ``bot_pace`` is the least time (s) between two moves when
    a person is at the table, so that people can follow the bots."""

    def __init__(
        self,
        store: Store,
        executor: Executor | None = None,
        bot_pace: float = 0.8,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.executor = executor or bot_pool(2)
        self.bot_pace = bot_pace
        self.now = clock
        self.tables: dict[str, Table] = {}
        self.lobby_watchers: set[Send] = set()
        self._lobby_task: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._writer = Writer(store)

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Load every unfinished table from storage and start the clock task."""
        stored = await asyncio.to_thread(self.store.tables, ("open", "playing"))
        for t in stored:
            try:
                room = restore(t.id, TableConfig.from_json(t.config), t.entries)
            except Exception:  # a table the code cannot read any more: keep the server up
                log.exception("table %s could not be restored", t.id)
                continue
            table = Table(room, stored_hands=self._finished_hands(room))
            self.tables[t.id] = table
        for table in self.tables.values():
            self._schedule_bot(table)
        self._ticker = asyncio.create_task(self._tick_forever())

    async def stop(self) -> None:
        """Stop the clock task and the bots."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        for table in self.tables.values():
            if table.thinking is not None:
                table.thinking.cancel()
        if self._lobby_task is not None:
            self._lobby_task.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self._writer.close()

    async def _write(self, write: Write) -> None:
        """Store ``write`` (in the writer's next transaction); raises what storing it raised.
        A cancelled caller stops waiting, but the write is stored all the same."""
        await asyncio.shield(asyncio.wrap_future(self._writer.submit(write)))

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
    ) -> tuple[str, int | None, str | None]:
        """Set up a table; the creator sits at the seat marked ``me`` (if any). Returns the
        table id, the creator's seat and its token."""
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
        config = new_config(
            g.name,
            players,
            options,
            ["open" if s in ("me", "open") else s for s in seats],
            match,
            clock,
        )
        table_id = _table_id()
        now = self.now()
        room = open_room(table_id, config, now)
        seat, token = None, None
        if mine:
            seat, token = room.join(owner, name, now, mine[0])
        await self._write(self.store.new_table(table_id, config.to_json(), now))
        table = Table(room)
        self.tables[table_id] = table
        await self._commit(table)
        return table_id, seat, token

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
        stored = await asyncio.to_thread(self.store.table, table_id)
        if stored is None:
            raise RoomError("unknown", "there is no such table")
        room = restore(stored.id, TableConfig.from_json(stored.config), stored.entries)
        table = Table(room, stored_hands=self._finished_hands(room))
        self.tables[table_id] = table
        return table

    async def join(self, table_id: str, owner: str, name: str, seat: int | None) -> tuple[int, str]:
        """Sit at a table (see :meth:`Room.join`)."""
        table = await self.load(table_id)
        async with table.lock:
            got = table.room.join(owner, name, self.now(), seat)
            await self._commit(table)
        return got

    async def claim(self, table_id: str, owner: str, code: str) -> tuple[int, str]:
        """Take a seat back with its claim code."""
        table = await self.load(table_id)
        async with table.lock:
            got = table.room.claim(owner, code, self.now())
            await self._commit(table)
        return got

    async def mine(self, table_id: str, owner: str) -> tuple[int, str] | None:
        """The seat (and a fresh token) of the browser ``owner`` at the table, if it has one."""
        table = await self.load(table_id)
        async with table.lock:
            seat = table.room.seat_of_owner(owner)
            if seat is None:
                return None
            got = table.room.join(owner, "", self.now())
            await self._commit(table)
        return got

    async def rematch(self, table_id: str, conn: Connection) -> str:
        """Set up the same table again, every person in their seat; returns its id."""
        table = self.get(table_id)
        async with table.lock:
            old = table.room
            if old.rematch is not None:
                return old.rematch
            if not old.over:
                raise RoomError("not_over", "the game is not over yet")
            config = new_config(
                old.config.game,
                old.config.players,
                old.config.options,
                old.config.seats,
                old.config.match,
                old.config.clock,
                old.config.board,
            )
            new_id = _table_id()
            now = self.now()
            room = open_room(new_id, config, now)
            for k, s in enumerate(old.seats):
                if s.kind == "human" and s.owner is not None:
                    room.join(s.owner, s.name, now, k)
            old.start_rematch(conn.seat, new_id, now)
            await self._write(self.store.new_table(new_id, config.to_json(), now))
            fresh = Table(room)
            self.tables[new_id] = fresh
            await self._commit(fresh)
            await self._commit(table)
        return new_id

    def lobby(self) -> list[dict[str, Any]]:
        """Tables with free seats or in play, for the lobby (newest first)."""
        out = []
        for table_id, table in self.tables.items():
            room = table.room
            if room.status == "over" or room.closed:
                continue
            out.append(
                {
                    "id": table_id,
                    "game": room.config.game,
                    "title": get_game(room.config.game).title,
                    "status": room.status,
                    "match": room.config.match,
                    "clock": room.config.clock,
                    "seats": [s.public() for s in room.seats],
                    "free": sum(s.kind == "open" for s in room.seats),
                    "watchers": sum(c.seat is None for c in table.conns),
                    "created": room.turn_started,
                }
            )
        out.sort(key=lambda t: (t["status"] != "open", -cast(float, t["created"])))
        return out[:200]

    # ------------------------------------------------------------------ connections
    async def connect(
        self, table_id: str, token: str | None, send: Send, width: int, patches: bool = False
    ) -> Connection:
        """A client socket joins the table (as its seat, or watching); with ``patches`` it is
        sent each state after the first as a patch."""
        table = await self.load(table_id)
        async with table.lock:
            seat = table.room.seat_of_token(token)
            if token and seat is None:
                raise RoomError("token", "that seat token is not valid here: you are watching")
            conn = Connection(send, seat, width, patches=patches)
            table.conns.add(conn)
            if seat is not None:
                table.room.connected(seat, self.now())
            await self._commit(table, also=conn)
        return conn

    async def disconnect(self, table_id: str, conn: Connection) -> None:
        """A client socket closed."""
        table = self.tables.get(table_id)
        if table is None or conn not in table.conns:
            return

        async def run() -> None:
            async with table.lock:
                table.conns.discard(conn)
                if conn.seat is not None:
                    table.room.disconnected(conn.seat, self.now())
                await self._commit(table)

        await _unbroken(run())

    async def act(self, table_id: str, conn: Connection, do: Callable[[Room, float], Any]) -> Any:
        """Run ``do(room, now)`` under the table's lock, store and send what it changed. Once
        begun this runs to its end even if the caller is cancelled (a client that hangs up
        just after a move): a change is never left unstored or unsent."""
        table = self.get(table_id)

        async def run() -> Any:
            async with table.lock:
                try:
                    return do(table.room, self.now())
                finally:
                    await self._commit(table)

        return await _unbroken(run())

    async def resend(self, table_id: str, conn: Connection) -> None:
        """Send ``conn`` the table as it stands (after a stale move, a resize...)."""
        table = self.get(table_id)
        async with table.lock:
            await self._send(table, conn)

    # ------------------------------------------------------------------ the core step
    async def _commit(self, table: Table, also: Connection | None = None) -> None:
        """Store the room's new entries, then send every connection its snapshot; start a bot
        if one is to move. Called with the table's lock held."""
        entries = table.room.take_journal()
        room = table.room
        if entries:
            now = self.now()
            games = self._finished_games(table, now)
            status = room.status if room.status != table.stored_status else None
            await self._write(self.store.changes(room.id, entries, now, games, status))
            table.stored_hands += len(games)
            table.stored_status = room.status
            if any(e["type"] == "move" for _, e in entries):
                table.last_move = now
            for conn in list(table.conns):
                await self._send(table, conn)
            self._lobby_changed()
        elif also is not None:
            await self._send(table, also)
        self._schedule_bot(table)

    async def _send(self, table: Table, conn: Connection) -> None:
        snap = table.room.snapshot(conn.seat, self.now())
        snap["scene"] = table.scene(conn.width)
        try:
            await conn.send(conn.message(snap))
        except Exception:  # a socket that died: its reader will clean up
            table.conns.discard(conn)

    def _finished_games(self, table: Table, now: float) -> list[StoredGame]:
        """The hands finished since the last ones stored, as replays to keep."""
        room = table.room
        games = []
        for index in range(table.stored_hands, self._finished_hands(room)):
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
                )
            )
        return games

    @staticmethod
    def _finished_hands(room: Room) -> int:
        return sum(1 for h in room.match.hands if h.is_over)

    # ------------------------------------------------------------------ bots
    def _schedule_bot(self, table: Table) -> None:
        if table.thinking is not None and not table.thinking.done():
            return
        turn = table.room.bot_turn(self.now())
        if turn is None:
            return
        table.thinking = asyncio.create_task(self._bot(table, turn))

    async def _bot(self, table: Table, turn: BotTurn) -> None:
        loop = asyncio.get_running_loop()
        seed = random_seed()
        try:
            action = await asyncio.wait_for(
                loop.run_in_executor(self.executor, think, turn.spec, seed, turn.view),
                BOT_BUDGET,
            )
        except Exception as e:  # the table goes on: the greedy player moves for the bot
            if isinstance(e, TimeoutError):
                log.error("a bot took over %g s at table %s", BOT_BUDGET, table.room.id)
            else:
                log.exception("a bot failed at table %s", table.room.id)
            if isinstance(e, BrokenProcessPool) and isinstance(self.executor, ProcessPoolExecutor):
                # a worker died: the pool takes no more work, so new workers take its place
                self.executor = bot_pool(getattr(self.executor, "_max_workers", 2))
            action = make_agent("greedy", seed).act(turn.view)
        if table.room.humans():
            wait = table.last_move + self.bot_pace - self.now()
            if wait > 0:
                await asyncio.sleep(wait)
        async with table.lock:
            table.thinking = None
            table.room.bot_move(turn, action, self.now())
            await self._commit(table)

    async def _tick_forever(self) -> None:
        collector = Collector()
        while True:
            await asyncio.sleep(0.5)
            try:
                await self.tick()
            except Exception:
                log.exception("the table clock failed")
            collector.tick(time.monotonic())

    async def tick(self) -> None:
        """Clocks, absences and bots-only matches: what happens with time alone."""
        now = self.now()
        for table in list(self.tables.values()):
            room = table.room
            if room.status != "playing":
                continue
            if room.config.match and room.match.needs_deal and not room.humans():
                if now - (room.hand_over_at or now) >= 3 * self.bot_pace:
                    async with table.lock:
                        room.next_hand(None, now)
                        await self._commit(table)
                continue
            absent = room.absent(now)
            if absent != table.told_absent:
                table.told_absent = absent
                async with table.lock:
                    for conn in list(table.conns):
                        await self._send(table, conn)
            self._schedule_bot(table)

    def _lobby_changed(self) -> None:
        """Tables changed: the lobby's watchers get the new list once the changes of the next
        :data:`LOBBY_EVERY` seconds are in (one list for many moves, built off every table's
        lock, so that a slow watcher never holds up a game)."""
        if not self.lobby_watchers or (self._lobby_task and not self._lobby_task.done()):
            return
        self._lobby_task = asyncio.create_task(self._send_lobby())

    async def _send_lobby(self) -> None:
        await asyncio.sleep(LOBBY_EVERY)
        message = {"type": "lobby", "tables": self.lobby()}  # built once for every watcher
        watchers = list(self.lobby_watchers)
        sent = await asyncio.gather(*(send(message) for send in watchers), return_exceptions=True)
        for send, outcome in zip(watchers, sent, strict=True):
            if isinstance(outcome, BaseException):
                self.lobby_watchers.discard(send)


async def _unbroken(work: Awaitable[T]) -> T:
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
    if not task.cancelled() and task.exception() is not None:
        log.error("a table change failed after its caller left", exc_info=task.exception())


class Writer:
    """The one thread that writes to the store. SQLite takes one writer at a time (writers
    racing for its lock would wait in its busy handler, sleeping up to 100 ms, instead of in a
    queue), and a commit costs far more than a row: so the writes that wait together are
    stored in one transaction (group commit), up to :data:`BATCH` at a time."""

    BATCH = 256

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queue: queue.SimpleQueue[tuple[Write, Future[None]] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="bonepile-store", daemon=True)
        self.thread.start()

    def submit(self, write: Write) -> Future[None]:
        """Queue ``write``; the future is done once it is stored (or failed)."""
        done: Future[None] = Future()
        self.queue.put((write, done))
        return done

    def close(self) -> None:
        """Store what is queued, then stop the thread."""
        self.queue.put(None)
        self.thread.join()

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            work, stop = [first], False
            while len(work) < self.BATCH:
                try:
                    more = self.queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                work.append(more)
            try:
                errors = self.store.batch([write for write, _ in work])
            except Exception as e:  # the database is gone: every write of the batch fails
                errors = [e] * len(work)
            for (_, done), error in zip(work, errors, strict=True):
                # a cancelled future: nobody waits for it any more (it is stored all the same)
                with contextlib.suppress(InvalidStateError):
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
            if stop:
                return


class Collector:
    """Keeps Python's full garbage collections short. Every table holds thousands of
    long-lived objects (its states and journal); a full collection walks all of them, which
    with hundreds of tables stalls every table for 100 ms or more. So the objects alive now
    are moved out of the collector's sight every ``freeze`` seconds (``gc.freeze``: they are
    still freed when their last reference goes), and every ``full`` seconds they are handed
    back for one complete collection, which frees any cycles among them."""

    def __init__(self, freeze: float = 5.0, full: float = 900.0) -> None:
        self.freeze_every = freeze
        self.full_every = full
        self.frozen_at = self.full_at = time.monotonic()

    def tick(self, now: float) -> None:
        """Freeze or collect when it is time."""
        if now - self.full_at >= self.full_every:
            gc.unfreeze()
            gc.collect()
            self.full_at = now
        if now - self.frozen_at >= self.freeze_every:
            gc.freeze()
            self.frozen_at = now


def _table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def _scene(room: Room, width: int) -> dict[str, Any]:
    """Where every tile of the table goes, for a screen ``width`` tile halves wide."""
    return scene(view(room.state, None).layout, width=width).to_json()
