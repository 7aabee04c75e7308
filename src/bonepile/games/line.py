"""The classic line games ``block`` and ``draw`` (RULES.md 1.2 and section 6).

One options class and one state class serve both: ``draw`` differs only in that a player who
cannot play draws from the boneyard. The layout is a line with two open ends; a double is laid
across and continues the line, and with ``spinner`` the first double takes four sides.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bonepile.actions import DRAW, LEAD_BY_INDEX, PASS, Action, Attach, Draw, Lead
from bonepile.errors import OptionError
from bonepile.events import Drew, Event, HandEnded, Led, Passed, Placed
from bonepile.games.base import Game
from bonepile.layout import Ends, Layout, build_layout
from bonepile.layout import Placed as PlacedList
from bonepile.options import option
from bonepile.result import Result
from bonepile.state import State
from bonepile.tiles import PIPS, SUIT_MASK, TILES, Tile, bits

_DEFAULT_HAND = {6: 7, 9: 9, 12: 12, 15: 15}


@dataclass(frozen=True)
class LineOptions:
    """Options of the classic ``block`` and ``draw`` games (RULES.md 1.2)."""

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


class LineGame(Game):
    """``block`` or ``draw``: the classic games played in a line."""

    Options = LineOptions

    def __init__(self, name: str, drawing: bool, title: str, summary: str) -> None:
        self.name = name
        self.drawing = drawing
        self.title = title
        self.summary = summary
        self.aliases = ()

    def max_pip(self, opts: LineOptions) -> int:
        return opts.max_pip

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
    ) -> State:
        s = LineState.__new__(LineState)
        first = 0
        if opts.lead == "highest_double":
            first, tile = _highest_lead(hands)
            s.lead_tile = tile
        else:
            s.lead_tile = -1
        s._init_base(self, opts, hands, bone, first, seed, scores_before)
        s.drawing = self.drawing
        s.ends = None
        s.emask = 0
        s.spinner_used = False
        s.drawn = False
        s.placed = None
        s.actor = first
        return s


def _highest_lead(hands: Sequence[int]) -> tuple[int, int]:
    """The seat holding the highest double (else the heaviest tile) and that tile's index."""
    best: tuple[tuple[int, int, int], int, int] | None = None
    for seat, h in enumerate(hands):
        for t in bits(h):
            tile = TILES[t]
            key = (1 if tile.is_double else 0, tile.pips, tile.hi)
            if best is None or key > best[0]:
                best = (key, seat, t)
    assert best is not None
    return best[1], best[2]


class LineState(State):
    """A position of ``block`` or ``draw``."""

    __slots__ = ("drawing", "drawn", "emask", "ends", "lead_tile", "placed", "spinner_used")

    drawing: bool
    ends: Ends | None
    emask: int
    spinner_used: bool
    drawn: bool
    placed: PlacedList
    lead_tile: int
    options: LineOptions

    def _clone(self) -> LineState:
        new = LineState.__new__(LineState)
        new.game = self.game
        new.options = self.options
        new.players = self.players
        new.hands = self.hands
        new.bone = self.bone
        new.bpos = self.bpos
        new.actor = self.actor
        new.result = self.result
        new.first_player = self.first_player
        new.scores_before = self.scores_before
        new.seed = self.seed
        new.drawing = self.drawing
        new.ends = self.ends
        new.emask = self.emask
        new.spinner_used = self.spinner_used
        new.drawn = self.drawn
        new.placed = self.placed
        new.lead_tile = self.lead_tile
        return new

    # ----------------------------------------------------------------- legal actions
    def _can_draw(self) -> bool:
        return self.drawing and len(self.bone) - self.bpos > self.options.reserve

    def _compute_legal(self) -> tuple[Action, ...]:
        if self.result is not None:
            return ()
        actor = self.actor
        assert actor is not None
        hand = self.hands[actor]
        ends = self.ends
        if ends is None:
            if self.lead_tile >= 0:
                return (LEAD_BY_INDEX[self.lead_tile],)
            return tuple(LEAD_BY_INDEX[t] for t in bits(hand))
        acts = _placements(hand, ends)
        if acts:
            return acts
        if self._can_draw() and (not self.drawn or self.options.draw_mode == "until_playable"):
            return _DRAW_ONLY
        return _PASS_ONLY

    # ----------------------------------------------------------------- transition
    def _do(self, action: Action, events: list[Event] | None) -> None:
        actor = self.actor
        assert actor is not None
        kind = type(action)
        if kind is Attach:
            assert isinstance(action, Attach)
            tile = action.tile
            t = tile.index
            u = action.at.index
            hands = list(self.hands)
            hands[actor] ^= 1 << t
            self.hands = tuple(hands)
            ends = self.ends
            assert ends is not None
            rest, v, o, self.spinner_used = _attach(
                ends, tile, u, self.options.spinner, self.spinner_used
            )
            self.ends = rest
            self.emask = _ends_mask(rest)
            self.placed = (self.placed, (t, u, v, actor))
            if events is not None:
                events.append(Placed(actor, tile, action.at, v, o))
            self.drawn = False
            if not hands[actor]:
                self._finish_domino(actor, events)
                return
            self.actor = (actor + 1) % self.players
        elif kind is Lead:
            assert isinstance(action, Lead)
            tile = action.tile
            t = tile.index
            hands = list(self.hands)
            hands[actor] ^= 1 << t
            self.hands = tuple(hands)
            if tile.hi == tile.lo:
                if self.options.spinner:
                    self.spinner_used = True
                    self.ends = ((t, tile.hi),) * 4
                else:
                    self.ends = ((t, tile.hi), (t, tile.hi))
                self.emask = SUIT_MASK[tile.hi]
            else:
                self.ends = ((t, tile.hi), (t, tile.lo))
                self.emask = SUIT_MASK[tile.hi] | SUIT_MASK[tile.lo]
            self.placed = (None, (t, -1, -1, actor))
            if events is not None:
                events.append(Led(actor, tile))
            if not hands[actor]:
                self._finish_domino(actor, events)
                return
            self.actor = (actor + 1) % self.players
        elif kind is Draw:
            t = self.bone[self.bpos]
            self.bpos += 1
            hands = list(self.hands)
            hands[actor] |= 1 << t
            self.hands = tuple(hands)
            self.drawn = True
            if events is not None:
                events.append(Drew(actor, 1, (TILES[t],), "unable"))
        else:
            if events is not None:
                events.append(Passed(actor))
            self.drawn = False
            self.actor = (actor + 1) % self.players
        # Static check (RULES.md 6): the hand ends when no seat can place and nobody can draw.
        em = self.emask
        for h in self.hands:
            if h & em:
                return
        if not self._can_draw():
            self._finish_blocked(events)

    def playout(self, rng: random.Random) -> State:
        """:meth:`State.playout`, with the position kept in local variables between actions.

        Same rules functions, same random choices and the same final state as the generic
        loop (a test holds them equal); only the intermediate states are never built.
        """
        s: LineState = self
        if s.result is not None:
            return s
        rand = rng.random
        if s.ends is None:
            legal = s.legal_actions()
            s = s.apply(legal[int(rand() * len(legal))])  # type: ignore[assignment]
            if s.result is not None:
                return s
        opts = s.options
        n = s.players
        hands = list(s.hands)
        ends = s.ends
        assert ends is not None
        emask = s.emask
        bone = s.bone
        bpos = s.bpos
        nbone = len(bone)
        can_draw = s.drawing and nbone - bpos > opts.reserve
        until = opts.draw_mode == "until_playable"
        spinner = opts.spinner
        spinner_used = s.spinner_used
        drawn = s.drawn
        moves = s._moves
        placed = s.placed
        actor = s.actor
        assert actor is not None
        over = ""
        while True:
            hand = hands[actor]
            acts = _placements(hand, ends)
            if acts:
                a = acts[int(rand() * len(acts))]
                moves = (moves, a)
                tile = a.tile  # type: ignore[attr-defined]
                u = a.at.index  # type: ignore[attr-defined]
                hand ^= 1 << tile.index
                hands[actor] = hand
                ends, v, _, spinner_used = _attach(ends, tile, u, spinner, spinner_used)
                emask = _ends_mask(ends)
                placed = (placed, (tile.index, u, v, actor))
                drawn = False
                if not hand:
                    over = "domino"
                    break
                actor = (actor + 1) % n
            elif can_draw and (until or not drawn):
                rand()
                moves = (moves, DRAW)
                hands[actor] = hand | (1 << bone[bpos])
                bpos += 1
                can_draw = nbone - bpos > opts.reserve
                drawn = True
            else:
                rand()
                moves = (moves, PASS)
                drawn = False
                actor = (actor + 1) % n
            for h in hands:
                if h & emask:
                    break
            else:
                if not can_draw:
                    over = "blocked"
                    break
        new = s._clone()
        new._root = s._root if s._root is not None else s
        new._moves = moves
        new.hands = tuple(hands)
        new.ends = ends
        new.emask = emask
        new.bpos = bpos
        new.spinner_used = spinner_used
        new.drawn = drawn
        new.placed = placed
        new.actor = actor
        if over == "domino":
            new._finish_domino(actor, None)
        else:
            new._finish_blocked(None)
        return new

    # ----------------------------------------------------------------- scoring
    def _teams(self) -> bool:
        return self.options.teams and self.players == 4

    def _finish_domino(self, winner: int, events: list[Event] | None) -> None:
        n = self.players
        pips = [self._pips(s) for s in range(n)]
        if self._teams():
            winners = tuple(sorted((winner, (winner + 2) % 4)))
            score = sum(pips[s] for s in range(n) if s not in winners)
        else:
            winners = (winner,)
            score = sum(pips)
        self._end(Result("domino", winners, _points(n, winners, score)), events)

    def _finish_blocked(self, events: list[Event] | None) -> None:
        n = self.players
        pips = [self._pips(s) for s in range(n)]
        low = min(pips)
        tied = [s for s in range(n) if pips[s] == low]
        teams = self._teams()
        if teams and len({s % 2 for s in tied}) == 1:
            tied = tied[:1]
        if len(tied) > 1 and self.options.blocked_tie == "lightest_tile":
            tied = [min(tied, key=lambda s: min(TILES[t].rank_key() for t in bits(self.hands[s])))]
        if len(tied) > 1:
            self._end(Result("blocked", (), (0,) * n), events)
            return
        w = tied[0]
        if teams:
            winners = tuple(sorted((w, (w + 2) % 4)))
            score = sum(pips[s] for s in range(n) if s not in winners) - pips[w]
        else:
            winners = (w,)
            score = sum(pips) - pips[w] - pips[w]
        self._end(Result("blocked", winners, _points(n, winners, score)), events)

    def _pips(self, seat: int) -> int:
        return sum(PIPS[i] for i in bits(self.hands[seat]))

    def _end(self, result: Result, events: list[Event] | None) -> None:
        self.result = result
        self.actor = None
        self._legal = ()
        if events is not None:
            events.append(HandEnded(result))

    # ----------------------------------------------------------------- public views
    @property
    def layout(self) -> Layout:
        return build_layout(self.placed, self.ends)

    def public_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"first_player": self.first_player}
        if self.drawing:
            info["drawn_this_turn"] = self.drawn
        return info

    def _key_extra(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.ends)) if self.ends else None, self.spinner_used, self.drawn)


_DRAW_ONLY: tuple[Action, ...] = (DRAW,)
_PASS_ONLY: tuple[Action, ...] = (PASS,)
_ATTACH_SETS: dict[int, tuple[Action, ...]] = {}


def _placements(hand: int, ends: Ends) -> tuple[Action, ...]:
    """Every attach of a tile of ``hand`` to an open end, ends in order, tiles ascending."""
    if len(ends) == 2:
        (u1, v1), (u2, v2) = ends
        m = hand & SUIT_MASK[v1]
        acts = _attach_set(u1, m) if m else ()
        if u1 != u2 or v1 != v2:
            m = hand & SUIT_MASK[v2]
            if m:
                acts = acts + _attach_set(u2, m) if acts else _attach_set(u2, m)
        return acts
    acts = ()
    for i, (u, v) in enumerate(ends):
        if (u, v) in ends[:i]:
            continue
        m = hand & SUIT_MASK[v]
        if m:
            acts = acts + _attach_set(u, m)
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


def _attach_set(u: int, m: int) -> tuple[Action, ...]:
    """The attaches of the tiles in mask ``m`` on layout tile ``u`` (cached: they repeat)."""
    key = (m << 8) | u
    acts = _ATTACH_SETS.get(key)
    if acts is None:
        if len(_ATTACH_SETS) > 500_000:
            _ATTACH_SETS.clear()
        acts = _ATTACH_SETS[key] = tuple(Attach(TILES[t], TILES[u]) for t in bits(m))
    return acts


def _points(n: int, winners: tuple[int, ...], score: int) -> tuple[int, ...]:
    return tuple(score if s in winners else 0 for s in range(n))


BLOCK = LineGame(
    "block",
    False,
    "Block dominoes",
    "the classic block game: no drawing; the first out or the lightest hand scores",
)
DRAW_GAME = LineGame(
    "draw",
    True,
    "Draw dominoes",
    "the classic draw game: a player who cannot play draws from the boneyard",
)
__all__ = ["BLOCK", "DRAW_GAME", "LineGame", "LineOptions", "LineState"]
