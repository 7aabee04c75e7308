"""Game-specific public facts: one frozen, typed object per game.

Every game publishes what all seats may know beyond the hands, the layout and the history (the
direction of play, a spell, pending skips, unlocked numbers, track positions, ...) as one frozen
dataclass, its :attr:`~bonepile.games.Game.Facts` class. ``State.facts`` gives it, views carry
it as ``View.public``, and renderers, bots and the sampler read its fields. Each class has
``to_json()``, ``from_json(data)`` (checked) and ``notes()`` (the facts as short English
phrases, for logs and text renderers). :class:`Reader` is the shared, checking JSON reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bonepile.errors import BonepileError, shown
from bonepile.tiles import Tile, parse_tile


class FactsError(BonepileError):
    """Public facts (or their JSON) that are not what the game publishes."""


class PublicFacts(Protocol):
    """What every game's facts class provides (see the module docstring)."""

    @property
    def first_player(self) -> int:
        """The seat that had the first decision of the hand."""
        ...

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        ...

    def notes(self) -> tuple[str, ...]:
        """The facts worth telling a player, as short English phrases."""
        ...


class Reader:
    """Reads the fields of one JSON object, each checked, naming the object in errors."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, Mapping):
            raise FactsError(f"{where}: expected an object, got {shown(data)}")
        self.data = data
        self.where = where
        self.seen: set[str] = set()

    def _get(self, key: str) -> Any:
        if key not in self.data:
            raise FactsError(f"{self.where}: {key} is missing")
        self.seen.add(key)
        return self.data[key]

    def _fail(self, key: str, what: str, value: Any) -> FactsError:
        return FactsError(f"{self.where}: {key} must be {what}, got {shown(value)}")

    def num(self, key: str, lo: int | None = 0, hi: int | None = None) -> int:
        """An integer field, at least ``lo`` (0 unless told; ``None``: no bound) and at most
        ``hi`` when given."""
        v = self._get(key)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self._fail(key, "an integer", v)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            what = f"an integer from {lo}" + (f" to {hi}" if hi is not None else "")
            raise self._fail(key, what, v)
        return v

    def opt_num(self, key: str) -> int | None:
        """An integer or null."""
        return None if self._get(key) is None else self.num(key)

    def flag(self, key: str) -> bool:
        """A boolean field."""
        v = self._get(key)
        if not isinstance(v, bool):
            raise self._fail(key, "true or false", v)
        return v

    def word(self, key: str, choices: tuple[str, ...] = ()) -> str:
        """A string field (one of ``choices`` when given)."""
        v = self._get(key)
        if not isinstance(v, str) or (choices and v not in choices):
            raise self._fail(key, "one of " + ", ".join(choices) if choices else "a string", v)
        return v

    def ints(self, key: str, lo: int = 0) -> tuple[int, ...]:
        """A list of integers, each at least ``lo``."""
        v = self._get(key)
        if not isinstance(v, list) or any(
            isinstance(x, bool) or not isinstance(x, int) or x < lo for x in v
        ):
            raise self._fail(key, f"a list of integers from {lo}", v)
        return tuple(v)

    def opt_ints(self, key: str) -> tuple[int | None, ...]:
        """A list of integers or nulls."""
        v = self._get(key)
        if not isinstance(v, list) or any(
            x is not None and (isinstance(x, bool) or not isinstance(x, int)) for x in v
        ):
            raise self._fail(key, "a list of integers or nulls", v)
        return tuple(v)

    def opt_tile(self, key: str) -> Tile | None:
        """A tile in notation, or null."""
        v = self._get(key)
        if v is None:
            return None
        try:
            return parse_tile(v)
        except ValueError:
            raise self._fail(key, "a tile", v) from None

    def sub(self, key: str) -> Reader | None:
        """A nested object (``None`` for null)."""
        v = self._get(key)
        return None if v is None else Reader(v, f"{self.where}.{key}")

    def raw(self, key: str) -> Any:
        """A field, unchecked (the caller checks it)."""
        return self._get(key)

    def done(self) -> None:
        """Refuse any key that was not read."""
        extra = sorted(str(k) for k in self.data if k not in self.seen)
        if extra:
            raise FactsError(f"{self.where}: unknown key {shown(extra[0])}")


def seats_text(seats: tuple[int, ...]) -> str:
    """``(0, 2)`` -> ``"P0 and P2"``."""
    return " and ".join(f"P{s}" for s in seats) or "nobody"
