"""The table of the line, arm and tree games (block, draw, Super Dominoes, Doubles) in
character cells, from the shared geometry (:func:`bonepile.geometry.scene`).

One unit of the scene (half a domino) is :data:`UNIT_W` columns by one row. A tile along a
horizontal line reads `` [6|4 ]``, one along a vertical line is a box two rows high with a pip
on each row, a double lies across its line, and the Super Dominoes starter is a double-lined
box three units wide with its six arms off its sides. An open end shows ``·`` next to the tile
it belongs to, or its letter ``(a)`` when it is one of the places the chosen tile can go.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from bonepile.geometry import EndBox, Scene, TileBox, scene
from bonepile.layout import Layout
from bonepile.tui.canvas import Canvas

UNIT_W = 4
"""Columns per half-domino unit (one row per unit)."""

TILE = "black on #e8e0cc"
"""A tile's style: ivory, like a real domino."""
LAST = "black on #f2c94c"
"""The tile played last."""
LABEL = "bold white on #1f6feb"
"""A lettered place to play."""
OPEN = "dim"
"""An open end nobody can play on now."""

PIP_COLOURS = {
    10: "#b00020",
    11: "#0050b0",
    12: "#007a3d",
    13: "#8a2be2",
    14: "#c05800",
    15: "#006d77",
}
"""Super Dominoes' pips 10 to 15 are coloured numerals (as in the web app)."""


def pip_style(pip: int, base: str) -> str:
    """The style of a pip number on a tile of style ``base``."""
    colour = PIP_COLOURS.get(pip)
    if colour is None:
        return base
    _, _, background = base.partition(" on ")
    return f"bold {colour} on {background}" if background else f"bold {colour}"


@dataclass(frozen=True)
class Drawn:
    """A drawn table: the canvas, the cells of each open end's label and of each tile
    (``(x, y, w, h)`` in the canvas), and where the last tile played lies."""

    canvas: Canvas
    ends: dict[tuple[int, int], tuple[int, int, int, int]]
    tiles: dict[int, tuple[int, int, int, int]]
    focus: tuple[int, int, int, int] | None


def _cells(x: float, y: float, w: float, h: float, x0: float, y0: float) -> tuple[int, ...]:
    col = round((x - x0) * UNIT_W)
    row = math.floor(y + 0.5) - math.floor(y0 + 0.5)
    return col, row, round(w * UNIT_W), round(h)


def draw_tile(c: Canvas, box: tuple[int, ...], t: TileBox, style: str, fat: bool = False) -> None:
    """One tile at ``box`` (cells): along a row, down a column, or the fat starter."""
    x, y, w, h = box
    a, b = t.pips
    if fat:
        inner = w - 2
        c.put(x, y, "╔" + f" {a}|{a} ".center(inner, "═") + "╗", style)
        c.put(x, y + 1, "╚" + "═" * inner + "╝", style)
        c.put(x + 1 + (inner - len(f" {a}|{a} ")) // 2 + 1, y, str(a), pip_style(a, style))
        return
    if h == 1:  # along a row: " [a|b ]" in 8 columns, the halves split at the middle
        c.put(x, y, f" [{a:>2}|{b:<2}]", style)
        c.put(x + 2, y, f"{a:>2}", pip_style(a, style))
        c.put(x + 5, y, f"{b:<2}", pip_style(b, style))
        if t.detached:
            c.put(x, y, "~", style)
        return
    c.put(x, y, f"┌{a:>2}┐", style)
    c.put(x, y + 1, f"└{b:>2}┘", style)
    c.put(x + 1, y, f"{a:>2}", pip_style(a, style))
    c.put(x + 1, y + 1, f"{b:>2}", pip_style(b, style))


def _inner_unit(e: EndBox) -> tuple[float, float]:
    """The unit of an end's box next to the tile it belongs to."""
    if e.dir == "w":
        return e.x + e.w - 1, e.y
    if e.dir == "n":
        return e.x, e.y + e.h - 1
    return e.x, e.y


def draw_table(
    layout: Layout,
    width: int,
    labels: Mapping[tuple[int, int], str] | None = None,
    last: int | None = None,
    height: int | None = None,
) -> Drawn:
    """The table for a screen ``width`` columns across (and ``height`` rows down, if given:
    the arms fold to fit them): every tile of ``layout``, the open ends (``labels`` letters
    some of them, by ``(anchor, slot)``), the tile at index ``last`` marked."""
    labels = labels or {}
    # a unit is one row; a half-unit offset takes a row more
    tall = None if height is None else max(1, height - 1)
    sc: Scene = scene(layout, width=max(1, width // UNIT_W), height=tall)
    if not sc.tiles:
        c = Canvas(min(width, 40), 1)
        c.put(0, 0, "(nobody has played yet)", OPEN)
        return Drawn(c, {}, {}, None)
    x0, y0, x1, y1 = sc.box
    cols = round((x1 - x0) * UNIT_W) + 1
    rows = math.floor(y1 + 0.5) - math.floor(y0 + 0.5)
    c = Canvas(cols, rows)
    tiles: dict[int, tuple[int, int, int, int]] = {}
    focus = None
    fat = sc.family == "fat_spinner"
    for t in sc.tiles:
        box = _cells(t.x, t.y, t.w, t.h, x0, y0)
        style = LAST if t.index == last else TILE
        draw_tile(c, box, t, style, fat=fat and t.index == 0)
        tiles[t.index] = (box[0], box[1], box[2], box[3])
        if t.index == last:
            focus = tiles[t.index]
    ends: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for e in sc.ends:
        ux, uy = _inner_unit(e)
        x, y, _, _ = _cells(ux, uy, 1, 1, x0, y0)
        label = labels.get((e.anchor, e.slot))
        if label is not None:
            c.put(x, y, f"({label})", LABEL)
            ends[(e.anchor, e.slot)] = (x, y, 3, 1)
        elif c.get(x + 1, y) == " ":
            c.put(x + 1, y, "·", OPEN)
    return Drawn(c, ends, tiles, focus)


__all__ = ["LABEL", "LAST", "OPEN", "PIP_COLOURS", "TILE", "UNIT_W", "Drawn", "draw_table"]
