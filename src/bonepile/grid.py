"""Boards for Double Double Dominoes: a grid of squares with diamonds, a star and a score track.

Boards are data (docs/games/double_double.md, "Boards"): the standard board and small test
boards ship inside the package (``bonepile/games/boards/*.json``), and a user may load their
own file. :func:`load_board` validates a board and refuses a bad one with a
:class:`BoardError` that names the problem.

Cells are numbered ``row * cols + col`` (zero-based, row 0 at the top) and written in the
Scrabble-style notation of docs/records.md, "Notation": the row number from 1, then the
column letter, ``8H``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from bonepile.errors import (
    BonepileError,
    InputFileError,
    InvalidActionError,
    MissingFileError,
    quoted,
    shown,
)
from bonepile.files import MAX_FILE_BYTES, display_name, load_json_text, read_text_limited
from bonepile.layout import unroll_cells
from bonepile.tiles import TILES, Tile

MAX_SIDE = 26
"""Boards have at most 26 columns (letters ``A``-``Z``) and 26 rows."""

BOARD_NAMES = ("standard", "small", "tiny")
"""The boards shipped with bonepile, by name."""

_CELL_RE = re.compile(r"^\s*([0-9]{1,2})\s*([A-Za-z])\s*$")


class BoardError(BonepileError):
    """A board file or object that is not a valid board."""


def parse_cell(text: str) -> tuple[int, int]:
    """``"8H"`` -> ``(7, 7)``: zero-based (row, column). Syntax only, not bounds."""
    if not isinstance(text, str):
        raise InvalidActionError(f"a cell must be a string like '8H', got {quoted(text)}")
    m = _CELL_RE.match(text)
    if m is None or int(m.group(1)) < 1:
        raise InvalidActionError(f"{quoted(text)} is not a cell (a row and a column, e.g. '8H')")
    return int(m.group(1)) - 1, ord(m.group(2).upper()) - ord("A")


def format_cell(row: int, col: int) -> str:
    """``(7, 7)`` -> ``"8H"``."""
    return f"{row + 1}{chr(ord('A') + col)}"


class Board:
    """A validated board: its grid, star, diamonds, score track and victory totals.

    Public attributes: ``name``, ``rows``, ``cols``, ``star`` (a cell index), ``diamonds`` (the
    diamond value of every cell, 0 for none), ``track`` (``track[k - 1]`` is the pip value of
    track position ``k``), ``victory_totals`` (by player count), ``max_pip``, ``colors``
    (diamond value -> colour name). ``neighbors`` lists every cell's neighbours; the rules
    keep the tables they derive from the board in ``memo`` (see
    :mod:`bonepile.games.double_double_spots`).
    """

    __slots__ = (
        "_json",
        "colors",
        "cols",
        "diamonds",
        "max_pip",
        "memo",
        "name",
        "neighbors",
        "rows",
        "star",
        "track",
        "victory_totals",
    )

    name: str
    rows: int
    cols: int
    star: int
    diamonds: tuple[int, ...]
    track: tuple[int, ...]
    victory_totals: dict[int, int]
    max_pip: int
    colors: dict[int, str]
    neighbors: tuple[tuple[int, ...], ...]
    memo: dict[int, Any]
    _json: dict[str, Any]

    @property
    def size(self) -> int:
        """The number of cells."""
        return self.rows * self.cols

    def cell(self, text: str) -> int:
        """The index of the cell written ``text`` (``"8H"``); :class:`InvalidActionError` if
        it is not on this board."""
        r, c = parse_cell(text)
        if not (r < self.rows and c < self.cols):
            raise InvalidActionError(f"{text.strip()} is not on the {self.rows}x{self.cols} board")
        return r * self.cols + c

    def cell_name(self, index: int) -> str:
        """The notation of cell ``index``."""
        return format_cell(*divmod(index, self.cols))

    def rc(self, index: int) -> tuple[int, int]:
        """Zero-based (row, column) of cell ``index``."""
        return divmod(index, self.cols)

    def track_pips(self, position: int) -> int | None:
        """The pip value printed on track ``position`` (``None`` at the start and past the end)."""
        if 1 <= position <= len(self.track):
            return self.track[position - 1]
        return None

    def victory_total(self, players: int) -> int:
        """The score that ends the game at once for ``players`` players."""
        return self.victory_totals[players]

    def to_json(self) -> dict[str, Any]:
        """The board as a board file (docs/games/double_double.md, "Boards"): what records carry."""
        out: dict[str, Any] = json.loads(json.dumps(self._json))
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._json == other._json

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self.diamonds, self.track))

    def __repr__(self) -> str:
        return f"<Board {self.name} {self.rows}x{self.cols}>"

    def __reduce__(self) -> tuple[Any, ...]:
        if self.name in BOARD_NAMES and _shipped(self.name) == self:
            return (_shipped, (self.name,))
        return (board_from_json, (self.to_json(),))


def _fail(why: str) -> BoardError:
    return BoardError(f"board: {why}")


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(f"{where} must be an integer from {lo} to {hi}, got {shown(value)}")
    return value


BOARD_KEYS = (
    "name",
    "rows",
    "cols",
    "grid",
    "diamond_colors",
    "score_track",
    "victory_totals",
    "max_pip",
)


def board_from_json(data: Any) -> Board:
    """Validate a board object (docs/games/double_double.md, "Boards"); build the :class:`Board`."""
    if not isinstance(data, Mapping):
        raise _fail(f"expected an object, got {shown(data)}")
    for key in data:
        if key not in BOARD_KEYS:
            raise _fail(f"unknown key {shown(key)} (allowed: {', '.join(BOARD_KEYS)})")
    for key in ("rows", "cols", "grid", "score_track", "victory_totals"):
        if key not in data:
            raise _fail(f"{key} is missing")
    name = data.get("name", "custom")
    if not isinstance(name, str) or not name or len(name) > 80:
        raise _fail(f"name must be a non-empty string, got {shown(name)}")
    rows = _int(data["rows"], "rows", 1, MAX_SIDE)
    cols = _int(data["cols"], "cols", 1, MAX_SIDE)
    if rows * cols < 2:
        raise _fail("a board needs at least two squares")
    max_pip = _int(data.get("max_pip", 6), "max_pip", 6, 6)
    grid = data["grid"]
    if not isinstance(grid, list) or any(not isinstance(r, str) for r in grid):
        raise _fail("grid must be a list of strings")
    if len(grid) != rows:
        raise _fail(f"grid has {len(grid)} rows, rows says {rows}")
    diamonds: list[int] = []
    stars = []
    for r, line in enumerate(grid):
        if len(line) != cols:
            raise _fail(f"grid row {r + 1} has {len(line)} squares, cols says {cols}")
        for c, ch in enumerate(line):
            if ch == "*":
                stars.append(r * cols + c)
                diamonds.append(0)
            elif ch == ".":
                diamonds.append(0)
            elif ch in "12345":
                diamonds.append(int(ch))
            else:
                where = format_cell(r, c)
                raise _fail(
                    f"grid square {where} is {shown(ch)}: use '.', '*' or a diamond value 1-5"
                )
    if len(stars) != 1:
        raise _fail(f"the grid needs exactly one star '*', found {len(stars)}")
    track_in = data["score_track"]
    if not isinstance(track_in, Mapping):
        raise _fail("score_track must be an object with spaces")
    for key in track_in:
        if key not in ("spaces", "start_space_has_pips"):
            raise _fail(f"score_track: unknown key {shown(key)}")
    if track_in.get("start_space_has_pips", False) is not False:
        raise _fail("score_track.start_space_has_pips: only false is supported")
    spaces = track_in.get("spaces")
    if not isinstance(spaces, list) or not spaces or len(spaces) > 10_000:
        raise _fail("score_track.spaces must be a non-empty list of pip values")
    track = tuple(_int(v, f"score_track.spaces[{k}]", 0, max_pip) for k, v in enumerate(spaces))
    totals_in = data["victory_totals"]
    if not isinstance(totals_in, Mapping) or not totals_in:
        raise _fail('victory_totals must be an object like {"2": 100, "3": 75}')
    totals: dict[int, int] = {}
    for key, value in totals_in.items():
        if not isinstance(key, str) or key not in ("2", "3", "4", "5", "6"):
            raise _fail(f'victory_totals: player counts are "2" to "6", got {shown(key)}')
        totals[int(key)] = _int(value, f"victory_totals[{key}]", 1, 10_000)
    if max(totals.values()) > len(track):
        raise _fail(
            f"the score track has {len(track)} spaces, fewer than the largest victory total "
            f"{max(totals.values())}"
        )
    colors_in = data.get("diamond_colors", {})
    if not isinstance(colors_in, Mapping) or any(
        k not in ("1", "2", "3", "4", "5") or not isinstance(v, str) for k, v in colors_in.items()
    ):
        raise _fail('diamond_colors must map "1"-"5" to colour names')
    b = Board.__new__(Board)
    b.name = name
    b.rows = rows
    b.cols = cols
    b.star = stars[0]
    b.diamonds = tuple(diamonds)
    b.track = track
    b.victory_totals = dict(sorted(totals.items()))
    b.max_pip = max_pip
    b.colors = {int(k): v for k, v in colors_in.items()}
    b._json = {
        "name": name,
        "rows": rows,
        "cols": cols,
        "grid": list(grid),
        "diamond_colors": dict(colors_in),
        "score_track": {"start_space_has_pips": False, "spaces": list(track)},
        "victory_totals": {str(k): v for k, v in b.victory_totals.items()},
        "max_pip": max_pip,
    }
    _geometry(b)
    return b


def _geometry(b: Board) -> None:
    """The neighbour lists, and an empty ``memo`` for the rules' tables."""
    rows, cols = b.rows, b.cols
    nb: list[tuple[int, ...]] = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        out = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                out.append(rr * cols + cc)
        nb.append(tuple(out))
    b.neighbors = tuple(nb)
    b.memo = {}


@cache
def _shipped(name: str) -> Board:
    text = resources.files("bonepile.games").joinpath("boards", f"{name}.json").read_text("utf-8")
    return board_from_json(json.loads(text))


def standard_board() -> Board:
    """The standard 15x15 board (docs/games/double_double.md, "Equipment")."""
    return _shipped("standard")


def load_board(source: str | Path | Mapping[str, Any] | Board) -> Board:
    """A board from a shipped name (``standard``, ``small``, ``tiny``), a file path or an object.

    A board file is read as :func:`bonepile.files.read_text_limited` reads it: a regular file
    of at most 16 MiB of UTF-8 JSON; anything else is a one-line :class:`BoardError`.
    """
    if isinstance(source, Board):
        return source
    if isinstance(source, Mapping):
        return board_from_json(source)
    if isinstance(source, str) and source in BOARD_NAMES:
        return _shipped(source)
    if not isinstance(source, str | Path):
        raise _fail(f"expected a board name, a file or an object, got {shown(source)}")
    name = display_name(source)
    try:
        text = read_text_limited(source, MAX_FILE_BYTES)
    except MissingFileError:
        names = ", ".join(BOARD_NAMES)
        raise _fail(f"no board called {quoted(str(source))} (boards: {names}, or a file)") from None
    except InputFileError as e:
        raise _fail(str(e)) from None
    try:
        data = load_json_text(text)
    except InputFileError as e:
        raise _fail(f"{name} is {e}") from None
    return board_from_json(data)


BoardPlaced = tuple[Any, int, int, int, int, int, int] | None
"""A persistent list of board placements: ``(previous, tile, cell1, cell2, p, q, seat)`` cells,
one tuple a placement."""


Cell = tuple[int, int]
"""A cell as zero-based ``(row, col)``: ``(7, 7)`` is ``8H``, the centre of the 15x15 board."""


@dataclass(frozen=True)
class BoardPlacement:
    """A tile on the board: pips ``p`` on ``cell1`` and ``q`` on ``cell2``, zero-based
    ``(row, col)`` cells in reading order, put there by ``seat``."""

    tile: Tile
    cell1: Cell
    cell2: Cell
    p: int
    q: int
    seat: int

    def __reduce__(self) -> tuple[Any, ...]:
        return (BoardPlacement, (self.tile, self.cell1, self.cell2, self.p, self.q, self.seat))

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{tile, cells: [[row, col], [row, col]], pips: [p, q], seat}``."""
        return {
            "tile": str(self.tile),
            "cells": [list(self.cell1), list(self.cell2)],
            "pips": [self.p, self.q],
            "seat": self.seat,
        }


class BoardLayout:
    """The board and the tiles on it, in play order, with every player's piece on the score
    track: what a renderer needs to draw a board game (placements built lazily).

    ``board`` is the :class:`Board` (grid, diamonds, star, track, victory totals);
    ``positions`` every seat's track position.
    """

    __slots__ = ("_placed", "_placements", "board", "positions")

    family = "board"
    ends: tuple[()] = ()
    """A board has no open ends in the line games' sense (placements are cell pairs)."""

    def __init__(
        self,
        board: Board,
        placed: BoardPlaced = None,
        positions: tuple[int, ...] = (),
        placements: tuple[BoardPlacement, ...] | None = None,
    ) -> None:
        self.board = board
        self.positions = tuple(positions)
        self._placed = placed
        self._placements: tuple[BoardPlacement, ...] | None = placements

    @property
    def placements(self) -> tuple[BoardPlacement, ...]:
        """Every tile on the board, in play order."""
        if self._placements is None:
            rc = self.board.rc
            self._placements = tuple(
                BoardPlacement(TILES[t], rc(a), rc(b), p, q, seat)
                for t, a, b, p, q, seat in unroll_cells(self._placed)
            )
        return self._placements

    @property
    def root(self) -> Tile | None:
        """The first tile placed (on the star), or ``None``."""
        ps = self.placements
        return ps[0].tile if ps else None

    def tiles(self) -> tuple[Tile, ...]:
        """Every tile on the board, in play order."""
        return tuple(p.tile for p in self.placements)

    def pips(self) -> dict[Cell, int]:
        """The pips showing on every covered cell, by ``(row, col)``."""
        out: dict[Cell, int] = {}
        for pl in self.placements:
            out[pl.cell1] = pl.p
            out[pl.cell2] = pl.q
        return out

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, BoardLayout)
            and self.board == other.board
            and self.positions == other.positions
            and self.placements == other.placements
        )

    def __hash__(self) -> int:
        return hash((self.placements, self.positions))

    def __repr__(self) -> str:
        return f"BoardLayout({self.board.name}, {len(self.placements)} tiles)"

    def __reduce__(self) -> tuple[Any, ...]:
        return (BoardLayout, (self.board, None, self.positions, self.placements))

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``family: "board"``, the whole board (the data format of
        :func:`board_from_json`, plus ``star`` and ``diamonds`` as ``[row, col]`` cells for
        convenience), the placements and every seat's track position."""
        b = self.board
        board = b.to_json()
        board["star"] = list(b.rc(b.star))
        board["diamonds"] = [[*b.rc(i), v] for i, v in enumerate(b.diamonds) if v]
        return {
            "family": "board",
            "board": board,
            "tiles": [p.to_json() for p in self.placements],
            "positions": list(self.positions),
        }

    @classmethod
    def from_json(cls, data: Any) -> BoardLayout:
        """Inverse of :meth:`to_json`, checked (the board is validated as a board file is)."""
        if not isinstance(data, Mapping) or data.get("family") != "board":
            raise _fail("a board layout must be an object with family 'board'")
        board_in = data.get("board")
        if not isinstance(board_in, Mapping):
            raise _fail("layout.board must be an object")
        board_json = {k: v for k, v in board_in.items() if k in BOARD_KEYS}
        name = board_json.get("name")
        if name in BOARD_NAMES and _shipped(name)._json == board_json:
            board = _shipped(name)  # the shipped board, not a copy built again
        else:
            board = board_from_json(board_json)
        tiles_in = data.get("tiles")
        positions = data.get("positions")
        if not isinstance(tiles_in, list) or not isinstance(positions, list):
            raise _fail("layout: tiles and positions must be lists")
        out = []
        for i, t in enumerate(tiles_in):
            if not isinstance(t, Mapping):
                raise _fail(f"layout.tiles[{i}] must be an object")
            item: Any = t
            try:
                tile = Tile.parse(item["tile"])
                (r1, c1), (r2, c2) = item["cells"]
                p, q = item["pips"]
                seat = item["seat"]
            except (TypeError, ValueError, KeyError):
                raise _fail(f"layout.tiles[{i}]: tile, cells, pips and seat expected") from None
            values = (r1, c1, r2, c2, p, q, seat)
            if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
                raise _fail(f"layout.tiles[{i}]: cells, pips and seat must be integers")
            if not (0 <= r1 < board.rows and 0 <= r2 < board.rows) or not (
                0 <= c1 < board.cols and 0 <= c2 < board.cols
            ):
                raise _fail(f"layout.tiles[{i}]: a cell is off the board")
            out.append(BoardPlacement(tile, (r1, c1), (r2, c2), p, q, seat))
        if any(isinstance(v, bool) or not isinstance(v, int) for v in positions):
            raise _fail("layout.positions must be integers")
        return cls(board, None, tuple(positions), tuple(out))
