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


@dataclass(frozen=True, slots=True)
class Layout:
    """The table: placements in play order (the root first) and the open ends."""

    placements: tuple[Placement, ...]
    ends: tuple[OpenEnd, ...]

    @property
    def root(self) -> Tile | None:
        """The first tile laid, or ``None`` before the lead."""
        return self.placements[0].tile if self.placements else None

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


EMPTY_LAYOUT = Layout((), ())


def build_layout(placed: Placed, ends: Ends | None) -> Layout:
    """Turn the rules' compact placements and ends into a :class:`Layout`."""
    recs = []
    cell = placed
    while cell is not None:
        cell, rec = cell
        recs.append(rec)
    recs.reverse()
    placements = tuple(
        Placement(TILES[t], None if u < 0 else TILES[u], None if m < 0 else m, seat)
        for t, u, m, seat in recs
    )
    open_ends = tuple(OpenEnd(TILES[u], v) for u, v in (ends or ()))
    return Layout(placements, open_ends)


def take_end(ends: Ends, anchor: int) -> tuple[Ends, int]:
    """Remove one open end on ``anchor``; return the remaining ends and its value."""
    for i, (u, v) in enumerate(ends):
        if u == anchor:
            return ends[:i] + ends[i + 1 :], v
    raise KeyError(anchor)
