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
from bonepile.tiles import PIPS, SUIT_MASK, TILES, bits

_ACACHE = Attach._cache
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
        100, "a match ends when a player or team reaches this total (null: one hand)", minimum=1
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

    def check_players(self, players: int, opts: LineOptions) -> None:
        if opts.teams and players != 4:
            raise OptionError(f"teams needs exactly 4 players, not {players}")
        super().check_players(players, opts)

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
        s._static_check(None)
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
        acts: list[Action] = []
        done: list[tuple[int, int]] = []
        for end in ends:
            if end in done:
                continue
            done.append(end)
            u, v = end
            m = hand & SUIT_MASK[v]
            if m:
                for t in bits(m):
                    key = (t << 8) | u
                    a = _ACACHE.get(key)
                    if a is None:
                        a = Attach(TILES[t], TILES[u])
                    acts.append(a)
        if acts:
            return tuple(acts)
        if self._can_draw() and (not self.drawn or self.options.draw_mode == "until_playable"):
            return (DRAW,)
        return (PASS,)

    # ----------------------------------------------------------------- transition
    def _transition(self, action: Action, events: list[Event] | None) -> State:
        new = self._clone()
        new._legal = None
        new._moves = (self._moves, action)
        new._root = self._root if self._root is not None else self
        actor = self.actor
        assert actor is not None
        n = self.players
        hands = list(self.hands)
        if type(action) is Attach:
            t = action.tile.index
            u = action.at.index
            hands[actor] ^= 1 << t
            new.hands = tuple(hands)
            ends = self.ends
            assert ends is not None
            for i, (eu, ev) in enumerate(ends):
                if eu == u and (ev == action.tile.hi or ev == action.tile.lo):
                    v = ev
                    rest = ends[:i] + ends[i + 1 :]
                    break
            else:  # pragma: no cover - legal actions always name an open end
                raise AssertionError(action)
            tile = action.tile
            if tile.hi == tile.lo:
                if self.options.spinner and not self.spinner_used:
                    new.spinner_used = True
                    rest = (*rest, (t, v), (t, v), (t, v))
                else:
                    rest = (*rest, (t, v))
                o = v
            else:
                o = tile.lo if tile.hi == v else tile.hi
                rest = (*rest, (t, o))
            new.ends = rest
            em = 0
            for _, ev in rest:
                em |= SUIT_MASK[ev]
            new.emask = em
            new.placed = (self.placed, (t, u, v, actor))
            if events is not None:
                events.append(Placed(actor, tile, action.at, v, o))
            new.drawn = False
            if not hands[actor]:
                new._finish_domino(actor, events)
                return new
            new.actor = (actor + 1) % n
        elif type(action) is Lead:
            t = action.tile.index
            hands[actor] ^= 1 << t
            new.hands = tuple(hands)
            tile = action.tile
            if tile.hi == tile.lo:
                if self.options.spinner:
                    new.spinner_used = True
                    new.ends = ((t, tile.hi),) * 4
                else:
                    new.ends = ((t, tile.hi), (t, tile.hi))
                new.emask = SUIT_MASK[tile.hi]
            else:
                new.ends = ((t, tile.hi), (t, tile.lo))
                new.emask = SUIT_MASK[tile.hi] | SUIT_MASK[tile.lo]
            new.placed = (None, (t, -1, -1, actor))
            if events is not None:
                events.append(Led(actor, tile))
            if not hands[actor]:
                new._finish_domino(actor, events)
                return new
            new.actor = (actor + 1) % n
        elif type(action) is Draw:
            t = self.bone[self.bpos]
            new.bpos = self.bpos + 1
            hands[actor] |= 1 << t
            new.hands = tuple(hands)
            new.drawn = True
            if events is not None:
                events.append(Drew(actor, 1, (TILES[t],), "unable"))
        else:
            if events is not None:
                events.append(Passed(actor))
            new.drawn = False
            new.actor = (actor + 1) % n
        new._static_check(events)
        return new

    def _static_check(self, events: list[Event] | None) -> None:
        """End the hand when no seat can place a tile and nobody can draw (RULES.md 6)."""
        if self.ends is None or self.result is not None:
            return
        em = self.emask
        for h in self.hands:
            if h & em:
                return
        if self._can_draw():
            return
        self._finish_blocked(events)

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
