"""Where each tile of a table goes on a screen: pure functions from a layout to boxes.

The unit is one half of a domino (a square): a tile lying along its line is 2 x 1, a double
across its line 1 x 2. ``scene(layout, width=W)`` places the tiles in play order, each next
to the tile it hangs from, so a tile placed keeps its box as the hand goes on; arms that would
leave the ``W`` units across the screen turn (east arms south, west arms north), and a tile
with no room at all makes the whole layout refold wider. The web app and the terminal app draw
from the same scene; ``docs/geometry.md`` describes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bonepile.grid import BoardLayout
from bonepile.layout import Layout, Placement
from bonepile.tiles import Tile

MIN_WIDTH = 12
"""The narrowest fold (units) for the line, arm and tree families."""

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
    the nearest free place and a client draws a link to its parent."""

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
        }


@dataclass(frozen=True)
class EndBox:
    """Where a tile played on an open end would lie, and the way the end points (``dir``:
    ``e``, ``w``, ``n`` or ``s``); ``anchor`` and ``slot`` name the end as the layout does."""

    anchor: int
    slot: int
    value: int
    x: float
    y: float
    w: float
    h: float
    dir: str

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
        }


@dataclass(frozen=True)
class Scene:
    """A table drawn: its family, the fold ``width`` it was laid out for, the bounding ``box``
    ``(x0, y0, x1, y1)`` of everything in it, the tiles and the open ends."""

    family: str
    width: float
    box: tuple[float, float, float, float]
    tiles: tuple[TileBox, ...]
    ends: tuple[EndBox, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{family, width, box, tiles, ends}``."""
        return {
            "family": self.family,
            "width": _num(self.width),
            "box": [_num(v) for v in self.box],
            "tiles": [t.to_json() for t in self.tiles],
            "ends": [e.to_json() for e in self.ends],
        }


def _num(v: float) -> float | int:
    return int(v) if v == int(v) else v


Exit = tuple[float, float, str]
"""A point on a tile's edge where another tile can touch it, and the way out."""


class _Grid:
    """Occupied half-unit cells (a tile's box is a set of them)."""

    def __init__(self, width: float) -> None:
        self.width = width
        self.cells: set[tuple[int, int]] = set()

    @staticmethod
    def _cells(x: float, y: float, w: float, h: float) -> list[tuple[int, int]]:
        x0, y0 = round(2 * x), round(2 * y)
        return [(i, j) for i in range(x0, x0 + round(2 * w)) for j in range(y0, y0 + round(2 * h))]

    def fits(self, x: float, y: float, w: float, h: float) -> bool:
        if x < 0 or x + w > self.width:
            return False
        return not any(c in self.cells for c in self._cells(x, y, w, h))

    def take(self, x: float, y: float, w: float, h: float) -> None:
        self.cells.update(self._cells(x, y, w, h))


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


def _lay_tree(layout: Layout, width: float, force: bool = False) -> _Laid_All | None:
    """Every tile in play order, or ``None`` when one finds no room at this width."""
    grid = _Grid(width)
    cx = float(int(width // 2))
    boxes: list[TileBox] = []
    laid: list[_Laid] = []
    used: list[set[int]] = []
    for i, p in enumerate(layout.placements):
        used.append(set())
        if p.parent is None:
            tb, exits = _root(p, i, cx, layout.family)
            grid.take(tb.x, tb.y, tb.w, tb.h)
            boxes.append(tb)
            laid.append(_Laid((tb.x, tb.y, tb.w, tb.h), "e", exits))
            continue
        got = _place(p, laid[p.parent], used[p.parent], grid, cx, force)
        if got is None:
            return None
        box, going, exit_key = got
        detached = exit_key < 0  # no room next to the parent: drawn apart, with a link
        used[p.parent].add(-1 - exit_key if detached else exit_key)
        grid.take(*box)
        inner = p.tile.hi if p.inner is None else p.inner
        outer = p.tile.lo if p.outer is None else p.outer
        # the inner half lies back toward the parent, opposite to the way the tile points
        pips = (inner, inner) if p.across else _pips(OPPOSITE[going], inner, outer)
        wild = p.joins is not None and p.joins != p.inner
        boxes.append(TileBox(i, p.tile, *box, pips, p.seat, p.across, wild, detached))
        laid.append(_Laid(box, going, [_exits_of(box, going, p.across)]))
    return boxes, laid, used, grid


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
    p: Placement, parent: _Laid, used: set[int], grid: _Grid, cx: float, force: bool = False
) -> tuple[tuple[float, float, float, float], str, int] | None:
    """The box of ``p`` next to its parent: the first free one of each exit (straight on,
    then bent outward, then inward), best exit first; with ``force``, the nearest free place
    (its exit key then ``-1 - key``: a detached tile)."""
    choices = _choices(parent, p.slot or 0, used)
    for k, exit_ in _choices(parent, p.slot or 0, used):
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
                return box, bend or d, k
    if force and choices:
        k, exit_ = choices[0]
        return _nearest_free(grid, _box_from(exit_, p.across, None)), exit_[2], -1 - k
    return None


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
    e: Any, parent: _Laid, used: set[int], grid: _Grid, taken: _Grid
) -> tuple[EndBox, int]:
    """Where a tile played on the open end ``e`` would go: free of tiles and of the ends
    already placed (``taken``) when possible; else free of those ends (over a tile: the end is
    drawn on top and can still be tapped); else only its half next to the tile, free of those
    ends; else inside the width."""
    first: tuple[tuple[float, float, float, float], str, int] | None = None
    apart = half = inside = None
    for k, exit_ in _choices(parent, e.slot, used):
        d = exit_[2]
        for bend in (None, LEFT[d], RIGHT[d]):
            box = _box_from(exit_, False, bend)
            if first is None:
                first = (box, bend or d, k)
            if inside is None and box[0] >= 0 and box[0] + box[2] <= grid.width:
                inside = (box, bend or d, k)
            if taken.fits(*box):
                if grid.fits(*box):
                    return EndBox(e.anchor, e.slot, e.value, *box, bend or d), k
                if apart is None:
                    apart = (box, bend or d, k)
            inner = _inner_half(box, bend or d)
            if half is None and taken.fits(*inner):
                half = (inner, bend or d, k)
    first = apart or half or inside or first
    if first is None:  # pragma: no cover - an open end always has an exit
        raise ValueError("an open end with no way out")
    box, d, k = first
    return EndBox(e.anchor, e.slot, e.value, *box, d), k


def scene(layout: Layout | BoardLayout, *, width: int = 40) -> Scene:
    """Where every tile of ``layout`` goes for a screen ``width`` units across (see the
    module's docstring)."""
    if isinstance(layout, BoardLayout):
        return _board_scene(layout)
    fold = float(max(MIN_WIDTH, int(width)))
    got = _lay_tree(layout, fold)
    while got is None and fold < 2 * max(MIN_WIDTH, width):
        fold += 8  # no room for a tile: the whole layout refolds wider
        got = _lay_tree(layout, fold)
    if got is None:  # a tile with no room next to its parent at any fold: drawn detached, at
        # the widest fold (the one the scene reports), so the tiles before it keep their boxes
        got = _lay_tree(layout, fold, force=True)
    assert got is not None
    boxes, laid, used, grid = got
    ends = []
    taken = _Grid(grid.width)  # the ends placed so far: two ends never share a tap target
    for e in layout.ends:
        end, key = _end_box(e, laid[e.anchor], used[e.anchor], grid, taken)
        used[e.anchor].add(key)
        taken.take(end.x, end.y, end.w, end.h)
        ends.append(end)
    return Scene(layout.family, fold, _bounds(boxes, ends), tuple(boxes), tuple(ends))


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
