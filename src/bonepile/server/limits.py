"""How much of the server one client may take, and how long a table nobody uses is kept.

:class:`Limits` holds every bound in one place (``bonepile serve`` takes the defaults; tests and
operators may change them); :class:`RateLimiter` counts attempts per key in a sliding window, so
that one client (a browser's cookie, an address) cannot create tables, guess claim codes or ask
for analyses without end.
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bonepile.errors import BonepileError


class TooMany(BonepileError):
    """A client went past one of its limits; ``retry`` is the seconds until it may try again."""

    code = "too_many"

    def __init__(self, message: str, retry: float) -> None:
        super().__init__(message)
        self.retry = retry


class ServerBusy(BonepileError):
    """The server as a whole is at a limit (tables, background work): try again later."""

    code = "busy"


@dataclass(frozen=True)
class Limits:
    """The server's bounds. Windows and lifetimes are in seconds."""

    tables_per_client: int = 12
    """Tables one browser (its cookie) may create in :attr:`tables_window`."""
    tables_per_address: int = 40
    """Tables one network address may create in :attr:`tables_window`."""
    tables_window: float = 600.0
    max_tables: int = 3000
    """Tables kept in play at once: past it, new tables wait (503) until some end."""
    claims_per_table: int = 10
    """Wrong claim codes a table takes in :attr:`claims_window` before it refuses more from
    whoever has guessed wrong there (a browser or address that has not, such as the seat's
    player on a new phone, may still try: a stranger cannot lock a seat)."""
    claims_per_client: int = 20
    """Wrong claim codes one browser or address may try in :attr:`claims_window`."""
    claims_window: float = 600.0
    signins_per_name: int = 10
    """Wrong passwords an account name takes in :attr:`signins_window` before it refuses more
    from the browsers and addresses that gave one there (the others, its owner on a new
    device among them, may still sign in: a stranger cannot lock an account)."""
    signins_per_client: int = 30
    """Wrong passwords one browser or address may give in :attr:`signins_window`, whatever
    the names."""
    signins_window: float = 900.0
    signups_per_address: int = 10
    """Accounts one network address may make in :attr:`signups_window`."""
    signups_window: float = 3600.0
    open_ttl: float = 1800.0
    """A table still waiting for players is closed after this long with nobody connected."""
    idle_ttl: float = 7200.0
    """A table with people is closed after this long with nobody connected."""
    watch_ttl: float = 600.0
    """A table of bots only is closed after this long with nobody watching (it pauses
    meanwhile: bots play only while someone watches)."""
    analyses_per_client: int = 1
    """Analyses one browser, and one address, may have running or waiting at once."""
    analyses_per_minute: int = 30
    """Analyses one browser, and one address, may ask for in a minute (stepping through a
    replay asks for one a position)."""
    max_background: int = 6
    """Analyses running or waiting on the background workers at once."""
    background_moves_per_second: float = 20.0
    """Moves the tables of bots only make a second, all together: past it they wait their
    turn (a table of bots moves at most every ``--bot-pace`` seconds while watched)."""
    messages_per_second: float = 20.0
    """Socket messages a connection may send a second, on average."""
    message_burst: int = 60
    """... and in one burst."""
    connections_per_address: int = 64
    """Connections (HTTP and sockets) one network address may hold open at once."""
    requests_per_second: float = 20.0
    """HTTP requests one network address may make a second, on average (a page and its files
    are about 30, within the burst)..."""
    request_burst: int = 100
    """... and at once."""
    api_requests_per_second: float = 5.0
    """Of those, requests to the API (``/api/...``) a second: a person's browser makes a few
    a minute, the game itself goes over its socket..."""
    api_request_burst: int = 30
    """... and at once."""


def changed_limits(changes: Mapping[str, float]) -> Limits:
    """The default :class:`Limits` with ``changes`` (field name: value); a name that is no
    limit, or a value below 1 where a count is meant, is a ``ValueError`` naming it."""
    fields = {f.name: f for f in dataclasses.fields(Limits)}
    values: dict[str, float] = {}
    for name, value in changes.items():
        key = name.replace("-", "_")
        if key not in fields:
            raise ValueError(f"there is no limit {name!r}: the limits are {', '.join(fields)}")
        if value <= 0:
            raise ValueError(f"the limit {name} must be above 0, not {value:g}")
        values[key] = int(value) if fields[key].type in (int, "int") else float(value)
    return dataclasses.replace(Limits(), **values)  # type: ignore[arg-type]


class Counter:
    """A limit on events per key, checked and counted without blocking: this process's own
    (:class:`RateLimiter`, here) or one a site shares
    (:class:`~bonepile.server.site.site.Shared`)."""

    async def check(self, key: str, now: float) -> float | None:
        """``None`` if ``key`` may act now, else the seconds until it may (nothing counted)."""
        raise NotImplementedError

    async def hit(self, key: str, now: float) -> None:
        """Count an event for ``key``."""
        raise NotImplementedError


class Local(Counter):
    """A :class:`RateLimiter` of this process as a :class:`Counter`."""

    def __init__(self, limiter: RateLimiter) -> None:
        self.limiter = limiter

    async def check(self, key: str, now: float) -> float | None:
        return self.limiter.check(key, now)

    async def hit(self, key: str, now: float) -> None:
        self.limiter.hit(key, now)


class Guesses:
    """Wrong guesses at a secret (a seat's claim code, an account's password), held back three
    ways: per guesser key (a browser, an address) across every target; per target; and, once a
    target has taken its limit, from the guessers that guessed wrong at it, while the others
    (its owner on a new device) may still try, so that a stranger cannot lock anyone out."""

    def __init__(self, by_guesser: Counter, by_target: Counter, here: Counter, what: str) -> None:
        """``here`` counts at most one wrong guess per guesser and target; ``what`` names the
        secrets in the refusal ("claim codes")."""
        self.by_guesser = by_guesser
        self.by_target = by_target
        self.here = here
        self.what = what

    def _keys(self, target: str, guessers: Sequence[str]) -> tuple[list[Any], list[Any]]:
        mine = [(self.by_guesser, g) for g in guessers]
        return mine, [(self.here, f"{target} {g}") for g in guessers]

    async def check(self, target: str, guessers: Sequence[str], now: float) -> None:
        """:class:`TooMany` if the ``guessers`` may not guess at ``target`` now."""
        mine, here = self._keys(target, guessers)
        if await self.by_target.check(target, now) is not None:
            mine += here  # the target took its wrong guesses: none more from those
        for counter, key in mine:
            wait = await counter.check(key, now)
            if wait is not None:
                raise TooMany(f"too many wrong {self.what}: try again in {wait_text(wait)}", wait)

    async def missed(self, target: str, guessers: Sequence[str], now: float) -> None:
        """Count a wrong guess of the ``guessers`` at ``target``."""
        mine, here = self._keys(target, guessers)
        for counter, key in (*mine, *here, (self.by_target, target)):
            await counter.hit(key, now)


class RateLimiter:
    """At most ``limit`` events per key in any ``window`` seconds (a sliding window).

    >>> r = RateLimiter(2, 10.0)
    >>> r.hit("a", 0.0), r.hit("a", 1.0)
    (None, None)
    >>> r.hit("a", 2.0)
    8.0
    >>> r.hit("a", 10.5) is None
    True
    """

    def __init__(self, limit: int, window: float, keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.keys = keys
        self._times: dict[str, deque[float]] = {}

    def check(self, key: str, now: float) -> float | None:
        """``None`` if ``key`` may act now, else the seconds until it may (nothing counted)."""
        times = self._times.get(key)
        if times is None:
            return None
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) < self.limit:
            return None
        return max(0.0, times[0] + self.window - now)

    def hit(self, key: str, now: float) -> float | None:
        """Count an event for ``key`` if it is allowed: ``None``, else the seconds to wait."""
        wait = self.check(key, now)
        if wait is not None:
            return wait
        times = self._times.get(key)
        if times is None:
            if len(self._times) >= self.keys:
                self._forget(now)
            times = self._times[key] = deque(maxlen=self.limit)
        times.append(now)
        return None

    def _forget(self, now: float) -> None:
        """Drop keys with nothing in the window (and, if still full, the oldest half)."""
        for key in [k for k, t in self._times.items() if not t or now - t[-1] >= self.window]:
            del self._times[key]
        if len(self._times) >= self.keys:
            for key in list(self._times)[: len(self._times) // 2]:
                del self._times[key]


class TokenBucket:
    """A rate with bursts: ``rate`` tokens a second, at most ``burst`` kept."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = now

    def take(self, now: float) -> bool:
        """Spend a token if there is one."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


def wait_text(seconds: float) -> str:
    """``seconds`` as a person reads a wait: "a few seconds", "2 minutes"."""
    if seconds < 10:
        return "a few seconds"
    if seconds < 90:
        return f"{math.ceil(seconds / 10) * 10} seconds"
    return f"{math.ceil(seconds / 60)} minutes"


__all__ = [
    "Counter",
    "Guesses",
    "Limits",
    "RateLimiter",
    "ServerBusy",
    "TokenBucket",
    "TooMany",
    "changed_limits",
    "wait_text",
]
