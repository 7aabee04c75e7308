"""The site's message bus: Redis publish/subscribe between the processes of one site.

The only module that speaks to Redis. Everything sent on it can be lost without harm, because
everything that matters is in the database first: a table's entries are published after they
are stored and carry their versions, so a process that missed one reads the gap back from the
database; a request lost on the way is sent again by its client with the same move id. Redis
delivers the messages one connection published, in the order it published them, to each
subscriber in that order: a process hears a table's new entries before the answer to the
request that made them.

Channels and keys are named under ``bp:{site}:``, so two sites (two test runs) can share one
Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from bonepile.errors import BonepileError
from bonepile.server.storage.store import safe_url

log = logging.getLogger("bonepile.server")

Handler = Callable[[dict[str, Any]], None]
"""What a channel's messages are given to, one at a time, in the order they came."""

QUEUE = 20_000
"""Messages waiting to be sent at most (past it, while Redis is away, the oldest go: what they
said is in the database)."""


class BusError(BonepileError):
    """Redis cannot be reached (or refused a command)."""

    code = "storage"


class Bus:
    """Publish/subscribe for the site ``site`` on the Redis at ``url``; :meth:`open` before
    use. ``on_reconnect`` is awaited after the subscriber connection came back from a loss
    (messages may have been missed meanwhile: read what matters back from the database)."""

    def __init__(
        self,
        url: str,
        site: str,
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.url = url
        self.prefix = f"bp:{site}:"
        self.client_name = f"bonepile-{site}-{os.getpid()}-{id(self) % 100000}"
        """How this process's connections are named in Redis (``CLIENT LIST``)."""
        self.on_reconnect = on_reconnect
        self._client: Any = None
        self._pubsub: Any = None
        self._handlers: dict[str, Handler] = {}
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str, Any, Any]] = asyncio.Queue()
        self._wake = asyncio.Event()

    def name(self, *parts: str) -> str:
        """The full name of a channel or key of this site."""
        return self.prefix + ":".join(parts)

    async def open(self) -> None:
        """Connect (a :class:`BusError` naming the reason if Redis cannot be reached)."""
        try:
            self._client = aioredis.from_url(
                self.url,
                socket_connect_timeout=5,
                socket_keepalive=True,
                health_check_interval=10,
                client_name=self.client_name,
            )
            await self._client.ping()
            self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        except (RedisError, OSError, ValueError) as e:
            await self.close()
            raise BusError(f"cannot reach Redis at {safe_url(self.url)}: {_reason(e)}") from None
        self._reader = asyncio.create_task(self._read_forever())
        self._writer = asyncio.create_task(self._write_forever())

    async def close(self) -> None:
        """Send what waits (for a moment), stop reading and disconnect."""
        if self._writer is not None:
            with contextlib.suppress(TimeoutError, Exception):
                await asyncio.wait_for(self._outbox.join(), 2.0)
        for task in (self._reader, self._writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._reader = self._writer = None
        for closing in (self._pubsub, self._client):
            if closing is not None:
                with contextlib.suppress(Exception):
                    await closing.aclose()
        self._pubsub = self._client = None

    # ------------------------------------------------------------------ sending in order
    def send(self, channel: str, message: dict[str, Any]) -> None:
        """Publish ``message`` on ``channel`` after everything sent before it, without waiting
        (nobody waits on Redis while holding a table)."""
        self._queue("publish", channel, message, None)

    def put(self, key: str, field: str, value: Any) -> None:
        """Set (``value`` not ``None``) or remove ``field`` of the hash ``key``, in order with
        what is sent."""
        self._queue("hset" if value is not None else "hdel", key, field, value)

    def _queue(self, op: str, name: str, a: Any, b: Any) -> None:
        if self._outbox.qsize() >= QUEUE:
            with contextlib.suppress(asyncio.QueueEmpty):
                self._outbox.get_nowait()
                self._outbox.task_done()
        self._outbox.put_nowait((op, name, a, b))

    async def _write_forever(self) -> None:
        lost = False
        while True:
            op, name, a, b = await self._outbox.get()
            try:
                for attempt in range(3):
                    try:
                        if op == "publish":
                            await self._client.publish(self.name(name), orjson.dumps(a))
                        elif op == "hset":
                            await self._client.hset(self.name(name), a, orjson.dumps(b))
                        else:
                            await self._client.hdel(self.name(name), a)
                        lost = False
                        break
                    except (RedisError, OSError) as e:
                        if not lost:
                            log.warning("a message to the site's Redis failed: %s", _reason(e))
                        lost = True
                        await asyncio.sleep(0.2 * (attempt + 1))
            finally:
                self._outbox.task_done()

    # ------------------------------------------------------------------ publish and keys
    async def recent(self, key: str, since: float) -> list[float]:
        """The times noted under ``key`` after ``since``, oldest first (older ones dropped)."""
        try:
            pipe = self._client.pipeline(transaction=True)
            pipe.zremrangebyscore(self.name(key), "-inf", since)
            pipe.zrange(self.name(key), 0, -1, withscores=True)
            _, got = await pipe.execute()
        except (RedisError, OSError) as e:
            raise BusError(f"Redis refused a read: {_reason(e)}") from None
        return [float(score) for _, score in got]

    async def note(self, key: str, at: float, keep: float) -> None:
        """Note the time ``at`` under ``key``, kept ``keep`` seconds."""
        member = f"{at:.6f}:{os.urandom(4).hex()}"
        try:
            pipe = self._client.pipeline(transaction=True)
            pipe.zadd(self.name(key), {member: at})
            pipe.expire(self.name(key), max(1, int(keep) + 1))
            await pipe.execute()
        except (RedisError, OSError) as e:
            raise BusError(f"Redis refused a write: {_reason(e)}") from None

    async def ping(self) -> bool:
        """Whether Redis answers within 2 s."""
        try:
            return bool(await asyncio.wait_for(self._client.ping(), 2.0))
        except (RedisError, OSError, TimeoutError, AttributeError):
            return False

    async def hgetall(self, key: str) -> dict[str, Any]:
        """Every field of the hash ``key`` (values from JSON)."""
        try:
            got = await self._client.hgetall(self.name(key))
        except (RedisError, OSError) as e:
            raise BusError(f"Redis refused a read: {_reason(e)}") from None
        return {k.decode(): orjson.loads(v) for k, v in got.items()}

    async def forget_site(self) -> int:
        """Delete every key of this site (the tests' clean-up); how many."""
        keys = [k async for k in self._client.scan_iter(match=self.prefix + "*")]
        if keys:
            await self._client.delete(*keys)
        return len(keys)

    # ------------------------------------------------------------------ subscriptions
    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Give ``channel``'s messages to ``handler`` from now on (one subscription a
        channel: a second call replaces the handler)."""
        full = self.name(channel)
        first = full not in self._handlers
        self._handlers[full] = handler
        if first:
            try:
                await self._pubsub.subscribe(full)
            except (RedisError, OSError) as e:
                self._handlers.pop(full, None)
                raise BusError(f"Redis refused a subscription: {_reason(e)}") from None
            self._wake.set()

    async def unsubscribe(self, channel: str) -> None:
        """Stop hearing ``channel``."""
        full = self.name(channel)
        if self._handlers.pop(full, None) is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.unsubscribe(full)

    def subscribed(self, channel: str) -> bool:
        """Whether ``channel`` is heard."""
        return self.name(channel) in self._handlers

    async def _read_forever(self) -> None:
        delay = 0.1
        lost = False
        while True:
            if not self._handlers:
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as e:
                if not lost:
                    log.warning("the site's Redis is unreachable (%s): retrying", _reason(e))
                lost = True
                await asyncio.sleep(delay)
                delay = min(2 * delay, 2.0)
                continue
            if lost:
                lost, delay = False, 0.1
                log.warning("the site's Redis is back")
                if self.on_reconnect is not None:
                    with contextlib.suppress(Exception):
                        await self.on_reconnect()
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            handler = self._handlers.get(channel)
            if handler is None:
                continue
            try:
                data = orjson.loads(message["data"])
            except orjson.JSONDecodeError:
                log.error("a message on %s is not JSON: dropped", channel)
                continue
            if not isinstance(data, dict):
                continue
            try:
                handler(data)
            except Exception:
                log.exception("a message on %s could not be handled", channel)


def _reason(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else type(e).__name__


__all__ = ["Bus", "BusError", "Handler"]
