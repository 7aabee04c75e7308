"""The Double Double Dominoes board in character cells: three columns a square.

Each square is a mark column then two for its content: ``·`` an empty square, ``◆3`` an
uncovered diamond, ``★`` the star, a pip number on a covered square. A tile keeps to its own
squares, so two tiles side by side never run together: one lying along a row reads ``[6|4]``
(from the content of its first square to the mark column after its second), one standing in a
column ``┌6`` over ``└4``; the mark column before a tile stays blank. The chosen placement is
drawn in the place-here colour (``LABEL``), its letter in the mark column of its first square.
"""

from __future__ import annotations

from dataclasses import dataclass

from bonepile.actions import Place
from bonepile.grid import BoardLayout
from bonepile.tui.canvas import Canvas
from bonepile.tui.table import LABEL, LAST, TILE, pip_style

CELL_W = 3
"""Columns per square."""
LEFT = 3
"""Columns for the row numbers."""

DIAMOND = "bold #c03030"
"""An uncovered diamond."""
STAR = "bold #d4a000"
"""The star."""
EMPTY = "dim"
"""An empty square."""


@dataclass(frozen=True)
class DrawnBoard:
    """A drawn board: the canvas and the cells of every square, by ``(row, col)``."""

    canvas: Canvas
    squares: dict[tuple[int, int], tuple[int, int]]


def square_at(row: int, col: int) -> tuple[int, int]:
    """The canvas cell (x, y) where square ``(row, col)`` starts."""
    return LEFT + col * CELL_W, 1 + row


def draw_board(
    layout: BoardLayout,
    last: int | None = None,
    preview: Place | None = None,
    label: str | None = None,
) -> DrawnBoard:
    """The board with its tiles (the one at index ``last`` marked) and, if given, the
    ``preview`` placement of the chosen tile with its ``label``."""
    b = layout.board
    c = Canvas(LEFT + b.cols * CELL_W + 1, b.rows + 1)
    c.put(LEFT, 0, "".join(f" {chr(65 + k):>2}"[:CELL_W] for k in range(b.cols)), EMPTY)
    squares = {}
    for r in range(b.rows):
        c.put(0, 1 + r, f"{r + 1:>2}", EMPTY)
        for col in range(b.cols):
            x, y = square_at(r, col)
            squares[(r, col)] = (x, y)
            i = r * b.cols + col
            if i == b.star:
                c.put(x + 1, y, " ★", STAR)
            elif b.diamonds[i]:
                c.put(x + 1, y, f"◆{b.diamonds[i]}"[:2], DIAMOND)
            else:
                c.put(x + 2, y, "·", EMPTY)
    placed = [
        (pl.cell1, pl.cell2, pl.p, pl.q, LAST if k == last else TILE)
        for k, pl in enumerate(layout.placements)
    ]
    if preview is not None:
        placed.append((preview.cell1, preview.cell2, preview.p, preview.q, LABEL))
    for (r1, c1), (r2, c2), p, q, style in placed:
        _draw_tile(c, square_at(r1, c1), square_at(r2, c2), p, q, style)
    if preview is not None and label is not None:
        x1, y1 = square_at(*preview.cell1)
        c.put(x1, y1, label[:1], LABEL)
    return DrawnBoard(c, squares)


def _draw_tile(
    c: Canvas, at1: tuple[int, int], at2: tuple[int, int], p: int, q: int, style: str
) -> None:
    """A tile with ``p`` on the square drawn from ``at1`` and ``q`` on the one from ``at2``
    (the next square along the row, or down the column), within the two squares."""
    (x1, y1), (x2, y2) = at1, at2
    if p > 9 or q > 9:  # two-digit pips: each half fills its square, marks included
        mark1, mark2 = ("[", "|") if y1 == y2 else ("┌", "└")
        c.put(x1, y1, f"{mark1}{p:>2}", style)
        c.put(x2, y2, f"{mark2}{q:>2}", style)
        c.put(x1 + 1, y1, f"{p:>2}", pip_style(p, style))
        c.put(x2 + 1, y2, f"{q:>2}", pip_style(q, style))
        return
    if y1 == y2:  # along a row: [p|q], the pips in their squares' digit columns (q one left)
        c.put(x1 + 1, y1, f"[{p}|{q}]", style)
        c.put(x1 + 2, y1, str(p), pip_style(p, style))
        c.put(x1 + 4, y1, str(q), pip_style(q, style))
        return
    c.put(x1 + 1, y1, f"┌{p}", style)
    c.put(x2 + 1, y2, f"└{q}", style)
    c.put(x1 + 2, y1, str(p), pip_style(p, style))
    c.put(x2 + 2, y2, str(q), pip_style(q, style))


def track_line(layout: BoardLayout, players: int, names: list[str] | None = None) -> str:
    """Every seat's piece on the score track, and the total that wins."""
    b = layout.board
    parts = []
    for seat, pos in enumerate(layout.positions):
        pip = b.track_pips(pos)
        name = names[seat] if names else f"P{seat}"
        shows = "" if pos == 0 or pip is None else f" (on a {pip})"
        parts.append(f"{name} {pos}{shows}")
    return "Track: " + ", ".join(parts) + f"; {b.victory_total(players)} wins"


__all__ = ["CELL_W", "DrawnBoard", "draw_board", "square_at", "track_line"]
