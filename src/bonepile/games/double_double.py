"""Double Double Dominoes (docs/games/double_double.md; docs/rules.md, "Double Double Dominoes").

A board game: tiles from two double-6 sets (three for 5-6 players) are placed on a grid with
numbered diamonds and a star; every tile scores its diamonds (doubled for a double) and gives a
3-point bonus to every player whose score-track space shows one of its pips. A double lets its
player chain another tile next to it. The game ends at once when someone reaches the victory
total, at the end of the turn that draws the last boneyard tile, or when no spot is left.

Tiles come in copies, so hands are bit masks over tile *instances*: instance ``k`` is the tile
with index ``k % 28``. The board is a flat list of pips (``-1`` for empty) with the number of
the domino covering each cell, and the table of the spots where a tile may go, kept up to date
placement by placement (:mod:`bonepile.games.double_double_spots`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from bonepile.actions import STOP, Action, Discard, Place
from bonepile.errors import DealError, OptionError
from bonepile.events import (
    ChainStopped,
    Discarded,
    Drew,
    Event,
    PlacedOnBoard,
    Scored,
)
from bonepile.facts import FactsError, Reader
from bonepile.games.base import Game
from bonepile.games.double_double_spots import (
    BIT_INDEX,
    HI,
    KEY,
    LO,
    NO_SPOT,
    Geometry,
    geometry,
    hand_kinds,
    spot_ends,
    spot_pairs,
    tile_values,
    wants,
)
from bonepile.games.double_double_why import why_unplayable
from bonepile.grid import (
    Board,
    BoardLayout,
    BoardPlaced,
    format_cell,
    load_board,
    standard_board,
)
from bonepile.heuristics import BOARD_HINTS
from bonepile.options import option, reduce_options
from bonepile.result import Reason, Result
from bonepile.state import State
from bonepile.tiles import TILES, Tile, bits, check_deal

SET: Final = 28
"""Tiles in one double-6 set."""
HAND: Final = 3
"""Tiles in hand at the end of every turn."""

_DISCARDS = tuple(Discard(TILES[t]) for t in range(SET))


@dataclass(frozen=True)
class DoubleDoubleOptions:
    """Options of Double Double Dominoes (docs/games/double_double.md, "Options")."""

    domino_sets: int | None = option(
        None,
        "double-6 sets in play; null means 2 for 2-4 players and 3 for 5-6 (the 3 is invented)",
        minimum=1,
        maximum=6,
    )
    first_player_tiebreak: str = option(
        "seat_order",
        "players tied on their lowest tile: the first seat (seat the oldest first), the next "
        "lowest tiles, or a random pick",
        choices=("seat_order", "next_lowest_tile", "random"),
    )
    max_contacts_per_end: int = option(
        1, "squares each end of a tile may touch (all of them showing its pips)", minimum=1
    )
    allow_bridge: bool = option(
        True, "a tile may join two dominoes, its head matching one and its tail the other"
    )
    forbid_2x2: bool = option(True, "no placement may complete a fully covered 2x2 square")
    chain_contact: str = option(
        "any_contact_with_last_double",
        "a chained tile must touch the last double with some contact, or with all of them",
        choices=("any_contact_with_last_double", "tail_on_last_double"),
    )
    board_full_check: str = option(
        "geometric",
        "the board is full when no spot is left for any pips, or for the tiles still in play",
        choices=("geometric", "available_tiles"),
    )
    double_multiplier: int = option(2, "a double scores its diamonds this many times", minimum=0)
    track_bonus: int = option(
        3, "bonus to every player whose track space shows a pip of the tile", minimum=0
    )
    bonus_timing: str = option(
        "positions_before_tile",
        "track bonuses are checked against the positions before the tile, or with the mover "
        "first moved by its diamond points",
        choices=("positions_before_tile", "after_mover_diamond_move"),
    )
    simultaneous_victory: str = option(
        "highest_then_tiebreak",
        "several players reach the victory total on one tile: the highest score (then the "
        "hand-pips tie-break) wins, or the mover wins if it is among them",
        choices=("highest_then_tiebreak", "mover_wins"),
    )
    tiebreak_hand_pips: str = option(
        "most",
        "a tie on score goes to the player with the most pips in hand (as the rules are "
        "written), or the fewest",
        choices=("most", "fewest"),
    )

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_options(self)


Cell = tuple[int, int]
"""A board cell as zero-based ``(row, col)``."""

PLACE: Final[type[Place]] = Place
DISCARD: Final[type[Discard]] = Discard
"""The action classes, as compiled constants (an imported name is a lookup at every use)."""


@dataclass(frozen=True)
class DoubleDoubleFacts:
    """Public facts of Double Double Dominoes.

    ``first_player``; ``board`` (its name); ``positions`` (every seat's score-track position)
    and ``track_pips`` (the pips printed where each piece stands, ``None`` at the start or past
    the end); ``victory_total`` (the score that ends the game at once); ``pit`` (tiles in the
    pit, face down); ``chain`` (the two ``(row, col)`` cells of the double the actor may chain
    from, or ``None``); ``last_draw_drawn`` (the boneyard is empty: the game ends after this
    turn).
    """

    first_player: int
    board: str
    positions: tuple[int, ...]
    track_pips: tuple[int | None, ...]
    victory_total: int
    pit: int
    chain: tuple[Cell, Cell] | None
    last_draw_drawn: bool

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            DoubleDoubleFacts,
            (
                self.first_player,
                self.board,
                self.positions,
                self.track_pips,
                self.victory_total,
                self.pit,
                self.chain,
                self.last_draw_drawn,
            ),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON form (cells as ``[row, col]``)."""
        return {
            "first_player": self.first_player,
            "board": self.board,
            "positions": list(self.positions),
            "track_pips": list(self.track_pips),
            "victory_total": self.victory_total,
            "pit": self.pit,
            "chain": None if self.chain is None else [list(c) for c in self.chain],
            "last_draw_drawn": self.last_draw_drawn,
        }

    @classmethod
    def from_json(cls, data: Any) -> DoubleDoubleFacts:
        """Inverse of :meth:`to_json`, checked."""
        r = Reader(data, "public")
        chain_in = r.raw("chain")
        chain: tuple[Cell, Cell] | None = None
        if chain_in is not None:
            if (
                not isinstance(chain_in, list)
                or len(chain_in) != 2
                or any(
                    not isinstance(c, list)
                    or len(c) != 2
                    or any(isinstance(x, bool) or not isinstance(x, int) for x in c)
                    for c in chain_in
                )
            ):
                raise FactsError("public: chain must be two [row, col] cells or null")
            chain = ((chain_in[0][0], chain_in[0][1]), (chain_in[1][0], chain_in[1][1]))
        out = cls(
            r.num("first_player"),
            r.word("board"),
            r.ints("positions"),
            r.opt_ints("track_pips"),
            r.num("victory_total"),
            r.num("pit"),
            chain,
            r.flag("last_draw_drawn"),
        )
        r.done()
        return out

    def notes(self) -> tuple[str, ...]:
        """The pit, a chain and the last draw, in words."""
        out = []
        if self.pit:
            out.append(f"pit: {self.pit} tile{'s' if self.pit != 1 else ''} face down")
        if self.chain is not None:
            cells = "/".join(format_cell(*c) for c in self.chain)
            out.append(f"chain: may place next to the double on {cells}")
        if self.last_draw_drawn:
            out.append("the last boneyard tile is drawn: the game ends after this turn")
        return tuple(out)


def sets_in_play(opts: DoubleDoubleOptions, players: int) -> int:
    """How many double-6 sets a game of ``players`` uses with ``opts``."""
    if opts.domino_sets is not None:
        return opts.domino_sets
    return 2 if players <= 4 else 3


class DoubleDoubleGame(Game[DoubleDoubleOptions]):
    """Double Double Dominoes: tiles on a board with diamonds, a star and a score track."""

    name = "double_double"
    aliases = ("ddd", "double_double_dominoes", "doubledouble")
    title = "Double Double Dominoes"
    summary = "board game: place tiles on diamonds, score-track bonuses, double chains"
    note = (
        "The standard board is a reconstruction from public sources; pass "
        "another board with --board NAME|FILE (shipped: standard, small, tiny). The 3 sets "
        "for 5-6 players are invented (no source gives the add-on count)."
    )
    Options = DoubleDoubleOptions
    Facts = DoubleDoubleFacts
    family = "board"
    board_game = True
    hints = BOARD_HINTS
    hidden_actions = True

    def max_pip(self, opts: DoubleDoubleOptions) -> int:
        return 6

    def hand_size(self, players: int, opts: DoubleDoubleOptions) -> int:
        return HAND

    def player_range(self, opts: DoubleDoubleOptions) -> tuple[int, int]:
        return (2, 6)

    def target_score(self, opts: DoubleDoubleOptions) -> int | None:
        return None

    def _check_players(self, players: int, opts: DoubleDoubleOptions) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"players must be an integer, got {players!r}")
        if not 2 <= players <= 6:
            shown = players if abs(players) < 10**6 else "that many"
            raise OptionError(f"{self.name} is for 2 to 6 players, not {shown}")
        sets = sets_in_play(opts, players)
        if players * HAND > sets * SET:
            raise OptionError(f"{players} hands of {HAND} need more than {sets} set(s)")

    def first_player_key(self, opts: DoubleDoubleOptions) -> Callable[[Tile], Any] | None:
        return _lowest_first

    def why_unplayable(self, view: Any, tile: Tile) -> str | None:
        """Why ``tile`` has no place on the board of ``view`` (a
        :class:`~bonepile.view.View`) now, in words; ``None`` when it has one
        (:func:`~bonepile.games.double_double_why.why_unplayable`, which changes no rule)."""
        layout = view.layout
        if not isinstance(layout, BoardLayout):
            return None
        opts = view.options
        return why_unplayable(
            layout,
            tile,
            getattr(view.public, "chain", None),
            max_contacts=opts.max_contacts_per_end,
            allow_bridge=opts.allow_bridge,
            forbid_2x2=opts.forbid_2x2,
            tail_on_double=opts.chain_contact == "tail_on_last_double",
        )

    def first_player_by_lot(self, opts: DoubleDoubleOptions) -> bool:
        return opts.first_player_tiebreak == "random"

    def deck_size(self, players: int, opts: DoubleDoubleOptions) -> int:
        """Every copy of every tile: instance ``k`` is the tile with index ``k % 28``."""
        return SET * sets_in_play(opts, players)

    def _check_deal(
        self,
        players: int,
        opts: Any,
        deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]],
    ) -> tuple[list[int], list[int]]:
        hands_in, bone_in = deal
        sets = sets_in_play(opts, players)
        check_deal(hands_in, bone_in, players=players, hand_size=HAND, max_pip=6, copies=sets)
        used = [0] * SET
        hands = []
        for h in hands_in:
            m = 0
            for t in h:
                m |= 1 << (used[t.index] * SET + t.index)
                used[t.index] += 1
            hands.append(m)
        bone = []
        for t in bone_in:
            bone.append(used[t.index] * SET + t.index)
            used[t.index] += 1
        return hands, bone

    def _start(
        self,
        opts: DoubleDoubleOptions,
        hands: list[int],
        bone: list[int],
        rng: random.Random | None,
        seed: int | None,
        scores_before: Sequence[int] | None,
        leader: int | None = None,
        board: Any = None,
    ) -> State[Any]:
        b = standard_board() if board is None else load_board(board)
        first = leader if leader is not None else _first_player(hands, opts, rng)
        s = DoubleDoubleState.__new__(DoubleDoubleState)
        s._init_base(self, opts, hands, bone, first, seed, scores_before, leader)
        s._init_board(b, (0,) * len(hands), ())
        s._begin_turn(first, None)
        return s


def position(
    players: int,
    hands: Sequence[Sequence[str]],
    *,
    placed: Sequence[str | tuple[str, int]] = (),
    positions: Sequence[int] | None = None,
    boneyard: Sequence[str] | None = None,
    pit: Sequence[str] = (),
    actor: int = 0,
    options: Any = None,
    board: Any = None,
) -> DoubleDoubleState:
    """A position built directly (a "fixture"), for tests and studies.

    ``actor`` is to act holding ``hands[actor]`` (its start-of-turn draw counts as done; hands
    may hold any number of tiles). ``placed`` are tiles on the board in play order, written as
    placements (``"3-6@8G8H"``) or ``(placement, seat)`` pairs; they are put down as given,
    without checking the placement rules. ``positions`` are the score-track positions. The
    boneyard is ``boneyard`` in drawing order, or else every tile of the sets not used
    elsewhere, in set order. Raises ``ValueError`` when the tiles are not in the sets.
    """
    from bonepile.actions import parse_action
    from bonepile.tiles import parse_tile

    opts = DOUBLE_DOUBLE.make_options(options)
    DOUBLE_DOUBLE.check_players(players, opts)
    b = standard_board() if board is None else load_board(board)
    if len(hands) != players:
        raise OptionError(f"position: {len(hands)} hands for {players} players")
    sets = sets_in_play(opts, players)
    free = [sets] * SET

    def take(t: Tile) -> int:
        if t.hi > 6 or free[t.index] == 0:
            raise DealError(f"position: no {t} left in {sets} double-6 set(s)")
        free[t.index] -= 1
        return free[t.index] * SET + t.index

    s = DoubleDoubleState.__new__(DoubleDoubleState)
    masks = []
    for h in hands:
        m = 0
        for text in h:
            m |= 1 << take(parse_tile(text))
        masks.append(m)
    moves = []
    for item in placed:
        text, seat = (item, 0) if isinstance(item, str) else item
        a = parse_action(text)
        if not isinstance(a, Place):
            raise OptionError(f"position: {text!r} is not a placement")
        take(a.tile)
        moves.append((a, seat))
    pit_in = [take(parse_tile(t)) for t in pit]
    if boneyard is None:
        bone = [c * SET + t for t in range(SET) for c in range(free[t] - 1, -1, -1)]
    else:
        bone = [take(parse_tile(t)) for t in boneyard]
    s._init_base(DOUBLE_DOUBLE, opts, masks, bone, actor, None, None)
    s._init_board(b, tuple(positions) if positions is not None else (0,) * players, pit_in)
    for a, seat in moves:
        x1 = b.cell(format_cell(*a.cell1))
        x2 = b.cell(format_cell(*a.cell2))
        if s._cells[x1] >= 0 or s._cells[x2] >= 0:
            raise OptionError(f"position: {a} covers a covered square")
        s._put(x1, x2, a.p, a.q, a.tile.index, seat)
    s._actor = actor
    return s


def _tile_pips(instances: int) -> list[int]:
    return sorted(TILES[k % SET].pips for k in bits(instances))


def _first_player(hands: list[int], opts: DoubleDoubleOptions, rng: random.Random | None) -> int:
    """The holder of the lowest tile by pip total, ties by the option
    (docs/games/double_double.md, "Who starts")."""
    lows = [_tile_pips(h)[0] for h in hands]
    tied = [s for s, low in enumerate(lows) if low == min(lows)]
    if len(tied) == 1:
        return tied[0]
    rule = opts.first_player_tiebreak
    if rule == "next_lowest_tile":
        best = min(_tile_pips(hands[s]) for s in tied)
        return next(s for s in tied if _tile_pips(hands[s]) == best)
    if rule == "random" and rng is not None:
        return rng.choice(tied)
    return tied[0]


class DoubleDoubleState(State[DoubleDoubleOptions]):
    """A position of Double Double Dominoes.

    Public attributes besides :class:`State`'s: ``board`` (the :class:`~bonepile.grid.Board`),
    ``positions`` (every seat's score-track position, also :attr:`scores`), ``chain`` (the two
    cells of the double the actor may chain from, or ``None``).
    """

    __slots__ = (
        "_board",
        "_cells",
        "_chain",
        "_chain_moves",
        "_codes",
        "_count",
        "_ending",
        "_geo",
        "_mine",
        "_owner",
        "_pit",
        "_placed",
        "_positions",
        "_rowbits",
        "_victory",
    )

    _board: Board
    _geo: Geometry
    _cells: list[int]
    _owner: list[int]
    _codes: list[int]
    """The spot code of every cell pair (:mod:`~bonepile.games.double_double_spots`)."""
    _rowbits: list[int]
    """Per board row, the bit mask of its pairs that are spots."""
    _mine: bool
    """Whether ``_cells``, ``_owner``, ``_codes`` and ``_rowbits`` belong to this state alone,
    so that a placement may change them in place (a clone shares them until it changes
    them)."""
    _chain_moves: list[Action] | None
    """The placements of a chain just offered by :meth:`_place`, for :meth:`_compute_legal`."""
    _placed: BoardPlaced
    _count: int
    _positions: tuple[int, ...]
    _pit: tuple[int, ...]
    _chain: tuple[int, int] | None
    _ending: bool
    _victory: int

    @property
    def board(self) -> Board:
        """The board this hand is played on."""
        return self._board

    @property
    def positions(self) -> tuple[int, ...]:
        """Every seat's score-track position (also :attr:`scores`)."""
        return self._positions

    @property
    def chain(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The ``(row, col)`` cells of the double the actor may chain from, or ``None``."""
        chain = self._chain
        if chain is None:
            return None
        b = self._board
        return (b.rc(chain[0]), b.rc(chain[1]))

    def _init_board(self, b: Board, positions: Sequence[int], pit: Sequence[int]) -> None:
        """An empty ``b`` with pieces at ``positions`` and ``pit`` (tile instances)."""
        if self._players not in b.victory_totals:
            raise OptionError(
                f"the {b.name} board has no victory total for {self._players} players"
            )
        self._board = b
        self._geo = geometry(b)
        self._cells = [-1] * b.size
        self._owner = [-1] * b.size
        self._codes = [NO_SPOT] * (2 * b.size)
        self._rowbits = [0] * b.rows
        self._mine = True
        self._chain_moves = None
        self._placed = None
        self._count = 0
        self._positions = tuple(positions)
        self._pit = tuple(pit)
        self._chain = None
        self._ending = False
        self._victory = b.victory_total(self._players)

    def _clone(self) -> DoubleDoubleState:
        new = DoubleDoubleState.__new__(DoubleDoubleState)
        self._copy_base(new)
        new._board = self._board
        new._geo = self._geo
        new._cells = self._cells
        new._owner = self._owner
        new._codes = self._codes
        new._rowbits = self._rowbits
        new._mine = self._mine = False  # shared from now on: copied before a change
        new._chain_moves = None
        new._placed = self._placed
        new._count = self._count
        new._positions = self._positions
        new._pit = self._pit
        new._chain = self._chain
        new._ending = self._ending
        new._victory = self._victory
        return new

    # ----------------------------------------------------------------- tiles in hand
    @staticmethod
    def tiles_of_mask(mask: int) -> tuple[Tile, ...]:
        """The tiles of a hand of tile instances (copies of the sets), in index order."""
        return tuple(sorted((TILES[k % SET] for k in bits(mask)), key=_index))

    def hand_pips(self, seat: int) -> int:
        return sum(TILES[k % SET].pips for k in bits(self._hands[seat]))

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        return tuple(TILES[k % SET] for k in self._bone[self._bpos :])

    @property
    def deal(self) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
        """The deal before the first player's automatic draw."""
        root = self.initial
        assert isinstance(root, DoubleDoubleState)
        drawn = root._bone[: root._bpos]
        hands = list(root._hands)
        for k in drawn:
            hands[root._first_player] &= ~(1 << k)
        tiles = tuple(tuple(sorted((TILES[k % SET] for k in bits(h)), key=_index)) for h in hands)
        return tiles, tuple(TILES[k % SET] for k in root._bone)

    @property
    def pit_tiles(self) -> tuple[Tile, ...]:
        """The tiles in the pit, in the order they went in (hidden from every seat)."""
        return tuple(TILES[k % SET] for k in self._pit)

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's score-track position."""
        return self._positions

    @property
    def hand_points(self) -> tuple[int, ...]:
        """The score track: the game's points, scored as the tiles go down (the result holds
        none)."""
        return self._positions

    def pip_at(self, cell: str) -> int | None:
        """The pips showing on ``cell`` (``"8H"``), or ``None`` when it is empty."""
        v = self._cells[self._board.cell(cell)]
        return None if v < 0 else v

    # ----------------------------------------------------------------- legal actions
    def _values(self, seat: int) -> list[int]:
        """The distinct tile indices in ``seat``'s hand, ascending."""
        return tile_values(hand_kinds(self._hands[seat]))

    def _compute_legal(self) -> tuple[Action, ...]:
        if self._result is not None:
            return ()
        actor = self._actor
        assert actor is not None
        chain = self._chain
        if chain is not None:
            acts = self._chain_moves
            if acts is None:
                acts = self._placements(actor, chain)
            return (STOP, *acts)
        acts = self._placements(actor, None)
        if acts:
            return tuple(acts)
        return tuple(_DISCARDS[t] for t in self._values(actor))

    def _placements(self, seat: int, chain: tuple[int, int] | None) -> list[Action]:
        """Every legal placement of ``seat``'s tiles (only next to ``chain`` if given), in
        reading order of the cell pairs, then in tile order."""
        values = self._values(seat)
        want = wants(values)
        geo = self._geo
        out: list[Action] = []
        if self._count == 0:
            firsts = geo.firsts
            for k in range(len(self._board.neighbors[self._board.star])):
                for t in values:
                    out.extend(firsts[4 * t + k])
            return out
        rows = geo.rows
        codes = self._codes
        if chain is None:
            # the spots in order: the set bits of each row's mask (as in spot_pairs)
            base = 0
            width = 2 * geo.cols
            for m in self._rowbits:
                while m:
                    low = m & -m
                    m ^= low
                    p = base + BIT_INDEX[low % 67]
                    code = codes[p]
                    got = want[code]
                    if got:
                        row = rows[p * KEY + code]
                        for o in got:
                            out.append(row[o])
                base += width
            return out
        cells = self._cells
        owner = self._owner
        last = owner[chain[0]]
        only = self._options.chain_contact == "tail_on_last_double"
        for p in geo.beside[geo.pair(chain[0], chain[1])]:
            code = codes[p]
            if code >= 0 and geo.touches(cells, owner, p, last, only):
                row = rows[p * KEY + code]
                for o in want[code]:
                    out.append(row[o])
        return out

    def _spot_list(self) -> list[tuple[int, int, int, int]]:
        """The cell pairs a tile may go on, whatever its pips: ``(a, x, va, vb)``, ``a < x``,
        with ``va``/``vb`` the pips the ends on ``a``/``x`` must show (``-1``: free). In
        reading order of ``(a, x)``."""
        geo = self._geo
        out = []
        for p in spot_pairs(self._rowbits, geo.cols):
            va, vb = spot_ends(self._codes[p])
            out.append((geo.first[p], geo.second[p], va, vb))
        return out

    # ----------------------------------------------------------------- transition
    def _do(self, action: Action, events: list[Event] | None) -> tuple[Event, ...] | None:
        actor = self._actor
        assert actor is not None
        self._chain_moves = None
        kind = type(action)
        if kind is PLACE:
            self._place(actor, cast(Place, action), events)
        elif kind is DISCARD:
            tile = cast(Discard, action).tile
            assert tile is not None
            k = self._take(actor, tile.index)
            self._pit = (*self._pit, k)
            if events is not None:
                events.append(Discarded(actor, tile))
            self._end_turn(actor, events)
        else:  # stop
            if events is not None:
                events.append(ChainStopped(actor))
            self._end_turn(actor, events)
        return None  # events only in the list (see State._do)

    def _take(self, seat: int, t: int) -> int:
        """Remove one instance of tile index ``t`` from ``seat``'s hand; return the instance."""
        h = self._hands[seat]
        k = t
        while not h >> k & 1:
            k += SET
        hands = list(self._hands)
        hands[seat] = h & ~(1 << k)
        self._hands = tuple(hands)
        return k

    def _place(self, actor: int, action: Place, events: list[Event] | None) -> None:
        cols = self._geo.cols
        cell1 = action.cell1
        cell2 = action.cell2
        a = cell1[0] * cols + cell1[1]
        x = cell2[0] * cols + cell2[1]
        p = action.p
        q = action.q
        tile = action.tile
        t = tile.index
        self._take(actor, t)
        self._put(a, x, p, q, t, actor)
        chained = self._chain is not None
        if events is not None:
            events.append(PlacedOnBoard(actor, tile, p, q, cell1, cell2, chained))
        if self._score(actor, t, a, x, events):
            return
        if p == q:  # a double
            self._chain = (a, x)
            acts = self._placements(actor, self._chain)
            if acts:
                self._chain_moves = acts  # for _compute_legal, which follows
                return  # the actor may chain (or stop)
        self._end_turn(actor, events)

    def _put(self, a: int, x: int, p: int, q: int, t: int, seat: int) -> None:
        """Cover cells ``a < x`` with pips ``p`` and ``q`` of the tile with index ``t``; update
        the spots."""
        if not self._mine:
            self._cells = list(self._cells)
            self._owner = list(self._owner)
            self._codes = list(self._codes)
            self._rowbits = list(self._rowbits)
            self._mine = True
        cells = self._cells
        owner = self._owner
        cells[a] = p
        cells[x] = q
        owner[a] = owner[x] = self._count
        self._placed = (self._placed, t, a, x, p, q, seat)
        self._count += 1
        geo = self._geo
        opts = self._options
        geo.update(
            self._codes,
            self._rowbits,
            cells,
            owner,
            geo.pair(a, x),
            opts.max_contacts_per_end,
            opts.allow_bridge,
            opts.forbid_2x2,
        )

    def _score(self, actor: int, t: int, a: int, x: int, events: list[Event] | None) -> bool:
        """Score the tile with index ``t`` just placed on ``a`` and ``x``
        (docs/games/double_double.md, "Scoring"); end the game and return True on a victory."""
        geo = self._geo
        opts = self._options
        hi = HI[t]
        lo = LO[t]
        diamonds = geo.diamonds[a] + geo.diamonds[x]
        if hi == lo:
            diamonds *= opts.double_multiplier
        before = self._positions
        after = list(before)
        after[actor] = after[actor] + diamonds
        bonus = opts.track_bonus
        late = opts.bonus_timing == "after_mover_diamond_move"
        if diamonds and events is not None:
            events.append(Scored(actor, diamonds, "diamond", after[actor]))
        if bonus:
            track = geo.track
            for s in range(self._players):
                pos = after[s] if (late and s == actor) else before[s]
                if not 1 <= pos <= len(track):
                    continue  # the start spot and past the end show no pips
                pip = track[pos - 1]
                if pip in (hi, lo):
                    after[s] = after[s] + bonus
                    if events is not None:
                        events.append(Scored(s, bonus, "bonus", after[s]))
        self._positions = tuple(after)
        if max(after) < self._victory:
            return False
        reached = [s for s in range(self._players) if after[s] >= self._victory]
        if opts.simultaneous_victory == "mover_wins" and actor in reached:
            winners: tuple[int, ...] = (actor,)
        else:
            winners = self._best(reached)
        self._finish("victory_total", winners, events)
        return True

    def _best(self, seats: Sequence[int]) -> tuple[int, ...]:
        """The highest scores among ``seats``, then the hand-pips tie-break; ties share."""
        top = max(self._positions[s] for s in seats)
        tied = [s for s in seats if self._positions[s] == top]
        if len(tied) > 1:
            pips = {s: self.hand_pips(s) for s in tied}
            pick = max if self._options.tiebreak_hand_pips == "most" else min
            best = pick(pips.values())
            tied = [s for s in tied if pips[s] == best]
        return tuple(tied)

    def _end_turn(self, actor: int, events: list[Event] | None) -> None:
        """Refill to three, check the two end-of-turn endings, then start the next turn."""
        self._chain = None
        held = self._hands[actor].bit_count()
        assert held <= HAND, "a hand holds at most 3 after a turn"
        if held < HAND:
            self._draw(actor, HAND - held, "refill", events)
        if self._ending:
            self._finish("last_draw", self._best(range(self._players)), events)
        elif self._board_full():
            self._finish("board_full", self._best(range(self._players)), events)
        else:
            self._begin_turn((actor + 1) % self._players, events)

    def _begin_turn(self, seat: int, events: list[Event] | None) -> None:
        self._actor = seat
        self._draw(seat, 1, "turn", events)

    def _draw(self, seat: int, k: int, cause: str, events: list[Event] | None) -> None:
        left = len(self._bone) - self._bpos
        k = min(k, left)
        if k <= 0:
            return
        got = self._bone[self._bpos : self._bpos + k]
        self._bpos += k
        h = self._hands[seat]
        for i in got:
            h |= 1 << i
        hands = list(self._hands)
        hands[seat] = h
        self._hands = tuple(hands)
        if self._bpos == len(self._bone):
            self._ending = True
        if events is not None:
            events.append(Drew(seat, k, tuple(TILES[i % SET] for i in got), cause))

    def _board_full(self) -> bool:
        """No spot is left for any tile (``geometric``), or for the tiles still in play."""
        if self._count == 0:
            return False
        if self._options.board_full_check == "geometric":
            return not any(self._rowbits)
        spots = self._spot_list()
        avail: set[int] = set()
        for h in self._hands:
            avail.update(k % SET for k in bits(h))
        avail.update(k % SET for k in self._bone[self._bpos :])
        tiles = [TILES[t] for t in avail]
        for _, _, va, vb in spots:
            if va >= 0 and vb >= 0:
                if any(t.has(va) and t.other(va) == vb for t in tiles):
                    return False
            elif any(t.has(va if va >= 0 else vb) for t in tiles):
                return False
        return True

    def _finish(self, reason: Reason, winners: tuple[int, ...], events: list[Event] | None) -> None:
        self._chain = None
        self._end_hand(Result(reason, tuple(sorted(winners)), (0,) * self._players), events)

    # ----------------------------------------------------------------- public views
    @property
    def layout(self) -> BoardLayout:
        return BoardLayout(self._board, self._placed, self._positions)

    def _layout_key(self) -> tuple[Any, Any]:
        return self._board, (self._placed, self._positions)

    @staticmethod
    def _layout_of(key: Any, more: Any) -> BoardLayout:
        return BoardLayout(key, more[0], more[1])

    @property
    def facts(self) -> DoubleDoubleFacts:
        return self._facts_of(self._facts_key())

    def _facts_key(self) -> FactsKey:
        return (
            self._first_player,
            self._board,
            self._positions,
            self._victory,
            len(self._pit),
            self._chain,
            self._ending and self._result is None,
        )

    @staticmethod
    def _facts_of(key: FactsKey) -> DoubleDoubleFacts:
        last = _LAST_FACTS[0]
        if last is not None and last[0] == key:  # the views of one turn share their facts
            return last[1]
        first, b, positions, victory, pit, chain, ending = key
        facts = DoubleDoubleFacts(
            first,
            b.name,
            positions,
            tuple(b.track_pips(p) for p in positions),
            victory,
            pit,
            None if chain is None else (b.rc(chain[0]), b.rc(chain[1])),
            ending,
        )
        _LAST_FACTS[0] = (key, facts)
        return facts

    def key(self) -> tuple[Any, ...]:
        """As :meth:`State.key`, with tiles by value (which copy of a tile is where is no part
        of the position)."""
        return (
            self._game.name,
            self._options,
            tuple(tuple(t.index for t in self.hand(s)) for s in range(self._players)),
            tuple(t.index for t in self.boneyard),
            self._actor,
            self._result,
            self._scores_before,
            self._board,
            tuple(self._cells),
            tuple(self._owner),
            self._positions,
            tuple(sorted(k % SET for k in self._pit)),
            self._chain,
            self._ending,
        )


FactsKey = tuple[int, Board, tuple[int, ...], int, int, tuple[int, int] | None, bool]
"""The values a position's public facts are made of (see :meth:`DoubleDoubleState._facts_key`)."""

_LAST_FACTS: Final[list[tuple[FactsKey, DoubleDoubleFacts] | None]] = [None]
"""The facts made last, with their values."""


def _lowest_first(t: Tile) -> tuple[int, int]:
    """The first player holds the lowest tile by pip total."""
    return (-t.pips, 0)


def _index(t: Tile) -> int:
    return t.index


DOUBLE_DOUBLE = DoubleDoubleGame()
