"""Why a tile cannot go on a Double Double Dominoes board now, in words (for a player who
picked it): a pure function of what everyone sees, the board and the chain, that changes no
rule. It asks the rules' own spot table (:meth:`Geometry.spot
<bonepile.games.double_double_spots.Geometry.spot>`) where a tile may go, and says which rule
of "Placing a tile" (docs/games/double_double.md) stops it everywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence

from bonepile.games.double_double_spots import geometry, spot_ends
from bonepile.grid import BoardLayout, format_cell
from bonepile.tiles import Tile

Cell = tuple[int, int]
"""A board cell as zero-based ``(row, col)``."""

_FAULTS = ("contacts", "tail", "head", "bridge", "same", "block")
"""The rules a placement can break, in the order a reason names them."""


def why_unplayable(
    layout: BoardLayout,
    tile: Tile,
    chain: tuple[Cell, Cell] | None = None,
    *,
    max_contacts: int = 1,
    allow_bridge: bool = True,
    forbid_2x2: bool = True,
    tail_on_double: bool = False,
) -> str | None:
    """Why ``tile`` has no place on the board of ``layout`` (with ``chain``, the double a
    chained tile must touch), for the placement options given; ``None`` when it has one (or
    the board is empty: the first tile always covers the star)."""
    placed = layout.placements
    if not placed:
        return None
    board = layout.board
    geo = geometry(board)
    cols = board.cols
    cells = [-1] * board.size
    owner = [-1] * board.size
    for k, pl in enumerate(placed):
        for (r, c), v in ((pl.cell1, pl.p), (pl.cell2, pl.q)):
            cells[r * cols + c] = v
            owner[r * cols + c] = k
    hi, lo = tile.hi, tile.lo

    def fits(code: int) -> bool:
        va, vb = spot_ends(code)
        if va >= 0 and vb >= 0:
            return (va, vb) in ((hi, lo), (lo, hi))
        return (va if va >= 0 else vb) in (hi, lo)

    spots: dict[int, int] = {}
    for p in range(2 * board.size):
        a, x = geo.first[p], geo.second[p]
        if a >= 0 and cells[a] < 0 and cells[x] < 0:
            code = geo.spot(cells, owner, p, max_contacts, allow_bridge, forbid_2x2)
            if code >= 0:
                spots[p] = code
    if chain is not None:
        a, x = sorted(r * cols + c for r, c in chain)
        last = owner[a]
        for p in geo.beside[geo.pair(a, x)]:
            if p in spots and fits(spots[p]) and geo.touches(cells, owner, p, last, tail_on_double):
                return None
        where = "/".join(format_cell(*c) for c in chain)
        return f"it has no place next to the double on {where}, where a chained tile must go"
    if any(fits(code) for code in spots.values()):
        return None
    return _nowhere(cells, owner, board.neighbors, hi, lo, max_contacts, allow_bridge)


def _nowhere(
    cells: list[int],
    owner: list[int],
    nb: Sequence[Sequence[int]],
    hi: int,
    lo: int,
    max_contacts: int,
    allow_bridge: bool,
) -> str:
    """Why a tile with pips ``hi`` and ``lo`` fits nowhere on a board that has tiles."""
    pips = sorted({hi, lo})
    words = " or a ".join(str(v) for v in pips)
    shown = [n for n, v in enumerate(cells) if v in pips]
    if not shown:
        return f"no tile on the board shows a {words}, and one end must touch the same pips"
    found: set[str] = set()
    for n in shown:
        v = cells[n]
        w = lo if v == hi else hi
        for a in nb[n]:
            if cells[a] >= 0:
                continue
            for x in nb[a]:
                if cells[x] < 0:
                    found.add(_fault(cells, owner, nb, a, x, v, w, max_contacts, allow_bridge))
    if not found:
        return f"there is no room for it beside any {words} on the board"
    said = {
        "contacts": "touch more than one square with one end"
        if max_contacts == 1
        else f"touch more than {max_contacts} squares with one end",
        "tail": "touch other pips with one end",
        "head": "touch other pips with its other end",
        "bridge": "touch tiles with both ends (bridges are off)",
        "same": "touch one tile with both ends",
        "block": "fill a 2x2 block",
    }
    why = [said[f] for f in _FAULTS if f in found]
    listed = ", ".join(why[:-1]) + (" or " if len(why) > 1 else "") + why[-1]
    return f"beside every {words} on the board it would {listed}"


def _fault(
    cells: list[int],
    owner: list[int],
    nb: Sequence[Sequence[int]],
    a: int,
    x: int,
    v: int,
    w: int,
    max_contacts: int,
    allow_bridge: bool,
) -> str:
    """The first rule a tile with ``v`` on free square ``a`` and ``w`` on free square ``x``
    breaks: ``block`` (a full 2x2 square) when it breaks none of the others, for then only
    that rule can stop a tile that has no place."""
    tail = [n for n in nb[a] if n != x and cells[n] >= 0]
    head = [n for n in nb[x] if n != a and cells[n] >= 0]
    if len(tail) > max_contacts or len(head) > max_contacts:
        return "contacts"
    if any(cells[n] != v for n in tail):
        return "tail"
    if head:
        if any(cells[n] != w for n in head):
            return "head"
        if not allow_bridge:
            return "bridge"
        if {owner[n] for n in tail} & {owner[n] for n in head}:
            return "same"
    return "block"


__all__ = ["why_unplayable"]
