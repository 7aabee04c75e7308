"""The worked example of adding a game to bonepile: "line 5", a toy line game, in one module.

Adding a game takes this module and one call, ``bonepile.games.register(LINE_5)``. From then
on every client plays it by name: ``bonepile simulate``, ``watch`` and ``arena``, records,
views, matches, the bots and :func:`bonepile.conformance.check_game`. The module lives outside
the package and uses only what a third party may: bonepile's public names, and the extension
points of :class:`~bonepile.Game` (``Options``, ``Facts``, ``family``, ``hints``, the sizes,
``_start``, the hooks ``lead_is_highest`` and ``next_leader``) and of :class:`~bonepile.State`
(``_init_base``, ``_copy_base``, ``_clone``, ``_compute_legal``, ``_do``, ``_key_extra``,
``layout`` and ``facts``).

The rules. A double-5 set (21 tiles); 2 or 3 players get 5 tiles each; the rest is the
boneyard. Whoever holds the highest double leads it (if nobody holds a double, the heaviest
tile); in a later hand of a match the previous hand's winner leads any tile. The line has two
open ends, and a tile is attached to an end showing one of its halves. A player who cannot
play draws one tile (option ``draw_when_unable``) and plays it if it fits, else passes; with
the option off, or an empty boneyard, the player passes. The first player out scores the pips
left in the other hands. When nobody can play or draw, the lightest hand scores the others'
pips (a tie for the lightest: nobody scores). A match ends when a total reaches
``target_score``.

How a state is kept (the conventions of :mod:`bonepile.state`): hands are bit masks over tile
indices (``self._hands``, read through ``self.hand(seat)``), the boneyard is the deal's order
(``self._bone``) and a count of tiles drawn (``self._bpos``); ``_do`` changes a fresh copy in
place, setting ``self._actor`` (``None`` once over) and ``self._result``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bonepile import Action, Attach, Draw, Game, Lead, Pass, Result, State, Tile
from bonepile.events import Drew, Event, HandEnded, Led, Passed, Placed
from bonepile.facts import Reader
from bonepile.heuristics import LINE_HINTS
from bonepile.layout import Ends, Layout, build_layout
from bonepile.layout import Placed as Placements
from bonepile.options import option
from bonepile.tiles import TILES, tiles_of


@dataclass(frozen=True)
class Line5Options:
    """The options of line 5 (each documents itself for ``bonepile rules``)."""

    draw_when_unable: bool = option(
        True, "a player who cannot play draws one tile (false: passes, as in block)"
    )
    target_score: int | None = option(
        50,
        "a match ends when a player reaches this total (null: one hand)",
        minimum=1,
        nullable=True,
    )


@dataclass(frozen=True)
class Line5Facts:
    """What everyone knows beyond the table: the first player, and whether the actor has
    already drawn this turn."""

    first_player: int
    drawn_this_turn: bool

    def __reduce__(self) -> tuple[Any, ...]:
        return (Line5Facts, (self.first_player, self.drawn_this_turn))

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"first_player": self.first_player, "drawn_this_turn": self.drawn_this_turn}

    @classmethod
    def from_json(cls, data: Any) -> Line5Facts:
        """Inverse of :meth:`to_json`, checked."""
        r = Reader(data, "public")
        out = cls(r.num("first_player"), r.flag("drawn_this_turn"))
        r.done()
        return out

    def notes(self) -> tuple[str, ...]:
        """The facts as short phrases for ``watch`` and ``replay``."""
        return ("drawn this turn",) if self.drawn_this_turn else ()


class Line5(Game[Line5Options]):
    """Line 5: sizes, options and the deal's first state."""

    name = "line_5"
    aliases = ("line5",)
    title = "Line 5"
    summary = "a toy line game with a double-5 set (the worked example of adding a game)"
    Options = Line5Options
    Facts = Line5Facts
    family = "line"
    hints = LINE_HINTS

    def player_range(self, opts: Line5Options) -> tuple[int, int]:
        return (2, 3)

    def max_pip(self, opts: Line5Options) -> int:
        return 5

    def hand_size(self, players: int, opts: Line5Options) -> int:
        return 5

    def lead_is_highest(self, opts: Line5Options) -> bool:
        return True  # the sampler then knows nobody held a higher double than the lead

    def next_leader(self, previous: State[Line5Options]) -> int | None:
        """The previous hand's winner leads the next one (after a tie, the highest double)."""
        assert previous.result is not None
        winners = previous.result.winners
        return winners[0] if len(winners) == 1 else None

    def _start(
        self,
        opts: Line5Options,
        hands: list[int],
        bone: list[int],
        rng: random.Random | None,
        seed: int | None,
        scores_before: Sequence[int] | None,
        leader: int | None = None,
        board: Any = None,
    ) -> State[Line5Options]:
        s = Line5State()
        first, lead = (leader, None) if leader is not None else _highest_lead(hands)
        s._init_base(self, opts, hands, bone, first, seed, scores_before, leader)
        s._actor = first
        s._lead = lead
        s._ends = ()
        s._placed = None
        s._drawn = False
        return s


def _highest_lead(hands: Sequence[int]) -> tuple[int, Tile]:
    """The seat holding the highest double (else the heaviest tile), and that tile."""
    _, seat, tile = max(
        ((t.is_double, t.pips, t.hi), seat, t) for seat, h in enumerate(hands) for t in tiles_of(h)
    )
    return seat, tile


class Line5State(State[Line5Options]):
    """A position of line 5."""

    # No __slots__ here: in the compiled build, pickle keeps an interpreted subclass's
    # attributes only when they live in its __dict__ (mypyc's __getstate__ skips their slots).
    _lead: Tile | None  # the tile the first player must lead (None: any tile)
    _ends: Ends  # the two open ends as (anchor tile index, value); empty before the lead
    _placed: Placements  # the tiles on the table, for the layout
    _drawn: bool  # the actor has drawn this turn

    def _clone(self) -> Line5State:
        new = Line5State()
        self._copy_base(new)
        new._lead = self._lead
        new._ends = self._ends
        new._placed = self._placed
        new._drawn = self._drawn
        return new

    def _key_extra(self) -> tuple[Any, ...]:
        return (tuple(sorted(self._ends)), self._drawn, self._lead)

    # ----------------------------------------------------------------- the rules
    def _can_draw(self) -> bool:
        return self.options.draw_when_unable and self.boneyard_size > 0

    def _plays(self, seat: int) -> tuple[Action, ...]:
        ends = {(u, v): None for u, v in self._ends}  # a double lead offers one end twice
        hand = self.hand(seat)
        return tuple(Attach(t, TILES[u]) for u, v in ends for t in hand if t.has(v))

    def _compute_legal(self) -> tuple[Action, ...]:
        actor = self.actor
        if actor is None:
            return ()
        if not self._ends:
            if self._lead is not None:
                return (Lead(self._lead),)
            return tuple(Lead(t) for t in self.hand(actor))
        plays = self._plays(actor)
        if plays:
            return plays
        if self._can_draw() and not self._drawn:
            return (Draw(),)
        return (Pass(),)

    def _do(self, action: Action, events: list[Event] | None) -> None:
        seat = self.actor
        assert seat is not None
        hands = list(self._hands)
        if isinstance(action, Draw):
            t = self._bone[self._bpos]
            self._bpos += 1
            hands[seat] |= 1 << t
            self._hands = tuple(hands)
            self._drawn = True  # the same seat goes on: it plays the tile or passes
            if events is not None:
                events.append(Drew(seat, 1, (TILES[t],), "unable"))
        elif isinstance(action, Lead | Attach):
            tile = action.tile
            hands[seat] &= ~(1 << tile.index)
            self._hands = tuple(hands)
            if isinstance(action, Lead):
                self._ends = ((tile.index, tile.hi), (tile.index, tile.lo))
                self._placed = (None, tile.index, -1, -1, seat)
                if events is not None:
                    events.append(Led(seat, tile))
            else:
                at = action.at.index
                i = next(i for i, (u, v) in enumerate(self._ends) if u == at and tile.has(v))
                matched = self._ends[i][1]
                ends = list(self._ends)
                ends[i] = (tile.index, tile.other(matched))
                self._ends = tuple(ends)
                self._placed = (self._placed, tile.index, at, matched, seat)
                if events is not None:
                    events.append(Placed(seat, tile, action.at, matched, tile.other(matched)))
            self._drawn = False
            if not hands[seat]:
                pips = sum(self.hand_pips(s) for s in range(self.players))
                self._end(Result("domino", (seat,), self._points(seat, pips)), events)
                return
            self._actor = (seat + 1) % self.players
        else:
            if events is not None:
                events.append(Passed(seat))
            self._drawn = False
            self._actor = (seat + 1) % self.players
        if not self._can_draw() and not any(self._plays(s) for s in range(self.players)):
            self._blocked(events)

    def _blocked(self, events: list[Event] | None) -> None:
        """Nobody can play or draw: the lightest hand scores the others' pips."""
        pips = [self.hand_pips(s) for s in range(self.players)]
        lightest = [s for s, p in enumerate(pips) if p == min(pips)]
        if len(lightest) > 1:
            self._end(Result("blocked", (), (0,) * self.players), events)
            return
        winner = lightest[0]
        points = self._points(winner, sum(pips) - pips[winner])
        self._end(Result("blocked", (winner,), points), events)

    def _points(self, winner: int, score: int) -> tuple[int, ...]:
        return tuple(score if s == winner else 0 for s in range(self.players))

    def _end(self, result: Result, events: list[Event] | None) -> None:
        self._result = result
        self._actor = None
        self._drawn = False
        if events is not None:
            events.append(HandEnded(result))

    # ----------------------------------------------------------------- what clients read
    @property
    def layout(self) -> Layout:
        return build_layout("line", self._placed, self._ends)

    @property
    def facts(self) -> Line5Facts:
        return Line5Facts(self.first_player, self._drawn)


LINE_5 = Line5()
"""The game object to pass to :func:`bonepile.games.register`."""
