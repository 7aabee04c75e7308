"""Where a table stands in a site of several processes (see :mod:`bonepile.server.site.site`):
kept on every table in memory, owned alone when the server serves alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MOVING = "the table is moving to another server; your move will be sent again"
"""What a player is told while a table changes hands."""
TAKEOVER_PAUSE = 8.0
"""Seconds a clock is given back when a table is taken over from a process that died (about
the longest nobody could move: the dead process's lease and the next look for its tables)."""


@dataclass
class Remote:
    """What another process has at a table: sockets per seat and watchers."""

    seats: list[int]
    watchers: int


@dataclass
class SiteTable:
    """A table's place in the site: whether this process owns it, the epoch it writes under,
    who owns it otherwise, and (on the owner) what the other processes have at it."""

    owned: bool = True
    epoch: int = 0
    owner: str | None = None
    remote: dict[str, Remote] = field(default_factory=dict)
    watchers: int = 0
    """On a replica: how many watch the table on the whole site (the owner's count)."""
    line: dict[str, Any] | None = None
    """On the owner: the lobby line last sent for the table."""
    counted: list[int] = field(default_factory=list)
    """On the owner: the other processes' sockets per seat, as counted into the room."""


__all__ = ["MOVING", "TAKEOVER_PAUSE", "Remote", "SiteTable"]
