"""Typed events: every effect of an action is data (DESIGN.md principle 5).

The same events feed the log, ``bonepile watch``, views (after :meth:`Event.redact`) and the UIs.
Only :class:`Drew` and :class:`Discarded` carry hidden information: the tiles drawn or put in
the pit, which only their player may see.
"""

from __future__ import annotations

from typing import Any

from bonepile.result import Result
from bonepile.tiles import Tile


class Event:
    """Base class of every event; fields are listed in ``__slots__``."""

    __slots__ = ()

    def _fields(self) -> tuple[str, ...]:
        fields: tuple[str, ...] = type(self).__slots__
        return fields

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self._fields())

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Event)
            and type(other) is type(self)
            and (self._values() == other._values())
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, *self._values()))

    def __repr__(self) -> str:
        args = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields())
        return f"{type(self).__name__}({args})"

    def redact(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (``None``: a spectator)."""
        return self

    def describe(self) -> str:
        """One line of English for logs and ``bonepile watch``."""
        return repr(self)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict with a ``type`` key."""
        out: dict[str, Any] = {"type": _snake(type(self).__name__)}
        for f in self._fields():
            v = getattr(self, f)
            if isinstance(v, Tile):
                v = str(v)
            elif isinstance(v, tuple) and v and isinstance(v[0], Tile):
                v = [str(t) for t in v]
            elif isinstance(v, Result):
                v = v.to_json()
            out[f] = v
        return out


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


class Led(Event):
    """``seat`` led ``tile``: the first tile of the layout (the Super Dominoes starter)."""

    __slots__ = ("seat", "tile")

    def __init__(self, seat: int, tile: Tile) -> None:
        self.seat = seat
        self.tile = tile

    def describe(self) -> str:
        return f"P{self.seat} leads {self.tile}"


class Placed(Event):
    """``seat`` attached ``tile`` to layout tile ``at``, matching ``matched``; ``open`` is left."""

    __slots__ = ("at", "matched", "open", "seat", "tile")

    def __init__(self, seat: int, tile: Tile, at: Tile, matched: int, open: int) -> None:
        self.seat = seat
        self.tile = tile
        self.at = at
        self.matched = matched
        self.open = open

    def describe(self) -> str:
        return f"P{self.seat} plays {self.tile} on {self.at} (open end {self.open})"


class Drew(Event):
    """``seat`` drew ``count`` tiles; ``tiles`` is ``None`` for anyone but the drawer.

    ``cause`` says why: ``unable`` (could not play), ``fifteen`` (a 15 was played),
    ``starter`` (a 15-15 starter), ``opening`` (nobody held a double); in Double Double
    Dominoes ``turn`` (the draw that starts a turn) and ``refill`` (back to three).
    """

    __slots__ = ("cause", "count", "seat", "tiles")

    def __init__(self, seat: int, count: int, tiles: tuple[Tile, ...] | None, cause: str) -> None:
        self.seat = seat
        self.count = count
        self.tiles = tiles
        self.cause = cause

    def redact(self, seat: int | None) -> Event:
        if seat == self.seat or self.tiles is None:
            return self
        return Drew(self.seat, self.count, None, self.cause)

    def describe(self) -> str:
        what = f"{self.count} tile{'s' if self.count != 1 else ''}"
        if self.tiles is not None:
            what += " (" + ", ".join(str(t) for t in self.tiles) + ")"
        why = {
            "unable": "",
            "fifteen": " because of a 15",
            "starter": " because of the 15-15 starter",
            "opening": " looking for a double",
            "turn": " to start the turn",
            "refill": " to refill the hand",
        }.get(self.cause, "")
        return f"P{self.seat} draws {what}{why}"


class Passed(Event):
    """``seat`` ended its turn without placing a tile."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def describe(self) -> str:
        return f"P{self.seat} passes"


class Skipped(Event):
    """``seat`` lost its turn (a forfeit, not a pass)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def describe(self) -> str:
        return f"P{self.seat} loses a turn"


class Reversed(Event):
    """The direction of play reversed; ``direction`` is the new one (+1 or -1)."""

    __slots__ = ("direction", "seat")

    def __init__(self, seat: int, direction: int) -> None:
        self.seat = seat
        self.direction = direction

    def describe(self) -> str:
        way = "clockwise" if self.direction > 0 else "counter-clockwise"
        return f"direction reversed: play now goes {way}"


class SpellCast(Event):
    """``seat`` cast a spell on the end of layout tile ``at`` (the starter for a starter spell)."""

    __slots__ = ("at", "seat", "starter")

    def __init__(self, seat: int, at: Tile, starter: bool) -> None:
        self.seat = seat
        self.at = at
        self.starter = starter

    def describe(self) -> str:
        if self.starter:
            return f"P{self.seat}'s 13-13 starter casts a spell on the empty arms"
        return f"P{self.seat} casts a spell on the 13 end of {self.at}"


class SpellEnded(Event):
    """The spell ended: ``how`` is ``broken``, ``arms_started``, ``caster_turn`` or ``replaced``."""

    __slots__ = ("how", "seat")

    def __init__(self, seat: int, how: str) -> None:
        self.seat = seat
        self.how = how

    def describe(self) -> str:
        text = {
            "broken": f"P{self.seat} breaks the spell",
            "arms_started": f"P{self.seat} ends the starter spell",
            "caster_turn": f"the spell of P{self.seat} lapses on its turn",
            "replaced": f"P{self.seat}'s new spell replaces the old one",
        }
        return text.get(self.how, f"spell ended ({self.how})")


class ExtraTurn(Event):
    """``seat`` takes another turn at once (a 14)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def describe(self) -> str:
        return f"P{self.seat} takes an extra turn"


class PlacedOnBoard(Event):
    """Double Double Dominoes: ``seat`` put ``tile`` on the board, pips ``p`` on ``cell1`` and
    ``q`` on ``cell2`` (cells in notation, ``"8H"``); ``chain`` when it continued a double."""

    __slots__ = ("cell1", "cell2", "chain", "p", "q", "seat", "tile")

    def __init__(
        self, seat: int, tile: Tile, p: int, q: int, cell1: str, cell2: str, chain: bool
    ) -> None:
        self.seat = seat
        self.tile = tile
        self.p = p
        self.q = q
        self.cell1 = cell1
        self.cell2 = cell2
        self.chain = chain

    def describe(self) -> str:
        how = " next to the double" if self.chain else ""
        where = f"{self.p} on {self.cell1}, {self.q} on {self.cell2}"
        return f"P{self.seat} places {self.tile}{how}: {where}"


class Scored(Event):
    """``seat`` scored ``points`` (``kind``: ``diamond`` or ``bonus``) and now stands at
    ``position`` on the score track."""

    __slots__ = ("kind", "points", "position", "seat")

    def __init__(self, seat: int, points: int, kind: str, position: int) -> None:
        self.seat = seat
        self.points = points
        self.kind = kind
        self.position = position

    def describe(self) -> str:
        what = "for the diamond" if self.kind == "diamond" else "track bonus"
        return f"P{self.seat} scores {self.points} ({what}), now at {self.position}"


class Discarded(Event):
    """``seat`` put ``tile`` into the pit, face down (``None`` for every other seat)."""

    __slots__ = ("seat", "tile")

    def __init__(self, seat: int, tile: Tile | None) -> None:
        self.seat = seat
        self.tile = tile

    def redact(self, seat: int | None) -> Event:
        if seat == self.seat or self.tile is None:
            return self
        return Discarded(self.seat, None)

    def describe(self) -> str:
        what = "a tile" if self.tile is None else str(self.tile)
        return f"P{self.seat} discards {what} into the pit"


class ChainStopped(Event):
    """``seat`` chose not to continue its double chain."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def describe(self) -> str:
        return f"P{self.seat} stops the chain"


class HandEnded(Event):
    """The hand is over with ``result``."""

    __slots__ = ("result",)

    def __init__(self, result: Result) -> None:
        self.result = result

    def describe(self) -> str:
        r = self.result
        if r.reason in ("victory_total", "last_draw", "board_full"):  # scores are on the track
            who = " and ".join(f"P{w}" for w in r.winners) or "nobody"
            return f"game over ({r.reason}): {who} win{'s' if len(r.winners) == 1 else ''}"
        if r.winners:
            who = " and ".join(f"P{w}" for w in r.winners)
            pts = max(r.points) if r.points else 0
            return f"hand over ({r.reason}): {who} win{'s' if len(r.winners) == 1 else ''} {pts}"
        return f"hand over ({r.reason}): no winner"
