"""Doubles (docs/games/doubles.md).

A double-6 draw game in which every double is a spinner and a number is **locked** until its
double is in the layout: a non-double may only be matched against an unlocked number, a double
against its own number whether locked or not (which unlocks it). The layout is a tree of open
ends, as in the other games; the unlocked numbers are a bit mask.

The scoring section of the original rules was never found; the scoring options follow the
common Draw/Block conventions (docs/games/doubles.md, "Scoring") and are bonepile's own choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bonepile.actions import LEAD_BY_INDEX, Action, Attach, Draw, Lead
from bonepile.errors import DealError
from bonepile.events import Drew, Event, Led, Passed, Placed
from bonepile.facts import FactsError, Reader
from bonepile.games.base import Game
from bonepile.heuristics import DOUBLES_HINTS
from bonepile.layout import Ends, Layout, build_layout
from bonepile.layout import Placed as PlacedList
from bonepile.masks import bits
from bonepile.options import IntMap, option, reduce_options
from bonepile.result import Reason, Result
from bonepile.rules import attach_set, blocked_winner, draw_or_pass, pips_of, points
from bonepile.state import State
from bonepile.tiles import DOUBLE_MASK, ONE_TILE, SHORT_MASK, SUIT_LOW, SUIT_MASK, TILES, Tile

_FACTS: Final[dict[int, DoublesFacts]] = {}
"""The facts made so far, by the fields they are made from."""

ATTACH: Final[type[Attach]] = Attach
_SHORT_MASK: Final[int] = SHORT_MASK
_SUIT_LOW: Final[tuple[int, ...]] = SUIT_LOW
_SUIT_MASK: Final[tuple[int, ...]] = SUIT_MASK
"""The suit tables as compiled constants (see :data:`bonepile.tiles.SUIT_LOW`)."""
_DOUBLE_OF: Final = tuple(Tile(v, v).index for v in range(7))
"""``_DOUBLE_OF[v]``: the index of the v-v tile."""

SCORING_NOTE = (
    "Doubles' original scoring section was never found; these scoring rules are bonepile's "
    "own choice, after the usual Draw/Block conventions (see docs/games/doubles.md)."
)


@dataclass(frozen=True)
class DoublesOptions:
    """Options of Doubles (docs/games/doubles.md, "Options")."""

    hand_size: IntMap = option(  # noqa: RUF009 - an IntMap is immutable
        {"2": 8, "3": 6, "4": 6},
        "tiles dealt to each player, by player count (a partial object keeps the others)",
        minimum=1,
        keys=("2", "3", "4"),
    )
    round_leader: str = option(
        "highest_double",
        "who leads later rounds of a match: the highest double again, or the last round's "
        "winner (its highest double; without one, the highest double leads)",
        choices=("highest_double", "previous_winner"),
    )
    spinner_sides: int = option(
        4,
        "sides of every double (the lead has them all free, a later one one fewer)",
        minimum=1,
        maximum=4,
    )
    draw_when_unable: str = option(
        "one",
        "a player who cannot play draws one tile, or keeps drawing until one is playable",
        choices=("one", "until_playable"),
    )
    boneyard_reserve: int = option(2, "the last N boneyard tiles cannot be drawn", minimum=0)
    round_scoring: str = option(
        "opponents_minus_own",
        "the winner scores the others' pips minus its own, the others' pips, or all hands' "
        "pips (our choice: the original scoring is lost)",
        choices=("opponents_minus_own", "opponents_total", "all_hands_total"),
    )
    blocked_tie: str = option(
        "no_score",
        "a blocked round tied for the lowest pips: nobody scores, or the lightest tile wins",
        choices=("no_score", "lightest_tile"),
    )
    count_boneyard: bool = option(
        False, "the winner also scores the pips left in the boneyard (the reserve included)"
    )
    target_score: int = option(100, "a match ends when a player reaches this total", minimum=1)

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_options(self)


@dataclass(frozen=True)
class DoublesFacts:
    """Public facts of Doubles: the first player, the unlocked numbers (those whose double is
    down, ascending) and whether the actor has drawn this turn."""

    first_player: int
    unlocked: tuple[int, ...]
    drawn_this_turn: bool

    def __reduce__(self) -> tuple[Any, ...]:
        return (DoublesFacts, (self.first_player, self.unlocked, self.drawn_this_turn))

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "first_player": self.first_player,
            "unlocked": list(self.unlocked),
            "drawn_this_turn": self.drawn_this_turn,
        }

    @classmethod
    def from_json(cls, data: Any) -> DoublesFacts:
        """Inverse of :meth:`to_json`, checked."""
        r = Reader(data, "public")
        unlocked = r.ints("unlocked")
        if list(unlocked) != sorted(set(unlocked)) or any(v > 6 for v in unlocked):
            raise FactsError("public: unlocked must list numbers 0 to 6, ascending, once each")
        out = cls(r.num("first_player"), unlocked, r.flag("drawn_this_turn"))
        r.done()
        return out

    def notes(self) -> tuple[str, ...]:
        """The unlocked numbers, in words."""
        return ("unlocked numbers: " + (", ".join(map(str, self.unlocked)) or "none"),)


class DoublesGame(Game[DoublesOptions]):
    """Doubles: double-6, every double a spinner, numbers locked until their double is down."""

    name = "doubles"
    aliases = ("dbl",)
    title = "Doubles"
    summary = "double-6 draw game: every double is a spinner and unlocks its number"
    Options = DoublesOptions
    Facts = DoublesFacts
    family = "spinner_tree"
    hints = DOUBLES_HINTS
    note = SCORING_NOTE

    def max_pip(self, opts: DoublesOptions) -> int:
        return 6

    def hand_size(self, players: int, opts: DoublesOptions) -> int:
        return opts.hand_size[str(players)]

    def player_range(self, opts: DoublesOptions) -> tuple[int, int]:
        return (2, 4)

    def lead_is_highest(self, opts: DoublesOptions) -> bool:
        return True

    def _seeded_deal(
        self, players: int, opts: Any, rng: random.Random
    ) -> tuple[list[int], list[int]]:
        """Deal, and deal again while nobody holds a double (docs/games/doubles.md, "The deal")."""
        while True:
            hands, bone = super()._seeded_deal(players, opts, rng)
            if any(h & DOUBLE_MASK for h in hands):
                return hands, bone

    def _check_deal(
        self,
        players: int,
        opts: Any,
        deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]],
    ) -> tuple[list[int], list[int]]:
        hands, bone = super()._check_deal(players, opts, deal)
        if not any(h & DOUBLE_MASK for h in hands):
            raise DealError("deal: nobody holds a double (the rules call for a redeal)")
        return hands, bone

    def _start(
        self,
        opts: DoublesOptions,
        hands: list[int],
        bone: list[int],
        rng: random.Random | None,
        seed: int | None,
        scores_before: Sequence[int] | None,
        leader: int | None = None,
        board: Any = None,
    ) -> State[Any]:
        if leader is not None and hands[leader] & DOUBLE_MASK:
            # round_leader=previous_winner: the last winner leads its highest double
            first = leader
            lead = max(bits(hands[leader] & DOUBLE_MASK))
        else:
            lead = max(t for h in hands for t in bits(h & DOUBLE_MASK))
            first = next(seat for seat, h in enumerate(hands) if h >> lead & 1)
        s = DoublesState.__new__(DoublesState)
        s._init_base(self, opts, hands, bone, first, seed, scores_before, leader)
        s._lead_tile = lead
        s._ends = None
        s._unlocked = 0
        s._placed = None
        s._drawn = False
        s._actor = first
        return s

    def next_leader(self, previous: State[Any]) -> int | None:
        """``previous_winner``: the last round's winner (who leads its highest double, if it
        holds one); otherwise, and after a round nobody won, the highest double leads."""
        result = previous.result
        assert result is not None
        if previous.options.round_leader == "previous_winner" and len(result.winners) == 1:
            return result.winners[0]
        return None


class DoublesState(State[DoublesOptions]):
    """A position of Doubles."""

    __slots__ = ("_drawn", "_ends", "_lead_tile", "_placed", "_unlocked")

    _lead_tile: int
    _ends: Ends | None
    _unlocked: int
    _placed: PlacedList
    _drawn: bool

    def _clone(self) -> DoublesState:
        new = DoublesState.__new__(DoublesState)
        self._copy_base(new)
        new._lead_tile = self._lead_tile
        new._ends = self._ends
        new._unlocked = self._unlocked
        new._placed = self._placed
        new._drawn = self._drawn
        return new

    # ----------------------------------------------------------------- rules queries
    def is_unlocked(self, value: int) -> bool:
        """True once the ``value``-``value`` double is in the layout."""
        return (self._unlocked >> value) & 1 == 1

    def _placements(self, hand: int) -> list[Action]:
        acts: list[Action] = []
        ends = self._ends or ()
        unlocked = self._unlocked
        suits = _SUIT_LOW if hand <= _SHORT_MASK else _SUIT_MASK
        for i, end in enumerate(ends):
            if end in ends[:i]:
                continue
            u, v = end
            m = hand & suits[v]
            if not unlocked >> v & 1:
                m &= 1 << _DOUBLE_OF[v]
            if m:
                acts.extend(attach_set(u, m))  # cached, tiles ascending
        return acts

    def _can_draw(self) -> bool:
        reserve: int = self._options.boneyard_reserve
        return len(self._bone) - self._bpos > reserve

    def _compute_legal(self) -> tuple[Action, ...]:
        if self._result is not None:
            return ()
        actor = self._actor
        assert actor is not None
        if self._ends is None:
            return (LEAD_BY_INDEX[self._lead_tile],)
        acts = self._placements(self._hands[actor])
        if acts:
            return tuple(acts)
        return draw_or_pass(
            self._can_draw(), self._drawn, self._options.draw_when_unable == "until_playable"
        )

    # ----------------------------------------------------------------- transition
    def _do(self, action: Action, events: list[Event] | None) -> tuple[Event, ...] | None:
        actor = self._actor
        assert actor is not None
        n = self._players
        sides = self._options.spinner_sides
        hands = list(self._hands)
        if type(action) is ATTACH:
            tile = action.tile
            t = tile.index
            u = action.at.index
            ends = self._ends
            assert ends is not None
            for i, (eu, ev) in enumerate(ends):
                if eu == u and tile.has(ev):
                    v = ev
                    rest = ends[:i] + ends[i + 1 :]
                    break
            else:  # pragma: no cover - legal actions always name an open end
                raise AssertionError(action)
            if tile.is_double:
                o = v
                rest = rest + ((t, v),) * (sides - 1)
                self._unlocked |= 1 << v
            else:
                o = tile.other(v)
                rest = (*rest, (t, o))
            self._ends = rest
            hands[actor] ^= 1 << t
            self._hands = tuple(hands)
            self._placed = (self._placed, t, u, v, actor)
            self._drawn = False
            if events is not None:
                events.append(Placed(actor, tile, action.at, v, o))
            if not hands[actor]:
                self._finish(actor, "domino", events)
                return None
            self._actor = (actor + 1) % n
        elif type(action) is Lead:
            tile = action.tile
            t = tile.index
            self._ends = ((t, tile.hi),) * sides
            self._unlocked = 1 << tile.hi
            hands[actor] ^= 1 << t
            self._hands = tuple(hands)
            self._placed = (None, t, -1, -1, actor)
            if events is not None:
                events.append(Led(actor, tile))
            if not hands[actor]:
                self._finish(actor, "domino", events)
                return None
            self._actor = (actor + 1) % n
        elif type(action) is Draw:
            t = self._bone[self._bpos]
            self._bpos += 1
            hands[actor] |= 1 << t
            self._hands = tuple(hands)
            self._drawn = True
            if events is not None:
                events.append(Drew(actor, 1, ONE_TILE[t], "unable"))
        else:
            if events is not None:
                events.append(Passed(actor))
            self._drawn = False
            self._actor = (actor + 1) % n
        # Static block check (docs/games/doubles.md, "How a round ends"), after every action,
        # a draw included.
        if not self._can_draw() and not any(self._placements(h) for h in self._hands):
            self._finish(None, "blocked", events)
        return None  # events only in the list (see State._do)

    # ----------------------------------------------------------------- scoring
    def _finish(self, winner: int | None, reason: Reason, events: list[Event] | None) -> None:
        n = self._players
        opts = self._options
        pips = pips_of(self._hands)
        if winner is None:
            winner = blocked_winner(self._hands, opts.blocked_tie == "lightest_tile", pips=pips)
            if winner is None:
                self._end(Result("blocked", (), (0,) * n), events)
                return
        others = sum(pips) - pips[winner]
        if opts.round_scoring == "opponents_minus_own":
            score = others - pips[winner]
        elif opts.round_scoring == "opponents_total":
            score = others
        else:
            score = sum(pips)
        if opts.count_boneyard:
            score += sum(TILES[t].pips for t in self._bone[self._bpos :])
        self._end(Result(reason, (winner,), points(n, (winner,), score)), events)

    def _end(self, result: Result, events: list[Event] | None) -> None:
        self._drawn = False
        self._end_hand(result, events)

    # ----------------------------------------------------------------- public views
    @property
    def layout(self) -> Layout:
        return build_layout("spinner_tree", self._placed, self._ends)

    def _layout_key(self) -> tuple[Any, Any]:
        return self._placed, self._ends

    @staticmethod
    def _layout_of(key: Any, more: Any) -> Layout:
        return build_layout("spinner_tree", key, more)

    @property
    def facts(self) -> DoublesFacts:
        return self._facts_of(self._facts_key())

    def _facts_key(self) -> int:
        return (self._first_player << 8) | (self._unlocked << 1) | (1 if self._drawn else 0)

    @staticmethod
    def _facts_of(key: int) -> DoublesFacts:
        facts = _FACTS.get(key)
        if facts is None:  # a few values in all, shared (facts are frozen)
            if len(_FACTS) > 100_000:
                _FACTS.clear()
            unlocked = tuple(v for v in range(7) if key >> (v + 1) & 1)
            facts = _FACTS[key] = DoublesFacts(key >> 8, unlocked, bool(key & 1))
        return facts

    def _key_extra(self) -> tuple[Any, ...]:
        return (
            tuple(sorted(self._ends)) if self._ends else None,
            self._unlocked,
            self._drawn,
        )


DOUBLES = DoublesGame()
