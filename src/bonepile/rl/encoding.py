"""A fixed action encoding per game: every action an integer whose meaning never shifts.

Games played in lines, arms and trees (block, draw, Super Dominoes, Doubles) on a
double-``M`` set of ``N = (M + 1)(M + 2) / 2`` tiles (tile index ``t`` as in
:mod:`bonepile.tiles`: ``hi * (hi + 1) / 2 + lo``):

* ``0 .. N-1``: lead tile ``t`` (``Lead``);
* ``N .. N+A-1``: attach ``T@U``, one index per ordered pair of distinct tiles that can ever
  touch (they share a pip; in Super Dominoes also a double on a tile showing 13, the
  ``double_wild_on_13`` play), in ``(T, U)`` index order (:attr:`ActionCodec.pairs`);
* ``N+A``: ``draw``; ``N+A+1``: ``pass``.

So an attach names the tile played and the table tile it hangs from, never a position in a
list of open ends: the same index means the same play in every position. Sizes: double-6
(block, draw, Doubles) 324; double-9 957; double-12 2,121; double-15 3,978 (block, draw) and
4,203 (Super Dominoes, with the wild doubles).

Double Double Dominoes, on a board of ``R x C`` cells: a placement ``P-Q@C1C2`` is one of
``D = R(C-1) + (R-1)C`` dominoes on the grid (horizontal ones first, then vertical, each in
reading order of its first cell) times the 49 ordered pips ``(P, Q)``: index
``domino * 49 + P * 7 + Q``; then ``discard T`` for the 28 tiles (``49D + t``) and ``stop``
(``49D + 28``). The standard 15 x 15 board: 20,609 actions.

The index ``ActionCodec.size`` (one past the last action) stands for another seat's discard,
whose tile is hidden, in an observation's history; it is never an action.
"""

from __future__ import annotations

from typing import Any

from bonepile.actions import (
    DRAW,
    PASS,
    STOP,
    Action,
    Attach,
    Discard,
    Lead,
    Place,
)
from bonepile.errors import BonepileError
from bonepile.games import Game, get_game
from bonepile.grid import Board
from bonepile.tiles import TILES, tile_set

PIPS_DDD = 7
"""Pip values on a Double Double Dominoes tile (0 to 6)."""


class EncodingError(BonepileError):
    """An action or an index the encoding of this game does not know."""


def resolve(
    game: str | Game[Any], options: Any = None, players: int | None = None
) -> tuple[Game[Any], Any]:
    """The game (by name or itself) and its options made and checked; with ``players``, the
    player count checked against them too."""
    g = game if isinstance(game, Game) else get_game(game)
    opts = g.make_options(options)
    if players is not None:
        g.check_players(players, opts)
    return g, opts


class ActionCodec:
    """The action encoding of one game with one option set (and board): ``encode(action)``
    gives the index, ``decode(index)`` the action; ``size`` actions in all.

    ``encode`` raises :class:`EncodingError` for an action this game can never take (a hidden
    discard encodes as ``size``, see :data:`HIDDEN`); ``decode`` for an index out of range.
    """

    game: str
    size: int
    actions: tuple[Action, ...]
    index: dict[Action, int]
    board: Board | None

    def __init__(self, game: str | Game[Any], options: Any = None, board: Board | None = None):
        g, opts = resolve(game, options)
        self.game = g.name
        self.board = None
        actions: list[Action]
        if g.family == "board":
            if board is None:
                board = g.new(2, options=opts, seed=0).layout.board  # type: ignore[union-attr]
            assert board is not None
            self.board = board
            actions = _board_actions(board)
        else:
            tiles = tile_set(g.max_pip(opts))
            wild = g.name == "super_dominoes"
            self.pairs: tuple[tuple[int, int], ...] = tuple(
                (t.index, u.index)
                for t in tiles
                for u in tiles
                if t is not u
                and (t.has(u.hi) or t.has(u.lo) or (wild and t.is_double and u.has(13)))
            )
            actions = [Lead(t) for t in tiles]
            actions.extend(Attach(TILES[t], TILES[u]) for t, u in self.pairs)
            actions.extend((DRAW, PASS))
        self.actions = tuple(actions)
        self.size = len(actions)
        self.index = {a: i for i, a in enumerate(actions)}

    def encode(self, action: Action) -> int:
        """The index of ``action`` (a hidden discard: ``size``)."""
        try:
            return self.index[action]
        except KeyError:
            if isinstance(action, Discard) and action.tile is None:
                return self.size
            raise EncodingError(f"{self.game} has no action {action}") from None

    def decode(self, index: int) -> Action:
        """The action with index ``index``."""
        if not 0 <= index < self.size:
            raise EncodingError(f"{self.game}: action index {index} is not in 0..{self.size - 1}")
        return self.actions[int(index)]

    def encode_all(self, actions: tuple[Action, ...]) -> list[int]:
        """The indices of ``actions`` (legal actions: none hidden)."""
        index = self.index
        return [index[a] for a in actions]

    def describe(self) -> str:
        """The layout of the indices, in one line."""
        if self.board is not None:
            d = (self.size - 29) // 49
            return (
                f"{self.game} on a {self.board.rows}x{self.board.cols} board: {self.size} "
                f"actions = {d} dominoes x 49 pips, 28 discards, stop"
            )
        n = sum(1 for a in self.actions if isinstance(a, Lead))
        return (
            f"{self.game}: {self.size} actions = {n} leads, {len(self.pairs)} attaches, draw, pass"
        )


def _board_actions(board: Board) -> list[Action]:
    rows, cols = board.rows, board.cols
    dominoes = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    dominoes += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    out: list[Action] = [
        Place(p, q, c1, c2) for c1, c2 in dominoes for p in range(PIPS_DDD) for q in range(PIPS_DDD)
    ]
    out.extend(Discard(t) for t in tile_set(6))
    out.append(STOP)
    return out


_CODECS: dict[tuple[str, Any, Any], ActionCodec] = {}


def codec_for(
    game: str | Game[Any], options: Any = None, board: Board | None = None
) -> ActionCodec:
    """The (cached) :class:`ActionCodec` of a game, its options and board."""
    g, opts = resolve(game, options)
    key = (g.name, opts, None if board is None else board.name)
    codec = _CODECS.get(key)
    if codec is None or (board is not None and codec.board is not board):
        codec = _CODECS[key] = ActionCodec(g, opts, board)
    return codec
