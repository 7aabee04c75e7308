"""The site's message bus on the machine's Redis: what one process sends arrives in the order
it was sent, across channels; a lost subscriber connection comes back by itself and says so
(its owner then reads back what it may have missed)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

pytest.importorskip("redis")

from bonepile.server.site.bus import Bus, BusError
from site_servers import REDIS, services_or_skip

pytestmark = pytest.mark.system


def _redis_or_skip() -> None:
    services_or_skip()


async def _until(check: Any, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not within the time")


def test_messages_arrive_in_the_order_they_were_sent() -> None:
    _redis_or_skip()

    async def run() -> None:
        heard: list[tuple[str, int]] = []
        sender, hearer = Bus(REDIS, "t" + secrets.token_hex(4)), None
        await sender.open()
        hearer = Bus(REDIS, sender.prefix.split(":")[1])
        await hearer.open()
        try:
            await hearer.subscribe("a", lambda m: heard.append(("a", m["n"])))
            await hearer.subscribe("b", lambda m: heard.append(("b", m["n"])))
            sent = [("a" if n % 3 else "b", n) for n in range(300)]
            for channel, n in sent:
                sender.send(channel, {"n": n})
            await _until(lambda: len(heard) == len(sent))
            assert heard == sent
            sender.put("lines", "t1", {"x": 1})
            sender.put("lines", "t2", {"x": 2})
            sender.put("lines", "t1", None)
            await _until(lambda: sender._outbox.empty())
            await asyncio.sleep(0.1)
            assert await hearer.hgetall("lines") == {"t2": {"x": 2}}
            await hearer.unsubscribe("a")
            sender.send("a", {"n": -1})
            sender.send("b", {"n": -2})
            await _until(lambda: heard[-1] == ("b", -2))
            assert ("a", -1) not in heard
            assert await sender.forget_site() >= 1
        finally:
            await sender.close()
            await hearer.close()

    asyncio.run(run())


def test_a_lost_subscriber_connection_comes_back_and_says_so() -> None:
    _redis_or_skip()
    import redis

    async def run() -> None:
        back = asyncio.Event()
        heard: list[int] = []

        async def reconnected() -> None:
            back.set()

        name = "t" + secrets.token_hex(4)
        hearer = Bus(REDIS, name, on_reconnect=reconnected)
        sender = Bus(REDIS, name)
        await hearer.open()
        await sender.open()
        try:
            await hearer.subscribe("c", lambda m: heard.append(m["n"]))
            sender.send("c", {"n": 1})
            await _until(lambda: heard == [1])
            killer = redis.Redis.from_url(REDIS)
            mine = [c["id"] for c in killer.client_list(_type="pubsub")
                    if c["name"] == hearer.client_name]  # fmt: skip
            assert mine, "the hearer's connection is not listed under its name"
            for client in mine:
                killer.client_kill_filter(_id=client)
            killer.close()
            await asyncio.wait_for(back.wait(), 30)
            for n in range(2, 50):  # heard again once resubscribed
                sender.send("c", {"n": n})
                await asyncio.sleep(0.05)
                if n in heard:
                    break
            assert heard[-1] > 1
        finally:
            await sender.close()
            await hearer.close()

    asyncio.run(run())


def test_an_unreachable_redis_is_one_clear_error() -> None:
    async def run() -> None:
        with pytest.raises(BusError) as e:
            await Bus("redis://127.0.0.1:1/0", "x").open()
        assert "cannot reach Redis at redis://127.0.0.1:1/0" in str(e.value)

    asyncio.run(run())
