"""Typed actions with a parse/format pair (docs/records.md, "Notation").

``parse_action(str(a)) is a`` for every action, including a redacted one (``discard ?``, the
discard another seat sees). Actions are small immutable values; the rules hand out interned
instances, so comparing the actions of :meth:`State.legal_actions` is cheap, and ``pickle`` and
``copy`` give back the very same instance (an action crosses the wire as its notation).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bonepile.errors import InvalidActionError, quoted
from bonepile.grid import format_cell, parse_cell
from bonepile.tiles import MAX_NOTATION, MAX_PIP_LIMIT, TILES, Tile, parse_tile


class Action:
    """Base class of every action. ``str(action)`` is its canonical notation."""

    __slots__ = ()

    # Every action is interned (constructors return cached instances), so equality and
    # hashing by identity are value equality, at C speed.

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (parse_action, (str(self),))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse any action (see :func:`parse_action`)."""
        return parse_action(text)

    def redacted(self) -> Action:
        """This action as the other seats see it (only a discard hides anything)."""
        return self


class Lead(Action):
    """Lead ``tile``: it becomes the first tile of the layout. Written ``T``."""

    __slots__ = ("tile",)
    tile: Tile
    _cache: ClassVar[dict[int, Lead]] = {}

    def __new__(cls, tile: Tile) -> Lead:
        try:
            return cls._cache[tile.index]
        except KeyError:
            self = object.__new__(cls)
            object.__setattr__(self, "tile", tile)
            cls._cache[tile.index] = self
            return self

    def __str__(self) -> str:
        return str(self.tile)

    def __repr__(self) -> str:
        return f"Lead({self.tile!r})"


class Attach(Action):
    """Attach ``tile`` to the open end offered by layout tile ``at``. Written ``T@U``."""

    __slots__ = ("at", "bit", "tile")
    tile: Tile
    at: Tile
    bit: int
    """``1 << tile.index``: the tile's bit in a hand mask (for the rules' hot paths)."""
    _cache: ClassVar[dict[int, Attach]] = {}

    def __new__(cls, tile: Tile, at: Tile) -> Attach:
        key = (tile.index << 8) | at.index
        try:
            return cls._cache[key]
        except KeyError:
            self = object.__new__(cls)
            object.__setattr__(self, "tile", tile)
            object.__setattr__(self, "at", at)
            object.__setattr__(self, "bit", 1 << tile.index)
            cls._cache[key] = self
            return self

    def __str__(self) -> str:
        return f"{self.tile}@{self.at}"

    def __repr__(self) -> str:
        return f"Attach({self.tile!r}, {self.at!r})"


class Draw(Action):
    """Draw as many tiles as the rules say for this turn. Written ``draw``."""

    __slots__ = ()
    _instance: ClassVar[Draw | None] = None

    def __new__(cls) -> Draw:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return "Draw()"


class Pass(Action):
    """End the turn without placing a tile. Written ``pass``."""

    __slots__ = ()
    _instance: ClassVar[Pass | None] = None

    def __new__(cls) -> Pass:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


class Place(Action):
    """Double Double Dominoes: put pips ``p`` on ``cell1`` and ``q`` on ``cell2``.

    Cells are zero-based ``(row, col)`` pairs, ``cell1`` before ``cell2`` in reading order;
    written ``P-Q@C1C2`` (``3-6@8G8H``), the pips in cell order. ``tile`` is the tile placed.
    """

    __slots__ = ("cell1", "cell2", "p", "q", "tile")
    p: int
    q: int
    cell1: tuple[int, int]
    cell2: tuple[int, int]
    tile: Tile
    _cache: ClassVar[dict[tuple[int, int, int, int, int, int], Place]] = {}

    def __new__(cls, p: int, q: int, cell1: tuple[int, int], cell2: tuple[int, int]) -> Place:
        if cell2 < cell1:
            p, q, cell1, cell2 = q, p, cell2, cell1
        key = (p, q, cell1[0], cell1[1], cell2[0], cell2[1])
        try:
            return cls._cache[key]
        except KeyError:
            pass
        (r1, c1), (r2, c2) = cell1, cell2
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            raise InvalidActionError(
                f"{format_cell(r1, c1)} and {format_cell(r2, c2)} are not adjacent cells"
            )
        self = object.__new__(cls)
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "q", q)
        object.__setattr__(self, "cell1", cell1)
        object.__setattr__(self, "cell2", cell2)
        object.__setattr__(self, "tile", Tile(p, q))
        cls._cache[key] = self
        return self

    def __str__(self) -> str:
        return f"{self.p}-{self.q}@{format_cell(*self.cell1)}{format_cell(*self.cell2)}"

    def __repr__(self) -> str:
        return f"Place({self.p}, {self.q}, {self.cell1}, {self.cell2})"


class Discard(Action):
    """Double Double Dominoes: put ``tile`` from hand into the pit. Written ``discard T``.

    In another seat's view the tile is hidden (``tile`` is ``None``, written ``discard ?``, which
    :func:`parse_action` reads back; no rule offers it, and a game record refuses it).
    """

    __slots__ = ("tile",)
    tile: Tile | None
    _cache: ClassVar[dict[int, Discard]] = {}

    def __new__(cls, tile: Tile | None) -> Discard:
        key = -1 if tile is None else tile.index
        try:
            return cls._cache[key]
        except KeyError:
            self = object.__new__(cls)
            object.__setattr__(self, "tile", tile)
            cls._cache[key] = self
            return self

    def __str__(self) -> str:
        return f"discard {'?' if self.tile is None else self.tile}"

    def __repr__(self) -> str:
        return f"Discard({self.tile!r})"

    def redacted(self) -> Action:
        return Discard(None)


class Stop(Action):
    """Double Double Dominoes: decline to continue a double chain. Written ``stop``."""

    __slots__ = ()
    _instance: ClassVar[Stop | None] = None

    def __new__(cls) -> Stop:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "stop"

    def __repr__(self) -> str:
        return "Stop()"


DRAW = Draw()
PASS = Pass()
STOP = Stop()
HIDDEN_DISCARD = Discard(None)
"""A discard as the other seats see it (``discard ?``): in views, never a legal action."""

LEAD_BY_INDEX: tuple[Lead, ...] = tuple(Lead(t) for t in TILES)
"""``LEAD_BY_INDEX[i]``: the interned lead of the tile with index ``i``."""


_WORD_RE = re.compile(r"^\s*(draw|pass|stop)\s*$", re.IGNORECASE)
_DISCARD_RE = re.compile(r"^\s*discard\s+(.+)$", re.IGNORECASE)
_PLACE_RE = re.compile(
    r"^\s*(\d{1,2})\s*[-|:]\s*(\d{1,2})\s*@\s*(\d{1,2}\s*[A-Za-z])\s*(\d{1,2}\s*[A-Za-z])\s*$"
)
_WORDS: dict[str, Action] = {"draw": DRAW, "pass": PASS, "stop": STOP}


def parse_action(text: str) -> Action:
    """Parse an action in bonepile notation; raise :class:`InvalidActionError` on bad syntax.

    Syntax only: whether the action is legal is for the rules to say.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action must be a string, got {quoted(text)}")
    if len(text) > MAX_NOTATION:
        raise InvalidActionError(
            f"{quoted(text)} is not an action (longer than {MAX_NOTATION} characters)"
        )
    m = _WORD_RE.match(text)
    if m:
        return _WORDS[m.group(1).lower()]
    m = _DISCARD_RE.match(text)
    if m:
        if m.group(1).strip() == "?":
            return HIDDEN_DISCARD
        try:
            return Discard(parse_tile(m.group(1)))
        except InvalidActionError:
            raise InvalidActionError(
                f"{quoted(text)} is not an action (expected 'discard T' with a tile, "
                "e.g. 'discard 6-4', or 'discard ?')"
            ) from None
    m = _PLACE_RE.match(text)
    if m:
        p, q = int(m.group(1)), int(m.group(2))
        if p > MAX_PIP_LIMIT or q > MAX_PIP_LIMIT:
            raise InvalidActionError(f"{quoted(text)} is not an action (pips run from 0 to 18)")
        return Place(
            p, q, parse_cell(m.group(3).replace(" ", "")), parse_cell(m.group(4).replace(" ", ""))
        )
    if "@" in text:
        left, _, right = text.partition("@")
        try:
            return Attach(parse_tile(left), parse_tile(right))
        except InvalidActionError:
            raise InvalidActionError(
                f"{quoted(text)} is not an action (expected T@U with two tiles, e.g. '6-4@6-6')"
            ) from None
    try:
        return Lead(parse_tile(text))
    except InvalidActionError:
        raise InvalidActionError(
            f"{quoted(text)} is not an action (expected a tile like '6-6', 'T@U', 'draw' or 'pass')"
        ) from None
