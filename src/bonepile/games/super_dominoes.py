"""Super Dominoes (docs/games/super_dominoes.md).

A double-15 block game with draws: the first double set is a six-armed "fat spinner"; a 15 makes
everyone else draw, a 14 gives an extra turn, a 13 casts a spell, a 3 reverses the direction and
a double (other than 13-13) makes the next player lose a turn.

Effects are data: :data:`EFFECTS` lists them in the order of docs/games/super_dominoes.md,
"Special tiles", and the transition runs them in that order for every tile played (a final
tile only draws for a 15), calling each directly (a test holds :func:`_play_effects` to the
table).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from bonepile.actions import DRAW as _DRAW
from bonepile.actions import LEAD_BY_INDEX as _LEAD_BY_INDEX
from bonepile.actions import PASS as _PASS
from bonepile.actions import Action, Attach, Draw, Lead
from bonepile.events import (
    Drew,
    Event,
    ExtraTurn,
    Led,
    Passed,
    Placed,
    Reversed,
    Skipped,
    SpellCast,
    SpellEnded,
)
from bonepile.facts import FactsError, Reader
from bonepile.games.base import Game
from bonepile.heuristics import SUPER_HINTS
from bonepile.layout import Ends, Layout, build_layout
from bonepile.layout import Placed as PlacedList
from bonepile.masks import BIT, bits, count_large, mask_pips
from bonepile.options import option, reduce_options
from bonepile.result import Result
from bonepile.rules import attach_set, points
from bonepile.state import State
from bonepile.tiles import DOUBLE_MASK as _DOUBLE_MASK
from bonepile.tiles import SUIT_MASK as _SUIT_MASK
from bonepile.tiles import TILES as _TILES
from bonepile.tiles import Tile

OPENING_SET: Final = 0
OPENING_DRAW: Final = 1
PLAY: Final = 2
SPELL_END: Final = 0
SPELL_STARTER: Final = 1

# Names from modules that are not compiled, as compiled constants (an imported name is a
# dictionary lookup at every use).
DRAW: Final = _DRAW
PASS: Final = _PASS
LEAD_BY_INDEX: Final = _LEAD_BY_INDEX
DOUBLE_MASK: Final[int] = _DOUBLE_MASK
SUIT_MASK: Final[tuple[int, ...]] = _SUIT_MASK
TILES: Final[tuple[Tile, ...]] = _TILES
ATTACH: Final[type[Attach]] = Attach
LEAD: Final[type[Lead]] = Lead
DRAW_KIND: Final[type[Draw]] = Draw
ARMS: Final = 6
T13_13 = Tile(13, 13).index

EFFECT_ORDER: Final = (
    "break_spell",
    "cast_spell_13",
    "others_draw_15",
    "reverse_3",
    "skip",
    "extra_turn_14",
)
"""The order in which one play's effects resolve (docs/games/super_dominoes.md, "Special tiles")."""

_FIRES_OPEN: Final = tuple(frozenset((v,)) for v in range(16))
_FIRES_TILE: Final = tuple(frozenset((t.hi, t.lo)) for t in TILES[:136])

_HI: Final[tuple[int, ...]] = tuple(t.hi for t in TILES)
_LO: Final[tuple[int, ...]] = tuple(t.lo for t in TILES)
"""Per tile index: its halves (read natively, where a tile's attribute is a lookup)."""
_INDICES: Final[dict[Action, tuple[int, int]]] = {}
"""Per attach action: the indices of its tile and of the tile it joins (actions are interned
and few: a double-15 set has under 20,000 attaches)."""

_RANK: Final[tuple[int, ...]] = tuple(t.pips * 32 + t.hi for t in TILES)
"""Per tile index: its weight as one integer, ordered as ``Tile.rank_key`` (pips, then the
higher half)."""


_BY_WEIGHT: Final[tuple[int, ...]] = tuple(sorted(range(len(_RANK)), key=lambda t: -_RANK[t]))
"""Every tile index, heaviest first (weights are distinct: see ``_RANK``)."""


def _heaviest_hand(hands: Sequence[int]) -> int:
    """The seat holding the heaviest tile (pips, then the higher half; the first such seat;
    seat 0 if no hand holds a tile). The tiles are tried heaviest first, so a deal takes a
    test or two, not a walk over every tile dealt."""
    held = 0
    for h in hands:
        held |= h
    for t in _BY_WEIGHT:
        bit = BIT[t]
        if held & bit:
            for s in range(len(hands)):
                if hands[s] & bit:
                    return s
    return 0


SpellRecord = tuple[int, int, int]
"""``(kind, anchor tile index, caster seat)``; kind is SPELL_END or SPELL_STARTER."""

FactsKey = tuple[int, int, int, int, int, SpellRecord | None, int, bool, bool, int]
"""The values a position's public facts are made of (see :meth:`SuperState._facts_key`)."""

_FACTS: Final[dict[FactsKey, SuperDominoesFacts]] = {}
"""The facts made so far, by the fields they are made from."""

PHASES: Final = ("opening", "opening_draw", "play")
"""The phases of a hand: looking for a double to set, drawing for one, then play."""


@dataclass(frozen=True)
class Spell:
    """A 13 spell in force: ``kind`` is ``end`` (cast by a 13 on the open end of tile ``at``)
    or ``starter`` (a 13-13 starter: ``at`` is the starter); ``caster`` is its seat."""

    kind: str
    at: Tile
    caster: int

    def __reduce__(self) -> tuple[Any, ...]:
        return (Spell, (self.kind, self.at, self.caster))

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"kind": self.kind, "at": str(self.at), "caster": self.caster}


@dataclass(frozen=True)
class SuperDominoesFacts:
    """Public facts of Super Dominoes.

    ``phase``: one of :data:`PHASES`; ``first_player``; ``starter`` (the spinner's tile) and
    ``setter`` (its seat) once set; ``direction`` (+1 clockwise, -1 counter-clockwise, after
    3s); ``spell`` (the :class:`Spell` in force, or ``None``); ``pending_skips`` (seats the next
    pass of the turn skips); ``drawn_this_turn``; ``extra_turn`` (the actor is on a 14's extra
    turn); ``idle_turns`` (turns in a row without a tile placed or drawn, for the block check).
    """

    phase: str
    first_player: int
    starter: Tile | None
    setter: int | None
    direction: int
    spell: Spell | None
    pending_skips: int
    drawn_this_turn: bool
    extra_turn: bool
    idle_turns: int

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            SuperDominoesFacts,
            (
                self.phase,
                self.first_player,
                self.starter,
                self.setter,
                self.direction,
                self.spell,
                self.pending_skips,
                self.drawn_this_turn,
                self.extra_turn,
                self.idle_turns,
            ),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "phase": self.phase,
            "first_player": self.first_player,
            "starter": None if self.starter is None else str(self.starter),
            "setter": self.setter,
            "direction": self.direction,
            "spell": None if self.spell is None else self.spell.to_json(),
            "pending_skips": self.pending_skips,
            "drawn_this_turn": self.drawn_this_turn,
            "extra_turn": self.extra_turn,
            "idle_turns": self.idle_turns,
        }

    @classmethod
    def from_json(cls, data: Any) -> SuperDominoesFacts:
        """Inverse of :meth:`to_json`, checked."""
        r = Reader(data, "public")
        spell = None
        sr = r.sub("spell")
        if sr is not None:
            at = sr.opt_tile("at")
            if at is None:
                raise FactsError("public.spell: at must be a tile")
            spell = Spell(sr.word("kind", ("end", "starter")), at, sr.num("caster"))
            sr.done()
        out = cls(
            r.word("phase", PHASES),
            r.num("first_player"),
            r.opt_tile("starter"),
            r.opt_num("setter"),
            _direction(r.num("direction", -1, 1)),
            spell,
            r.num("pending_skips"),
            r.flag("drawn_this_turn"),
            r.flag("extra_turn"),
            r.num("idle_turns"),
        )
        r.done()
        return out

    def notes(self) -> tuple[str, ...]:
        """Direction, spell, skips, extra turn and the opening, in words."""
        out = ["direction: " + ("clockwise" if self.direction > 0 else "counter-clockwise")]
        spell = self.spell
        if spell is not None:
            if spell.kind == "starter":
                out.append(f"spell: starter spell of P{spell.caster} (start the empty arms)")
            else:
                out.append(f"spell: on the 13 of {spell.at}, cast by P{spell.caster}")
        if self.pending_skips:
            out.append(f"pending skips: {self.pending_skips}")
        if self.extra_turn:
            out.append("extra turn")
        if self.phase == "opening":
            out.append("opening: looking for a double to set")
        elif self.phase == "opening_draw":
            out.append("opening: nobody held a double; drawing for one")
        return tuple(out)


@dataclass(frozen=True)
class SuperDominoesOptions:
    """Options of Super Dominoes (docs/games/super_dominoes.md, "Options")."""

    first_player_rule: str = option(
        "highest_tile_in_hand",
        "first player of a hand: holder of the highest tile, a draw for high tile, seat 0, "
        "or a random seat (an explicit deal always starts at seat 0 for the last three)",
        choices=("highest_tile_in_hand", "draw_high_tile", "fixed_seat", "random"),
    )
    next_hand_leader: str = option(
        "left_of_winner",
        "later hands of a match: start left of the last winner, or rotate the first player",
        choices=("left_of_winner", "rotate"),
    )
    starter_choice: str = option(
        "any_double",
        "which double the first player may set: any double held, or only the highest",
        choices=("any_double", "highest_double"),
    )
    draw_when_unable: int = option(
        2, "tiles drawn by a player who cannot play (0: just pass)", minimum=0
    )
    effect_trigger: str = option(
        "open_end",
        "15/14/13/3/blank effects fire on the open end a tile leaves, or on any half of it",
        choices=("open_end", "tile_contains"),
    )
    extra_turn_mode: str = option(
        "full_turn",
        "a 14's extra turn is a full turn (draw if unable), or a play only if able",
        choices=("full_turn", "play_only_if_able"),
    )
    skip_trigger: str = option(
        "double",
        "what makes the next player lose a turn: a double, a blank open end, or nothing",
        choices=("double", "blank", "none"),
    )
    skip_stacking: bool = option(
        False, "each skip-causing tile in one sequence of extra turns skips one more player"
    )
    starter15_includes_setter: bool = option(
        False, "a 15-15 starter makes the setter draw too (after the others)"
    )
    double_wild_on_13: bool = option(True, "any double may be played on an open 13")
    doubles_branch: bool = option(
        False, "a later double opens three ends (its far side and both short sides)"
    )
    caster_immune: bool = option(True, "the caster of a 13 spell is not bound by it")
    spell_ends_on_caster_turn: bool = option(
        False, "an end spell lapses when its (immune) caster's turn begins"
    )
    starter13_spell: str = option(
        "all_arms",
        "a 13-13 starter binds players until all six arms are started, or for a single play",
        choices=("all_arms", "single_play"),
    )
    starter13_setter_bound: bool = option(
        True, "the setter of a 13-13 starter is bound by its spell too"
    )
    effects_on_final_tile: str = option(
        "apply_then_end",
        "going out on a 15: the others draw before scoring, or the hand ends at once",
        choices=("apply_then_end", "end_immediately"),
    )
    blocked_full_tie: str = option(
        "no_winner",
        "a block tied on tiles and pips: nobody scores, or every tied player wins in full",
        choices=("no_winner", "shared"),
    )
    scoring: str = option(
        "advanced",
        "advanced: pips (a block scores differences); simple: one point per tile",
        choices=("advanced", "simple"),
    )
    blocked_difference: str = option(
        "clamped",
        "advanced block scoring: each loser's difference is clamped at 0, or signed",
        choices=("clamped", "signed"),
    )
    target_score: int | None = option(
        None, "a match ends when a player reaches this total (null: a single hand)", minimum=1
    )

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_options(self)


def _direction(d: int) -> int:
    if d == 0:
        raise FactsError("public: direction must be 1 or -1, got 0")
    return d


class SuperDominoesGame(Game[SuperDominoesOptions]):
    """Super Dominoes: double-15, nine tiles each, a six-armed starter and suit effects."""

    name = "super_dominoes"
    aliases = ("super", "sd", "superdominoes")
    title = "Super Dominoes"
    summary = (
        "double-15 block game with a six-armed starter; 15 draw, 14 again, 13 spell, 3 reverse"
    )
    Options = SuperDominoesOptions
    Facts = SuperDominoesFacts
    family = "fat_spinner"
    hints = SUPER_HINTS
    default_players = 4

    def max_pip(self, opts: SuperDominoesOptions) -> int:
        return 15

    def hand_size(self, players: int, opts: SuperDominoesOptions) -> int:
        return 9

    def player_range(self, opts: SuperDominoesOptions) -> tuple[int, int]:
        return (2, 8)

    def first_player_by_lot(self, opts: SuperDominoesOptions) -> bool:
        return opts.first_player_rule in ("random", "draw_high_tile")

    def first_player_key(self, opts: SuperDominoesOptions) -> Callable[[Tile], Any] | None:
        if opts.first_player_rule == "highest_tile_in_hand":
            return Tile.rank_key
        return None

    def _start(
        self,
        opts: SuperDominoesOptions,
        hands: list[int],
        bone: list[int],
        rng: random.Random | None,
        seed: int | None,
        scores_before: Sequence[int] | None,
        leader: int | None = None,
        board: Any = None,
    ) -> State[Any]:
        n = len(hands)
        rule = opts.first_player_rule
        if leader is not None:  # a later hand of a match (next_hand_leader)
            first = leader
        elif rule == "highest_tile_in_hand":
            first = _heaviest_hand(hands)
        elif rule == "random" and rng is not None:
            first = rng.randrange(n)
        elif rule == "draw_high_tile" and rng is not None:
            drawn = rng.sample(range(136), n)
            first = _heaviest_hand([1 << t for t in drawn])
        else:
            first = 0
        s = SuperState.__new__(SuperState)
        s._init_base(self, opts, hands, bone, first, seed, scores_before, leader)
        s._phase = OPENING_SET
        s._asked = 0
        s._opening_double = -1
        s._starter = -1
        s._setter = -1
        s._ends = ()
        s._placed = None
        s._direction = 1
        s._spell = None
        s._sized = None
        s._packed = 0
        s._pending = 0
        s._drawn = False
        s._extra = False
        s._idle = 0
        s._actor = first
        return s

    def next_leader(self, previous: State[Any]) -> int | None:
        """The next hand's first player: left of the winner, or of the first player
        (docs/games/super_dominoes.md, "Matches").

        ``left_of_winner`` falls back to the left of the previous first player when the hand
        had no single winner; ``rotate`` always moves the first player one seat left.
        """
        n = previous.players
        result = previous.result
        assert result is not None
        if previous.options.next_hand_leader == "left_of_winner" and len(result.winners) == 1:
            return (result.winners[0] + 1) % n
        return (previous.first_player + 1) % n


class SuperState(State[SuperDominoesOptions]):
    """A position of Super Dominoes."""

    __slots__ = (
        "_asked",
        "_direction",
        "_drawn",
        "_ends",
        "_extra",
        "_idle",
        "_opening_double",
        "_packed",
        "_pending",
        "_phase",
        "_placed",
        "_setter",
        "_sized",
        "_spell",
        "_starter",
    )

    _phase: int
    _asked: int
    _opening_double: int
    _starter: int
    _setter: int
    _ends: Ends
    _placed: PlacedList
    _direction: int
    _spell: SpellRecord | None
    _pending: int
    _drawn: bool
    _extra: bool
    _idle: int
    _sized: tuple[int, ...] | None  # the hands _packed counted (see _sizes)
    _packed: int

    def _clone(self) -> SuperState:
        new = SuperState.__new__(SuperState)
        self._copy_base(new)
        new._phase = self._phase
        new._asked = self._asked
        new._opening_double = self._opening_double
        new._starter = self._starter
        new._setter = self._setter
        new._ends = self._ends
        new._placed = self._placed
        new._direction = self._direction
        new._spell = self._spell
        new._pending = self._pending
        new._drawn = self._drawn
        new._extra = self._extra
        new._idle = self._idle
        new._sized = self._sized
        new._packed = self._packed
        return new

    def playout(self, rng: random.Random) -> State[SuperDominoesOptions]:
        """:meth:`State.playout` with the plays after the starter on local variables, the
        hands kept by suit (:mod:`bonepile.games.super_dominoes_playout`): the same choices,
        the same random numbers and the same final state."""
        if self._result is not None:
            return self
        from bonepile.games.super_dominoes_playout import play_out  # it imports this module

        return play_out(cast(SuperState, self._child()), rng)

    # ----------------------------------------------------------------- rules queries
    def is_bound(self, seat: int) -> bool:
        """True when ``seat`` is bound by the spell in force."""
        spell = self._spell
        if spell is None:
            return False
        kind, _, caster = spell
        if seat != caster:
            return True
        if kind == SPELL_END:
            return not self._options.caster_immune
        return bool(self._options.starter13_setter_bound)

    def _placements(self, seat: int) -> list[Action]:
        hand = self._hands[seat]
        spell = self._spell
        only = -1
        if spell is not None and self.is_bound(seat):
            only = self._starter if spell[0] == SPELL_STARTER else spell[1]
        wild = self._options.double_wild_on_13
        acts: list[Action] = []
        done: list[int] = []  # the ends seen, as u << 5 | v (a compare of machine integers)
        for u, v in self._ends:
            if only >= 0 and u != only:
                continue
            key = u << 5 | v
            seen = False
            for k in done:
                if k == key:
                    seen = True
                    break
            if seen:
                continue
            done.append(key)
            m = hand & SUIT_MASK[v]
            if v == 13 and wild:
                m |= hand & DOUBLE_MASK
            if m:
                acts.extend(attach_set(u, m))
        return acts

    def _compute_legal(self) -> tuple[Action, ...]:
        if self._result is not None:
            return ()
        actor = self._actor
        assert actor is not None
        if self._phase == OPENING_SET:
            doubles = self._hands[actor] & DOUBLE_MASK
            if not doubles:
                return (PASS,)
            idx = bits(doubles)
            if self._options.starter_choice == "highest_double":
                return (LEAD_BY_INDEX[idx[-1]],)
            return tuple(LEAD_BY_INDEX[t] for t in idx)
        if self._phase == OPENING_DRAW:
            if self._opening_double >= 0:
                return (LEAD_BY_INDEX[self._opening_double],)
            return (DRAW,)
        acts = self._placements(actor)
        if acts:
            return tuple(acts)
        opts = self._options
        if self._extra and opts.extra_turn_mode == "play_only_if_able":
            return (PASS,)
        if not self._drawn and self._bpos < len(self._bone) and opts.draw_when_unable > 0:
            return (DRAW,)
        return (PASS,)

    # ----------------------------------------------------------------- transition
    def _do(self, action: Action, events: list[Event] | None) -> tuple[Event, ...] | None:
        kind = type(action)
        if kind is ATTACH:
            self._place(cast(Attach, action), events)
        elif kind is LEAD:
            self._set_starter(cast(Lead, action).tile, events)
        elif kind is DRAW_KIND:
            self._draw(events)
        else:  # a pass
            self._pass(events)
        return None  # events only in the list (see State._do)

    def _take(self, seat: int, k: int, cause: str, events: list[Event] | None) -> int:
        """``seat`` draws up to ``k`` tiles from the front of the boneyard; return how many."""
        k = min(k, len(self._bone) - self._bpos)
        if k <= 0:
            return 0
        drawn = self._bone[self._bpos : self._bpos + k]
        self._bpos += k
        hands = list(self._hands)
        for t in drawn:
            hands[seat] |= 1 << t
        self._hands = tuple(hands)
        if events is not None:
            events.append(Drew(seat, k, tuple(TILES[t] for t in drawn), cause))
        return k

    def _others_draw(
        self, mover: int, cause: str, events: list[Event] | None, include_mover: bool = False
    ) -> None:
        n = self._players
        seat = mover
        for _ in range(n - 1):
            seat = (seat + self._direction) % n
            if self._take(seat, 1, cause, events) == 0:
                return
        if include_mover:
            self._take(mover, 1, cause, events)

    def _set_starter(self, tile: Tile, events: list[Event] | None) -> None:
        actor = self._actor
        assert actor is not None
        t = tile.index
        s = tile.hi
        hands = list(self._hands)
        hands[actor] ^= 1 << t
        self._hands = tuple(hands)
        self._starter = t
        self._setter = actor
        self._ends = ((t, s),) * ARMS
        self._placed = (None, t, -1, -1, actor)
        self._phase = PLAY
        self._opening_double = -1
        self._idle = 0
        if events is not None:
            events.append(Led(actor, tile))
        opts = self._options
        if not hands[actor]:
            self._finish_domino(actor, events)
            return
        if s == 15:
            self._others_draw(actor, "starter", events, opts.starter15_includes_setter)
        if s == 13:
            self._spell = (SPELL_STARTER, t, actor)
            if events is not None:
                events.append(SpellCast(actor, tile, True))
        if s == 3:
            self._direction = -self._direction
            if events is not None:
                events.append(Reversed(actor, self._direction))
        if s == 0 and opts.skip_trigger == "blank":
            self._pending = 1
        if s == 14:
            if events is not None:
                events.append(ExtraTurn(actor))
            self._begin_turn(actor, True, events)
        else:
            self._advance(events)

    def _place(self, action: Attach, events: list[Event] | None) -> None:
        actor = self._actor
        assert actor is not None
        opts = self._options
        tu = _INDICES.get(action)
        if tu is None:  # an action is a plain Python object: its fields cost a lookup each
            tu = _INDICES[action] = (action.tile.index, action.at.index)
        t, u = tu
        ends = self._ends
        for i, (eu, ev) in enumerate(ends):
            if eu == u:
                v = ev
                rest = ends[:i] + ends[i + 1 :]
                break
        else:  # pragma: no cover - legal actions always name an open end
            raise AssertionError(action)
        hi = _HI[t]
        lo = _LO[t]
        double = hi == lo
        o = hi if double else (lo if hi == v else hi)
        if double and opts.doubles_branch:
            rest = (*rest, (t, o), (t, o), (t, o))
        else:
            rest = (*rest, (t, o))
        self._ends = rest
        hands = list(self._hands)
        hands[actor] ^= 1 << t
        self._hands = tuple(hands)
        self._placed = (self._placed, t, u, v, actor)
        self._idle = 0
        tile = TILES[t]
        if events is not None:
            events.append(Placed(actor, tile, TILES[u], v, o))

        fires = _FIRES_OPEN[o] if opts.effect_trigger == "open_end" else _FIRES_TILE[t]

        if not hands[actor]:
            if 15 in fires and opts.effects_on_final_tile == "apply_then_end":
                self._others_draw(actor, "fifteen", events)
            self._finish_domino(actor, events)
            return

        _play_effects(self, Play(actor, tile, t, u, fires), events)

    def _draw(self, events: list[Event] | None) -> None:
        actor = self._actor
        assert actor is not None
        if self._phase == OPENING_DRAW:
            t = self._bone[self._bpos]
            self._take(actor, 1, "opening", events)
            if TILES[t].is_double:
                self._opening_double = t
            else:
                self._actor = (actor + 1) % self._players
            return
        self._take(actor, self._options.draw_when_unable, "unable", events)
        self._drawn = True
        self._idle = 0

    def _pass(self, events: list[Event] | None) -> None:
        actor = self._actor
        assert actor is not None
        n = self._players
        if events is not None:
            events.append(Passed(actor))
        if self._phase == OPENING_SET:
            self._asked += 1
            if self._asked == n:
                self._phase = OPENING_DRAW
                self._asked = 0
                self._actor = self._first_player
            else:
                self._actor = (actor + 1) % n
            return
        if not self._drawn:
            self._idle += 1
        no_draws = self._bpos >= len(self._bone) or self._options.draw_when_unable == 0
        if no_draws and self._idle >= n:
            self._finish_blocked(events)
            return
        self._advance(events)

    def _advance(self, events: list[Event] | None) -> None:
        """Pass the turn on in the current direction, applying pending skips."""
        actor = self._actor
        assert actor is not None
        n = self._players
        d = self._direction
        q = (actor + d) % n
        for _ in range(self._pending):
            if events is not None:
                events.append(Skipped(q))
            q = (q + d) % n
        self._pending = 0
        self._begin_turn(q, False, events)

    def _begin_turn(self, seat: int, extra: bool, events: list[Event] | None) -> None:
        self._actor = seat
        self._drawn = False
        self._extra = extra
        spell = self._spell
        opts = self._options
        if (
            spell is not None
            and spell[0] == SPELL_END
            and spell[2] == seat
            and opts.spell_ends_on_caster_turn
            and opts.caster_immune
        ):
            self._spell = None
            if events is not None:
                events.append(SpellEnded(seat, "caster_turn"))

    # ----------------------------------------------------------------- scoring
    def _finish_domino(self, winner: int, events: list[Event] | None) -> None:
        n = self._players
        if self._options.scoring == "advanced":
            score = sum(self._pips(s) for s in range(n))
        else:
            score = sum(self._hands[s].bit_count() for s in range(n))
        self._end(Result("domino", (winner,), points(n, (winner,), score)), events)

    def _finish_blocked(self, events: list[Event] | None) -> None:
        n = self._players
        opts = self._options
        tiles = [h.bit_count() for h in self._hands]
        pips = [self._pips(s) for s in range(n)]
        best = min((tiles[s], pips[s]) for s in range(n))
        tied = tuple(s for s in range(n) if (tiles[s], pips[s]) == best)
        if len(tied) > 1 and opts.blocked_full_tie == "no_winner":
            self._end(Result("blocked", (), (0,) * n), events)
            return
        w = tied[0]
        losers = [s for s in range(n) if s not in tied]
        if opts.scoring == "advanced":
            diffs = [pips[s] - pips[w] for s in losers]
            if opts.blocked_difference == "clamped":
                diffs = [max(0, x) for x in diffs]
            score = sum(diffs)
        else:
            score = sum(max(0, tiles[s] - tiles[w]) for s in losers)
        self._end(Result("blocked", tied, points(n, tied, score)), events)

    def _pips(self, seat: int) -> int:
        return mask_pips(self._hands[seat])

    def _end(self, result: Result, events: list[Event] | None) -> None:
        self._pending = 0
        self._extra = False
        self._drawn = False
        self._end_hand(result, events)

    # ----------------------------------------------------------------- public views
    def _sizes(self) -> int:
        """Counted again only for the hands that changed since last asked (a move changes
        one or two of them; a double-15 hand is a big integer, and a count of one a call): a
        view a turn asks for them, and a state played in place is asked again and again."""
        hands = self._hands
        seen = self._sized
        if seen is None:  # a state's seats never change: so many hands as last time
            packed = 0
            for k in range(len(hands)):
                packed |= count_large(hands[k]) << (8 * k)
        else:
            packed = self._packed
            now: tuple[object, ...] = hands  # compared as objects: an unchanged hand is the
            was: tuple[object, ...] = seen  # same one, and a big integer is not unboxed
            for k in range(len(now)):
                if now[k] is not was[k]:
                    shift = 8 * k
                    packed = packed & ~(255 << shift) | count_large(hands[k]) << shift
        self._sized = hands
        self._packed = packed
        return packed

    @property
    def layout(self) -> Layout:
        return build_layout("fat_spinner", self._placed, self._ends)

    def _layout_key(self) -> tuple[Any, Any]:
        return self._placed, self._ends

    @staticmethod
    def _layout_of(key: Any, more: Any) -> Layout:
        return build_layout("fat_spinner", key, more)

    @property
    def facts(self) -> SuperDominoesFacts:
        return self._facts_of(self._facts_key())

    def _facts_key(self) -> FactsKey:
        return (
            self._phase,
            self._first_player,
            self._starter,
            self._setter,
            self._direction,
            self._spell,
            self._pending,
            self._drawn,
            self._extra,
            self._idle,
        )

    @staticmethod
    def _facts_of(key: FactsKey) -> SuperDominoesFacts:
        facts = _FACTS.get(key)
        if facts is not None:  # the same facts recur: shared, as they are frozen
            return facts
        if len(_FACTS) > 100_000:
            _FACTS.clear()
        phase, first, starter, setter, direction, spell, pending, drawn, extra, idle = key
        facts = _FACTS[key] = SuperDominoesFacts(
            PHASES[phase],
            first,
            None if starter < 0 else TILES[starter],
            None if setter < 0 else setter,
            direction,
            None
            if spell is None
            else Spell("end" if spell[0] == SPELL_END else "starter", TILES[spell[1]], spell[2]),
            pending,
            drawn,
            extra,
            idle,
        )
        return facts

    def _key_extra(self) -> tuple[Any, ...]:
        return (
            self._phase,
            self._asked,
            self._opening_double,
            self._starter,
            self._setter,
            tuple(sorted(self._ends)),
            self._direction,
            self._spell,
            self._pending,
            self._drawn,
            self._extra,
            self._idle,
            self._first_player,
        )


class Play:
    """One tile just played, as the effects see it (a plain class: a compiled one reads its
    fields natively, which matters at every play)."""

    __slots__ = ("at", "fires", "seat", "t", "tile")

    seat: int
    tile: Tile
    t: int
    """The tile's index."""
    at: int
    """The index of the layout tile it was attached to."""
    fires: frozenset[int]
    """The values whose effects fire: the open end left, or both halves (``tile_contains``)."""

    def __init__(self, seat: int, tile: Tile, t: int, at: int, fires: frozenset[int]) -> None:
        self.seat = seat
        self.tile = tile
        self.t = t
        self.at = at
        self.fires = fires


Effect = Callable[[SuperState, Play, list[Event] | None], None]


def _break_spell(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A play on the spelled end breaks an end spell; the starter spell ends by its own rule."""
    spell = s._spell
    if spell is None:
        return
    how = ""
    if spell[0] == SPELL_END:
        if p.at == spell[1]:
            how = "broken"
    elif s._options.starter13_spell == "single_play":
        if p.at == s._starter:
            how = "broken"
    elif not any(eu == s._starter for eu, _ in s._ends):
        how = "arms_started"
    if how:
        s._spell = None
        if events is not None:
            events.append(SpellEnded(p.seat, how))


def _cast_spell(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A 13 casts a spell on the end the tile leaves open, replacing any spell in force."""
    if 13 not in p.fires:
        return
    if s._spell is not None and events is not None:
        events.append(SpellEnded(p.seat, "replaced"))
    s._spell = (SPELL_END, p.t, p.seat)
    if events is not None:
        events.append(SpellCast(p.seat, p.tile, False))


def _fifteen_draw(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A 15: every other player draws one tile, in turn order."""
    if 15 in p.fires:
        s._others_draw(p.seat, "fifteen", events)


def _three_reverse(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A 3 reverses the direction of play."""
    if 3 in p.fires:
        s._direction = -s._direction
        if events is not None:
            events.append(Reversed(p.seat, s._direction))


def _skip(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A double (not 13-13), or a blank with ``skip_trigger=blank``: the next player is skipped."""
    opts = s._options
    trigger = opts.skip_trigger
    double = _HI[p.t] == _LO[p.t]
    if (trigger == "double" and double and p.t != T13_13) or (trigger == "blank" and 0 in p.fires):
        s._pending = s._pending + 1 if opts.skip_stacking else 1


def _fourteen_or_pass_on(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A 14 gives the player another turn at once; otherwise the turn passes on."""
    if 14 in p.fires:
        if events is not None:
            events.append(ExtraTurn(p.seat))
        s._begin_turn(p.seat, True, events)
    else:
        s._advance(events)


EFFECTS: Final[tuple[tuple[str, Effect], ...]] = (
    ("break_spell", _break_spell),
    ("cast_spell_13", _cast_spell),
    ("others_draw_15", _fifteen_draw),
    ("reverse_3", _three_reverse),
    ("skip", _skip),
    ("extra_turn_14", _fourteen_or_pass_on),
)
"""What a tile played does, in the order of docs/games/super_dominoes.md ("Special tiles");
the rules run them in turn."""


def _play_effects(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """Run :data:`EFFECTS` in order, each called directly (compiled, a call through the table
    is a Python-level call: six of them cost more than the rest of a play)."""
    _break_spell(s, p, events)
    _cast_spell(s, p, events)
    _fifteen_draw(s, p, events)
    _three_reverse(s, p, events)
    _skip(s, p, events)
    _fourteen_or_pass_on(s, p, events)


SUPER_DOMINOES = SuperDominoesGame()
