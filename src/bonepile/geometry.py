"""Where each tile of a table goes on a screen: pure functions from a layout to boxes.

The unit is one half of a domino (a square): a tile lying along its line is 2 x 1, a double
across its line 1 x 2. ``scene(layout, width=W, height=H)`` places the tiles in play order,
each next to the tile it hangs from, so a tile placed keeps its box as the hand goes on; arms
that would leave the ``W`` units across the screen (or the ``H`` down it) turn (east arms
south, west arms north, north and south arms outward), tiles keep off the squares where open
ends are drawn, and a tile or an open end with no room at all makes the whole layout refold
larger. No open end's box covers a tile or another end. The web app and the terminal app draw
from the same scene; ``docs/geometry.md`` describes it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from bonepile.grid import BoardLayout
from bonepile.layout import Layout, Placement
from bonepile.tiles import Tile

MIN_WIDTH = 12
"""The narrowest fold (units) for the line, arm and tree families."""
MIN_HEIGHT = 8
"""The shortest fold (units), when a height is given."""
REFOLDS = 3.0
"""How much wider (and taller) than the screen a layout may refold before the tiles and ends
with no room are drawn detached."""

STEP = {"e": (1.0, 0.0), "w": (-1.0, 0.0), "n": (0.0, -1.0), "s": (0.0, 1.0)}
LEFT = {"e": "n", "n": "w", "w": "s", "s": "e"}
RIGHT = {v: k for k, v in LEFT.items()}
OPPOSITE = {"e": "w", "w": "e", "n": "s", "s": "n"}

FAT_ARMS = ("e", "w", "n", "s", "n", "s")
"""The direction of each arm of the Super Dominoes starter, by slot: 0 east, 1 west, 2 north
(left column), 3 south (right column), 4 north (right column), 5 south (left column)."""


@dataclass(frozen=True)
class TileBox:
    """A tile on screen: its box (``x, y`` top-left, ``w`` by ``h`` units), the pips on its
    top/left and bottom/right halves, who played it, whether it is a double and whether it
    was played wild on a 13. ``index`` is its place in the layout's placements. ``detached``
    marks the rare tile that found no room next to its parent even after a refold: it lies at
    the nearest free place and a client draws a link to its ``parent`` (the index of the tile
    it hangs from, ``None`` for the first)."""

    index: int
    tile: Tile
    x: float
    y: float
    w: float
    h: float
    pips: tuple[int, int]
    seat: int
    double: bool
    wild: bool = False
    detached: bool = False
    parent: int | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form (the tile in notation)."""
        return {
            "index": self.index,
            "tile": str(self.tile),
            "x": _num(self.x),
            "y": _num(self.y),
            "w": _num(self.w),
            "h": _num(self.h),
            "pips": list(self.pips),
            "seat": self.seat,
            "double": self.double,
            "wild": self.wild,
            "detached": self.detached,
            "parent": self.parent,
        }


@dataclass(frozen=True)
class EndBox:
    """Where a tile played on an open end would lie (a whole tile's box, or where there is no
    room for one the half next to its tile), and the way the end points (``dir``: ``e``,
    ``w``, ``n`` or ``s``); ``anchor`` and ``slot`` name the end as the layout does. It never
    covers a tile or another end; ``detached`` marks the rare end with no room next to its
    tile even after a refold: it lies at the nearest free place and a client draws a link."""

    anchor: int
    slot: int
    value: int
    x: float
    y: float
    w: float
    h: float
    dir: str
    detached: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "anchor": self.anchor,
            "slot": self.slot,
            "value": self.value,
            "x": _num(self.x),
            "y": _num(self.y),
            "w": _num(self.w),
            "h": _num(self.h),
            "dir": self.dir,
            "detached": self.detached,
        }


@dataclass(frozen=True)
class Scene:
    """A table drawn: its family, the fold ``width`` (and ``height``, if one was asked for) it
    was laid out in, the bounding ``box`` ``(x0, y0, x1, y1)`` of everything in it, the tiles
    and the open ends."""

    family: str
    width: float
    box: tuple[float, float, float, float]
    tiles: tuple[TileBox, ...]
    ends: tuple[EndBox, ...]
    height: float | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{family, width, height, box, tiles, ends}`` (``height`` null when the
        scene was laid out without one)."""
        return {
            "family": self.family,
            "width": _num(self.width),
            "height": None if self.height is None else _num(self.height),
            "box": [_num(v) for v in self.box],
            "tiles": [t.to_json() for t in self.tiles],
            "ends": [e.to_json() for e in self.ends],
        }


def _num(v: float) -> float | int:
    return int(v) if v == int(v) else v


Exit = tuple[float, float, str]
"""A point on a tile's edge where another tile can touch it, and the way out."""


@functools.lru_cache(maxsize=8192)
def _cells_of(x: float, y: float, w: float, h: float) -> tuple[tuple[int, int], ...]:
    """The half-unit cells of a box."""
    x0, y0 = round(2 * x), round(2 * y)
    return tuple((i, j) for i in range(x0, x0 + round(2 * w)) for j in range(y0, y0 + round(2 * h)))


@functools.lru_cache(maxsize=8192)
def _ring_of(x: float, y: float, w: float, h: float) -> tuple[tuple[int, int], ...]:
    """The half-unit cells that share an edge with a box."""
    x0, y0 = round(2 * x), round(2 * y)
    x1, y1 = x0 + round(2 * w), y0 + round(2 * h)
    ring = [(i, j) for i in range(x0, x1) for j in (y0 - 1, y1)]
    ring += [(i, j) for j in range(y0, y1) for i in (x0 - 1, x1)]
    return tuple(ring)


class _Grid:
    """Occupied half-unit cells (a tile's box is a set of them), by the tile that took them,
    within ``width`` units across and, if given, ``height`` units down (centred on the
    starter's row, which lies across ``y = 0``)."""

    def __init__(self, width: float, height: float | None = None) -> None:
        self.width = width
        self.height = height
        self.top = -height / 2 if height is not None else -math.inf
        self.bottom = height / 2 if height is not None else math.inf
        self.cells: dict[tuple[int, int], int] = {}

    def inside(self, x: float, y: float, w: float, h: float) -> bool:
        return x >= 0 and x + w <= self.width and self.top <= y and y + h <= self.bottom

    def fits(self, x: float, y: float, w: float, h: float) -> bool:
        return self.inside(x, y, w, h) and self.cells.keys().isdisjoint(_cells_of(x, y, w, h))

    def take(self, x: float, y: float, w: float, h: float, owner: int = -1) -> None:
        self.cells.update(dict.fromkeys(_cells_of(x, y, w, h), owner))

    def neighbours(self, x: float, y: float, w: float, h: float) -> set[int]:
        """The owners of the cells that share an edge with the box."""
        cells = self.cells
        return {cells[c] for c in _ring_of(x, y, w, h) if c in cells}


@dataclass
class _Laid:
    """A tile placed: its box, the direction it grew, and its exits by slot."""

    box: tuple[float, float, float, float]
    going: str
    exits: list[list[Exit]]


def _box_from(exit_: Exit, across: bool, bend: str | None) -> tuple[float, float, float, float]:
    """The box of a tile touching ``exit_``: along the way out (``bend`` None), bent to one
    side (its inner half at the exit, the rest toward ``bend``), or a double across."""
    px, py, d = exit_
    horizontal = d in ("e", "w")
    if across:
        w, h = (1.0, 2.0) if horizontal else (2.0, 1.0)
    elif bend is None:
        w, h = (2.0, 1.0) if horizontal else (1.0, 2.0)
    else:
        w, h = (1.0, 2.0) if horizontal else (2.0, 1.0)
    if horizontal:
        x = px if d == "e" else px - w
        y = py - h / 2 if bend is None or across else py - 0.5 if bend == "s" else py + 0.5 - h
    else:
        y = py if d == "s" else py - h
        x = px - w / 2 if bend is None or across else px - 0.5 if bend == "e" else px + 0.5 - w
    return (x, y, w, h)


def _exits_of(box: tuple[float, float, float, float], going: str, across: bool) -> list[Exit]:
    """A placed tile's exits: the way on first, then the sides of its outer half (or a
    double's two ends)."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    edge = {"e": (x + w, cy), "w": (x, cy), "n": (cx, y), "s": (cx, y + h)}
    if across:
        return [
            (*edge[going], going),
            (*edge[LEFT[going]], LEFT[going]),
            (*edge[RIGHT[going]], RIGHT[going]),
        ]
    # the outer half: the last unit of the tile in the direction it points
    ox, oy = edge[going]
    dx, dy = STEP[going]
    hx, hy = ox - dx * 0.5, oy - dy * 0.5
    out = [(ox, oy, going)]
    for side in (LEFT[going], RIGHT[going]):
        sx, sy = STEP[side]
        out.append((hx + sx * 0.5, hy + sy * 0.5, side))
    return out


def _pips(tail: str, inner: int, outer: int) -> tuple[int, int]:
    """Pips top/left first, for a tile whose inner half lies toward ``tail``."""
    return (inner, outer) if tail in ("w", "n") else (outer, inner)


_Laid_All = tuple[list[TileBox], list[_Laid], list[set[int]], _Grid]


def _lay_tree(
    layout: Layout, width: float, height: float | None = None, force: bool = False
) -> _Laid_All | None:
    """Every tile in play order, or ``None`` when one finds no room in ``width`` by
    ``height``."""
    grid = _Grid(width, height)
    cx = float(int(width // 2))
    boxes: list[TileBox] = []
    laid: list[_Laid] = []
    used: list[set[int]] = []
    # the square in front of each free slot of the tiles placed so far, where that open end
    # is drawn: a tile placed later keeps off it where it can
    fronts: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
    kept: dict[tuple[int, int], int] = {}  # each of their cells, with how many fronts hold it
    for i, p in enumerate(layout.placements):
        used.append(set())
        if p.parent is None:
            tb, exits = _root(p, i, cx, layout.family)
            grid.take(tb.x, tb.y, tb.w, tb.h, i)
            boxes.append(tb)
            laid.append(_Laid((tb.x, tb.y, tb.w, tb.h), "e", exits))
            _keep_fronts(fronts, kept, i, p, laid[i])
            continue
        for c in fronts.pop((p.parent, p.slot or 0), ()):
            kept[c] -= 1
            if not kept[c]:
                del kept[c]
        got = _place(p, p.parent, laid[p.parent], used[p.parent], grid, cx, kept, force)
        if got is None:
            return None
        box, going, exit_key = got
        detached = exit_key < 0  # no room next to the parent: drawn apart, with a link
        used[p.parent].add(-1 - exit_key if detached else exit_key)
        grid.take(*box, i)
        inner = p.tile.hi if p.inner is None else p.inner
        outer = p.tile.lo if p.outer is None else p.outer
        # the inner half lies back toward the parent, opposite to the way the tile points
        pips = (inner, inner) if p.across else _pips(OPPOSITE[going], inner, outer)
        wild = p.joins is not None and p.joins != p.inner
        boxes.append(TileBox(i, p.tile, *box, pips, p.seat, p.across, wild, detached, p.parent))
        laid.append(_Laid(box, going, [_exits_of(box, going, p.across)]))
        _keep_fronts(fronts, kept, i, p, laid[i])
    return boxes, laid, used, grid


def _front(exit_: Exit) -> tuple[float, float, float, float]:
    """The unit square just beyond an exit (the inner half of a tile played there)."""
    x, y, d = exit_
    dx, dy = STEP[d]
    return (x - 0.5 + dx * 0.5, y - 0.5 + dy * 0.5, 1.0, 1.0)


def _keep_fronts(
    fronts: dict[tuple[int, int], tuple[tuple[int, int], ...]],
    kept: dict[tuple[int, int], int],
    i: int,
    p: Placement,
    laid: _Laid,
) -> None:
    """Note the squares in front of tile ``i``'s slots (each at the exit it prefers)."""
    for slot in range(len(p.slots)):
        if len(laid.exits) > 1:  # a root: one list of exits per slot
            if slot >= len(laid.exits):
                continue
            exit_ = laid.exits[slot][0]
        elif slot < len(laid.exits[0]):
            exit_ = laid.exits[0][slot]
        else:
            continue
        cells = fronts[(i, slot)] = _cells_of(*_front(exit_))
        for c in cells:
            kept[c] = kept.get(c, 0) + 1


def _adjacent(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes share an edge segment of positive length."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    if ax + aw == bx or bx + bw == ax:
        return min(ay + ah, by + bh) - max(ay, by) > 0
    if ay + ah == by or by + bh == ay:
        return min(ax + aw, bx + bw) - max(ax, bx) > 0
    return False


def _outer_half(
    box: tuple[float, float, float, float], going: str
) -> tuple[float, float, float, float]:
    """The half of a tile that points ``going`` (away from the tile it hangs from)."""
    x, y, w, h = box
    if going in ("e", "w"):
        return (x + w / 2 if going == "e" else x, y, w / 2, h)
    return (x, y + h / 2 if going == "s" else y, w, h / 2)


def _root(p: Placement, i: int, cx: float, family: str) -> tuple[TileBox, list[list[Exit]]]:
    t = p.tile
    if family == "fat_spinner":
        box = (cx - 1.5, -1.0, 3.0, 2.0)
        pts = [
            (cx + 1.5, 0.0),
            (cx - 1.5, 0.0),
            (cx - 1, -1.0),
            (cx + 1, 1.0),
            (cx + 1, -1.0),
            (cx - 1, 1.0),
        ]
        exits = [[(x, y, d)] for (x, y), d in zip(pts, FAT_ARMS, strict=True)]
        return TileBox(i, t, *box, (t.hi, t.hi), p.seat, True), exits
    if t.is_double:
        box = (cx - 0.5, -1.0, 1.0, 2.0)
        e, w, n, s = (cx + 0.5, 0.0, "e"), (cx - 0.5, 0.0, "w"), (cx, -1.0, "n"), (cx, 1.0, "s")
        return TileBox(i, t, *box, (t.hi, t.hi), p.seat, True), [[e], [w], [n], [s]]
    # a non-double lead: high half on the left (slot 0 goes west), low half on the right
    box = (cx - 1.0, -0.5, 2.0, 1.0)
    exits = [
        [(cx - 1.0, 0.0, "w"), (cx - 0.5, -0.5, "n"), (cx - 0.5, 0.5, "s")],
        [(cx + 1.0, 0.0, "e"), (cx + 0.5, 0.5, "s"), (cx + 0.5, -0.5, "n")],
    ]
    return TileBox(i, t, *box, (t.hi, t.lo), p.seat, False), exits


def _choices(parent: _Laid, slot: int, used: set[int]) -> list[tuple[int, Exit]]:
    """The exits a tile in ``slot`` may take, best first (each exit index at most once)."""
    if len(parent.exits) > 1:  # a root: one list of exits per slot
        return [(slot * 10 + k, e) for k, e in enumerate(parent.exits[slot])]
    exits = parent.exits[0]
    order = list(range(len(exits)))
    if slot < len(exits):
        order.remove(slot)
        order.insert(0, slot)
    return [(k, exits[k]) for k in order if k not in used]


def _place(
    p: Placement,
    parent_index: int,
    parent: _Laid,
    used: set[int],
    grid: _Grid,
    cx: float,
    kept: dict[tuple[int, int], int],
    force: bool = False,
) -> tuple[tuple[float, float, float, float], str, int] | None:
    """The box of ``p`` next to its parent: of the free boxes at each exit (straight on,
    then bent outward, then inward; best exit first), the first that keeps off the squares
    ``kept`` for open ends and touches no tile but its parent (a tile that also touches
    another would leave a reader guessing which one it joins), else the first that keeps off
    those squares, else the first free one; with ``force``, the nearest free place (its exit
    key then ``-1 - key``: a detached tile)."""
    choices = _choices(parent, p.slot or 0, used)
    found: list[tuple[tuple[float, float, float, float], str, int] | None] = [None, None]
    for k, exit_ in choices:
        px, _py, d = exit_
        options: list[str | None] = [None]
        if not p.across:
            # bend toward the outside of the table: east arms south, west arms north
            outward = ("s" if d == "e" else "n") if d in ("e", "w") else "e" if px >= cx else "w"
            options += [outward, OPPOSITE[outward]]
        for bend in options:
            box = _box_from(exit_, p.across, bend)
            if bend is not None and _adjacent(_outer_half(box, bend), parent.box):
                continue  # lying alongside its parent, both halves would touch it
            if grid.fits(*box):
                apart = kept.keys().isdisjoint(_cells_of(*box)) and _room_ahead(
                    grid, kept, box, bend or d, p
                )
                if apart and grid.neighbours(*box) <= {parent_index}:
                    return box, bend or d, k
                tier = 0 if apart else 1
                if found[tier] is None:
                    found[tier] = (box, bend or d, k)
    if found[0] is not None or found[1] is not None:
        return found[0] or found[1]
    if force and choices:
        k, exit_ = choices[0]
        return _nearest_free(grid, _box_from(exit_, p.across, None)), exit_[2], -1 - k
    return None


def _room_ahead(
    grid: _Grid,
    kept: dict[tuple[int, int], int],
    box: tuple[float, float, float, float],
    going: str,
    p: Placement,
) -> bool:
    """Whether the squares in front of the slots of ``p``, placed at ``box`` going ``going``,
    are free of tiles and of the squares ``kept`` for other open ends: its open ends will
    have room."""
    exits = _exits_of(box, going, p.across)
    for slot in range(min(len(p.slots), len(exits))):
        square = _front(exits[slot])
        if not grid.fits(*square) or not kept.keys().isdisjoint(_cells_of(*square)):
            return False
    return True


def _nearest_free(
    grid: _Grid, box: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """The free box of ``box``'s shape nearest to it (a tile with no room next to its
    parent is drawn there, detached, with a link)."""
    x, y, w, h = box
    spots = [
        (dx * dx + dy * dy, dx, dy)
        for dx in (i / 2 for i in range(-80, 81))
        for dy in (j / 2 for j in range(-80, 81))
    ]
    spots.sort()
    for _, dx, dy in spots:
        if grid.fits(x + dx, y + dy, w, h):
            return (x + dx, y + dy, w, h)
    return (x, y + 1000.0, w, h)  # pragma: no cover - a table is never that crowded


def _inner_half(
    box: tuple[float, float, float, float], going: str
) -> tuple[float, float, float, float]:
    """The half of ``box`` (a tile going ``going``) that touches the tile it hangs from."""
    x, y, w, h = box
    if going == "e":
        return (x, y, w / 2, h)
    if going == "w":
        return (x + w / 2, y, w / 2, h)
    if going == "s":
        return (x, y, w, h / 2)
    return (x, y + h / 2, w, h / 2)


def _end_box(
    e: Any, parent: _Laid, used: set[int], grid: _Grid, taken: _Grid, spare: set[tuple[int, int]]
) -> tuple[EndBox, int] | None:
    """Where a tile played on the open end ``e`` would go, clear of every tile, of the ends
    already placed (``taken``) and of the squares ``spare``d for the other ends: a whole
    tile's box at the first exit with room (straight on, then bent), else the half of one next
    to the tile; ``None`` if there is neither."""
    half: tuple[EndBox, int] | None = None

    def free(box: tuple[float, float, float, float]) -> bool:
        cells = _cells_of(*box)
        return grid.fits(*box) and taken.fits(*box) and not any(c in spare for c in cells)

    for k, exit_ in _choices(parent, e.slot, used):
        d = exit_[2]
        for bend in (None, LEFT[d], RIGHT[d]):
            box = _box_from(exit_, False, bend)
            if free(box):
                return EndBox(e.anchor, e.slot, e.value, *box, bend or d), k
            inner = _inner_half(box, bend or d)
            if half is None and free(inner):
                half = EndBox(e.anchor, e.slot, e.value, *inner, bend or d), k
    return half


def _nearest_end(e: Any, parent: _Laid, grid: _Grid, taken: _Grid) -> EndBox:
    """A square for the open end ``e`` at the free place nearest to its tile's first exit,
    clear of tiles and ends (the rare end with no room next to its tile; drawn detached)."""
    x, y, d = parent.exits[e.slot][0] if len(parent.exits) > 1 else parent.exits[0][0]
    both = _Grid(grid.width, grid.height)
    both.cells = {**grid.cells, **taken.cells}
    bx, by, bw, bh = _nearest_free(both, (x - 0.5, y - 0.5, 1.0, 1.0))
    return EndBox(e.anchor, e.slot, e.value, bx, by, bw, bh, d, detached=True)


_Scene_Parts = tuple[list[TileBox], list[EndBox], float, float | None]


def _lay(layout: Layout, width: float, height: float | None, force: bool) -> _Scene_Parts | None:
    """The tiles and the open ends in ``width`` by ``height``, or ``None`` when a tile or an
    end finds no room there (with ``force``: never, the homeless are drawn detached)."""
    got = _lay_tree(layout, width, height, force)
    if got is None:
        return None
    boxes, laid, used, grid = got
    ends = []
    taken = _Grid(grid.width, grid.height)  # the ends placed so far
    # each end's square in front of the exit it prefers, where free: no other end takes it
    fronts = []
    for e in layout.ends:
        choices = _choices(laid[e.anchor], e.slot, used[e.anchor])
        square = _front(choices[0][1]) if choices else None
        fronts.append(set(_cells_of(*square)) if square and grid.fits(*square) else set())
    for j, e in enumerate(layout.ends):
        spare = set().union(*(f for i, f in enumerate(fronts) if i != j))
        found = _end_box(e, laid[e.anchor], used[e.anchor], grid, taken, spare)
        if found is None:
            if not force:
                return None
            end = _nearest_end(e, laid[e.anchor], grid, taken)
        else:
            end, key = found
            used[e.anchor].add(key)
        taken.take(end.x, end.y, end.w, end.h)
        ends.append(end)
    return boxes, ends, width, height


def scene(layout: Layout | BoardLayout, *, width: int = 40, height: int | None = None) -> Scene:
    """Where every tile of ``layout`` goes for a screen ``width`` units across and, if given,
    ``height`` units down (see the module's docstring)."""
    if isinstance(layout, BoardLayout):
        return _board_scene(layout)
    fold = float(max(MIN_WIDTH, int(width)))
    tall = None if height is None else float(max(MIN_HEIGHT, int(height)))
    widest = REFOLDS * fold
    got = _lay(layout, fold, tall, force=False)
    while got is None and fold < widest:
        # no room for a tile or an open end: the whole layout refolds, 8 units wider and as
        # much taller as keeps the screen's shape
        if tall is not None:
            tall = float(math.ceil(tall * (fold + 8) / fold))
        fold += 8
        got = _lay(layout, fold, tall, force=False)
    if got is None:  # no room at any fold: the homeless tiles and ends are drawn detached,
        # at the widest fold (the one the scene reports), so the tiles before them keep
        # their boxes
        got = _lay(layout, fold, tall, force=True)
    assert got is not None
    boxes, ends, fold, tall = got
    return Scene(layout.family, fold, _bounds(boxes, ends), tuple(boxes), tuple(ends), tall)


def _bounds(boxes: list[TileBox], ends: list[EndBox]) -> tuple[float, float, float, float]:
    items: list[TileBox | EndBox] = [*boxes, *ends]
    if not items:
        return (0.0, 0.0, 0.0, 0.0)
    return (
        min(b.x for b in items),
        min(b.y for b in items),
        max(b.x + b.w for b in items),
        max(b.y + b.h for b in items),
    )


def _board_scene(layout: BoardLayout) -> Scene:
    board = layout.board
    tiles = []
    for i, p in enumerate(layout.placements):
        (r1, c1), (r2, c2) = p.cell1, p.cell2
        tiles.append(
            TileBox(
                i,
                p.tile,
                float(min(c1, c2)),
                float(min(r1, r2)),
                float(abs(c1 - c2) + 1),
                float(abs(r1 - r2) + 1),
                (p.p, p.q),
                p.seat,
                p.tile.is_double,
            )
        )
    box = (0.0, 0.0, float(board.cols), float(board.rows))
    return Scene("board", float(board.cols), box, tuple(tiles), ())


__all__ = ["FAT_ARMS", "MIN_WIDTH", "EndBox", "Scene", "TileBox", "scene"]
