"""Super Dominoes' random playout on local variables (:meth:`SuperState.playout`).

A random playout is what search bots pay for at every simulation. Step by step, a Super
Dominoes turn tests every open end against a 136-bit hand (a big-integer AND and a cached
tuple of actions an end) and a move copies the hands into a new tuple. Here, once the starter
is set, the hands are a :class:`SuitHands`: per seat and suit a count of tiles and the tiles
themselves a byte at a time, so an end's number of playable tiles is a list read or two, and
every value kept is an integer Python has ready-made (a change allocates nothing). Only the
action picked is made. The effects (spells, draws, reversals, skips, extra turns) are the lines of
:mod:`bonepile.games.super_dominoes`' transition on local variables, and the state is written
back once, for the end of the hand.

The opening (setting the starter, drawing for a double) and the scoring of the end are the
state's own transition. The same random numbers give the same choices and the same final
state as step-by-step play: ``tests/test_super_dominoes_playout.py`` and the property tests
hold it to that.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, final

from bonepile.actions import DRAW as _DRAW
from bonepile.actions import PASS as _PASS
from bonepile.games.super_dominoes import (
    _HI,
    _LO,
    PLAY,
    SPELL_END,
    SPELL_STARTER,
    T13_13,
    SuperState,
)
from bonepile.rules import attach_action

DRAW: Final = _DRAW
PASS: Final = _PASS
NO_SPELL: Final = -1

PAIR: Final[tuple[int, ...]] = tuple(
    max(v, w) * (max(v, w) + 1) // 2 + min(v, w) for v in range(16) for w in range(16)
)
"""``PAIR[16 * v + w]``: the index of tile ``v-w``. For one ``v`` it rises with ``w``, so the
bits of a suit, low to high, are its tiles in index order, the order of the legal actions."""

DOUBLE_PIP: Final[tuple[int, ...]] = tuple(_HI[t] if _HI[t] == _LO[t] else -1 for t in range(136))
"""Per tile index: its pip if it is a double, else -1."""

POP8: Final[tuple[int, ...]] = tuple(bin(b).count("1") for b in range(256))
"""``POP8[b]``: the number of set bits of byte ``b``."""

BYTE_BITS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i in range(8) if b >> i & 1) for b in range(256)
)
"""``BYTE_BITS[b]``: the set bits of byte ``b``, ascending."""

SLOT_HI: Final[tuple[int, ...]] = tuple(2 * _HI[t] + (_LO[t] >> 3) for t in range(136))
"""Per tile ``hi-lo``: its byte in the suit of ``hi`` (see :class:`SuitHands`; ``BIT_HI``: its
bit there)."""
BIT_HI: Final[tuple[int, ...]] = tuple(1 << (_LO[t] & 7) for t in range(136))
SLOT_LO: Final[tuple[int, ...]] = tuple(2 * _LO[t] + (_HI[t] >> 3) for t in range(136))
"""Per tile ``hi-lo``: its byte in the suit of ``lo`` (``BIT_LO``: its bit there)."""
BIT_LO: Final[tuple[int, ...]] = tuple(1 << (_HI[t] & 7) for t in range(136))

WILD_ORDER: Final[tuple[int, ...]] = tuple(
    sorted({PAIR[16 * 13 + w] for w in range(16)} | {PAIR[17 * d] for d in range(16)})
)
"""The tiles an open 13 takes when doubles are wild on it, in index order (its legal order)."""

WORD_BITS: Final = 62
"""Bits of a hand read as one machine integer (mypyc's are 63 bits wide, signed)."""
WORD_MASK: Final = (1 << WORD_BITS) - 1


@final
class SuitHands:
    """Every seat's hand by suit, as small integers in flat lists.

    For each tile ``v-w`` the seat holds, ``tiles[32 * seat + 2 * v]`` has bit ``w`` (when
    ``w < 8``) or ``tiles[32 * seat + 2 * v + 1]`` bit ``w - 8`` (when ``w >= 8``); a tile is
    in both its suits, a double in one. ``counts[16 * seat + v]`` is how many tiles of suit
    ``v`` the seat holds, ``doubles[seat]`` how many doubles other than 13-13 (what a wild 13
    adds to its 13s), and ``sizes[seat]`` how many tiles. Lists are changed by reading and
    writing an item (compiled, ``xs[i] += 1`` is a generic operation on objects).
    """

    __slots__ = ("counts", "doubles", "sizes", "tiles")

    def __init__(self, hands: tuple[int, ...]) -> None:
        n = len(hands)
        self.tiles = [0] * (32 * n)
        self.counts = [0] * (16 * n)
        self.doubles = [0] * n
        self.sizes = [0] * n
        for seat in range(n):  # a hand read as machine words, a byte at a time
            h = hands[seat]
            off = 0
            while h:
                word: int = h & WORD_MASK
                h >>= WORD_BITS
                at = off
                while word:
                    b = word & 255
                    if b:
                        for i in BYTE_BITS[b]:
                            self.add(seat, at + i)
                    word >>= 8
                    at += 8
                off += WORD_BITS

    def add(self, seat: int, t: int) -> None:
        """``seat`` takes tile ``t``."""
        self._turn(seat, t, 1)

    def remove(self, seat: int, t: int) -> int:
        """``seat`` plays tile ``t``; return how many tiles it has left."""
        return self._turn(seat, t, -1)

    def _turn(self, seat: int, t: int, step: int) -> int:
        """Tile ``t`` enters (``step`` 1) or leaves (-1) ``seat``'s hand, which does not or
        does hold it: its bits turn over and its counts move by ``step``. Return the hand's
        size."""
        tiles = self.tiles
        counts = self.counts
        hi = _HI[t]
        lo = _LO[t]
        a = 32 * seat + SLOT_HI[t]
        tiles[a] = tiles[a] ^ BIT_HI[t]
        a = 16 * seat + hi
        counts[a] = counts[a] + step
        if hi != lo:
            a = 32 * seat + SLOT_LO[t]
            tiles[a] = tiles[a] ^ BIT_LO[t]
            a = 16 * seat + lo
            counts[a] = counts[a] + step
        elif t != T13_13:
            self.doubles[seat] = self.doubles[seat] + step
        size = self.sizes[seat] + step
        self.sizes[seat] = size
        return size

    def pick(self, seat: int, v: int, k: int) -> int:
        """The ``k``-th tile (from 0, in index order) of ``seat``'s suit ``v``."""
        a = 32 * seat + 2 * v
        low = self.tiles[a]
        c = POP8[low]
        if k < c:
            return PAIR[16 * v + BYTE_BITS[low][k]]
        return PAIR[16 * v + 8 + BYTE_BITS[self.tiles[a + 1]][k - c]]

    def pick_wild(self, seat: int, k: int) -> int:
        """The ``k``-th tile (from 0, in index order) ``seat`` may play on an open 13 when
        doubles are wild on it."""
        tiles = self.tiles
        base = 32 * seat
        for t in WILD_ORDER:
            if tiles[base + SLOT_HI[t]] & BIT_HI[t]:
                if k == 0:
                    return t
                k -= 1
        raise AssertionError("no such wild tile")

    def hand(self, seat: int) -> int:
        """``seat``'s hand as a mask over tile indices (each tile ``v-w`` read once, from the
        suit of its higher half)."""
        words = [0, 0, 0]
        base = 32 * seat
        for v in range(16):
            for half in range(2):  # a suit's bytes: bits w = 0..7, then 8..15
                b = self.tiles[base + 2 * v + half]
                for i in BYTE_BITS[b]:
                    w = 8 * half + i
                    if w > v:
                        break
                    t = PAIR[16 * v + w]
                    k = t // WORD_BITS
                    words[k] = words[k] | 1 << t % WORD_BITS
        return words[0] | words[1] << WORD_BITS | words[2] << (2 * WORD_BITS)


def play_out(s: SuperState, rng: random.Random) -> SuperState:
    """Play ``s`` (a fresh child, changed in place) to the end of the hand with uniformly
    random legal actions, as :meth:`State.playout` does; return it."""
    rand = rng.random
    while s._actor is not None and s._phase != PLAY:  # the opening: the one transition
        legal = s._compute_legal()
        action = legal[int(rand() * float(len(legal)))]
        s._moves = (s._moves, action)
        s._ply += 1
        s._do(action, None)
    if s._actor is not None:
        _play(s, rand)
    s._legal = ()
    return s


def _play(s: SuperState, rand: Callable[[], float]) -> None:
    """Play ``s``, a hand after its starter, to the end with ``rand``'s choices."""
    moves = s._moves
    ply = s._ply
    opts = s._options
    n = s._players
    hands = SuitHands(s._hands)
    counts = hands.counts
    bone = s._bone
    nbone = len(bone)
    bpos = s._bpos
    eus = [u for u, _ in s._ends]
    evs = [v for _, v in s._ends]
    placed = s._placed
    direction = s._direction
    spell = s._spell
    spell_kind = NO_SPELL
    spell_at = -1
    caster = -1
    if spell is not None:
        spell_kind, spell_at, caster = spell
    pending = s._pending
    drawn = s._drawn
    extra = s._extra
    idle = s._idle
    actor = s._actor
    assert actor is not None  # play_out calls this only for a hand not over
    starter = s._starter

    wild = opts.double_wild_on_13
    open_end = opts.effect_trigger == "open_end"
    only_if_able = opts.extra_turn_mode == "play_only_if_able"
    per_draw = opts.draw_when_unable
    skip_double = opts.skip_trigger == "double"
    skip_blank = opts.skip_trigger == "blank"
    stacking = opts.skip_stacking
    branch = opts.doubles_branch
    immune = opts.caster_immune
    lapses = opts.spell_ends_on_caster_turn and immune
    single_play = opts.starter13_spell == "single_play"
    setter_bound = opts.starter13_setter_bound
    final_draw = opts.effects_on_final_tile == "apply_then_end"

    # This turn's playable ends, each anchor once, in the order of the legal actions: anchor
    # and number of tiles. Only a double is the anchor of several open ends (the starter's
    # arms, a branching double's three), and those share one value.
    cu = [0] * 8
    cc = [0] * 8
    out = 0  # 1: the actor went out; 2: the hand is blocked
    while True:
        base = 16 * actor
        only = -1
        if spell_kind != NO_SPELL:
            if actor != caster:
                bound = True
            elif spell_kind == SPELL_END:
                bound = not immune
            else:
                bound = setter_bound
            if bound:
                only = starter if spell_kind == SPELL_STARTER else spell_at
        if len(cu) < len(eus):
            cu = cu + [0] * len(eus)
            cc = cc + [0] * len(eus)
        nd = 0
        total = 0
        seen = 0  # the double anchors met, by pip
        for i in range(len(eus)):
            u = eus[i]
            if only >= 0 and u != only:
                continue
            d = DOUBLE_PIP[u]
            if d >= 0:
                if seen >> d & 1:
                    continue
                seen |= 1 << d
            v = evs[i]
            c = counts[base + v]
            if v == 13 and wild:  # and every other double held
                c += hands.doubles[actor]
            if c:
                cu[nd] = u
                cc[nd] = c
                nd += 1
                total += c

        if total:  # a placement
            k = int(rand() * float(total))
            i = 0
            while k >= cc[i]:
                k -= cc[i]
                i += 1
            u = cu[i]
            j = 0
            while eus[j] != u:
                j += 1
            v = evs[j]
            t = hands.pick_wild(actor, k) if v == 13 and wild else hands.pick(actor, v, k)
            moves = (moves, attach_action(t, u))
            ply += 1

            eus.pop(j)
            evs.pop(j)
            hi = _HI[t]
            lo = _LO[t]
            double = hi == lo
            o = hi if double else (lo if hi == v else hi)
            eus.append(t)
            evs.append(o)
            if double and branch:
                eus.append(t)
                evs.append(o)
                eus.append(t)
                evs.append(o)
            left = hands.remove(actor, t)
            placed = (placed, t, u, v, actor)
            idle = 0
            fires = 1 << o if open_end else 1 << hi | 1 << lo

            if not left:
                if fires >> 15 & 1 and final_draw:  # the others draw, then the hand is scored
                    bpos = _others_draw(hands, actor, direction, bone, bpos)
                out = 1
                break

            if spell_kind != NO_SPELL:  # break_spell
                if spell_kind == SPELL_END:
                    if u == spell_at:
                        spell_kind = NO_SPELL
                elif single_play:
                    if u == starter:
                        spell_kind = NO_SPELL
                elif starter not in eus:  # every arm started
                    spell_kind = NO_SPELL
            if fires >> 13 & 1:  # cast_spell_13
                spell_kind = SPELL_END
                spell_at = t
                caster = actor
            if fires >> 15 & 1:  # others_draw_15
                bpos = _others_draw(hands, actor, direction, bone, bpos)
            if fires >> 3 & 1:  # reverse_3
                direction = -direction
            if (skip_double and double and t != T13_13) or (skip_blank and fires & 1):  # skip
                pending = pending + 1 if stacking else 1
            if fires >> 14 & 1:  # extra_turn_14: the actor's turn begins again
                drawn = False
                extra = True
            else:  # the turn passes on, past the skipped seats
                actor = _next_seat(actor, direction, pending, n)
                pending = 0
                drawn = False
                extra = False
            if lapses and spell_kind == SPELL_END and caster == actor:
                spell_kind = NO_SPELL
            continue

        rand()  # a draw or a pass is the only legal action, picked like any other
        if not (extra and only_if_able) and not drawn and bpos < nbone and per_draw > 0:
            moves = (moves, DRAW)
            ply += 1
            for _ in range(min(per_draw, nbone - bpos)):
                hands.add(actor, bone[bpos])
                bpos += 1
            drawn = True
            idle = 0
            continue
        moves = (moves, PASS)
        ply += 1
        if not drawn:
            idle += 1
        if (bpos >= nbone or per_draw == 0) and idle >= n:
            out = 2
            break
        actor = _next_seat(actor, direction, pending, n)
        pending = 0
        drawn = False
        extra = False
        if lapses and spell_kind == SPELL_END and caster == actor:
            spell_kind = NO_SPELL

    s._hands = tuple([hands.hand(seat) for seat in range(n)])
    s._sized = None  # the hands' sizes are counted again when asked
    s._bpos = bpos
    s._ends = tuple([(eus[i], evs[i]) for i in range(len(eus))])
    s._placed = placed
    s._direction = direction
    s._spell = None if spell_kind == NO_SPELL else (spell_kind, spell_at, caster)
    s._pending = pending
    s._drawn = drawn
    s._extra = extra
    s._idle = idle
    s._actor = actor
    s._moves = moves
    s._ply = ply
    if out == 1:
        s._finish_domino(actor, None)
    else:
        s._finish_blocked(None)


def _next_seat(seat: int, direction: int, skipped: int, n: int) -> int:
    """The seat whose turn is next after ``seat``'s, past ``skipped`` seats (not a product
    with ``direction``: compiled, a negative factor takes the slow, big-integer path)."""
    if direction > 0:
        return (seat + 1 + skipped) % n
    return (seat - 1 - skipped) % n


def _others_draw(
    hands: SuitHands, mover: int, direction: int, bone: tuple[int, ...], bpos: int
) -> int:
    """A 15: every other seat draws one tile in turn order while the boneyard lasts; return
    the boneyard's new position."""
    n = len(hands.sizes)
    seat = mover
    for _ in range(n - 1):
        seat = (seat + direction) % n
        if bpos >= len(bone):
            break
        hands.add(seat, bone[bpos])
        bpos += 1
    return bpos
