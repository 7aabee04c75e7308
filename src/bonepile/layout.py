"""The tiles on the table for the games played in lines, arms and trees.

One model serves them all: the layout is a tree rooted at the first tile (the lead, or the
Super Dominoes starter), and it offers a multiset of **open ends**, each a layout tile (the
anchor) with the pip value to match. The rules keep ends as ``(anchor index, value)`` pairs;
:class:`Layout` is the readable form for views, summaries and renderers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bonepile.tiles import TILES, Tile

Ends = tuple[tuple[int, int], ...]
"""Open ends as ``(anchor tile index, value)`` pairs (a multiset: spinner sides repeat)."""

Placed = tuple[Any, tuple[int, int, int, int]] | None
"""A persistent list of placements: ``(previous, (tile, parent or -1, matched or -1, seat))``."""


def unroll(cells: Any) -> list[Any]:
    """The items of a persistent list of ``(previous, item)`` cells, oldest first."""
    out = []
    while cells is not None:
        cells, item = cells
        out.append(item)
    out.reverse()
    return out


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile on the table: attached to ``at`` by its ``matched`` half (``None`` for the root)."""

    tile: Tile
    at: Tile | None
    matched: int | None
    seat: int

    @property
    def open(self) -> int:
        """The value this tile offers (its unmatched half; a double offers its number)."""
        if self.matched is None or self.tile.is_double:
            return self.tile.hi
        return self.tile.other(self.matched)


@dataclass(frozen=True, slots=True)
class OpenEnd:
    """A place to attach a tile: on layout tile ``at``, showing ``value``."""

    at: Tile
    value: int

    def __str__(self) -> str:
        return f"{self.value} on {self.at}"


class Layout:
    """The table: placements in play order (the root first) and the open ends.

    Built lazily from the rules' compact records, so handing a layout out (in every view) costs
    nothing until someone reads it.
    """

    __slots__ = ("_ends", "_ends_src", "_placed", "_placements")

    def __init__(
        self,
        placements: tuple[Placement, ...] = (),
        ends: tuple[OpenEnd, ...] = (),
        *,
        placed: Placed = None,
        end_pairs: Ends | None = None,
    ) -> None:
        self._placements: tuple[Placement, ...] | None = placements if placed is None else None
        self._ends: tuple[OpenEnd, ...] | None = ends if end_pairs is None else None
        self._placed = placed
        self._ends_src = end_pairs

    @property
    def placements(self) -> tuple[Placement, ...]:
        """Every tile on the table, in play order, the root first."""
        if self._placements is None:
            self._placements = tuple(
                Placement(TILES[t], None if u < 0 else TILES[u], None if m < 0 else m, seat)
                for t, u, m, seat in unroll(self._placed)
            )
        return self._placements

    @property
    def ends(self) -> tuple[OpenEnd, ...]:
        """The open ends (a multiset: a spinner's free sides repeat)."""
        if self._ends is None:
            self._ends = tuple(OpenEnd(TILES[u], v) for u, v in (self._ends_src or ()))
        return self._ends

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Layout)
            and self.placements == other.placements
            and self.ends == other.ends
        )

    def __hash__(self) -> int:
        return hash((self.placements, self.ends))

    def __repr__(self) -> str:
        return f"Layout(placements={self.placements!r}, ends={self.ends!r})"

    @property
    def root(self) -> Tile | None:
        """The first tile laid, or ``None`` before the lead."""
        p = self.placements
        return p[0].tile if p else None

    def children(self, tile: Tile) -> tuple[Placement, ...]:
        """The placements attached directly to ``tile``, in play order."""
        return tuple(p for p in self.placements if p.at is tile)

    def tiles(self) -> tuple[Tile, ...]:
        """Every tile on the table, in play order."""
        return tuple(p.tile for p in self.placements)

    def to_json(self) -> dict[str, Any]:
        """JSON form: placements ``{tile, at, seat}`` and ends ``{at, value}``."""
        return {
            "tiles": [
                {"tile": str(p.tile), "at": None if p.at is None else str(p.at), "seat": p.seat}
                for p in self.placements
            ],
            "ends": [{"at": str(e.at), "value": e.value} for e in self.ends],
        }


def build_layout(placed: Placed, ends: Ends | None) -> Layout:
    """Wrap the rules' compact placements and ends in a (lazy) :class:`Layout`."""
    return Layout(placed=placed, end_pairs=ends or ())
