"""The classic line games ``block`` and ``draw`` (docs/games/block.md and docs/games/draw.md;
docs/rules.md, "Block and Draw").

One options class and one state class serve both: ``draw`` differs only in that a player who
cannot play draws from the boneyard. The layout is a line with two open ends; a double is laid
across and continues the line, and with ``spinner`` the first double takes four sides.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, cast

from bonepile.actions import LEAD_BY_INDEX, Action, Attach, Draw, Lead
from bonepile.errors import OptionError
from bonepile.events import Drew, Event, Led, Passed, Placed
from bonepile.facts import Reader
from bonepile.games.base import Game
from bonepile.heuristics import DRAW_HINTS, LINE_HINTS
from bonepile.layout import Ends, Layout, build_layout
from bonepile.layout import Placed as PlacedList
from bonepile.masks import count, with_hand
from bonepile.options import option, reduce_options
from bonepile.result import Result
from bonepile.rules import (
    ATTACH_SETS,
    PASS_ONLY,
    attach_set,
    blocked_winner,
    draw_or_pass,
    leads_of,
    pips_of,
    points,
)
from bonepile.state import State
from bonepile.tiles import ONE_TILE, TILES, Tile, set_size
from bonepile.tiles import SHORT_MASK as _SHORT_MASK
from bonepile.tiles import SUIT_LOW as _SUIT_LOW
from bonepile.tiles import SUIT_MASK as _SUIT_MASK

_DEFAULT_HAND: Final = {6: 7, 9: 9, 12: 12, 15: 15}

SHORT_MASK: Final[int] = _SHORT_MASK
SHORT_BITS: Final = 62
"""A hand of a set of at most this many tiles is at most ``SHORT_MASK``."""
_SET_SIZE: Final[tuple[int, ...]] = tuple(set_size(p) for p in range(19))
"""``_SET_SIZE[p]``: the tiles of a double-``p`` set."""
_FOLLOWING: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((s + 1) % n for s in range(n)) for n in range(17)
)
"""``_FOLLOWING[n][s]``: the seat after ``s`` at a table of ``n``."""
_EVERY_SEAT: Final[tuple[int, ...]] = tuple(sum(1 << 8 * k for k in range(n)) for n in range(17))
"""``_EVERY_SEAT[n]``: one tile in each of ``n`` hands, as ``_packed`` counts them."""
SUIT_LOW: Final[tuple[int, ...]] = _SUIT_LOW
SUIT_MASK: Final[tuple[int, ...]] = _SUIT_MASK
ATTACH: Final[type[Attach]] = Attach
LEAD: Final[type[Lead]] = Lead
DRAW_KIND: Final[type[Draw]] = Draw
ALL_TILES: Final[tuple[Tile, ...]] = TILES
_ONE_TILE: Final[tuple[tuple[Tile], ...]] = ONE_TILE
"""The suit tables, action classes and tiles, as compiled constants (a name imported from a
module that is not compiled is a dictionary lookup at every use)."""


@dataclass(frozen=True)
class LineOptions:
    """Options of the classic ``block`` and ``draw`` games (docs/games/block.md, "Options")."""

    max_pip: int = option(6, "the set used: double-6, 9, 12 or 15", allowed=(6, 9, 12, 15))
    hand_size: int | None = option(
        None, "tiles per hand; null means 7/9/12/15 for double-6/9/12/15", minimum=1
    )
    teams: bool = option(False, "4 players in partnerships: seats 0+2 against 1+3")
    lead: str = option(
        "highest_double",
        "who leads: the highest double (else the heaviest tile), or seat 0 with any tile",
        choices=("highest_double", "seat0_any"),
    )
    spinner: bool = option(False, "the first double played takes tiles on all four sides")
    draw_mode: str = option(
        "until_playable",
        "draw: draw until a tile is playable, or draw one tile per turn (block ignores it)",
        choices=("until_playable", "one"),
    )
    reserve: int = option(0, "draw: the last N boneyard tiles cannot be drawn", minimum=0)
    blocked_tie: str = option(
        "no_score",
        "a blocked hand tied for the lowest pips: nobody scores, or the lightest tile wins",
        choices=("no_score", "lightest_tile"),
    )
    target_score: int | None = option(
        100,
        "a match ends when a player or team reaches this total (null: one hand)",
        minimum=1,
        nullable=True,
    )

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_options(self)


@dataclass(frozen=True)
class LineFacts:
    """Public facts of ``block`` and ``draw``: the first player, and whether the actor has
    drawn this turn (``draw`` only; always false in ``block``)."""

    first_player: int
    drawn_this_turn: bool

    def __reduce__(self) -> tuple[Any, ...]:
        return (LineFacts, (self.first_player, self.drawn_this_turn))

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"first_player": self.first_player, "drawn_this_turn": self.drawn_this_turn}

    @classmethod
    def from_json(cls, data: Any) -> LineFacts:
        """Inverse of :meth:`to_json`, checked."""
        r = Reader(data, "public")
        out = cls(r.num("first_player"), r.flag("drawn_this_turn"))
        r.done()
        return out

    def notes(self) -> tuple[str, ...]:
        """Nothing beyond the layout needs telling in the classic games."""
        return ()


class LineGame(Game[LineOptions]):
    """``block`` or ``draw``: the classic games played in a line."""

    Options = LineOptions
    Facts = LineFacts
    family = "line"
    hints = LINE_HINTS
    passes_show_lacks = True

    drawing: ClassVar[bool] = False
    """True in draw: a player who cannot play draws from the boneyard."""

    def teams(self, players: int, opts: LineOptions) -> tuple[tuple[int, ...], ...]:
        """With ``teams`` and four players, seats 0 and 2 against 1 and 3."""
        if opts.teams and players == 4:
            return ((0, 2), (1, 3))
        return super().teams(players, opts)

    def max_pip(self, opts: LineOptions) -> int:
        return opts.max_pip

    def deck_size(self, players: int, opts: LineOptions) -> int:
        return _SET_SIZE[opts.max_pip]  # one set; a table, not three calls: every deal asks

    def hand_size(self, players: int, opts: LineOptions) -> int:
        return opts.hand_size if opts.hand_size is not None else _DEFAULT_HAND[opts.max_pip]

    def player_range(self, opts: LineOptions) -> tuple[int, int]:
        if opts.teams:
            return (4, 4)
        return (2, 4) if opts.max_pip == 6 else (2, 8)

    def _check_players(self, players: int, opts: LineOptions) -> None:
        if opts.teams and players != 4:
            raise OptionError(f"teams needs exactly 4 players, not {players}")
        super()._check_players(players, opts)

    def _start(
        self,
        opts: LineOptions,
        hands: list[int],
        bone: list[int],
        rng: random.Random | None,
        seed: int | None,
        scores_before: Sequence[int] | None,
        leader: int | None = None,
        board: Any = None,
    ) -> State[Any]:
        s = LineState.__new__(LineState)
        first = 0
        if leader is not None:  # a later hand of a match: the last winner leads any tile
            first = leader
            s._lead_tile = -1
        elif opts.lead == "highest_double":
            first, tile = _highest_lead(hands)
            s._lead_tile = tile
        else:
            s._lead_tile = -1
        s._init_base(self, opts, hands, bone, first, seed, scores_before, leader)
        s._drawing = self.drawing
        s._node = None
        s._placed = None
        s._placed_ok = True
        s._drawn = False
        s._actor = first
        s._packed = count(hands[0]) * _EVERY_SEAT[len(hands)]  # every hand the same size
        return s

    def lead_is_highest(self, opts: LineOptions) -> bool:
        return opts.lead == "highest_double"

    def next_leader(self, previous: State[LineOptions]) -> int | None:
        """The previous hand's winner leads any tile; after a tie, ``lead`` decides again.

        With teams the winner is the partner who went out, or who held the lowest hand.
        """
        assert isinstance(previous, LineState) and previous.result is not None
        return previous.hand_winner()


def _highest_lead(hands: Sequence[int]) -> tuple[int, int]:
    """The seat holding the highest double (else the heaviest tile) and that tile's index."""
    best = -1
    seat = 0
    for s, h in enumerate(hands):
        k = 0
        while h:  # a byte of the hand at a time (a fresh hand: nothing cached per hand)
            b = h & 255
            if b:
                table = _BEST_BY_BYTE[k]
                if table is None:
                    table = _BEST_BY_BYTE[k] = _best_of_bytes(k)
                key = table[b]
                if key > best:
                    best, seat = key, s
            h >>= 8
            k += 1
    assert best >= 0, "somebody holds a tile"
    return seat, best & 255


_LEAD_RANK: Final[tuple[int, ...]] = tuple(
    (4096 if t.is_double else 0) + 32 * t.pips + t.hi for t in TILES
)
"""How a tile ranks for the first lead (doubles first, then pips, then the higher half), by
tile index (each tile its own rank)."""

_BEST_BY_BYTE: Final[list[tuple[int, ...] | None]] = [None] * ((len(TILES) + 7) // 8)
"""``_BEST_BY_BYTE[k][b]``: ``rank << 8 | index`` of the best first lead among the tiles
``8k + i`` for the bits ``i`` of byte ``b`` (-1 for none; each ``k`` filled when needed)."""


def _best_of_bytes(k: int) -> tuple[int, ...]:
    return tuple(
        max(
            [_LEAD_RANK[t] << 8 | t for i in range(8) if m >> i & 1 for t in (8 * k + i,)],
            default=-1,
        )
        for m in range(256)
    )


class EndsNode:
    """An interned configuration of open ends, with its transitions and placements memoized.

    The line games see the same few end configurations over and over, so each one is a node
    of a lazily built automaton: ``advance(action)`` gives the next node (plus the values
    matched and left open) from a dict keyed by the interned action, and ``placements(hand)``
    the legal attaches from a dict keyed by the hand's matching tiles. Nodes are shared by
    every state and never change once made.
    """

    __slots__ = (
        "_legal",
        "_next",
        "a1",
        "a2",
        "k1",
        "k2",
        "low",
        "mask",
        "pairs",
        "spinner",
        "spinner_used",
        "two",
        "u1",
        "u2",
        "v1",
        "v2",
    )

    pairs: Ends
    mask: int  # the tiles that match an open end: ``hand & mask``, written out where used
    low: int  # ``mask`` cut to 62 bits, for a machine-integer hand (see tiles.SUIT_LOW)
    spinner: bool
    spinner_used: bool
    two: bool  # two ends, as every position without a spinner: u1/v1, and u2/v2 unless the same
    u1: int
    v1: int
    u2: int  # -1 when the second end is the first one again (a double led without a spinner)
    v2: int
    k1: int  # two ends: the tiles matching the first, cut to 62 bits (as ``low``)
    k2: int  # ... and the second (0 when it is the first again)
    a1: dict[int, tuple[Action, ...]]  # two ends: the attach sets of the first end's tile
    a2: dict[int, tuple[Action, ...]]  # ... and of the second's
    _next: dict[Action, tuple[EndsNode, int, int, int, int, int]]
    _legal: dict[int, tuple[Action, ...]]

    def __reduce__(self) -> tuple[Any, ...]:
        return (EndsNode.get, (self.pairs, self.spinner, self.spinner_used))

    @staticmethod
    def get(pairs: Ends, spinner: bool, spinner_used: bool) -> EndsNode:
        """The node of these ends (``spinner``: the option; ``spinner_used``: spun yet)."""
        key = (pairs, spinner, spinner_used)
        node = _NODES.get(key)
        if node is None:
            if len(_NODES) > 200_000:
                _NODES.clear()
                _LEAD_NODES.clear()
            node = _NODES[key] = EndsNode.__new__(EndsNode)
            node.pairs = pairs
            node.mask = _ends_mask(pairs)
            node.low = node.mask & SHORT_MASK
            node.spinner = spinner
            node.spinner_used = spinner_used
            node.two = len(pairs) == 2
            node.u1, node.v1 = pairs[0]
            node.u2, node.v2 = pairs[-1]
            if pairs[-1] == pairs[0]:
                node.u2 = -1
            node.k1 = SUIT_LOW[node.v1] if node.two else 0
            node.k2 = SUIT_LOW[node.v2] if node.two and node.u2 >= 0 else 0
            node.a1 = ATTACH_SETS[node.u1]
            node.a2 = ATTACH_SETS[node.u2] if node.u2 >= 0 else node.a1
            node._next = {}
            node._legal = {}
        return node

    @staticmethod
    def lead(tile: Tile, spinner: bool) -> EndsNode:
        """The node after ``tile`` is led (a double lead spins when ``spinner``)."""
        t = tile.index
        key = t + t + spinner
        node = _LEAD_NODES.get(key)
        if node is None:
            node = _LEAD_NODES[key] = EndsNode._lead(tile, spinner)
        return node

    @staticmethod
    def _lead(tile: Tile, spinner: bool) -> EndsNode:
        t = tile.index
        if tile.hi != tile.lo:
            return EndsNode.get(((t, tile.hi), (t, tile.lo)), spinner, False)
        return EndsNode.get(((t, tile.hi),) * (4 if spinner else 2), spinner, spinner)

    def advance(self, action: Attach) -> tuple[EndsNode, int, int, int, int, int]:
        """The node after ``action``, the value it matched, the value it leaves open, the
        placed tile's bit and the indices of the tile and of the tile it joins (read here once:
        an action is a plain Python object)."""
        r = self._next.get(action)
        if r is None:
            rest, v, o, used = _attach(
                self.pairs, action.tile, action.at.index, self.spinner, self.spinner_used
            )
            node = EndsNode.get(rest, self.spinner, used)
            t = action.tile.index
            r = self._next[action] = (node, v, o, action.bit, t, action.at.index)
        return r

    def placements(self, hand: int) -> tuple[Action, ...]:
        """The attaches of tiles in ``hand`` to these ends (see :func:`_placements`).

        Two ends (every block and draw position without a spinner) take two lookups of the
        attach sets, kept per end; only the others are memoized per hand here: keeping a tuple
        for every hand two ends ever met grew the caches without end, and the garbage collector
        paid for it at every step."""
        m = hand & (self.low if hand <= SHORT_MASK else self.mask)  # the matching tiles
        if not m:
            return ()
        if not self.two:
            acts = self._legal.get(m)
            if acts is None:
                acts = self._legal[m] = _placements(m, self.pairs)
            return acts
        # Two ends: _placements inline (calls are dear in pure Python), its cache read here.
        suits = SUIT_LOW if m <= SHORT_MASK else SUIT_MASK
        u = self.u1
        m1 = m & suits[self.v1]
        found: tuple[Action, ...] | None = None
        if m1:
            found = ATTACH_SETS[u].get(m1)
            if found is None:
                found = attach_set(u, m1)
        u = self.u2
        if u >= 0:
            m2 = m & suits[self.v2]
            if m2:
                more = ATTACH_SETS[u].get(m2)
                if more is None:
                    more = attach_set(u, m2)
                return more if found is None else found + more
        return () if found is None else found


_NODES: Final[dict[tuple[Ends, bool, bool], EndsNode]] = {}
_LEAD_NODES: Final[dict[int, EndsNode]] = {}
"""The node after each lead, by ``2 * tile index + spinner``."""


class LineState(State[LineOptions]):
    """A position of ``block`` or ``draw``."""

    __slots__ = ("_drawing", "_drawn", "_lead_tile", "_node", "_packed", "_placed", "_placed_ok")

    _drawing: bool
    _node: EndsNode | None
    _drawn: bool
    _lead_tile: int
    _placed: PlacedList
    _placed_ok: bool
    _packed: int  # every seat's hand size, 8 bits a seat, kept by each move (see _sizes)

    @property
    def ends(self) -> Ends | None:
        """The open ends as ``(anchor tile index, value)`` pairs (``None`` before the lead)."""
        return None if self._node is None else self._node.pairs

    def _clone(self) -> LineState:
        new = LineState.__new__(LineState)
        self._copy_base(new)
        new._drawing = self._drawing
        new._node = self._node
        new._drawn = self._drawn
        new._lead_tile = self._lead_tile
        new._placed = self._placed
        new._placed_ok = self._placed_ok
        new._packed = self._packed
        return new

    # ----------------------------------------------------------------- legal actions
    def _can_draw(self) -> bool:
        return self._drawing and len(self._bone) - self._bpos > self._options.reserve

    def _compute_legal(self) -> tuple[Action, ...]:
        if self._result is not None:
            return ()
        actor = self._actor
        assert actor is not None
        hand = self._hands[actor]
        node = self._node
        if node is None:
            if self._lead_tile >= 0:
                return (LEAD_BY_INDEX[self._lead_tile],)
            # A fresh hand is rarely seen twice: its leads are listed, not looked up in a cache.
            return leads_of(hand)
        acts = node.placements(hand)
        if acts:
            return acts
        return draw_or_pass(
            self._can_draw(), self._drawn, self._options.draw_mode == "until_playable"
        )

    # ----------------------------------------------------------------- transition
    def _do(self, action: Action, events: list[Event] | None) -> tuple[Event, ...] | None:
        actor: int = self._actor  # type: ignore[assignment]
        kind = type(action)
        done: tuple[Event, ...] | None = None  # the move's one event, shared (see State._do):
        # returned, not appended to ``events``, unless the hand ends
        if kind is ATTACH:
            cur = self._node
            assert cur is not None  # typed, the node's fields are read natively
            r = cur._next.get(action)
            if r is None:
                r = cur.advance(action)  # type: ignore[arg-type]
            node, v, o, bit, t, u = r
            hands = self._hands
            hand = hands[actor] ^ bit
            hands = self._hands = with_hand(hands, actor, hand)
            self._node = node
            self._drawn = False
            self._packed -= _SIZE_UNIT[actor]
            self._placed_ok = False  # worked out when asked for (see _placements)
            if events is not None:
                shared = _PLACED[actor]
                done = shared.get(action)
                if done is None:  # (seat, tile, anchor) decide the values matched and left open
                    done = shared[action] = (Placed(actor, ALL_TILES[t], ALL_TILES[u], v, o),)
            if not hand:
                if done is not None and events is not None:
                    events.append(done[0])
                self._finish_domino(actor, events)
                return None
            self._actor = (actor + 1) % self._players
            low = node.low
            for h in hands:  # any hand matching the new ends (inline: calls are dear in Python)
                if h & (low if h <= SHORT_MASK else node.mask):
                    return done
        elif kind is LEAD:
            tile = action.tile  # type: ignore[attr-defined]
            t = tile.index
            hands = self._hands = with_hand(self._hands, actor, self._hands[actor] ^ (1 << t))
            self._node = EndsNode.lead(tile, self._options.spinner)
            self._packed -= _SIZE_UNIT[actor]
            if events is None:
                self._placed_ok = False
            else:
                events.append(Led(actor, tile))
                self._placed = (None, t, -1, -1, actor)
                self._placed_ok = True
            if not hands[actor]:
                self._finish_domino(actor, events)
                return None
            self._actor = (actor + 1) % self._players
        elif kind is DRAW_KIND:
            t = self._bone[self._bpos]
            self._bpos += 1
            self._hands = with_hand(self._hands, actor, self._hands[actor] | (1 << t))
            self._drawn = True
            self._packed += _SIZE_UNIT[actor]
            if events is not None:
                k = actor * len(ALL_TILES) + t
                done = _DREW[k]
                if done is None:
                    done = _DREW[k] = (Drew(actor, 1, _ONE_TILE[t], "unable"),)
        else:
            if events is not None:
                done = _PASSED[actor]
            self._drawn = False
            self._actor = (actor + 1) % self._players
        # Static check (docs/games/block.md and docs/games/draw.md, "How a hand ends"): the hand
        # ends when no seat can place and nobody can draw.
        last = self._node
        assert last is not None
        low = last.low
        for h in self._hands:  # any hand matching the ends
            if h & (low if h <= SHORT_MASK else last.mask):
                return done
        if not self._can_draw():
            if done is not None and events is not None:
                events.append(done[0])
            self._finish_blocked(events)
            return None
        return done

    # ----------------------------------------------------------------- random playout
    def playout(self, rng: random.Random) -> State[LineOptions]:
        """:meth:`State.playout` with the places and passes after the lead played on local
        variables: the same choices, the same random numbers and the same final state.

        A random playout is what search bots pay for at every simulation, and most of a line
        hand is places and passes: here the hands are a list changed in place and a move is
        the lines of :meth:`_do`'s place branch (and :meth:`EndsNode.placements`' two ends),
        without a call, a new hands tuple or a write to the state a move. Everything else (the
        lead, a draw, the end of the hand) is :meth:`_do` itself, on the state written back.
        A set of more than 62 tiles takes :meth:`State.playout`. ``tests/test_line_games.py``
        and the property tests hold this path to step-by-step play.
        """
        if self._result is not None:
            return self
        if _SET_SIZE[self._options.max_pip] > SHORT_BITS:
            return State.playout(self, rng)
        s = cast(LineState, self._child())
        rand = rng.random
        moves = s._moves
        ply = s._ply
        following = _FOLLOWING[s._players]
        pass_move: Action = PASS_ONLY[0]
        until_playable = s._options.draw_mode == "until_playable"
        while True:
            actor = s._actor
            if actor is None:
                break
            node = s._node
            if node is not None:  # after the lead: places and passes here
                hands = list(s._hands)  # machine-sized masks: SHORT_BITS above
                held = 0  # every tile in a hand (hands never share a tile)
                for h in hands:
                    held |= h
                packed = s._packed
                drawn = s._drawn
                can_draw = s._can_draw()  # the boneyard changes only by a draw, played by _do
                out = 0  # 1: the actor went out, 2: the hand is blocked
                while True:
                    hand = hands[actor]
                    if node.two:
                        m1 = hand & node.k1
                        m2 = hand & node.k2
                        if m1:
                            legal = node.a1.get(m1) or attach_set(node.u1, m1)
                            if m2:
                                legal = legal + (node.a2.get(m2) or attach_set(node.u2, m2))
                        elif m2:
                            legal = node.a2.get(m2) or attach_set(node.u2, m2)
                        else:
                            legal = ()
                    elif hand & node.low:
                        legal = node.placements(hand)
                    else:
                        legal = ()
                    if legal:
                        action = legal[int(rand() * float(len(legal)))]
                        moves = (moves, action)
                        ply += 1
                        # Not ``get(...) or advance(...)``: compiled, ``or`` of a fixed-length
                        # tuple unboxes it and boxes it again, a new tuple a move.
                        r = node._next.get(action)
                        if r is None:
                            r = node.advance(action)  # type: ignore[arg-type]
                        node = r[0]
                        bit = r[3]
                        hand ^= bit
                        hands[actor] = hand
                        held ^= bit
                        packed -= _SIZE_UNIT[actor]
                        drawn = False
                        if not hand:
                            out = 1
                            break
                        actor = following[actor]
                        if not held & node.low and not can_draw:  # no hand matches the new ends
                            out = 2
                            break
                        continue
                    if can_draw and (not drawn or until_playable):
                        break  # a draw: _do plays it
                    rand()  # a pass is the only legal action, picked like any other
                    moves = (moves, pass_move)
                    ply += 1
                    drawn = False
                    actor = following[actor]
                if node is not s._node:  # a tile was placed: every place makes a new node
                    s._placed_ok = False
                    s._packed = packed
                    s._hands = tuple(hands)
                    s._node = node
                s._drawn = drawn
                if out == 1:
                    s._finish_domino(actor, None)
                    break
                if out == 2:
                    s._finish_blocked(None)
                    break
                s._actor = actor
            legal = s._compute_legal()  # the lead or a draw: the one transition
            action = legal[int(rand() * float(len(legal)))]
            moves = (moves, action)
            ply += 1
            s._do(action, None)
        s._moves = moves
        s._ply = ply
        s._legal = ()
        return s

    # ----------------------------------------------------------------- scoring
    def _teams(self) -> bool:
        return self._options.teams and self._players == 4

    def _finish_domino(self, winner: int, events: list[Event] | None) -> None:
        n = self._players
        pips = pips_of(self._hands)
        if self._teams():
            winners = tuple(sorted((winner, (winner + 2) % 4)))
            score = sum(pips[s] for s in range(n) if s not in winners)
        else:
            winners = (winner,)
            score = sum(pips)
        self._end(Result("domino", winners, points(n, winners, score)), events)

    def _blocked_winner(self, pips: list[int] | None = None) -> int | None:
        """The seat whose hand wins a block (lowest pips, then ``blocked_tie``), or ``None``
        (``pips``: the hands' pip totals, when known)."""
        lightest = self._options.blocked_tie == "lightest_tile"
        return blocked_winner(self._hands, lightest, self._teams(), pips)

    def hand_winner(self) -> int | None:
        """The one seat that won the finished hand: who went out, or the winning blocked hand.

        With teams both partners are winners in the result; this is the one who won it.
        """
        result = self._result
        if result is None or not result.winners:
            return None
        if result.reason == "domino":
            return next(s for s in result.winners if self._hands[s] == 0)
        return self._blocked_winner()

    def _finish_blocked(self, events: list[Event] | None) -> None:
        n = self._players
        pips = pips_of(self._hands)
        teams = self._teams()
        found = self._blocked_winner(pips)
        if found is None:
            self._end(Result("blocked", (), (0,) * n), events)
            return
        w: int = found
        if teams:
            winners = tuple(sorted((w, (w + 2) % 4)))
            score = sum(pips[s] for s in range(n) if s not in winners) - pips[w]
        else:
            winners = (w,)
            score = sum(pips) - pips[w] - pips[w]
        self._end(Result("blocked", winners, points(n, winners, score)), events)

    def _sizes(self) -> int:
        return self._packed  # kept by every move: a view reads it each turn

    def _end(self, result: Result, events: list[Event] | None) -> None:
        self._drawn = False
        self._end_hand(result, events)

    # ----------------------------------------------------------------- public views
    @property
    def layout(self) -> Layout:
        node = self._node
        return build_layout("line", self._placements(), None if node is None else node.pairs)

    def _layout_key(self) -> tuple[Any, Any]:
        node = self._node
        if node is None:
            return None, None
        if not self._placed_ok and self._own is not None:  # placements listed when read
            return self._pub, node
        return self._placements(), node.pairs

    @staticmethod
    def _layout_of(key: Any, more: Any) -> Layout:
        if isinstance(more, EndsNode):  # key: the public history (see _layout_key)
            return build_layout("line", _placed_of(key), more.pairs)
        return build_layout("line", key, more)

    def _placements(self) -> PlacedList:
        """The placements so far, kept per state once asked for: listed from the public
        history where it is kept (a hand played by steps), else built on the nearest
        ancestor's (the transition does not keep them: a tuple a move in every step)."""
        if self._placed_ok:
            return self._placed
        if self._own is not None:
            placed = self._placed = _placed_of(self._pub)
            self._placed_ok = True
            return placed
        start, steps = self._catch_up(_knows_placed)
        assert isinstance(start, LineState)
        placed = start._placed
        node = start._node
        actor = start._actor
        n = self._players
        spinner = self._options.spinner
        for target, actions in steps:
            for a in actions:
                kind = type(a)
                if kind is Attach:
                    assert node is not None and actor is not None
                    node, v, _, _, t, u = node.advance(a)  # type: ignore[arg-type]
                    placed = (placed, t, u, v, actor)
                elif kind is Lead:
                    assert actor is not None
                    node = EndsNode.lead(a.tile, spinner)  # type: ignore[attr-defined]
                    placed = (None, a.tile.index, -1, -1, actor)  # type: ignore[attr-defined]
                if kind is not Draw and actor is not None:
                    actor = (actor + 1) % n
            assert isinstance(target, LineState)
            target._placed = placed
            target._placed_ok = True
        return placed

    @property
    def facts(self) -> LineFacts:
        return self._facts_of(self._facts_key())

    def _facts_key(self) -> int:
        return self._first_player * 2 + (1 if self._drawn else 0)

    @staticmethod
    def _facts_of(key: int) -> LineFacts:
        facts = _FACTS.get(key)
        if facts is None:  # a few values in all, shared (facts are frozen)
            facts = _FACTS[key] = LineFacts(key >> 1, bool(key & 1))
        return facts

    def _key_extra(self) -> tuple[Any, ...]:
        node = self._node
        if node is None:
            return (None, False, self._drawn, self._lead_tile)
        return (tuple(sorted(node.pairs)), node.spinner_used, self._drawn)


_FACTS: Final[dict[int, LineFacts]] = {}

# A line game's events of a move are made once and shared, each in the one-tuple a move's
# events are kept in (events are immutable values): a lookup, where new ones would be two more
# objects a move to build and to free with the history.
_PLACED: Final[tuple[dict[Action, tuple[Event, ...]], ...]] = tuple([{} for _ in range(8)])
"""Seat -> attach -> ``(Placed(...),)``: the tile and the anchor decide which value it matches
and which it leaves open (a tile matching both of an anchor's values is that tile)."""
_DREW: Final[list[tuple[Event, ...] | None]] = [None] * (8 * len(ALL_TILES))
"""``(Drew(seat, 1, (tile,), "unable"),)`` at ``seat * len(ALL_TILES) + tile index``."""
_PASSED: Final[tuple[tuple[Event, ...], ...]] = tuple([(Passed(k),) for k in range(8)])
"""``(Passed(seat),)`` for every seat (a line game seats at most eight)."""
_SIZE_UNIT: Final[tuple[int, ...]] = tuple([1 << (8 * k) for k in range(8)])
"""One tile in seat k's byte of the packed hand sizes (a lookup: cheaper than the shift in
both builds)."""


def _placed_of(pub: Any) -> PlacedList:
    """The placements of a public history (``(previous, seat, action, events)`` cells): a
    lead's tile, and each attach's tile, anchor and matched value from its ``Placed`` event.
    The last one listed is kept, so every seat's view of a position shares one layout."""
    last = _LAST_PLACED
    if last[0] is pub and pub is not None:
        found: PlacedList = last[1]
        return found
    turns: list[tuple[Any, ...]] = []
    cells = pub
    while cells is not None:
        cell: tuple[Any, int, Action, tuple[Event, ...]] = cells
        kind = type(cell[2])
        if kind is ATTACH or kind is LEAD:
            turns.append(cell)
        cells = cell[0]
    placed: PlacedList = None
    for i in range(len(turns) - 1, -1, -1):
        seat = turns[i][1]
        e = turns[i][3][0]
        if type(e) is Placed:
            placed = (placed, e.tile.index, e.at.index, e.matched, seat)
        else:
            placed = (None, cast(Led, e).tile.index, -1, -1, seat)
    last[0] = pub
    last[1] = placed
    return placed


_LAST_PLACED: Final[list[Any]] = [None, None]
"""The public history :func:`_placed_of` listed last, and its placements."""


def _knows_placed(s: State[Any]) -> bool:
    return isinstance(s, LineState) and s._placed_ok


def _placements(hand: int, ends: Ends) -> tuple[Action, ...]:
    """Every attach of a tile of ``hand`` to an open end, ends in order, tiles ascending (two
    ends: :meth:`EndsNode.placements` does the same inline)."""
    suits = SUIT_LOW if hand <= SHORT_MASK else SUIT_MASK
    acts: tuple[Action, ...] = ()
    for i, (u, v) in enumerate(ends):
        if (u, v) in ends[:i]:
            continue
        m = hand & suits[v]
        if m:
            acts = acts + attach_set(u, m)
    return acts


def _attach(
    ends: Ends, tile: Tile, u: int, spinner: bool, spinner_used: bool
) -> tuple[Ends, int, int, bool]:
    """Attach ``tile`` to the end on layout tile ``u``: the new ends, the value matched, the
    value left open, and whether the spinner is now used."""
    hi = tile.hi
    lo = tile.lo
    t = tile.index
    for i, (eu, ev) in enumerate(ends):
        if eu == u and (ev in (hi, lo)):
            rest = ends[:i] + ends[i + 1 :]
            if hi != lo:
                o = lo if hi == ev else hi
                return (*rest, (t, o)), ev, o, spinner_used
            if spinner and not spinner_used:
                return (*rest, (t, ev), (t, ev), (t, ev)), ev, ev, True
            return (*rest, (t, ev)), ev, ev, spinner_used
    raise AssertionError((tile, u))  # pragma: no cover - legal actions name open ends


def _ends_mask(ends: Ends) -> int:
    """The tiles that match some open end."""
    if len(ends) == 2:
        return SUIT_MASK[ends[0][1]] | SUIT_MASK[ends[1][1]]
    em = 0
    for _, v in ends:
        em |= SUIT_MASK[v]
    return em


class BlockGame(LineGame):
    """Block dominoes."""

    name = "block"
    title = "Block dominoes"
    summary = "the classic block game: no drawing; the first out or the lightest hand scores"


class DrawGame(LineGame):
    """Draw dominoes."""

    name = "draw"
    title = "Draw dominoes"
    summary = "the classic draw game: a player who cannot play draws from the boneyard"
    drawing = True
    hints = DRAW_HINTS


BLOCK = BlockGame()
DRAW_GAME = DrawGame()
__all__ = ["BLOCK", "DRAW_GAME", "BlockGame", "DrawGame", "LineGame", "LineOptions", "LineState"]
