"""Where a tile may go on a Double Double Dominoes board: the spot table and its upkeep.

A *spot* is a pair of free neighbouring cells that some tile may cover under the placement
rules (docs/games/double_double.md, "Placing a tile"), whatever the tiles in hand; what the
pair asks of a tile is its *code*:

* ``0..6``: the end on the pair's first cell must show that many pips, the other end is free;
* ``7..13``: the end on the second cell must show ``code - 7`` pips, the first is free;
* ``14 + 7 * p + q``: a bridge, ``p`` pips on the first cell and ``q`` on the second.

Pairs are numbered ``2 * a + d``: ``a`` is the pair's first cell in reading order and ``d`` is
0 for the pair ``(a, a + 1)`` across, 1 for ``(a, a + cols)`` down, so pair numbers sort as
the pairs do in reading order (the order of the legal placements).

A position keeps its spots in two lists: ``codes``, the code of every pair number (``-1``
where no tile may go), and ``rowbits``, per board row ``r`` a bit mask of the pairs numbered
from ``2 * cols * r`` that are spots (bit ``k`` for pair ``2 * cols * r + k``), to visit the
spots in order (:func:`spot_pairs`). ``pair * 64 + code`` indexes :attr:`Geometry.rows`, the
interned :class:`~bonepile.actions.Place` actions the spot offers (by the pips on the free
end, or the one placement of a bridge). Covering two cells can only change the spots of the
pairs with a cell within one step (diagonals included) of them, so each placement recomputes
those pairs alone (:meth:`Geometry.update`).

:class:`Geometry` holds one board's tables: the same for every deal, built once per board and
kept in the board's ``memo``.
"""

from __future__ import annotations

from typing import Any, Final

from bonepile.actions import Place
from bonepile.grid import Board

SET: Final = 28
"""Tiles in one double-6 set (tile indices ``0..27``)."""

CODES: Final = 63
"""How many spot codes there are: 7 + 7 one-ended, 49 bridges."""

KEY: Final = 64
"""Spot ``pair`` with ``code`` offers the placements ``Geometry.rows[pair * KEY + code]``."""

NO_SPOT: Final = -1
"""What :meth:`Geometry.spot` returns for a pair no tile may cover."""

GEOMETRY_KEY: Final = -1
"""The key of a board's :class:`Geometry` in ``Board.memo``."""

HI: Final = tuple(hi for hi in range(7) for _ in range(hi + 1))
"""The high half of the tile with each index (``Tile.index``)."""
LO: Final = tuple(lo for hi in range(7) for lo in range(hi + 1))
"""The low half of the tile with each index."""

_ONE: Final[tuple[int, ...]] = (0,)
_NONE: Final[tuple[int, ...]] = ()


class Geometry:
    """The placement tables of one board, deal-independent (see the module docstring).

    Per pair number (empty entries for numbers that name no pair): ``first`` and ``second``
    (its cells, ``-1`` for none), ``around_first`` and ``around_second`` (the other
    neighbours of each of its cells), ``squares`` (for every 2x2 square it touches, the
    square's cells outside the pair), ``pairs_of`` (per cell, the pairs that hold it),
    ``redo`` (the free pairs whose spot may change once the pair is covered: those with a cell
    within one step of it) and ``beside`` (the pairs with a cell next to it, sorted: where a
    chain from a double on it may go). Also the board's ``diamonds`` and score ``track``, the
    ``rows`` of placements by spot key (built as spots appear) and ``firsts``, the first
    tile's placements by star neighbour and tile index (``4 * tile + neighbour``).
    """

    size: int
    cols: int
    first: list[int]
    second: list[int]
    around_first: list[tuple[int, ...]]
    around_second: list[tuple[int, ...]]
    squares: list[tuple[tuple[int, ...], ...]]
    pairs_of: list[tuple[int, ...]]
    redo: list[tuple[int, ...]]
    beside: list[tuple[int, ...]]
    rows: list[tuple[Place, ...]]
    firsts: list[tuple[Place, ...]]
    diamonds: tuple[int, ...]
    track: tuple[int, ...]
    _board: Board

    def __init__(self, board: Board) -> None:
        self._board = board
        rows, cols = board.rows, board.cols
        size = rows * cols
        self.size = size
        self.cols = cols
        self.diamonds = board.diamonds
        self.track = board.track
        nb = board.neighbors
        count = 2 * size
        self.first = [-1] * count
        self.second = [-1] * count
        self.around_first = [()] * count
        self.around_second = [()] * count
        self.squares = [()] * count
        self.redo = [()] * count
        self.beside = [()] * count
        self.rows = [()] * (count * KEY)
        holding: list[list[int]] = [[] for _ in range(size)]
        for a in range(size):
            for x in nb[a]:
                if x > a:
                    p = self.pair(a, x)
                    self.first[p], self.second[p] = a, x
                    self.around_first[p] = tuple(n for n in nb[a] if n != x)
                    self.around_second[p] = tuple(n for n in nb[x] if n != a)
                    self.squares[p] = _squares(a, x, rows, cols)
                    holding[a].append(p)
                    holding[x].append(p)
        self.pairs_of = [tuple(h) for h in holding]
        for p in range(count):
            a, x = self.first[p], self.second[p]
            if a < 0:
                continue
            own = set(self.pairs_of[a]) | set(self.pairs_of[x])
            near = {q for c in _near(a, rows, cols) | _near(x, rows, cols) for q in holding[c]}
            self.redo[p] = tuple(sorted(near - own))
            beside = {q for c in (*nb[a], *nb[x]) for q in holding[c]}
            self.beside[p] = tuple(sorted(beside - own))
        star = board.star
        self.firsts = []
        for t in range(SET):
            for k in range(4):
                row: list[Place] = []
                if k < len(nb[star]):
                    ca, cx = divmod(star, cols), divmod(nb[star][k], cols)
                    for pa, pb in ((HI[t], LO[t]), (LO[t], HI[t])):
                        act = Place(pa, pb, ca, cx)
                        if act not in row:
                            row.append(act)
                self.firsts.append(tuple(row))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its board: unpickling finds (or builds) the board's own tables."""
        return (_of_board, (self._board,))

    def pair(self, a: int, x: int) -> int:
        """The number of the pair of neighbouring cells ``a < x``."""
        return 2 * a + (1 if x == a + self.cols else 0)

    def row(self, p: int, code: int) -> tuple[Place, ...]:
        """The placements spot ``p`` with ``code`` offers: by the pips on the free end, or
        the bridge's one placement (built once, interned)."""
        k = p * KEY + code
        row = self.rows[k]
        if not row:
            cols = self.cols
            a, x = self.first[p], self.second[p]
            ca, cx = (a // cols, a % cols), (x // cols, x % cols)
            if code < 7:
                row = tuple(Place(code, o, ca, cx) for o in range(7))
            elif code < 14:
                row = tuple(Place(o, code - 7, ca, cx) for o in range(7))
            else:
                row = (Place((code - 14) // 7, (code - 14) % 7, ca, cx),)
            self.rows[k] = row
        return row

    def spot(
        self,
        cells: list[int],
        owner: list[int],
        p: int,
        max_contacts: int,
        allow_bridge: bool,
        forbid_2x2: bool,
    ) -> int:
        """The code of free pair ``p`` on a board showing ``cells`` (pips, ``-1`` for empty)
        covered by the tiles numbered ``owner``, or :data:`NO_SPOT`.

        A tile may go there when one end touches at least one tile, each end touches at most
        ``max_contacts`` squares that all show the same pips, the two ends touch different
        tiles (and both touch something only if ``allow_bridge``), and, with ``forbid_2x2``,
        it completes no fully covered 2x2 square."""
        va = -1
        oa = -1
        ka = 0
        for n in self.around_first[p]:
            v = cells[n]
            if v >= 0:
                if ka == 0:
                    va = v
                    oa = owner[n]
                elif v != va:
                    return NO_SPOT
                ka += 1
        vx = -1
        ox = -1
        kx = 0
        for n in self.around_second[p]:
            v = cells[n]
            if v >= 0:
                if kx == 0:
                    vx = v
                    ox = owner[n]
                elif v != vx:
                    return NO_SPOT
                kx += 1
        if ka > max_contacts or kx > max_contacts:
            return NO_SPOT
        if ka == 0:
            if kx == 0:
                return NO_SPOT
            code = 7 + vx
        elif kx == 0:
            code = va
        else:
            if not allow_bridge:
                return NO_SPOT
            if ka == 1 and kx == 1:
                if oa == ox:
                    return NO_SPOT
            elif self._share_tile(cells, owner, p):
                return NO_SPOT
            code = 14 + 7 * va + vx
        if forbid_2x2 and (max_contacts > 1 or (ka and kx)):
            # With one contact per end only a bridge can fill a square: one of the squares
            # that hold both cells of the pair; a square holding one cell ``c`` of it is full
            # only when the two neighbours of ``c`` in it are covered, two contacts of ``c``.
            for square in self.squares[p]:
                if _full(cells, square):
                    return NO_SPOT
        return code

    def _share_tile(self, cells: list[int], owner: list[int], p: int) -> bool:
        """Whether the two ends of pair ``p`` touch a common tile."""
        near = {owner[n] for n in self.around_first[p] if cells[n] >= 0}
        return any(cells[n] >= 0 and owner[n] in near for n in self.around_second[p])

    def touches(self, cells: list[int], owner: list[int], p: int, tile: int, only: bool) -> bool:
        """Whether free pair ``p`` touches tile number ``tile`` with some contact (with every
        contact if ``only``)."""
        some = False
        for ends in (self.around_first[p], self.around_second[p]):
            for n in ends:
                if cells[n] >= 0:
                    if owner[n] == tile:
                        some = True
                    elif only:
                        return False
        return some

    def update(
        self,
        codes: list[int],
        rowbits: list[int],
        cells: list[int],
        owner: list[int],
        p: int,
        max_contacts: int,
        allow_bridge: bool,
        forbid_2x2: bool,
    ) -> None:
        """Bring ``codes`` and ``rowbits`` up to date (in place) after a tile covered pair
        ``p``.

        The pairs to recompute are those with a cell within one step of the tile. With one
        contact per end, or 2x2 squares allowed, only those with a cell next to the tile can
        change: a pair whose cell ``c`` is diagonal to the tile could only be barred by the
        square of ``c``, the tile's cell and their two common neighbours, and those two
        neighbours, when covered, are two contacts of ``c`` already."""
        width = 2 * self.cols
        for q in self.pairs_of[self.first[p]]:
            if codes[q] >= 0:
                codes[q] = NO_SPOT
                r = q // width
                rowbits[r] = rowbits[r] & ~(1 << (q - r * width))
        for q in self.pairs_of[self.second[p]]:
            if codes[q] >= 0:
                codes[q] = NO_SPOT
                r = q // width
                rowbits[r] = rowbits[r] & ~(1 << (q - r * width))
        first = self.first
        second = self.second
        redo = self.beside[p] if max_contacts == 1 or not forbid_2x2 else self.redo[p]
        for q in redo:
            if cells[first[q]] >= 0 or cells[second[q]] >= 0:
                continue  # covered: not a spot before either
            code = self.spot(cells, owner, q, max_contacts, allow_bridge, forbid_2x2)
            old = codes[q]
            if code != old:
                codes[q] = code
                r = q // width
                if code < 0:
                    rowbits[r] = rowbits[r] & ~(1 << (q - r * width))
                else:
                    self.row(q, code)
                    if old < 0:
                        rowbits[r] = rowbits[r] | (1 << (q - r * width))


def spot_pairs(rowbits: list[int], cols: int) -> list[int]:
    """The pair numbers of the spots marked in ``rowbits``, ascending."""
    out = []
    base = 0
    width = 2 * cols
    for m in rowbits:
        while m:
            low = m & -m
            m ^= low
            out.append(base + BIT_INDEX[low % 67])
        base += width
    return out


def geometry(board: Board) -> Geometry:
    """The :class:`Geometry` of ``board``, built on first use and kept in its ``memo``."""
    geo = board.memo.get(GEOMETRY_KEY)
    if geo is None:
        geo = board.memo[GEOMETRY_KEY] = Geometry(board)
    assert isinstance(geo, Geometry)
    return geo


def _of_board(board: Board) -> Geometry:
    return geometry(board)


def hand_kinds(hand: int) -> int:
    """The bit mask of the tile indices in ``hand``, a mask over tile instances (instance
    ``k`` is the tile with index ``k % 28``)."""
    kinds = 0
    while hand:
        kinds |= hand & _SET_MASK  # fold the copies of the sets onto one set
        hand >>= SET
    return kinds


def tile_values(kinds: int) -> list[int]:
    """The tile indices in the mask ``kinds``, ascending."""
    out = []
    t = 0
    while kinds:
        if kinds & 1:
            out.append(t)
        kinds >>= 1
        t += 1
    return out


def wants(values: list[int]) -> list[tuple[int, ...]]:
    """For the tiles ``values`` (tile indices, ascending), per spot code: the pips the spot's
    free end may show (the indices of its row to offer, in tile order), or ``(0,)`` for a
    bridge one of the tiles fits.

    The tiles showing ``v`` pips, in index order, are those whose other halves ascend, so
    each one-ended code offers the other halves in ascending order."""
    partners = [0] * 7
    want = [_NONE] * CODES
    one = _ONE
    for t in values:
        hi = HI[t]
        lo = LO[t]
        partners[hi] = partners[hi] | (1 << lo)
        partners[lo] = partners[lo] | (1 << hi)
        want[14 + 7 * hi + lo] = one
        want[14 + 7 * lo + hi] = one
    for v in range(7):
        m = partners[v]
        if m:
            want[v] = want[7 + v] = _BITS7[m]
    return want


_SET_MASK: Final = (1 << SET) - 1
BIT_INDEX: Final = tuple(next((k for k in range(64) if (1 << k) % 67 == r), -1) for r in range(67))
"""``BIT_INDEX[(1 << k) % 67] == k`` for every ``k < 64`` (the powers of 2 differ mod 67)."""
_BITS7: Final = tuple(tuple(o for o in range(7) if m >> o & 1) for m in range(128))


def spot_ends(code: int) -> tuple[int, int]:
    """The pips the first and the second cell of a spot with ``code`` must show (``-1``:
    free)."""
    if code < 7:
        return code, -1
    if code < 14:
        return -1, code - 7
    return (code - 14) // 7, (code - 14) % 7


def _full(cells: list[int], square: tuple[int, ...]) -> bool:
    return all(cells[q] >= 0 for q in square)


def _near(c: int, rows: int, cols: int) -> set[int]:
    """Cell ``c`` and every cell one step from it, diagonals included."""
    r, k = divmod(c, cols)
    return {
        rr * cols + kk
        for rr in range(r - 1, r + 2)
        for kk in range(k - 1, k + 2)
        if 0 <= rr < rows and 0 <= kk < cols
    }


def _squares(a: int, x: int, rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For every 2x2 square holding ``a`` or ``x``, its cells other than those two."""
    out = []
    corners = sorted(
        r * cols + c
        for cell in (a, x)
        for r in range(cell // cols - 1, cell // cols + 1)
        for c in range(cell % cols - 1, cell % cols + 1)
        if 0 <= r < rows - 1 and 0 <= c < cols - 1
    )
    for tl in dict.fromkeys(corners):
        square = (tl, tl + 1, tl + cols, tl + cols + 1)
        out.append(tuple(q for q in square if q not in (a, x)))
    return tuple(out)
