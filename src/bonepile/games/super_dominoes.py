"""Super Dominoes (RULES.md section 2 and the clarifications of section 6).

A double-15 block game with draws: the first double set is a six-armed "fat spinner"; a 15 makes
everyone else draw, a 14 gives an extra turn, a 13 casts a spell, a 3 reverses the direction and
a double (other than 13-13) makes the next player lose a turn.

Effects are data: :data:`EFFECTS` lists them in the order of RULES.md 2.7, and the
transition runs that table for every tile played (a final tile only draws for a 15).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from bonepile.actions import DRAW, LEAD_BY_INDEX, PASS, Action, Attach, Draw, Lead, Pass
from bonepile.events import (
    Drew,
    Event,
    ExtraTurn,
    HandEnded,
    Led,
    Passed,
    Placed,
    Reversed,
    Skipped,
    SpellCast,
    SpellEnded,
)
from bonepile.games.base import Game
from bonepile.layout import Ends, Layout, build_layout
from bonepile.layout import Placed as PlacedList
from bonepile.options import option
from bonepile.result import Result
from bonepile.state import State
from bonepile.tiles import DOUBLE_MASK, SUIT_MASK, TILES, Tile, bits, mask_pips

OPENING_SET, OPENING_DRAW, PLAY = 0, 1, 2
SPELL_END, SPELL_STARTER = 0, 1
ARMS = 6
T13_13 = Tile(13, 13).index

EFFECT_ORDER = (
    "break_spell",
    "cast_spell_13",
    "others_draw_15",
    "reverse_3",
    "skip",
    "extra_turn_14",
)
"""The order in which one play's effects resolve (RULES.md 2.7)."""

_FIRES_OPEN = tuple(frozenset((v,)) for v in range(16))
_FIRES_TILE = tuple(frozenset((t.hi, t.lo)) for t in TILES[:136])

Spell = tuple[int, int, int]
"""``(kind, anchor tile index, caster seat)``; kind is SPELL_END or SPELL_STARTER."""


@dataclass(frozen=True)
class SuperDominoesOptions:
    """Options of Super Dominoes (RULES.md 2)."""

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


class SuperDominoesGame(Game):
    """Super Dominoes: double-15, nine tiles each, a six-armed starter and suit effects."""

    name = "super_dominoes"
    aliases = ("super", "sd", "superdominoes")
    title = "Super Dominoes"
    summary = (
        "double-15 block game with a six-armed starter; 15 draw, 14 again, 13 spell, 3 reverse"
    )
    Options = SuperDominoesOptions
    default_players = 4

    def max_pip(self, opts: SuperDominoesOptions) -> int:
        return 15

    def hand_size(self, players: int, opts: SuperDominoesOptions) -> int:
        return 9

    def player_range(self, opts: SuperDominoesOptions) -> tuple[int, int]:
        return (2, 8)

    def first_player_by_lot(self, opts: SuperDominoesOptions) -> bool:
        return opts.first_player_rule in ("random", "draw_high_tile")

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
    ) -> State:
        n = len(hands)
        rule = opts.first_player_rule
        if leader is not None:  # a later hand of a match (next_hand_leader)
            first = leader
        elif rule == "highest_tile_in_hand":
            first = max(range(n), key=lambda s: max(TILES[t].rank_key() for t in bits(hands[s])))
        elif rule == "random" and rng is not None:
            first = rng.randrange(n)
        elif rule == "draw_high_tile" and rng is not None:
            drawn = rng.sample(range(136), n)
            first = max(range(n), key=lambda s: TILES[drawn[s]].rank_key())
        else:
            first = 0
        s = SuperState.__new__(SuperState)
        s._init_base(self, opts, hands, bone, first, seed, scores_before, leader)
        s.phase = OPENING_SET
        s.asked = 0
        s.opening_double = -1
        s.starter = -1
        s.setter = -1
        s.ends = ()
        s.placed = None
        s.direction = 1
        s.spell = None
        s.pending = 0
        s.drawn = False
        s.extra = False
        s.idle = 0
        s.actor = first
        return s

    def next_leader(self, previous: State) -> int | None:
        """The next hand's first player (RULES.md 2.3): left of the winner, or of the first player.

        ``left_of_winner`` falls back to the left of the previous first player when the hand
        had no single winner; ``rotate`` always moves the first player one seat left.
        """
        n = previous.players
        result = previous.result
        assert result is not None
        if previous.options.next_hand_leader == "left_of_winner" and len(result.winners) == 1:
            return (result.winners[0] + 1) % n
        return (previous.first_player + 1) % n


class SuperState(State):
    """A position of Super Dominoes."""

    __slots__ = (
        "asked",
        "direction",
        "drawn",
        "ends",
        "extra",
        "idle",
        "opening_double",
        "pending",
        "phase",
        "placed",
        "setter",
        "spell",
        "starter",
    )

    phase: int
    asked: int
    opening_double: int
    starter: int
    setter: int
    ends: Ends
    placed: PlacedList
    direction: int
    spell: Spell | None
    pending: int
    drawn: bool
    extra: bool
    idle: int

    def _clone(self) -> SuperState:
        new = SuperState.__new__(SuperState)
        self._copy_base(new)
        new.phase = self.phase
        new.asked = self.asked
        new.opening_double = self.opening_double
        new.starter = self.starter
        new.setter = self.setter
        new.ends = self.ends
        new.placed = self.placed
        new.direction = self.direction
        new.spell = self.spell
        new.pending = self.pending
        new.drawn = self.drawn
        new.extra = self.extra
        new.idle = self.idle
        return new

    # ----------------------------------------------------------------- rules queries
    def is_bound(self, seat: int) -> bool:
        """True when ``seat`` is bound by the spell in force."""
        spell = self.spell
        if spell is None:
            return False
        kind, _, caster = spell
        if seat != caster:
            return True
        if kind == SPELL_END:
            return not self.options.caster_immune
        return bool(self.options.starter13_setter_bound)

    def _placements(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        spell = self.spell
        only = -1
        if spell is not None and self.is_bound(seat):
            only = self.starter if spell[0] == SPELL_STARTER else spell[1]
        wild = self.options.double_wild_on_13
        acts: list[Action] = []
        done: list[tuple[int, int]] = []
        for end in self.ends:
            u, v = end
            if (only >= 0 and u != only) or end in done:
                continue
            done.append(end)
            m = hand & SUIT_MASK[v]
            if v == 13 and wild:
                m |= hand & DOUBLE_MASK
            for t in bits(m):
                a = Attach._cache.get((t << 8) | u)
                acts.append(a if a is not None else Attach(TILES[t], TILES[u]))
        return acts

    def _compute_legal(self) -> tuple[Action, ...]:
        if self.result is not None:
            return ()
        actor = self.actor
        assert actor is not None
        if self.phase == OPENING_SET:
            doubles = self.hands[actor] & DOUBLE_MASK
            if not doubles:
                return (PASS,)
            idx = bits(doubles)
            if self.options.starter_choice == "highest_double":
                return (LEAD_BY_INDEX[idx[-1]],)
            return tuple(LEAD_BY_INDEX[t] for t in idx)
        if self.phase == OPENING_DRAW:
            if self.opening_double >= 0:
                return (LEAD_BY_INDEX[self.opening_double],)
            return (DRAW,)
        acts = self._placements(actor)
        if acts:
            return tuple(acts)
        opts = self.options
        if self.extra and opts.extra_turn_mode == "play_only_if_able":
            return (PASS,)
        if not self.drawn and self.bpos < len(self.bone) and opts.draw_when_unable > 0:
            return (DRAW,)
        return (PASS,)

    # ----------------------------------------------------------------- transition
    def _do(self, action: Action, events: list[Event] | None) -> None:
        kind = type(action)
        if kind is Attach:
            assert isinstance(action, Attach)
            self._place(action, events)
        elif kind is Lead:
            assert isinstance(action, Lead)
            self._set_starter(action.tile, events)
        elif kind is Draw:
            self._draw(events)
        else:
            assert kind is Pass
            self._pass(events)

    def _take(self, seat: int, k: int, cause: str, events: list[Event] | None) -> int:
        """``seat`` draws up to ``k`` tiles from the front of the boneyard; return how many."""
        k = min(k, len(self.bone) - self.bpos)
        if k <= 0:
            return 0
        drawn = self.bone[self.bpos : self.bpos + k]
        self.bpos += k
        hands = list(self.hands)
        for t in drawn:
            hands[seat] |= 1 << t
        self.hands = tuple(hands)
        if events is not None:
            events.append(Drew(seat, k, tuple(TILES[t] for t in drawn), cause))
        return k

    def _others_draw(
        self, mover: int, cause: str, events: list[Event] | None, include_mover: bool = False
    ) -> None:
        n = self.players
        seat = mover
        for _ in range(n - 1):
            seat = (seat + self.direction) % n
            if self._take(seat, 1, cause, events) == 0:
                return
        if include_mover:
            self._take(mover, 1, cause, events)

    def _set_starter(self, tile: Tile, events: list[Event] | None) -> None:
        actor = self.actor
        assert actor is not None
        t = tile.index
        s = tile.hi
        hands = list(self.hands)
        hands[actor] ^= 1 << t
        self.hands = tuple(hands)
        self.starter = t
        self.setter = actor
        self.ends = ((t, s),) * ARMS
        self.placed = (None, (t, -1, -1, actor))
        self.phase = PLAY
        self.opening_double = -1
        self.idle = 0
        if events is not None:
            events.append(Led(actor, tile))
        opts = self.options
        if not hands[actor]:
            self._finish_domino(actor, events)
            return
        if s == 15:
            self._others_draw(actor, "starter", events, opts.starter15_includes_setter)
        if s == 13:
            self.spell = (SPELL_STARTER, t, actor)
            if events is not None:
                events.append(SpellCast(actor, tile, True))
        if s == 3:
            self.direction = -self.direction
            if events is not None:
                events.append(Reversed(actor, self.direction))
        if s == 0 and opts.skip_trigger == "blank":
            self.pending = 1
        if s == 14:
            if events is not None:
                events.append(ExtraTurn(actor))
            self._begin_turn(actor, True, events)
        else:
            self._advance(events)

    def _place(self, action: Attach, events: list[Event] | None) -> None:
        actor = self.actor
        assert actor is not None
        opts = self.options
        tile = action.tile
        t = tile.index
        u = action.at.index
        ends = self.ends
        for i, (eu, ev) in enumerate(ends):
            if eu == u:
                v = ev
                rest = ends[:i] + ends[i + 1 :]
                break
        else:  # pragma: no cover - legal actions always name an open end
            raise AssertionError(action)
        double = tile.hi == tile.lo
        o = tile.hi if double else (tile.lo if tile.hi == v else tile.hi)
        if double and opts.doubles_branch:
            rest = (*rest, (t, o), (t, o), (t, o))
        else:
            rest = (*rest, (t, o))
        self.ends = rest
        hands = list(self.hands)
        hands[actor] ^= 1 << t
        self.hands = tuple(hands)
        self.placed = (self.placed, (t, u, v, actor))
        self.idle = 0
        if events is not None:
            events.append(Placed(actor, tile, action.at, v, o))

        fires = _FIRES_OPEN[o] if opts.effect_trigger == "open_end" else _FIRES_TILE[t]

        if not hands[actor]:
            if 15 in fires and opts.effects_on_final_tile == "apply_then_end":
                self._others_draw(actor, "fifteen", events)
            self._finish_domino(actor, events)
            return

        play = Play(actor, tile, t, u, fires)
        for _, effect in EFFECTS:
            effect(self, play, events)

    def _draw(self, events: list[Event] | None) -> None:
        actor = self.actor
        assert actor is not None
        if self.phase == OPENING_DRAW:
            t = self.bone[self.bpos]
            self._take(actor, 1, "opening", events)
            if TILES[t].is_double:
                self.opening_double = t
            else:
                self.actor = (actor + 1) % self.players
            return
        self._take(actor, self.options.draw_when_unable, "unable", events)
        self.drawn = True
        self.idle = 0

    def _pass(self, events: list[Event] | None) -> None:
        actor = self.actor
        assert actor is not None
        n = self.players
        if events is not None:
            events.append(Passed(actor))
        if self.phase == OPENING_SET:
            self.asked += 1
            if self.asked == n:
                self.phase = OPENING_DRAW
                self.asked = 0
                self.actor = self.first_player
            else:
                self.actor = (actor + 1) % n
            return
        if not self.drawn:
            self.idle += 1
        no_draws = self.bpos >= len(self.bone) or self.options.draw_when_unable == 0
        if no_draws and self.idle >= n:
            self._finish_blocked(events)
            return
        self._advance(events)

    def _advance(self, events: list[Event] | None) -> None:
        """Pass the turn on in the current direction, applying pending skips."""
        actor = self.actor
        assert actor is not None
        n = self.players
        d = self.direction
        q = (actor + d) % n
        for _ in range(self.pending):
            if events is not None:
                events.append(Skipped(q))
            q = (q + d) % n
        self.pending = 0
        self._begin_turn(q, False, events)

    def _begin_turn(self, seat: int, extra: bool, events: list[Event] | None) -> None:
        self.actor = seat
        self.drawn = False
        self.extra = extra
        spell = self.spell
        opts = self.options
        if (
            spell is not None
            and spell[0] == SPELL_END
            and spell[2] == seat
            and opts.spell_ends_on_caster_turn
            and opts.caster_immune
        ):
            self.spell = None
            if events is not None:
                events.append(SpellEnded(seat, "caster_turn"))

    # ----------------------------------------------------------------- scoring
    def _finish_domino(self, winner: int, events: list[Event] | None) -> None:
        n = self.players
        if self.options.scoring == "advanced":
            score = sum(self._pips(s) for s in range(n))
        else:
            score = sum(self.hands[s].bit_count() for s in range(n))
        self._end(Result("domino", (winner,), _points(n, (winner,), score)), events)

    def _finish_blocked(self, events: list[Event] | None) -> None:
        n = self.players
        opts = self.options
        tiles = [h.bit_count() for h in self.hands]
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
        self._end(Result("blocked", tied, _points(n, tied, score)), events)

    def _pips(self, seat: int) -> int:
        return mask_pips(self.hands[seat])

    def _end(self, result: Result, events: list[Event] | None) -> None:
        self.result = result
        self.actor = None
        self._legal = ()
        self.pending = 0
        self.extra = False
        self.drawn = False
        if events is not None:
            events.append(HandEnded(result))

    # ----------------------------------------------------------------- public views
    @property
    def layout(self) -> Layout:
        return build_layout(self.placed, self.ends)

    def public_info(self) -> dict[str, Any]:
        spell = self.spell
        return {
            "phase": ("opening", "opening_draw", "play")[self.phase],
            "first_player": self.first_player,
            "starter": None if self.starter < 0 else str(TILES[self.starter]),
            "setter": None if self.setter < 0 else self.setter,
            "direction": self.direction,
            "spell": None
            if spell is None
            else {
                "kind": "end" if spell[0] == SPELL_END else "starter",
                "at": str(TILES[spell[1]]),
                "caster": spell[2],
            },
            "pending_skips": self.pending,
            "drawn_this_turn": self.drawn,
            "extra_turn": self.extra,
            "idle_turns": self.idle,
        }

    def _key_extra(self) -> tuple[Any, ...]:
        return (
            self.phase,
            self.asked,
            self.opening_double,
            self.starter,
            self.setter,
            tuple(sorted(self.ends)),
            self.direction,
            self.spell,
            self.pending,
            self.drawn,
            self.extra,
            self.idle,
            self.first_player,
        )


class Play(NamedTuple):
    """One tile just played, as the effects see it."""

    seat: int
    tile: Tile
    t: int
    """The tile's index."""
    at: int
    """The index of the layout tile it was attached to."""
    fires: frozenset[int]
    """The values whose effects fire: the open end left, or both halves (``tile_contains``)."""


Effect = Callable[[SuperState, Play, list[Event] | None], None]


def _break_spell(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A play on the spelled end breaks an end spell; the starter spell ends by its own rule."""
    spell = s.spell
    if spell is None:
        return
    how = ""
    if spell[0] == SPELL_END:
        if p.at == spell[1]:
            how = "broken"
    elif s.options.starter13_spell == "single_play":
        if p.at == s.starter:
            how = "broken"
    elif not any(eu == s.starter for eu, _ in s.ends):
        how = "arms_started"
    if how:
        s.spell = None
        if events is not None:
            events.append(SpellEnded(p.seat, how))


def _cast_spell(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A 13 casts a spell on the end the tile leaves open, replacing any spell in force."""
    if 13 not in p.fires:
        return
    if s.spell is not None and events is not None:
        events.append(SpellEnded(p.seat, "replaced"))
    s.spell = (SPELL_END, p.t, p.seat)
    if events is not None:
        events.append(SpellCast(p.seat, p.tile, False))


def _fifteen_draw(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A 15: every other player draws one tile, in turn order."""
    if 15 in p.fires:
        s._others_draw(p.seat, "fifteen", events)


def _three_reverse(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A 3 reverses the direction of play."""
    if 3 in p.fires:
        s.direction = -s.direction
        if events is not None:
            events.append(Reversed(p.seat, s.direction))


def _skip(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A double (not 13-13), or a blank with ``skip_trigger=blank``: the next player is skipped."""
    opts = s.options
    trigger = opts.skip_trigger
    double = p.tile.hi == p.tile.lo
    if (trigger == "double" and double and p.t != T13_13) or (trigger == "blank" and 0 in p.fires):
        s.pending = s.pending + 1 if opts.skip_stacking else 1


def _fourteen_or_pass_on(s: SuperState, p: Play, events: list[Event] | None) -> None:
    """A 14 gives the player another turn at once; otherwise the turn passes on."""
    if 14 in p.fires:
        if events is not None:
            events.append(ExtraTurn(p.seat))
        s._begin_turn(p.seat, True, events)
    else:
        s._advance(events)


EFFECTS: tuple[tuple[str, Effect], ...] = (
    ("break_spell", _break_spell),
    ("cast_spell_13", _cast_spell),
    ("others_draw_15", _fifteen_draw),
    ("reverse_3", _three_reverse),
    ("skip", _skip),
    ("extra_turn_14", _fourteen_or_pass_on),
)
"""What a tile played does, in the order of RULES.md 2.7; the rules run them in turn."""


def _points(n: int, winners: tuple[int, ...], score: int) -> tuple[int, ...]:
    return tuple(score if s in winners else 0 for s in range(n))


SUPER_DOMINOES = SuperDominoesGame()
