"""Rules helpers every game shares: points, the winner of a blocked hand, draw or pass.

Plain functions over the rules' compact values (hands as bit masks over tile indices), so each
game states its own rules by calling them, and a new game can use them too. Ending a hand is
:meth:`State._end_hand <bonepile.state.State>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bonepile.actions import DRAW, LEAD_BY_INDEX, PASS, Action, Attach
from bonepile.masks import MAX_INDEX, bits, mask_pips
from bonepile.tiles import TILES as _TILES
from bonepile.tiles import Tile

TILES: Final[tuple[Tile, ...]] = _TILES
"""Every tile by index (a compiled constant: an imported name is a lookup at every use)."""

DRAW_ONLY: Final[tuple[Action, ...]] = (DRAW,)
"""The legal actions of a player who must draw."""
PASS_ONLY: Final[tuple[Action, ...]] = (PASS,)
"""The legal actions of a player who can do nothing but pass."""


def _leads_by_byte(k: int) -> tuple[tuple[Action, ...], ...]:
    """The table of byte ``k``: its 256 values' leads (see ``_LEADS_BY_BYTE``)."""
    return tuple(
        tuple([LEAD_BY_INDEX[8 * k + i] for i in range(8) if m >> i & 1 and 8 * k + i < MAX_INDEX])
        for m in range(256)
    )


_L0: Final = _leads_by_byte(0)
_L1: Final = _leads_by_byte(1)
_L2: Final = _leads_by_byte(2)
_L3: Final = _leads_by_byte(3)
_LEADS_BY_BYTE: Final[list[tuple[tuple[Action, ...], ...] | None]] = [_L0, _L1, _L2, _L3] + [
    None
] * ((MAX_INDEX + 7) // 8 - 4)
"""``_LEADS_BY_BYTE[k][b]``: the leads of the tiles ``8k + i`` for the bits ``i`` of byte ``b``
(made for the first 32 tiles, the others when first needed)."""


def leads_of(hand: int) -> tuple[Action, ...]:
    """The leads of the tiles in ``hand`` (a mask), tile indices ascending.

    A byte of the hand at a time from a table: a fresh hand is rarely seen twice, so nothing
    is kept per hand, and the tiles are not listed one by one."""
    if hand < 0x100000000:  # a double-six hand: four bytes, written out
        return _L0[hand & 255] + _L1[hand >> 8 & 255] + _L2[hand >> 16 & 255] + _L3[hand >> 24]
    out: tuple[Action, ...] = ()
    k = 0
    while hand:
        b = hand & 255
        if b:
            table = _LEADS_BY_BYTE[k]
            if table is None:
                table = _LEADS_BY_BYTE[k] = _leads_by_byte(k)
            out += table[b]
        hand >>= 8
        k += 1
    return out


ATTACH_SETS: Final[list[dict[int, tuple[Action, ...]]]] = [{} for _ in range(MAX_INDEX)]
"""Per anchor tile: its attach sets by mask (keyed by the mask itself, which a hand of a big set
holds as a Python integer anyway: a key made of both would be a new integer a call)."""
_CACHED: Final[list[int]] = [0]
"""How many attach sets are kept, over every anchor (all are dropped past a bound)."""
_ATTACHES: Final[list[Action | None]] = [None] * (MAX_INDEX * MAX_INDEX)
"""Every attach made, at ``t * MAX_INDEX + u`` for tile ``t`` and anchor ``u`` (the action class
interns them as well, but a call into it costs more than this read)."""


def attach_action(t: int, u: int) -> Action:
    """The attach of tile index ``t`` to the open end on layout tile ``u`` (interned)."""
    key = t * MAX_INDEX + u
    a = _ATTACHES[key]
    if a is None:
        a = _ATTACHES[key] = Attach(TILES[t], TILES[u])
    return a


def attach_set(u: int, m: int) -> tuple[Action, ...]:
    """The attaches of the tiles in mask ``m`` to the open end on layout tile ``u``, tiles
    ascending (cached: a game meets the same few again and again)."""
    by_mask = ATTACH_SETS[u]
    acts = by_mask.get(m)
    if acts is None:
        if _CACHED[0] > 500_000:
            for kept in ATTACH_SETS:
                kept.clear()
            _CACHED[0] = 0
        acts = by_mask[m] = tuple([attach_action(t, u) for t in bits(m)])
        _CACHED[0] += 1
    return acts


def points(players: int, winners: Sequence[int], score: int) -> tuple[int, ...]:
    """Points per seat: ``score`` to each winner, 0 to everyone else."""
    if players == 2 and len(winners) == 1:  # the usual hand: no list to fill
        return (score, 0) if winners[0] == 0 else (0, score)
    scored = [0] * players
    for w in winners:
        scored[w] = score
    return tuple(scored)


def pips_of(hands: Sequence[int]) -> list[int]:
    """The pip total of every hand."""
    return [mask_pips(h) for h in hands]


def lightest_tile(hand: int) -> tuple[int, int]:
    """The rank of the lightest tile of a hand (pips, then high half)."""
    return min(TILES[t].rank_key() for t in bits(hand))


def blocked_winner(
    hands: Sequence[int],
    lightest_tile_wins: bool,
    partners: bool = False,
    pips: list[int] | None = None,
) -> int | None:
    """The seat whose hand wins a blocked hand: the lowest pip total; a tie goes to the holder
    of the lightest tile when ``lightest_tile_wins``, else nobody wins (``None``). With
    ``partners`` (four seats, 0+2 against 1+3) a tie between partners is no tie: the first of
    them stands for the team. ``pips``: the hands' pip totals, when the caller has them."""
    if pips is None:
        pips = pips_of(hands)
    if len(pips) == 2:  # the usual table: compared directly (min and count are calls)
        a = pips[0]
        b = pips[1]
        if a != b:
            return 0 if a < b else 1
    low = min(pips)
    if pips.count(low) == 1:  # the usual end: one lightest hand
        return pips.index(low)
    tied = [s for s in range(len(hands)) if pips[s] == low]
    if partners and len({s % 2 for s in tied}) == 1:
        tied = tied[:1]
    if len(tied) > 1 and lightest_tile_wins:
        tied = [min(tied, key=lambda s: lightest_tile(hands[s]))]
    return tied[0] if len(tied) == 1 else None


def draw_or_pass(may_draw: bool, drawn: bool, until_playable: bool) -> tuple[Action, ...]:
    """What a player who cannot place does: draw while the boneyard allows it (``may_draw``)
    and it has not drawn this turn, or keeps drawing (``until_playable``); else pass."""
    if may_draw and (not drawn or until_playable):
        return DRAW_ONLY
    return PASS_ONLY
