"""The tiles on the table for the games played in lines, arms and trees.

One model serves them all: the layout is a tree rooted at the first tile (the lead, or the
Super Dominoes starter). Every tile on the table has **slots**, the places where another tile
can hang from it, each offering one pip value: an ordinary tile one slot (its outer half), a
non-double lead two (its halves), a spinner as many as its free sides (the Super Dominoes
starter six, one per arm). A tile hangs from one slot of its parent; a slot nobody hangs from
is an **open end**. The rules keep ends as ``(anchor index, value)`` pairs and the placements as
a persistent list; :class:`Layout` turns them into this readable, serializable form, lazily,
for views, summaries and renderers. Which slot a tile takes is fixed by play order (the lowest
free slot that offers the value it was played on), so a client can draw the table from the
layout alone, with no rules knowledge.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bonepile.errors import BonepileError, shown
from bonepile.tiles import TILES, Tile, parse_tile

Ends = tuple[tuple[int, int], ...]
"""Open ends as ``(anchor tile index, value)`` pairs (a multiset: spinner sides repeat)."""

Placed = tuple[Any, int, int, int, int] | None
"""A persistent list of placements: ``(previous, tile, parent or -1, matched or -1, seat)``
cells, one tuple a placement."""

FAMILIES = ("line", "fat_spinner", "spinner_tree")
"""The tree layouts: ``line`` (block and draw: two ends, the first double may spin),
``fat_spinner`` (Super Dominoes: six arms off the starter), ``spinner_tree`` (Doubles: every
double a spinner)."""


class LayoutError(BonepileError):
    """A layout (or its JSON) that does not describe a table."""


def unroll_cells(cells: Any) -> list[tuple[Any, ...]]:
    """The fields of a persistent list of ``(previous, field, field, ...)`` cells, oldest
    first: each cell's fields as a tuple (the placements and the seats' hidden turns are kept
    so, one tuple a cell)."""
    out = []
    while cells is not None:
        out.append(cells[1:])
        cells = cells[0]
    out.reverse()
    return out


def unroll(cells: Any) -> list[Any]:
    """The items of a persistent list of ``(previous, item)`` cells, oldest first."""
    out: list[Any] = []
    while cells is not None:
        cell: tuple[Any, Any] = cells  # typed: indexed in place, not unpacked by an iterator
        out.append(cell[1])
        cells = cell[0]
    out.reverse()
    return out


@dataclass(frozen=True)
class Placement:
    """A tile on the table.

    ``parent`` is the index (in :attr:`Layout.placements`) of the tile it hangs from and
    ``slot`` which of the parent's slots it occupies (for the Super Dominoes starter, the arm);
    both are ``None`` for the root. ``inner`` is the pip of the half that touches the parent,
    ``outer`` the pip of the half that faces away (``None`` for the root); a double has the same
    pip on both. ``joins`` is the value of the parent's end it was played on: equal to
    ``inner``, except for a double played wild on an open 13 (a ``5-5`` on a 13 joins 13 and is
    drawn crossing it). ``across`` is true for a double, laid across the line. ``slots`` holds
    the pip value each of its own slots offers, in slot order (a non-double root offers its
    high half in slot 0 and its low half in slot 1). ``at`` is the parent's tile.
    """

    tile: Tile
    seat: int
    parent: int | None
    slot: int | None
    inner: int | None
    outer: int | None
    joins: int | None
    across: bool
    slots: tuple[int, ...]
    at: Tile | None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Placement, _placement_args(self))

    def to_json(self) -> dict[str, Any]:
        """JSON form (tiles in notation)."""
        return {
            "tile": str(self.tile),
            "seat": self.seat,
            "parent": self.parent,
            "slot": self.slot,
            "inner": self.inner,
            "outer": self.outer,
            "joins": self.joins,
            "across": self.across,
            "slots": list(self.slots),
        }


def _placement_args(p: Placement) -> tuple[Any, ...]:
    return (p.tile, p.seat, p.parent, p.slot, p.inner, p.outer, p.joins, p.across, p.slots, p.at)


@dataclass(frozen=True)
class OpenEnd:
    """A free slot: slot ``slot`` of the tile ``at`` (index ``anchor`` in the placements),
    showing ``value``. An attach ``T@U`` with ``U`` = ``at`` fills the lowest free slot of that
    tile whose value ``T`` matches (see :meth:`Layout.end_of`)."""

    anchor: int
    at: Tile
    slot: int
    value: int

    def __reduce__(self) -> tuple[Any, ...]:
        return (OpenEnd, (self.anchor, self.at, self.slot, self.value))

    def __str__(self) -> str:
        return f"{self.value} on {self.at}"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"anchor": self.anchor, "at": str(self.at), "slot": self.slot, "value": self.value}


class Layout:
    """The table of a line, arm or tree game: placements in play order (the root first) and
    the open ends, in anchor then slot order.

    Built lazily from the rules' compact records, so handing a layout out (in every view) costs
    nothing until someone reads it. ``family`` is one of :data:`FAMILIES`.
    """

    __slots__ = ("_ends", "_ends_src", "_placed", "_placements", "family")

    family: str

    def __init__(
        self,
        family: str = "line",
        placements: tuple[Placement, ...] = (),
        ends: tuple[OpenEnd, ...] = (),
        *,
        placed: Placed = None,
        end_pairs: Ends | None = None,
    ) -> None:
        self.family = family
        self._placements: tuple[Placement, ...] | None = placements if end_pairs is None else None
        self._ends: tuple[OpenEnd, ...] | None = ends if end_pairs is None else None
        self._placed = placed
        self._ends_src = end_pairs

    def _build(self) -> None:
        placements, ends = _derive(unroll_cells(self._placed), self._ends_src or ())
        self._placements = placements
        self._ends = ends

    @property
    def placements(self) -> tuple[Placement, ...]:
        """Every tile on the table, in play order, the root first."""
        if self._placements is None:
            self._build()
        assert self._placements is not None
        return self._placements

    @property
    def ends(self) -> tuple[OpenEnd, ...]:
        """The open ends (a spinner's free sides each count)."""
        if self._ends is None:
            self._build()
        assert self._ends is not None
        return self._ends

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Layout)
            and self.family == other.family
            and self.placements == other.placements
            and self.ends == other.ends
        )

    def __hash__(self) -> int:
        return hash((self.family, self.placements, self.ends))

    def __repr__(self) -> str:
        return f"Layout({self.family!r}, placements={self.placements!r}, ends={self.ends!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Layout, (self.family, self.placements, self.ends))

    @property
    def root(self) -> Tile | None:
        """The first tile laid, or ``None`` before the lead."""
        p = self.placements
        return p[0].tile if p else None

    def children(self, tile: Tile) -> tuple[Placement, ...]:
        """The placements attached directly to ``tile``, in slot order."""
        kids = [p for p in self.placements if p.at is tile]
        kids.sort(key=lambda p: p.slot or 0)
        return tuple(kids)

    def tiles(self) -> tuple[Tile, ...]:
        """Every tile on the table, in play order."""
        return tuple(p.tile for p in self.placements)

    def end_of(self, action: Any) -> OpenEnd | None:
        """The open end an attach ``T@U`` fills: the lowest free slot of ``U`` whose value
        ``T`` has, else (a double played wild on a 13) the lowest free slot of ``U``.
        ``None`` for anything else (a lead, a draw, ...) or when ``U`` has no free slot."""
        tile = getattr(action, "tile", None)
        at = getattr(action, "at", None)
        if not isinstance(tile, Tile) or not isinstance(at, Tile):
            return None
        mine = [e for e in self.ends if e.at is at]
        for e in mine:
            if tile.has(e.value):
                return e
        return mine[0] if mine else None

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``family``, the placements and the open ends (see :class:`Placement`,
        :class:`OpenEnd`)."""
        return {
            "family": self.family,
            "tiles": [p.to_json() for p in self.placements],
            "ends": [e.to_json() for e in self.ends],
        }

    @classmethod
    def from_json(cls, data: Any) -> Layout:
        """Inverse of :meth:`to_json`, checked: the parent links, slots and values must
        describe a tree, and the ends must be exactly its free slots."""
        if not isinstance(data, Mapping):
            raise LayoutError(f"layout: expected an object, got {shown(data)}")
        family = data.get("family")
        if family not in FAMILIES:
            raise LayoutError(f"layout: family must be one of {', '.join(FAMILIES)}")
        tiles_in = data.get("tiles")
        ends_in = data.get("ends")
        if not isinstance(tiles_in, list) or not isinstance(ends_in, list):
            raise LayoutError("layout: tiles and ends must be lists")
        placements = tuple(_placement_from_json(p, i, tiles_in) for i, p in enumerate(tiles_in))
        free = free_slots(placements)
        ends = tuple(
            OpenEnd(anchor, placements[anchor].tile, slot, value) for anchor, slot, value in free
        )
        given = [
            (_int(e, "anchor"), _int(e, "slot"), _int(e, "value"))
            if isinstance(e, Mapping)
            else None
            for e in ends_in
        ]
        if given != list(free):
            raise LayoutError("layout: the ends are not the free slots of the tiles")
        return cls(str(family), placements, ends)


def free_slots(placements: Sequence[Placement]) -> list[tuple[int, int, int]]:
    """The free slots of a table as ``(anchor, slot, value)``, in anchor then slot order:
    every slot of every tile that no tile hangs from. A client can rebuild the open ends from
    the placements alone with this."""
    taken = {(p.parent, p.slot) for p in placements if p.parent is not None}
    return [
        (i, k, v)
        for i, p in enumerate(placements)
        for k, v in enumerate(p.slots)
        if (i, k) not in taken
    ]


def _int(data: Mapping[str, Any], key: str) -> int:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise LayoutError(f"layout: {key} must be an integer, got {shown(v)}")
    return v


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def _placement_from_json(data: Any, i: int, all_tiles: list[Any]) -> Placement:
    if not isinstance(data, Mapping):
        raise LayoutError(f"layout: tiles[{i}] must be an object")
    try:
        tile = parse_tile(data["tile"])
    except (KeyError, ValueError) as e:
        raise LayoutError(f"layout: tiles[{i}]: {e}") from None
    parent = _opt_int(data, "parent")
    slot = _opt_int(data, "slot")
    if (parent is None) != (i == 0) or (parent is None) != (slot is None):
        raise LayoutError(f"layout: tiles[{i}]: only the first tile has no parent and slot")
    if parent is not None and not 0 <= parent < i:
        raise LayoutError(f"layout: tiles[{i}]: parent must be an earlier tile")
    slots = data.get("slots")
    if not isinstance(slots, list) or any(
        isinstance(v, bool) or not isinstance(v, int) for v in slots
    ):
        raise LayoutError(f"layout: tiles[{i}]: slots must be a list of pip values")
    at = None
    if parent is not None:
        at = parse_tile(all_tiles[parent].get("tile"))
        parent_slots = all_tiles[parent].get("slots")
        if not isinstance(parent_slots, list) or not 0 <= (slot or 0) < len(parent_slots):
            raise LayoutError(f"layout: tiles[{i}]: no slot {slot} on its parent")
    across = data.get("across")
    if across is not tile.is_double:
        raise LayoutError(f"layout: tiles[{i}]: across must be {str(tile.is_double).lower()}")
    seat = _int(data, "seat")
    if seat < 0:
        raise LayoutError(f"layout: tiles[{i}]: seat must not be negative")
    return Placement(
        tile,
        seat,
        parent,
        slot,
        _opt_int(data, "inner"),
        _opt_int(data, "outer"),
        _opt_int(data, "joins"),
        across,
        tuple(slots),
        at,
    )


def _derive(
    placed: list[tuple[Any, ...]], end_pairs: Ends
) -> tuple[tuple[Placement, ...], tuple[OpenEnd, ...]]:
    """Placements with parents, slots and halves, and the free slots, from the rules'
    records: each ``(tile, parent tile or -1, value matched or -1, seat)`` and the open ends."""
    index: dict[int, int] = {}
    children: dict[int, list[int]] = {}
    for i, (t, u, _, _) in enumerate(placed):
        index[t] = i
        if u >= 0:
            children.setdefault(index[u], []).append(i)
    free_count: dict[int, int] = {}
    for u, _ in end_pairs:
        free_count[index[u]] = free_count.get(index[u], 0) + 1
    slot_values: list[tuple[int, ...]] = []
    for i, (t, u, v, _) in enumerate(placed):
        tile = TILES[t]
        count = len(children.get(i, ())) + free_count.get(i, 0)
        if u < 0 and not tile.is_double:
            values: tuple[int, ...] = (tile.hi, tile.lo)[:count] if count else ()
        elif tile.is_double:
            values = (tile.hi,) * count
        else:
            values = (tile.other(v),) * count
        slot_values.append(values)
    slot_of: dict[int, int] = {}
    for parent, kids in children.items():
        taken: set[int] = set()
        offered = slot_values[parent]
        for kid in kids:
            joined = placed[kid][2]
            k = next(
                (k for k, val in enumerate(offered) if k not in taken and val == joined),
                None,
            )
            if k is None:  # pragma: no cover - the rules only attach to offered values
                k = next(k for k in range(len(offered)) if k not in taken)
            taken.add(k)
            slot_of[kid] = k
    out = []
    for i, (t, u, v, seat) in enumerate(placed):
        tile = TILES[t]
        if u < 0:
            out.append(
                Placement(
                    tile, seat, None, None, None, None, None, tile.is_double, slot_values[i], None
                )
            )
            continue
        double = tile.is_double
        inner = tile.hi if double else v
        outer = tile.hi if double else tile.other(v)
        out.append(
            Placement(
                tile, seat, index[u], slot_of[i], inner, outer, v, double, slot_values[i], TILES[u]
            )
        )
    placements = tuple(out)
    ends = tuple(OpenEnd(a, placements[a].tile, k, val) for a, k, val in free_slots(placements))
    return placements, ends


def build_layout(family: str, placed: Placed, ends: Ends | None) -> Layout:
    """Wrap the rules' compact placements and ends in a (lazy) :class:`Layout`: the last one
    built when it wraps the very same records (the views of one position, or of positions
    a draw or a pass apart, share one layout)."""
    pairs = ends or ()
    last = _LAST[0]
    if (
        last is not None
        and last._placed is placed
        and last._ends_src is pairs
        and last.family == family
    ):
        return last
    layout = _LAST[0] = Layout(family, placed=placed, end_pairs=pairs)
    return layout


_LAST: Final[list[Layout | None]] = [None]
"""The layout :func:`build_layout` built last."""
