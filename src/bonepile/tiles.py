"""Tiles, tile sets and the bit masks the rules use for speed.

A :class:`Tile` is an unordered pair of pip values, written ``H-L`` with the higher half first.
Tiles are interned: ``Tile(4, 6) is Tile(6, 4)``. Every tile has a small integer
:attr:`Tile.index` (``hi * (hi + 1) // 2 + lo``) that is the same in every set size, so a double-6
set is indices ``0..27`` and a double-15 set ``0..135``. Hands are bit masks over these indices.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import ClassVar

from bonepile.errors import DealError, InvalidActionError, quoted
from bonepile.masks import bits as bits
from bonepile.masks import mask_pips as mask_pips

MAX_PIP_LIMIT = 18
"""The largest double-N set bonepile supports."""


class Tile:
    """An interned domino tile; ``hi >= lo``. Construct with ``Tile(a, b)`` in either order."""

    __slots__ = ("hi", "index", "lo", "pips")
    _cache: ClassVar[dict[tuple[int, int], Tile]] = {}
    hi: int
    lo: int
    index: int
    pips: int

    def __new__(cls, a: int, b: int) -> Tile:
        try:
            return cls._cache[(a, b)]
        except (KeyError, TypeError):
            pass
        if (
            not (isinstance(a, int) and isinstance(b, int))
            or isinstance(a, bool)
            or isinstance(b, bool)
        ):
            raise TypeError(f"tile halves must be ints, got {a!r} and {b!r}")
        if not (0 <= a <= MAX_PIP_LIMIT and 0 <= b <= MAX_PIP_LIMIT):
            raise ValueError(f"tile halves must lie in 0..{MAX_PIP_LIMIT}, got {a} and {b}")
        hi, lo = (a, b) if a >= b else (b, a)
        self = object.__new__(cls)
        object.__setattr__(self, "hi", hi)
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "index", hi * (hi + 1) // 2 + lo)
        object.__setattr__(self, "pips", hi + lo)
        cls._cache[(a, b)] = self
        cls._cache[(b, a)] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.hi, self.lo))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    @property
    def is_double(self) -> bool:
        """True for a double such as ``6-6``."""
        return self.hi == self.lo

    def has(self, value: int) -> bool:
        """True when either half shows ``value``."""
        return self.hi == value or self.lo == value

    def other(self, value: int) -> int:
        """The half left open when the half showing ``value`` is matched."""
        if self.hi == value:
            return self.lo
        if self.lo == value:
            return self.hi
        raise ValueError(f"{self} has no {value}")

    def rank_key(self) -> tuple[int, int]:
        """Ordering key for "heaviest tile": pip total, then the higher half."""
        return (self.pips, self.hi)

    def __str__(self) -> str:
        return f"{self.hi}-{self.lo}"

    def __repr__(self) -> str:
        return f"Tile({self.hi}, {self.lo})"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __le__(self, other: Tile) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Tile) -> bool:
        return self.index > other.index

    def __ge__(self, other: Tile) -> bool:
        return self.index >= other.index

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``H-L`` (also ``L-H``, ``|`` or ``:`` separators, brackets, spaces)."""
        return parse_tile(text)


MAX_NOTATION = 100
"""The longest text :func:`parse_tile` and ``parse_action`` read; longer text is refused at once."""

_TILE_RE = re.compile(r"^\s*\[?\s*([0-9]{1,2})\s*[-|:]\s*([0-9]{1,2})\s*\]?\s*$", re.ASCII)


def parse_tile(text: str) -> Tile:
    """Parse a tile; raise :class:`InvalidActionError` on bad syntax."""
    if not isinstance(text, str):
        raise InvalidActionError(f"a tile must be a string like '6-4', got {quoted(text)}")
    if len(text) > MAX_NOTATION:
        raise InvalidActionError(
            f"{quoted(text)} is not a tile (longer than {MAX_NOTATION} characters)"
        )
    m = _TILE_RE.match(text)
    if not m:
        raise InvalidActionError(f"{quoted(text)} is not a tile (expected H-L, e.g. '6-4')")
    a, b = int(m.group(1)), int(m.group(2))
    if a > MAX_PIP_LIMIT or b > MAX_PIP_LIMIT:
        raise InvalidActionError(f"{quoted(text)} is not a tile: pips go up to {MAX_PIP_LIMIT}")
    return Tile(a, b)


def set_size(max_pip: int) -> int:
    """Number of distinct tiles in a double-``max_pip`` set."""
    return (max_pip + 1) * (max_pip + 2) // 2


def tile_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of a double-``max_pip`` set, in index order (``0-0``, ``1-0``, ``1-1``, ...)."""
    return TILES[: set_size(max_pip)]


def tile_multiset(max_pip: int, copies: int = 1) -> tuple[Tile, ...]:
    """Every tile of ``copies`` double-``max_pip`` sets (each tile ``copies`` times, in order)."""
    return tuple(t for t in tile_set(max_pip) for _ in range(copies))


def check_deal(
    hands: Sequence[Sequence[Tile]],
    boneyard: Sequence[Tile],
    *,
    players: int,
    hand_size: int,
    max_pip: int,
    copies: int = 1,
) -> None:
    """Raise :class:`DealError` unless the deal holds ``copies`` double-``max_pip`` sets exactly,
    in ``players`` hands of ``hand_size`` tiles plus the boneyard."""
    if len(hands) != players:
        raise DealError(f"deal: {len(hands)} hands for {players} players")
    want = Counter(tile_multiset(max_pip, copies))
    have: Counter[Tile] = Counter()
    places = [*((f"hand {i}", h) for i, h in enumerate(hands)), ("boneyard", boneyard)]
    sets = "set" if copies == 1 else f"{copies} sets"
    for where, tiles in places:
        for t in tiles:
            if t not in want:
                raise DealError(f"deal: {where}: {t} is not in a double-{max_pip} {sets}")
            have[t] += 1
            if have[t] > want[t]:
                times = "twice" if want[t] == 1 else f"more than {want[t]} times"
                raise DealError(f"deal: {where}: {t} appears {times}")
    for i, h in enumerate(hands):
        if len(h) != hand_size:
            raise DealError(f"deal: hand {i} holds {len(h)} tiles, expected {hand_size}")
    missing = list((want - have).elements())
    if missing:
        shown = ", ".join(str(t) for t in missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise DealError(f"deal: {len(missing)} tile(s) of the {sets} missing: {shown}")


TILES: tuple[Tile, ...] = tuple(
    Tile(hi, lo) for hi in range(MAX_PIP_LIMIT + 1) for lo in range(hi + 1)
)
"""All tiles up to double-18, indexed by :attr:`Tile.index`."""

ONE_TILE: tuple[tuple[Tile], ...] = tuple((t,) for t in TILES)
"""``ONE_TILE[i]``: the one-tile tuple ``(TILES[i],)``, shared (a draw of one tile names its
tile in one: no tuple a draw)."""

SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << t.index for t in TILES if t.has(v)) for v in range(MAX_PIP_LIMIT + 1)
)
"""``SUIT_MASK[v]``: bit mask of every tile showing ``v`` on either half."""

SHORT_MASK: int = (1 << 62) - 1
"""The largest mask compiled code keeps as a machine integer: an operation on a larger one is a
call, so the rules test a hand against the ``SUIT_LOW`` tables while it fits (the sets up to
double-9 always do)."""

SUIT_LOW: tuple[int, ...] = tuple(m & SHORT_MASK for m in SUIT_MASK)
"""``SUIT_MASK`` cut to the tiles a machine-integer hand can hold: ``hand & SUIT_LOW[v] ==
hand & SUIT_MASK[v]`` whenever ``hand <= SHORT_MASK``."""

DOUBLE_MASK: int = sum(1 << t.index for t in TILES if t.is_double)
"""Bit mask of every double."""

PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)
"""``PIPS[i]``: pip total of the tile with index ``i``."""


def mask_of(tiles: Iterable[Tile]) -> int:
    """The bit mask of a collection of distinct tiles."""
    m = 0
    for t in tiles:
        m |= 1 << t.index
    return m


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a bit mask, in index order."""
    return tuple(TILES[i] for i in bits(mask))
