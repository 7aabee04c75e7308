"""One site on many processes: the part of a server process that works with the others.

Every process of a site serves any page, socket or request for any table; the processes share
one PostgreSQL database and one Redis. Each unfinished table is *owned* by one process at a
time (its lease, :mod:`bonepile.server.site.leases`): only the owner changes the table, so its
moves, bots, clocks and absences are decided in one place. Every other process with sockets on the
table keeps a *replica* that follows the stored journal and draws the table for its own
sockets.

* A request reaching a replica (a move, a chat line, a seat to join) is sent to the owner over
  the bus as a :class:`~bonepile.server.tables.commands.Command`; the owner carries it out,
  stores it under its lease and publishes the new entries on the table's channel, then
  answers. Redis keeps the order of one publisher's messages, so the replica has shown the new
  state before it hears the answer.
* The owner counts who is at the table on every process: each replica tells it how many
  sockets it has at each seat and how many watch (``here``), and it publishes the whole
  (``pres``).
* Each process renews its lease on life every 1.5 s and looks for tables whose owner's lease
  ran out (a process killed, a machine lost) every second: it claims them, reads their journals
  back, gives a clock the time nobody could move, and announces itself (``own``); replicas then
  send their counts again and their sockets a fresh state, and clients send any move still
  unanswered again (with the same id: a move already stored is answered, not played twice).
* The lobby is one hash in Redis, written by the tables' owners and published to every process.

Redis carries only what can be lost: entries are stored before they are published and carry
their versions, so a replica that misses some reads them back from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import math
import os
import random
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

from bonepile.errors import BonepileError
from bonepile.server.limits import Counter, RateLimiter
from bonepile.server.site.bus import Bus, BusError
from bonepile.server.site.leases import LEASE_TTL, RENEW_EVERY, Leases
from bonepile.server.site.ownership import MOVING, Remote
from bonepile.server.storage.store import StorageDown
from bonepile.server.tables.room import RoomError

if TYPE_CHECKING:
    from bonepile.server.tables.hub import Hub, Table

log = logging.getLogger("bonepile.server")

SWEEP_EVERY = 1.0
"""Seconds between two looks for tables nobody live owns."""
SECRET_ENTRIES = frozenset({"deal", "claim", "token"})
"""Journal entries that hold a secret, read by replicas from the database, never sent on Redis."""
PROCESSES = "procs"
"""The Redis hash of the site's processes (id: when last renewed): every process of the site
must be found in the Redis of every other (see :func:`~bonepile.server.serve.serve`)."""
FORWARD_BUDGET = 5.0
"""Seconds a replica waits for the owner's answer to a request before it checks the owner."""


class Site:
    """This process's membership of the site ``key`` on ``redis_url`` (the database is the
    hub's)."""

    def __init__(self, redis_url: str, key: str, ttl: float = LEASE_TTL) -> None:
        self.redis_url = redis_url
        self.key = key
        """The site's name on the bus (from the database: the same for every process)."""
        self.ttl = ttl
        self.me = secrets.token_hex(8)
        self.hub: Hub | None = None
        self.bus: Bus | None = None
        self.leases: Leases | None = None
        self.members: set[str] = set()
        self._requests = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ life
    async def start(self, hub: Hub) -> None:
        """Join the site: register, hear this process's inbox and the lobby, take the
        lobby's lines, and start renewing and sweeping."""
        self.hub = hub
        self.leases = Leases(hub.store, self.me, self.ttl)
        self.bus = Bus(self.redis_url, self.key, on_reconnect=self._reconnected)
        await self.bus.open()
        await self._register()
        await self.bus.subscribe("lobby", self._on_lobby)
        for table_id, line in (await self.bus.hgetall("lobby:lines")).items():
            hub.lobby.relist(table_id, line)
        self._tasks = [
            asyncio.create_task(self._renew_forever()),
            asyncio.create_task(self._sweep_forever()),
        ]

    async def _register(self) -> None:
        assert self.leases is not None and self.bus is not None
        hub = self.hub
        assert hub is not None
        await asyncio.to_thread(
            self.leases.register, socket.gethostname(), os.getpid(), hub.started
        )
        await self.bus.subscribe(f"p:{self.me}", self._on_inbox)
        self.bus.put(PROCESSES, self.me, time.time())  # this Redis knows this process

    async def stop(self) -> None:
        """Leave the site: the tables this process owns are free for the others at once."""
        for task in (*self._tasks, *self._spawned):
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.leases is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.leases.retire)
        if self.bus is not None:
            await self.bus.close()

    def shared(self, name: str, local: RateLimiter) -> Shared:
        """The limit ``local`` (its count and window), counted for the whole site."""
        return Shared(self, name, local)

    async def healthy(self) -> bool:
        """Whether this process's Redis answers."""
        return self.bus is not None and await self.bus.ping()

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    # ------------------------------------------------------------------ leases
    async def _renew_forever(self) -> None:
        assert self.leases is not None
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                live = await asyncio.to_thread(self.leases.renew, time.time())
            except Exception as e:
                log.warning("this process could not renew its lease: %s", str(e).splitlines()[0])
                continue
            if not live:
                await self._lapsed()
            elif self.bus is not None:
                self.bus.put(PROCESSES, self.me, time.time())

    async def _lapsed(self) -> None:
        """This process's lease ran out (it was paused or cut off): every table it owned may be
        another's now, so it owns none, and joins the site again under a new id."""
        hub, bus = self.hub, self.bus
        assert hub is not None and bus is not None and self.leases is not None
        log.error("this process's lease ran out: it joins the site again")
        old = self.me
        for table in list(hub.tables.values()):
            if table.site.owned:
                await self.demote(table)
        self.me = secrets.token_hex(8)
        self.leases = Leases(hub.store, self.me, self.ttl)
        await bus.unsubscribe(f"p:{old}")
        await self._register()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY * random.uniform(0.75, 1.25))
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the site's sweep failed")

    async def sweep(self) -> None:
        """Forget what dead processes had at this process's tables; claim a share of the
        tables nobody live owns."""
        hub, leases = self.hub, self.leases
        assert hub is not None and leases is not None
        members = await asyncio.to_thread(leases.members)
        self.members = {m.id for m in members}
        for table in list(hub.tables.values()):
            gone = [p for p in table.site.remote if p not in self.members]
            if gone and table.site.owned:
                for p in gone:
                    table.site.remote.pop(p, None)
                self.spawn(hub.replicas.presence_changed(table))
        orphans = await asyncio.to_thread(leases.orphans)
        if not orphans:
            return
        share = max(1, math.ceil(len(orphans) / max(1, len(self.members))))
        random.shuffle(orphans)
        for table_id in orphans[:share]:
            await self.take_over(table_id)

    async def take_over(self, table_id: str) -> bool:
        """Claim the table if nobody live owns it, and own it from its stored journal."""
        hub, leases = self.hub, self.leases
        assert hub is not None and leases is not None
        if hub.outage is not None:
            return False
        epoch = await asyncio.to_thread(leases.claim, table_id)
        if epoch is None:
            return False
        try:
            await hub.replicas.adopt(table_id, epoch)
        except Exception:
            log.exception("table %s could not be taken over", table_id)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(leases.release, table_id, epoch)
            return False
        log.info("table %s taken over (epoch %d)", table_id, epoch)
        return True

    async def announce(self, table: Table) -> None:
        """Tell every process that holds the table that this one owns it now."""
        st = table.site
        await self._publish(
            f"t:{table.room.id}",
            {"k": "own", "owner": self.me, "epoch": st.epoch, "v": table.room.version},
        )

    async def demote(self, table: Table) -> None:
        """This process no longer owns the table: follow whoever does."""
        hub = self.hub
        assert hub is not None
        table.site.owned = False
        table.site.remote.clear()
        if table.thinking is not None:
            table.thinking.cancel()
            table.thinking = None
        await self.follow(table)
        self.spawn(hub.replicas.catch_up(table))  # what the new owner stored meanwhile
        self.spawn(self.locate(table))

    async def locate(self, table: Table) -> str | None:
        """Who owns the table now (read from the database), kept on the table."""
        with contextlib.suppress(RoomError):
            owner, _, live = await self.owner_of(table.room.id)
            if live and owner is not None and owner != self.me:
                table.site.owner = owner
                await self.here(table)
                return owner
        return None

    async def owner_of(self, table_id: str) -> tuple[str | None, int, bool]:
        """The table's owner, epoch and whether the owner is live."""
        assert self.leases is not None
        lease = await asyncio.to_thread(self.leases.locate, table_id)
        if lease is None:
            raise RoomError("unknown", "there is no such table")
        return lease.owner, lease.epoch, lease.live

    # ------------------------------------------------------------------ following
    async def follow(self, table: Table) -> None:
        """Hear the table's channel (entries, presence, a change of owner)."""
        assert self.bus is not None
        table_id = table.room.id
        if not self.bus.subscribed(f"t:{table_id}"):
            await self.bus.subscribe(f"t:{table_id}", lambda m: self._on_table(table_id, m))

    async def unfollow(self, table_id: str) -> None:
        """Stop hearing the table's channel."""
        if self.bus is not None:
            await self.bus.unsubscribe(f"t:{table_id}")

    async def forget(self, table: Table) -> None:
        """The table leaves this process's memory: stop hearing it, and give it up if this
        process owned it (the next process that needs it claims it)."""
        await self.unfollow(table.room.id)
        if table.site.owned and self.leases is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.leases.release, table.room.id, table.site.epoch)

    def _on_table(self, table_id: str, message: dict[str, Any]) -> None:
        hub = self.hub
        assert hub is not None
        table = hub.tables.get(table_id)
        if table is None:
            return
        kind = message.get("k")
        if kind == "ent" and not table.site.owned:
            self.spawn(hub.replicas.follow_entries(table, message))
        elif kind == "pres" and not table.site.owned:
            self.spawn(hub.replicas.follow_presence(table, message))
        elif kind == "own" and message.get("owner") != self.me:
            table.site.owner = str(message.get("owner"))
            if table.site.owned:  # another process holds the table now: ours is a replica
                self.spawn(self.demote(table))
            else:
                self.spawn(hub.replicas.catch_up(table))
            self.spawn(self.here(table))

    async def stored(self, table: Table, entries: list[tuple[int, dict[str, Any]]]) -> None:
        """The owner stored ``entries``: the replicas hear them. Entries that hold a secret (a
        hand's seed, a claim code, a token's hash) never go on the bus: the replicas are told to
        read them from the database."""
        message: dict[str, Any] = {"k": "ent", "first": entries[0][0], "epoch": table.site.epoch}
        if not any(e.get("type") in SECRET_ENTRIES for _, e in entries):
            message["entries"] = entries
        await self._publish(f"t:{table.room.id}", message)

    async def presence(self, table: Table, seats: list[list[Any]], watchers: int) -> None:
        """The owner's count of who is at the table, for the replicas."""
        await self._publish(
            f"t:{table.room.id}", {"k": "pres", "seats": seats, "watchers": watchers}
        )

    async def here(self, table: Table) -> None:
        """Tell the table's owner what this process has at it."""
        owner = table.site.owner
        if table.site.owned or owner is None:
            return
        seats = [0] * len(table.room.seats)
        watchers = 0
        for conn in table.conns:
            if conn.seat is None:
                watchers += 1
            else:
                seats[conn.seat] += 1
        message = {"k": "here", "table": table.room.id, "from": self.me}
        await self._publish(f"p:{owner}", {**message, "seats": seats, "watchers": watchers})

    # ------------------------------------------------------------------ the lobby
    def relist(self, table: Table, line: dict[str, Any] | None) -> None:
        """The owner's new lobby line of a table (``None``: it leaves the lobby), for every
        process; a line that did not change is not sent again."""
        if line == table.site.line and line is not None:
            return
        table.site.line = line
        assert self.bus is not None
        self.bus.put("lobby:lines", table.room.id, line)
        self.bus.send("lobby", {"table": table.room.id, "line": line})

    def _on_lobby(self, message: dict[str, Any]) -> None:
        hub = self.hub
        assert hub is not None
        table_id, line = message.get("table"), message.get("line")
        if isinstance(table_id, str) and (line is None or isinstance(line, dict)):
            hub.lobby.relist(table_id, line)

    # ------------------------------------------------------------------ requests
    async def forward(self, table: Table, op: str, body: dict[str, Any]) -> Any:
        """Carry a request out on the table's owner; its result (JSON), or the owner's refusal
        raised here as it was raised there. A table whose owner is gone is taken over here."""
        hub = self.hub
        assert hub is not None and self.bus is not None
        for attempt in range(3):
            owner = table.site.owner
            if owner is None or attempt:
                owner, _, live = await self.owner_of(table.room.id)
                if not live or owner is None:
                    if await self.take_over(table.room.id):
                        return await hub.run_owned(table, op, body)
                    continue
                if owner == self.me:
                    return await hub.run_owned(table, op, body)
                table.site.owner = owner
            req = f"{self.me}:{next(self._requests)}"
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self._waiting[req] = future
            message = {"k": "cmd", "req": req, "from": self.me, "table": table.room.id}
            try:
                await self._publish(f"p:{owner}", {**message, "op": op, "body": body})
                answer = await asyncio.wait_for(asyncio.shield(future), FORWARD_BUDGET)
            except (TimeoutError, BusError):
                table.site.owner = None  # look the owner up again
                continue
            finally:
                self._waiting.pop(req, None)
            code = str(answer.get("code") or "bad_message")
            if code == "moved":
                table.site.owner = None
                continue
            # the entries the request made were published before the answer, and their task
            # holds or waits for the table's lock: once it has had it they are shown; only an
            # entry the bus lost is read back (the ack comes after the state it made)
            async with table.lock:
                pass
            v = answer.get("v")
            if isinstance(v, int) and table.room.version < v:
                await hub.replicas.catch_up(table)
            if answer.get("ok"):
                return answer.get("result")
            raise _refusal(code, str(answer.get("message") or code), answer.get("wait"))
        raise StorageDown(MOVING)

    def _on_inbox(self, message: dict[str, Any]) -> None:
        hub = self.hub
        assert hub is not None
        kind = message.get("k")
        if kind == "re":
            future = self._waiting.get(str(message.get("req")))
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "cmd":
            self.spawn(self._serve(message))
        elif kind == "here":
            table = hub.tables.get(str(message.get("table")))
            seats, watchers = message.get("seats"), message.get("watchers")
            if table is None or not isinstance(seats, list) or not isinstance(watchers, int):
                return
            if table.site.owned and len(seats) == len(table.room.seats):
                sender = str(message.get("from"))
                table.site.remote[sender] = Remote([int(c) for c in seats], watchers)
                self.spawn(hub.replicas.presence_changed(table))

    async def _serve(self, message: dict[str, Any]) -> None:
        """Carry out a request another process sent, and answer it."""
        hub = self.hub
        assert hub is not None
        req, sender = message.get("req"), message.get("from")
        table = hub.tables.get(str(message.get("table")))
        answer: dict[str, Any] = {"k": "re", "req": req}
        if table is None or not table.site.owned:
            answer.update(ok=False, code="moved", message=MOVING)
        else:
            try:
                result = await hub.run_owned(table, str(message.get("op")), message.get("body"))
                answer.update(ok=True, result=result)
            except BonepileError as e:
                answer.update(ok=False, code=getattr(e, "code", "bad_message"), message=str(e))
                wait = getattr(e, "retry", None)
                if isinstance(wait, int | float):
                    answer["wait"] = wait
            except Exception:
                log.exception("a request from %s failed at table %s", sender, table.room.id)
                answer.update(ok=False, code="bad_message", message="the request failed")
            answer["v"] = table.room.version
        with contextlib.suppress(BusError):
            await self._publish(f"p:{sender}", answer)

    async def _publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` after everything this process sent before (see :meth:`Bus.send`)."""
        assert self.bus is not None
        self.bus.send(channel, message)

    async def _reconnected(self) -> None:
        """Redis came back: messages may have been missed, so every replica reads its table
        back, and every process tells the owners what it has at their tables again."""
        hub = self.hub
        assert hub is not None
        for table in list(hub.tables.values()):
            if not table.site.owned:
                self.spawn(hub.replicas.catch_up(table))
                self.spawn(self.here(table))
            else:
                self.spawn(hub.replicas.presence_changed(table))
                table.site.line = None  # send it again
                hub.relist(table)


class Shared(Counter):
    """A limit counted for the whole site, in Redis (a sorted set of event times per key,
    kept for the window); while Redis cannot answer, this process's own count stands in."""

    def __init__(self, site: Site, name: str, local: RateLimiter) -> None:
        self.site = site
        self.name = name
        self.local = local

    def _key(self, key: str) -> str:
        return f"rl:{self.name}:{hashlib.sha256(key.encode()).hexdigest()[:24]}"

    async def check(self, key: str, now: float) -> float | None:
        bus = self.site.bus
        if bus is None:
            return self.local.check(key, now)
        try:
            times = await bus.recent(self._key(key), now - self.local.window)
        except BusError:
            return self.local.check(key, now)
        if len(times) < self.local.limit:
            return None
        return max(0.0, times[-self.local.limit] + self.local.window - now)

    async def hit(self, key: str, now: float) -> None:
        self.local.hit(key, now)
        bus = self.site.bus
        if bus is not None:
            with contextlib.suppress(BusError):
                await bus.note(self._key(key), now, self.local.window)


def _refusal(code: str, message: str, wait: Any) -> BonepileError:
    """The owner's refusal, raised here as it was there."""
    if code == "storage":
        return StorageDown(message)
    if code == "too_many":
        from bonepile.server.limits import TooMany

        return TooMany(message, float(wait) if isinstance(wait, int | float) else 1.0)
    return RoomError(code, message)


__all__ = ["FORWARD_BUDGET", "MOVING", "PROCESSES", "SWEEP_EVERY", "Shared", "Site"]
