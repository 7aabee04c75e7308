"""Typed events: every effect of an action is data.

The same events feed the log, ``bonepile watch``, views (after :meth:`Event.redact`) and the UIs.
Only :class:`Drew` and :class:`Discarded` carry hidden information: the tiles drawn or put in
the pit, which only their player may see.

Events are immutable values. On the wire an event is a JSON object: its class's :attr:`~Event.TYPE`
under ``"type"``, then one key per field (:attr:`~Event.FIELDS`), each encoded by its kind:
``int`` and ``bool`` as themselves, ``str`` a string, ``tile`` a tile string (``"6-4"``),
``tile?`` a tile string or ``null``, ``tiles?`` a list of tile strings or ``null``, ``cell`` a
zero-based ``[row, col]`` pair, ``result`` a :class:`~bonepile.result.Result` object.
:meth:`Event.from_json` reads every event back: ``Event.from_json(e.to_json()) == e``.
:data:`EVENT_TYPES` lists every event class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

from bonepile.errors import BonepileError, WireError, shown
from bonepile.grid import format_cell
from bonepile.result import Result
from bonepile.tiles import Tile, parse_tile

Cell = tuple[int, int]
"""A zero-based ``(row, col)`` board cell (as in :class:`~bonepile.actions.Place`)."""


class Event:
    """Base class of every event.

    Each class names its JSON ``type`` (:attr:`TYPE`) and its fields with their wire kinds
    (:attr:`FIELDS`, in constructor order); ``__slots__`` holds the same fields.
    """

    __slots__ = ()

    TYPE: ClassVar[str] = ""
    """The ``"type"`` of the event's JSON object (``"drew"``, ``"placed_on_board"``, ...)."""
    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()
    """``(name, kind)`` of every field, in constructor order (kinds: see the module doc)."""

    def __init__(self, *values: Any) -> None:
        fields = type(self).FIELDS
        if len(values) != len(fields):
            raise TypeError(f"{type(self).__name__} takes {len(fields)} values, got {len(values)}")
        for (name, _), value in zip(fields, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._values())

    def __copy__(self) -> Event:
        return self

    def __deepcopy__(self, memo: object) -> Event:
        return self

    def _fields(self) -> tuple[str, ...]:
        return tuple(name for name, _ in type(self).FIELDS)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name, _ in type(self).FIELDS)

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
        """This event as ``seat`` may see it (``None``: a spectator): the event itself when it
        hides nothing from ``seat``, and a seat never sees less than a spectator (the history
        a step keeps relies on both)."""
        return self

    def sole_viewer(self) -> int | None:
        """The one seat that sees this event whole when every other seat and a spectator see
        ``redact(None)`` of it, or ``None`` if the class does not say (the history then asks
        :meth:`redact` seat by seat: this only saves that work)."""
        return None

    def describe(self) -> str:
        """One line of English for logs and ``bonepile watch``."""
        return repr(self)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"type": TYPE, field: value, ...}`` (see the module doc)."""
        out: dict[str, Any] = {"type": self.TYPE}
        for name, kind in type(self).FIELDS:
            out[name] = _ENCODE[kind](getattr(self, name))
        return out

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """The event whose :meth:`to_json` is ``data`` (any event class, by its ``"type"``).

        Called on a subclass, ``data`` must be an event of that class. An unknown type, a
        missing or unknown key or a value of the wrong type raises
        :class:`~bonepile.errors.WireError` with a one-line message.
        """
        if not isinstance(data, Mapping):
            raise WireError(f"event: expected a JSON object, got {shown(data)}")
        if "type" not in data:
            raise WireError(f'event: missing key "type" in {shown(data)}')
        name = data["type"]
        kind = _BY_TYPE.get(name) if isinstance(name, str) else None
        if kind is None:
            known = ", ".join(_BY_TYPE)
            raise WireError(f"event: unknown type {shown(name)} (known: {known})")
        if cls is not Event and kind is not cls:
            raise WireError(f"event: expected type {shown(cls.TYPE)}, got {shown(name)}")
        allowed = ("type", *(f for f, _ in kind.FIELDS))
        for key in data:
            if key not in allowed:
                raise WireError(
                    f"event {name}: unknown key {shown(key)} (allowed: {', '.join(allowed)})"
                )
        values = []
        for field, fkind in kind.FIELDS:
            if field not in data:
                raise WireError(f"event {name}: missing key {shown(field)}")
            try:
                values.append(_DECODE[fkind](data[field]))
            except _Bad as e:
                got = shown(data[field])
                raise WireError(f"event {name}: {field} must be {e}, got {got}") from None
            except WireError as nested:  # a nested result: "result: why"
                why = str(nested).removeprefix("result: ")
                raise WireError(f"event {name}: {field}: {why}") from None
        event = kind(*values)
        event._check()
        return event

    def _check(self) -> None:
        """Raise :class:`WireError` when the fields, each of the right kind, do not agree."""
        if getattr(self, "seat", 0) < 0:
            raise WireError(f"event {self.TYPE}: seat must not be negative")


# ------------------------------------------------------------------------ field codecs
class _Bad(Exception):
    """A field value of the wrong kind; the message says what was expected."""


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad("an integer")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad("true or false")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad("a string")
    return value


def _tile(value: Any) -> Tile:
    if isinstance(value, str):
        try:
            return parse_tile(value)
        except BonepileError:
            pass
    raise _Bad('a tile string like "6-4"')


def _tile_or_none(value: Any) -> Tile | None:
    if value is None:
        return None
    try:
        return _tile(value)
    except _Bad:
        raise _Bad('a tile string like "6-4" or null') from None


def _tiles_or_none(value: Any) -> tuple[Tile, ...] | None:
    if value is None:
        return None
    try:
        if isinstance(value, list | tuple):
            return tuple(_tile(t) for t in value)
    except _Bad:
        pass
    raise _Bad('a list of tile strings like "6-4", or null')


def _cell(value: Any) -> Cell:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(not isinstance(x, bool) and isinstance(x, int) and x >= 0 for x in value)
    ):
        return (value[0], value[1])
    raise _Bad("a [row, col] pair of non-negative integers")


def _result(value: Any) -> Result:
    return Result.from_json(value)


def _same(value: Any) -> Any:
    return value


_DECODE: Final[dict[str, Callable[[Any], Any]]] = {
    "int": _int,
    "bool": _bool,
    "str": _str,
    "tile": _tile,
    "tile?": _tile_or_none,
    "tiles?": _tiles_or_none,
    "cell": _cell,
    "result": _result,
}

_ENCODE: Final[dict[str, Callable[[Any], Any]]] = {
    "int": _same,
    "bool": _same,
    "str": _same,
    "tile": str,
    "tile?": lambda t: None if t is None else str(t),
    "tiles?": lambda ts: None if ts is None else [str(t) for t in ts],
    "cell": list,
    "result": Result.to_json,
}


# ------------------------------------------------------------------------ the events
class Led(Event):
    """``seat`` led ``tile``: the first tile of the layout (the Super Dominoes starter).

    JSON: ``{"type": "led", "seat": 0, "tile": "6-6"}``.
    """

    __slots__ = ("seat", "tile")
    TYPE = "led"
    FIELDS = (("seat", "int"), ("tile", "tile"))
    seat: int
    tile: Tile

    def __init__(self, seat: int, tile: Tile) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)

    def describe(self) -> str:
        return f"P{self.seat} leads {self.tile}"


class Placed(Event):
    """``seat`` attached ``tile`` to layout tile ``at``, matching ``matched``; ``open`` is left.

    JSON: ``{"type": "placed", "seat": 1, "tile": "6-4", "at": "6-6", "matched": 6,
    "open": 4}``.
    """

    __slots__ = ("at", "matched", "open", "seat", "tile")
    TYPE = "placed"
    FIELDS = (
        ("seat", "int"),
        ("tile", "tile"),
        ("at", "tile"),
        ("matched", "int"),
        ("open", "int"),
    )
    seat: int
    tile: Tile
    at: Tile
    matched: int
    open: int

    def __init__(self, seat: int, tile: Tile, at: Tile, matched: int, open: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "matched", matched)
        object.__setattr__(self, "open", open)

    def describe(self) -> str:
        return f"P{self.seat} plays {self.tile} on {self.at} (open end {self.open})"


class Drew(Event):
    """``seat`` drew ``count`` tiles; ``tiles`` is ``None`` for anyone but the drawer.

    ``cause`` says why: ``unable`` (could not play), ``fifteen`` (a 15 was played),
    ``starter`` (a 15-15 starter), ``opening`` (nobody held a double); in Double Double
    Dominoes ``turn`` (the draw that starts a turn) and ``refill`` (back to three).

    JSON: ``{"type": "drew", "seat": 0, "count": 2, "tiles": ["6-4", "3-1"], "cause":
    "fifteen"}``, ``"tiles": null`` when redacted.
    """

    __slots__ = ("cause", "count", "seat", "tiles")
    TYPE = "drew"
    FIELDS = (("seat", "int"), ("count", "int"), ("tiles", "tiles?"), ("cause", "str"))
    seat: int
    count: int
    tiles: tuple[Tile, ...] | None
    cause: str

    def __init__(self, seat: int, count: int, tiles: tuple[Tile, ...] | None, cause: str) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "cause", cause)

    def _check(self) -> None:
        super()._check()
        if self.count < 0:
            raise WireError("event drew: count must not be negative")
        if self.tiles is not None and len(self.tiles) != self.count:
            n = len(self.tiles)
            raise WireError(f"event drew: tiles has {n} tiles for a count of {self.count}")

    def redact(self, seat: int | None) -> Event:
        if (seat is not None and seat == self.seat) or self.tiles is None:
            return self
        # one shared value: a history keeps it once for every seat
        by_cause = _HIDDEN_DREW.get(self.cause)
        if by_cause is None:
            by_cause = _HIDDEN_DREW[self.cause] = {}
        key = self.count << 6 | self.seat  # seats < 64: a small int (no object) for small counts
        hidden = by_cause.get(key)
        if hidden is None:
            if len(by_cause) > 10_000:
                by_cause.clear()
            hidden = by_cause[key] = Drew(self.seat, self.count, None, self.cause)
        return hidden

    def sole_viewer(self) -> int | None:
        return self.seat

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
    """``seat`` ended its turn without placing a tile.

    JSON: ``{"type": "passed", "seat": 2}``.
    """

    __slots__ = ("seat",)
    TYPE = "passed"
    FIELDS = (("seat", "int"),)
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)

    def describe(self) -> str:
        return f"P{self.seat} passes"


class Skipped(Event):
    """``seat`` lost its turn (a forfeit, not a pass).

    JSON: ``{"type": "skipped", "seat": 1}``.
    """

    __slots__ = ("seat",)
    TYPE = "skipped"
    FIELDS = (("seat", "int"),)
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)

    def describe(self) -> str:
        return f"P{self.seat} loses a turn"


class Reversed(Event):
    """The direction of play reversed; ``direction`` is the new one (+1 or -1).

    JSON: ``{"type": "reversed", "seat": 0, "direction": -1}``.
    """

    __slots__ = ("direction", "seat")
    TYPE = "reversed"
    FIELDS = (("seat", "int"), ("direction", "int"))
    seat: int
    direction: int

    def __init__(self, seat: int, direction: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "direction", direction)

    def describe(self) -> str:
        way = "clockwise" if self.direction > 0 else "counter-clockwise"
        return f"direction reversed: play now goes {way}"


class SpellCast(Event):
    """``seat`` cast a spell on the end of layout tile ``at`` (the starter for a starter spell).

    JSON: ``{"type": "spell_cast", "seat": 0, "at": "13-4", "starter": false}``.
    """

    __slots__ = ("at", "seat", "starter")
    TYPE = "spell_cast"
    FIELDS = (("seat", "int"), ("at", "tile"), ("starter", "bool"))
    seat: int
    at: Tile
    starter: bool

    def __init__(self, seat: int, at: Tile, starter: bool) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "starter", starter)

    def describe(self) -> str:
        if self.starter:
            return f"P{self.seat}'s 13-13 starter casts a spell on the empty arms"
        return f"P{self.seat} casts a spell on the 13 end of {self.at}"


class SpellEnded(Event):
    """The spell ended: ``how`` is ``broken``, ``arms_started``, ``caster_turn`` or ``replaced``.

    JSON: ``{"type": "spell_ended", "seat": 1, "how": "broken"}``.
    """

    __slots__ = ("how", "seat")
    TYPE = "spell_ended"
    FIELDS = (("seat", "int"), ("how", "str"))
    seat: int
    how: str

    def __init__(self, seat: int, how: str) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "how", how)

    def describe(self) -> str:
        text = {
            "broken": f"P{self.seat} breaks the spell",
            "arms_started": f"P{self.seat} ends the starter spell",
            "caster_turn": f"the spell of P{self.seat} lapses on its turn",
            "replaced": f"P{self.seat}'s new spell replaces the old one",
        }
        return text.get(self.how, f"spell ended ({self.how})")


class ExtraTurn(Event):
    """``seat`` takes another turn at once (a 14).

    JSON: ``{"type": "extra_turn", "seat": 0}``.
    """

    __slots__ = ("seat",)
    TYPE = "extra_turn"
    FIELDS = (("seat", "int"),)
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)

    def describe(self) -> str:
        return f"P{self.seat} takes an extra turn"


class PlacedOnBoard(Event):
    """Double Double Dominoes: ``seat`` put ``tile`` on the board, pips ``p`` on ``cell1`` and
    ``q`` on ``cell2`` (zero-based ``(row, col)`` cells, as in
    :class:`~bonepile.actions.Place`); ``chain`` when it continued a double.

    JSON: ``{"type": "placed_on_board", "seat": 0, "tile": "6-3", "p": 3, "q": 6,
    "cell1": [7, 6], "cell2": [7, 7], "chain": false}`` (cells ``8G`` and ``8H``).
    """

    __slots__ = ("cell1", "cell2", "chain", "p", "q", "seat", "tile")
    TYPE = "placed_on_board"
    FIELDS = (
        ("seat", "int"),
        ("tile", "tile"),
        ("p", "int"),
        ("q", "int"),
        ("cell1", "cell"),
        ("cell2", "cell"),
        ("chain", "bool"),
    )
    seat: int
    tile: Tile
    p: int
    q: int
    cell1: Cell
    cell2: Cell
    chain: bool

    def __init__(
        self, seat: int, tile: Tile, p: int, q: int, cell1: Cell, cell2: Cell, chain: bool
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "q", q)
        object.__setattr__(self, "cell1", (cell1[0], cell1[1]))
        object.__setattr__(self, "cell2", (cell2[0], cell2[1]))
        object.__setattr__(self, "chain", chain)

    def describe(self) -> str:
        how = " next to the double" if self.chain else ""
        c1, c2 = format_cell(*self.cell1), format_cell(*self.cell2)
        where = f"{self.p} on {c1}, {self.q} on {c2}"
        return f"P{self.seat} places {self.tile}{how}: {where}"


class Scored(Event):
    """``seat`` scored ``points`` (``kind``: ``diamond`` or ``bonus``) and now stands at
    ``position`` on the score track.

    JSON: ``{"type": "scored", "seat": 1, "points": 4, "kind": "diamond", "position": 4}``.
    """

    __slots__ = ("kind", "points", "position", "seat")
    TYPE = "scored"
    FIELDS = (("seat", "int"), ("points", "int"), ("kind", "str"), ("position", "int"))
    seat: int
    points: int
    kind: str
    position: int

    def __init__(self, seat: int, points: int, kind: str, position: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "position", position)

    def describe(self) -> str:
        what = "for the diamond" if self.kind == "diamond" else "track bonus"
        return f"P{self.seat} scores {self.points} ({what}), now at {self.position}"


class Discarded(Event):
    """``seat`` put ``tile`` into the pit, face down (``None`` for every other seat).

    JSON: ``{"type": "discarded", "seat": 0, "tile": "1-0"}``, ``"tile": null`` when redacted.
    """

    __slots__ = ("seat", "tile")
    TYPE = "discarded"
    FIELDS = (("seat", "int"), ("tile", "tile?"))
    seat: int
    tile: Tile | None

    def __init__(self, seat: int, tile: Tile | None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)

    def redact(self, seat: int | None) -> Event:
        if seat == self.seat or self.tile is None:
            return self
        hidden = _HIDDEN_DISCARD.get(self.seat)
        if hidden is None:
            hidden = _HIDDEN_DISCARD[self.seat] = Discarded(self.seat, None)
        return hidden

    def sole_viewer(self) -> int | None:
        return self.seat

    def describe(self) -> str:
        what = "a tile" if self.tile is None else str(self.tile)
        return f"P{self.seat} discards {what} into the pit"


class ChainStopped(Event):
    """``seat`` chose not to continue its double chain.

    JSON: ``{"type": "chain_stopped", "seat": 1}``.
    """

    __slots__ = ("seat",)
    TYPE = "chain_stopped"
    FIELDS = (("seat", "int"),)
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)

    def describe(self) -> str:
        return f"P{self.seat} stops the chain"


class HandEnded(Event):
    """The hand is over with ``result``.

    JSON: ``{"type": "hand_ended", "result": {"reason": "domino", "winners": [0],
    "points": [12, 0]}}`` (see :meth:`Result.to_json <bonepile.result.Result.to_json>`).
    """

    __slots__ = ("result",)
    TYPE = "hand_ended"
    FIELDS = (("result", "result"),)
    result: Result

    def __init__(self, result: Result) -> None:
        object.__setattr__(self, "result", result)

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


EVENT_TYPES: Final[tuple[type[Event], ...]] = (
    Led,
    Placed,
    Drew,
    Passed,
    Skipped,
    Reversed,
    SpellCast,
    SpellEnded,
    ExtraTurn,
    PlacedOnBoard,
    Scored,
    Discarded,
    ChainStopped,
    HandEnded,
)
"""Every event class, for dispatch (:meth:`Event.from_json`) and schema generation."""

_HIDDEN_DREW: Final[dict[str, dict[int, Drew]]] = {}
"""Redacted draws by seat, count and cause (values, so one instance serves every view)."""

_HIDDEN_DISCARD: Final[dict[int, Discarded]] = {}
"""Redacted discards by seat."""

_BY_TYPE: Final[dict[str, type[Event]]] = {cls.TYPE: cls for cls in EVENT_TYPES}
