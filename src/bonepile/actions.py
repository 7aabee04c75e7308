"""Typed actions with a parse/format pair (FORMATS.md section 1).

``parse_action(str(a)) == a`` for every action. Actions are small immutable values; the rules
hand out interned instances, so comparing the actions of :meth:`State.legal_actions` is cheap.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from bonepile.errors import InvalidActionError
from bonepile.tiles import TILES, Tile, parse_tile


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


DRAW = Draw()
PASS = Pass()

LEAD_BY_INDEX: tuple[Lead, ...] = tuple(Lead(t) for t in TILES)
"""``LEAD_BY_INDEX[i]``: the interned lead of the tile with index ``i``."""


_WORD_RE = re.compile(r"^\s*(draw|pass)\s*$", re.IGNORECASE)


def parse_action(text: str) -> Action:
    """Parse an action in bonepile notation; raise :class:`InvalidActionError` on bad syntax.

    Syntax only: whether the action is legal is for the rules to say.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action must be a string, got {text!r}")
    m = _WORD_RE.match(text)
    if m:
        return DRAW if m.group(1).lower() == "draw" else PASS
    if "@" in text:
        left, _, right = text.partition("@")
        try:
            return Attach(parse_tile(left), parse_tile(right))
        except InvalidActionError:
            raise InvalidActionError(
                f"{text!r} is not an action (expected T@U with two tiles, e.g. '6-4@6-6')"
            ) from None
    try:
        return Lead(parse_tile(text))
    except InvalidActionError:
        raise InvalidActionError(
            f"{text!r} is not an action (expected a tile like '6-6', 'T@U', 'draw' or 'pass')"
        ) from None
