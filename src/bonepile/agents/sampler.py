"""Determinization: full positions consistent with everything one seat has seen.

A search agent must not look at hidden tiles, so it plays in sampled worlds instead: deals of
the unknown tiles under which the public history (every action, every draw count, the tiles the
viewer drew) replays exactly as it happened. :class:`Sampler` builds such deals.

How. The deal is a set of *slots*: each seat's dealt tiles, and every boneyard position, which
the history says who drew and when. The viewer's own slots hold the tiles it knows; a tile
another seat played must sit in one of that seat's slots that it held before the play; the
other slots take the remaining tiles at random. The candidate is then replayed action by action
through the rules (:func:`bonepile.state.apply`), and accepted only if every action is legal.
When a pass, a draw or a discard turns out illegal because the candidate gave the seat a tile it
could have placed, that is a fact about the real game (the public position then is the same in
every world): the seat did not hold those tiles at that moment. The sampler keeps such facts
(the suits a player has shown it lacks, a spell it could not break, ...) and deals only
candidates that respect them, so it converges quickly even late in a hand.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bonepile.actions import Action, Attach, Discard, Lead, Place
from bonepile.errors import BonepileError, SamplingError
from bonepile.events import Drew
from bonepile.games import Game, get_game
from bonepile.grid import BoardLayout
from bonepile.state import State
from bonepile.tiles import Tile
from bonepile.view import View

INF = math.inf


class _Slot:
    """A place a tile sat in the deal: a seat's dealt hand, or a boneyard position.

    A plain class rather than a dataclass: compiled, a dataclass is built through the
    ``__init__`` the dataclasses module writes at import (an interpreted call and a dict of
    keywords a slot; a sampled world makes one a tile). Slots compare field by field, as a
    dataclass's do (``in`` and ``remove`` on lists of slots rely on it)."""

    __slots__ = ("bone", "fixed", "seat", "start", "tile", "until")

    def __init__(
        self,
        seat: int,
        start: float,
        bone: int,
        until: float = INF,
        tile: Tile | None = None,
        fixed: bool = False,
    ) -> None:
        self.seat = seat  # who held it (-1: still in the boneyard)
        self.start = start  # when it reached the hand (-1: dealt, or drawn before the first
        # decision)
        self.bone = bone  # boneyard position, or -1 for a dealt slot
        self.until = until  # when it left the hand (a play or a discard)
        self.tile = tile
        self.fixed = fixed  # the viewer knows this tile

    def _fields(self) -> tuple[int, float, int, float, Tile | None, bool]:
        return (self.seat, self.start, self.bone, self.until, self.tile, self.fixed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Slot) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __repr__(self) -> str:
        return "_Slot(seat={}, start={}, bone={}, until={}, tile={}, fixed={})".format(
            *self._fields()
        )


@dataclass
class _Facts:
    """What the history tells about the deal, worked out once per view."""

    seat_slots: list[list[int]] = field(default_factory=list)
    slots: list[_Slot] = field(default_factory=list)
    plays: list[tuple[int, Tile, int]] = field(default_factory=list)  # (seat, tile, t)
    hidden_discards: list[tuple[int, int]] = field(default_factory=list)  # (seat, t)
    pool: list[Tile] = field(default_factory=list)  # tiles nobody knows the place of


def _is_placement(a: Action) -> bool:
    return isinstance(a, Lead | Attach | Place)


def _tile_of(a: Action) -> Tile | None:
    """The tile a placement or a (visible) discard takes from the hand."""
    if isinstance(a, Lead | Attach | Place | Discard):
        return a.tile
    return None


class Sampler:
    """Samples full positions consistent with ``view`` (see the module docstring).

    Facts learned while sampling are kept, so one sampler should serve all the samples of one
    decision. ``sample(rng)`` returns a :class:`State` at the viewed position.
    """

    def __init__(
        self,
        view: View,
        max_tries: int = 400,
        model: Callable[[State[Any], Action], float] | None = None,
    ) -> None:
        self.view = view
        self.model = model
        self.loglik = 0.0
        """The log-likelihood of the others' moves in the last sampled world under ``model``
        (``model(state, action)``: the log-probability that the actor of ``state``, a full
        position of a candidate world, plays ``action``; 0 without a model)."""
        self.game: Game[Any] = get_game(view.game)
        self.max_tries = max_tries
        self.forbidden: list[list[tuple[float, frozenset[Tile]]]] = [
            [] for _ in range(view.players)
        ]
        self.facts = self._analyse()
        self._opening_facts()
        self.attempts = 0
        self.accepted = 0

    # ----------------------------------------------------------------- the history
    def _analyse(self) -> _Facts:
        v = self.view
        game, opts, n = self.game, v.options, v.players
        size = game.hand_size(n, opts)
        deck = list(game.deck(n, opts))
        facts = _Facts()
        for s in range(n):
            facts.seat_slots.append([])
            for _ in range(size):
                facts.seat_slots[s].append(len(facts.slots))
                facts.slots.append(_Slot(s, -1.0, -1))
        first_bone = len(deck) - n * size
        drawn_in_history = sum(
            e.count for turn in v.history for e in turn.events if isinstance(e, Drew)
        )
        auto = first_bone - v.boneyard_size - drawn_in_history
        bone_slots: list[int] = []
        first = v.public.first_player
        for p in range(first_bone):
            bone_slots.append(len(facts.slots))
            owner = first if p < auto else -1
            facts.slots.append(_Slot(owner, -1.0, p))
            if owner >= 0:
                facts.seat_slots[owner].append(bone_slots[-1])
        pos = max(auto, 0)
        viewer = v.seat
        own_drawn: list[Tile] = []
        own_plays: list[Tile] = []
        for t, turn in enumerate(v.history):
            a = turn.action
            if isinstance(a, Lead | Attach | Place):
                tile = a.tile
                if turn.seat == viewer:
                    own_plays.append(tile)
                else:
                    facts.plays.append((turn.seat, tile, t))
            elif isinstance(a, Discard):
                if turn.seat == viewer and a.tile is not None:
                    own_plays.append(a.tile)
                elif a.tile is not None:
                    facts.plays.append((turn.seat, a.tile, t))
                else:
                    facts.hidden_discards.append((turn.seat, t))
            for e in turn.events:
                if isinstance(e, Drew):
                    for k in range(e.count):
                        slot = facts.slots[bone_slots[pos]]
                        slot.seat = e.seat
                        slot.start = t + 0.5
                        facts.seat_slots[e.seat].append(bone_slots[pos])
                        if e.seat == viewer and e.tiles is not None:
                            slot.tile = e.tiles[k]
                            slot.fixed = True
                            own_drawn.append(e.tiles[k])
                        pos += 1
        known = Counter(deck)
        if viewer is not None:
            initial = Counter(v.hand) + Counter(own_plays) - Counter(own_drawn)
            fixed_slots = [i for i in facts.seat_slots[viewer] if facts.slots[i].start < 0]
            tiles = sorted(initial.elements(), key=lambda t: t.index)
            if len(tiles) != len(fixed_slots):
                raise SamplingError(
                    f"the view's history does not add up: P{viewer} started with "
                    f"{len(tiles)} known tiles for {len(fixed_slots)} places"
                )
            for i, tile in zip(fixed_slots, tiles, strict=True):
                facts.slots[i].tile = tile
                facts.slots[i].fixed = True
            known -= Counter(tiles)
            known -= Counter(own_drawn)
        known -= Counter(t for _, t, _ in facts.plays)
        facts.pool = sorted(known.elements(), key=lambda t: t.index)
        return facts

    def _opening_facts(self) -> None:
        """What a forced lead says about the deal (a lead by the highest-double rule)."""
        v = self.view
        if not v.history or v.leader is not None:
            return
        lead = v.history[0].action
        if not isinstance(lead, Lead):
            return
        if not self.game.lead_is_highest(v.options):
            return
        t = lead.tile
        deck = set(self.game.deck(v.players, v.options))
        if t.is_double:
            higher = frozenset(d for d in deck if d.is_double and d.hi > t.hi)
        else:  # nobody held a double, nor a heavier tile
            higher = frozenset(d for d in deck if d.is_double or d.rank_key() > t.rank_key())
        for s in range(v.players):
            self.forbidden[s].append((0.0, higher))

    # ----------------------------------------------------------------- sampling
    def _allowed(self, slot: _Slot, tile: Tile, until: float) -> bool:
        return _none_holds(self._lacks(slot, until), tile)

    def _deal(self, rng: random.Random) -> list[_Slot] | None:
        """One random assignment of tiles to slots honouring the known facts, or ``None``."""
        facts = self.facts
        slots = [_Slot(s.seat, s.start, s.bone, INF, s.tile, s.fixed) for s in facts.slots]
        used = {i for i, s in enumerate(slots) if s.fixed}
        # the viewer's own plays leave its fixed slots (the order among equal tiles is free)
        viewer = self.view.seat
        if viewer is not None:
            for t, turn in enumerate(self.view.history):
                if turn.seat != viewer:
                    continue
                tile = _tile_of(turn.action)
                if tile is None:
                    continue
                for i in facts.seat_slots[viewer]:
                    s = slots[i]
                    if s.tile is tile and s.until == INF and s.start < t:
                        s.until = float(t)
                        break
        for seat, tile, t in facts.plays:
            options = [
                i
                for i in facts.seat_slots[seat]
                if i not in used and slots[i].start < t and self._allowed(slots[i], tile, t)
            ]
            if not options:
                return None
            i = _choice(rng, options)
            used.add(i)
            slots[i].tile = tile
            slots[i].until = float(t)
        discard_slots = []
        for seat, t in facts.hidden_discards:
            options = [i for i in facts.seat_slots[seat] if i not in used and slots[i].start < t]
            if not options:
                return None
            i = _choice(rng, options)
            used.add(i)
            slots[i].until = float(t)
            discard_slots.append(i)
        free = [i for i in range(len(slots)) if i not in used or i in discard_slots]
        free = [i for i in free if slots[i].tile is None]
        pool = list(facts.pool)
        if len(pool) != len(free):
            raise SamplingError(f"{len(pool)} unknown tiles for {len(free)} places")
        _shuffle(rng, free)
        # the most constrained places first
        free.sort(key=lambda i: -self._pressure(slots[i]))
        for i in free:
            s = slots[i]
            lacks = self._lacks(s, s.until)
            if not lacks:  # every tile left: the same draw from rng as a list of them all
                if not pool:
                    return None
                k = _below(rng, len(pool))
            else:
                choices = [k for k, tile in enumerate(pool) if _none_holds(lacks, tile)]
                if not choices:
                    return None
                k = _choice(rng, choices)
            s.tile = pool.pop(k)
        return slots

    def _lacks(self, slot: _Slot, until: float) -> list[frozenset[Tile]]:
        """The sets of tiles the slot's seat showed it lacked while the slot was in its hand,
        from when it came there until ``until`` (a tile in none of them may fill it)."""
        if slot.seat < 0:
            return []
        start = slot.start
        return [tiles for t, tiles in self.forbidden[slot.seat] if start < t < until]

    def _first_key(self) -> Any:
        """How the deal picks the first player, when it does: the tile that decides it."""
        v = self.view
        if v.leader is not None or self.game.first_player_by_lot(v.options):
            return None
        return self.game.first_player_key(v.options)

    def _repair_first(self, slots: list[_Slot], rng: random.Random) -> None:
        """Move tiles so that the deal makes the real first player first, where the deal
        decides it (the highest or lowest tile in hand).

        Random filling rarely meets that fact on its own; the replay still checks everything
        afterwards, so a repair that breaks another fact only costs a retry.
        """
        key = self._first_key()
        first = self.view.public.first_player
        if key is None or first is None:
            return
        dealt = [s for s in slots if s.bone < 0]
        movable = [s for s in slots if not s.fixed and s.until == INF]
        for _ in range(6):
            mine = [s for s in dealt if s.seat == first]
            top = max(key(s.tile) for s in mine)
            offenders = [
                s
                for s in dealt
                if s.seat != first
                and (key(s.tile) > top or (key(s.tile) == top and s.seat < first))
            ]
            if not offenders:
                return
            worst = max(offenders, key=lambda s: key(s.tile))
            if worst.fixed:
                # the viewer's tile: the first player must hold a better one
                free_mine = [s for s in mine if s in movable]
                better = [
                    s for s in movable if s not in free_mine and key(_tile(s)) > key(_tile(worst))
                ]
                pairs = [
                    (a, b)
                    for a in free_mine
                    for b in better
                    if self._allowed(a, _tile(b), INF) and self._allowed(b, _tile(a), INF)
                ]
                if not pairs:
                    return
                a, b = _choice(rng, pairs)
                a.tile, b.tile = b.tile, a.tile
                continue
            if worst not in movable:
                # a tile its seat plays later: it may have come from a draw instead
                alts = [
                    s
                    for s in movable
                    if s.seat == worst.seat
                    and s.bone >= 0
                    and s.start < worst.until
                    and self._allowed(s, _tile(worst), worst.until)
                    and self._allowed(worst, _tile(s), INF)
                ]
                if not alts:
                    return
                alt = _choice(rng, alts)
                alt.tile, worst.tile = worst.tile, alt.tile
                alt.until, worst.until = worst.until, INF
                movable.remove(alt)
                movable.append(worst)
                continue

            def fits(target: _Slot, w: _Slot = worst) -> bool:
                return self._allowed(target, _tile(w), INF) and self._allowed(w, _tile(target), INF)

            free_mine = [s for s in mine if s in movable and fits(s)]
            if free_mine:
                target = _choice(rng, free_mine)
            else:
                lower = [
                    s
                    for s in movable
                    if s.bone >= 0 and s.seat != first and key(s.tile) < top and fits(s)
                ]
                if not lower:
                    return
                target = _choice(rng, lower)
            target.tile, worst.tile = worst.tile, target.tile

    def _pressure(self, slot: _Slot) -> int:
        return sum(len(tiles) for tiles in self._lacks(slot, slot.until))

    def sample(self, rng: random.Random) -> State[Any]:
        """A full position consistent with the view; :class:`SamplingError` if none is found."""
        for _ in range(self.max_tries):
            self.attempts += 1
            slots = self._deal(rng)
            if slots is None:
                continue
            self._repair_first(slots, rng)
            state = self._replay(slots)
            if state is not None:
                self.accepted += 1
                return state
        raise SamplingError(
            f"no deal consistent with P{self.view.seat}'s view found in {self.max_tries} tries"
        )

    def _replay(self, slots: list[_Slot]) -> State[Any] | None:
        v = self.view
        n = v.players
        hands: list[list[Tile]] = [[] for _ in range(n)]
        bone: list[Tile | None] = [None] * sum(1 for s in slots if s.bone >= 0)
        discard_tile: dict[int, Tile] = {}
        for s in slots:
            assert s.tile is not None
            if s.bone < 0:
                hands[s.seat].append(s.tile)
            else:
                bone[s.bone] = s.tile
        for seat, t in self.facts.hidden_discards:
            for s in slots:
                if s.seat == seat and s.until == t and s.tile is not None:
                    discard_tile[t] = s.tile
                    break
        board: Any = v.layout.board if isinstance(v.layout, BoardLayout) else None
        try:
            state = self.game.new(
                n,
                options=v.options,
                deal=(hands, [b for b in bone if b is not None]),
                scores_before=v.scores_before,
                leader=v.leader,
                board=board,
            )
            first = v.public.first_player
            if (
                first is not None
                and state.first_player != first
                and v.leader is None
                and self.game.first_player_by_lot(v.options)
            ):
                # a first player drawn by lot: an explicit deal cannot know it
                state = self.game.new(
                    n,
                    options=v.options,
                    deal=(hands, [b for b in bone if b is not None]),
                    scores_before=v.scores_before,
                    board=board,
                    first_player=first,
                )
        except BonepileError:
            return None
        model = self.model
        viewer = v.seat
        loglik = 0.0
        for t, turn in enumerate(v.history):
            action = turn.action
            if isinstance(action, Discard) and action.tile is None:
                action = Discard(discard_tile[t])
            if model is not None and turn.seat != viewer and state.actor == turn.seat:
                loglik += model(state, action)
            if state.actor != turn.seat:
                if t > 0 and state.actor == v.history[t - 1].seat:
                    # the candidate's mover may go on (a double chain); the real one could not
                    self._learn_at(state, t - 0.75)
                return None
            try:
                state = state.apply(action)
            except BonepileError:
                self._learn(state, action, t)
                return None
        if (
            state.actor != v.actor
            or state.boneyard_size != v.boneyard_size
            or tuple(state.hand_size(s) for s in range(n)) != v.hand_sizes
            or (v.seat is not None and state.hand(v.seat) != v.hand)
        ):
            return None
        self.loglik = loglik
        return state

    def _learn(self, state: State[Any], action: Action, t: int) -> None:
        """A pass, draw or discard was illegal here: the actor held none of its placeable tiles."""
        if not _is_placement(action):
            self._learn_at(state, float(t))

    def _learn_at(self, state: State[Any], t: float) -> None:
        """The actor of ``state`` held, at time ``t``, none of the tiles it could place."""
        placeable = state.placeable_tiles()
        seat = state.actor
        if placeable and seat is not None:
            self.forbidden[seat].append((t, placeable))


def _tile(slot: _Slot) -> Tile:
    assert slot.tile is not None
    return slot.tile


def determinize(view: View, rng: random.Random, max_tries: int = 400) -> State[Any]:
    """One full position consistent with ``view`` (see :class:`Sampler`)."""
    return Sampler(view, max_tries).sample(rng)


def _below(rng: random.Random, n: int) -> int:
    """A random integer ``0 <= r < n`` (``n > 0``), drawn as :class:`random.Random`'s ``choice``
    and ``shuffle`` draw it (the bits of ``n``, again while too big), so a seed samples the same
    worlds on both builds; compiled, without the interpreted calls of ``random``'s methods. Any
    other generator class draws through its own ``randrange``."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


T = TypeVar("T")


def _choice(rng: random.Random, seq: list[T]) -> T:
    """``rng.choice(seq)`` (see :func:`_below`)."""
    if not seq:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[_below(rng, len(seq))]


def _shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: Fisher-Yates from the end (see :func:`_below`)."""
    for i in range(len(items) - 1, 0, -1):
        j = _below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def _none_holds(sets: list[frozenset[Tile]], tile: Tile) -> bool:
    """True if no set of ``sets`` holds ``tile``."""
    return all(tile not in tiles for tiles in sets)


__all__ = ["Sampler", "SamplingError", "determinize"]
