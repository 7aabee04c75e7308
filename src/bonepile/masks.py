"""Hands as bit masks: the integer helpers the rules call at every move.

A tile's index is ``hi * (hi + 1) // 2 + lo`` (see :mod:`bonepile.tiles`), so these work on
integers alone. This module is compiled with mypyc in the fast build (``tiles`` is not: its
interned :class:`~bonepile.tiles.Tile` class stays a plain Python class), and ``tiles``
re-exports its functions.
"""

from __future__ import annotations

import random
from itertools import repeat, starmap
from typing import Any, Final

_INTERPRETED: Final = __file__.endswith(".py")
"""True in the pure-Python build (compiled, this module is an extension module)."""

MAX_INDEX: Final = 190
"""One past the largest tile index of a double-18 set (the largest set bonepile supports)."""


def _pips_of_index(i: int) -> int:
    hi = 0
    while (hi + 1) * (hi + 2) // 2 <= i:
        hi += 1
    return hi + (i - hi * (hi + 1) // 2)


PIPS_BY_INDEX: Final[tuple[int, ...]] = tuple(_pips_of_index(i) for i in range(MAX_INDEX))
"""``PIPS_BY_INDEX[i]``: the pip total of the tile with index ``i``."""

_PIPS_BY_BYTE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(PIPS_BY_INDEX[8 * k + b] for b in range(8) if byte >> b & 1 and 8 * k + b < MAX_INDEX)
        for byte in range(256)
    )
    for k in range((MAX_INDEX + 7) // 8)
)

_BITS_CACHE: Final[dict[int, tuple[int, ...]]] = {}


def bits(mask: int) -> tuple[int, ...]:
    """Indices of the set bits of ``mask``, ascending (cached: masks repeat a lot in play)."""
    found = _BITS_CACHE.get(mask)
    if found is not None:
        return found
    result = tuple(set_bits(mask))
    if len(_BITS_CACHE) > 200_000:
        _BITS_CACHE.clear()
    _BITS_CACHE[mask] = result
    return result


def set_bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, ascending, computed every time: for a mask seen
    once (a fresh hand), where :func:`bits`' cache would only miss and grow."""
    out: list[int] = []
    while mask:  # one step a set bit: its lowest
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _pips16(k: int) -> bytes:
    """The pip totals of every set of the tiles ``16k .. 16k + 15``, by the set's bits: each
    step doubles the table, its top half the bottom half plus the next tile's pips (a C call a
    step; every total fits a byte for ``k < 4``)."""
    table = b"\0"
    for j in range(16):
        p = PIPS_BY_INDEX[16 * k + j]
        table += table.translate(bytes([(i + p) & 255 for i in range(256)]))
    return table


_PIPS16: Final[tuple[bytes, ...]] = tuple(_pips16(k) for k in range(4))
"""``_PIPS16[k][m]``: the pips of the tiles ``16k + i`` for the bits ``i`` of the 16-bit ``m``."""
_P0: Final = _PIPS16[0]
_P1: Final = _PIPS16[1]


def mask_pips(mask: int) -> int:
    """Total pips of the tiles in ``mask``: a table lookup per 16 bits of the mask (two for a
    double-six hand), then per byte past 64 bits."""
    if mask < 0x100000000:
        return _P0[mask & 0xFFFF] + _P1[mask >> 16]
    total = 0
    k = 0
    while mask and k < 4:
        total += _PIPS16[k][mask & 0xFFFF]
        mask >>= 16
        k += 1
    k = 8
    while mask:
        total += _PIPS_BY_BYTE[k][mask & 255]
        mask >>= 8
        k += 1
    return total


_BIG: Final = 1 << 60
"""Masks from here on are counted by ``int.bit_count`` (one compare, not a method call, tells)."""
_BIT_COUNT: Final = int.bit_count
"""Called unbound: compiled, ``mask.bit_count()`` looks the method up by name at every call."""


def count_large(mask: int) -> int:
    """How many tiles ``mask`` holds, for the masks of large sets (a double-15 hand is rarely
    under 2**60: there, one call costs less than telling the two kinds apart)."""
    return _BIT_COUNT(mask)


def _pop16() -> bytes:
    """The bit counts of every 16-bit number, by doubling: the top half of a table is its
    bottom half plus one (each step one C call: importing costs microseconds)."""
    table = b"\0"
    plus_one = bytes(range(1, 256)) + b"\0"
    for _ in range(16):
        table += table.translate(plus_one)
    return table


_POP16: Final = _pop16()
"""``_POP16[m]``: how many bits ``m`` sets, for every 16-bit ``m``."""


def count(mask: int) -> int:
    """How many tiles ``mask`` holds (table lookups for small masks, two for a double-six
    hand: in compiled code ``int.bit_count`` is a call)."""
    if mask < 0x100000000:
        return _POP16[mask & 0xFFFF] + _POP16[mask >> 16]
    if mask >= _BIG:
        return _BIT_COUNT(mask)
    n = 0
    while mask:
        n += _POP16[mask & 0xFFFF]
        mask >>= 16
    return n


BIT: Final[tuple[int, ...]] = tuple(1 << i for i in range(256))
"""``BIT[i]``: ``1 << i``."""


def shuffled(n: int, rng: random.Random) -> list[int]:
    """A seeded uniform random permutation of ``range(n)``.

    bonepile's own shuffle (each index gets a key from ``rng.random()``, then a stable sort), so
    that a seed deals the same tiles on every Python version; the sort runs in C.
    """
    if _INTERPRETED:  # the n calls made in C either way
        keys = [*starmap(rng.random, repeat((), n))]
    else:
        rand: Any = rng.random  # untyped: a typed float is unboxed and boxed again, a new object
        keys = [rand() for _ in range(n)]
    return sorted(range(n), key=keys.__getitem__)


def deal_masks(order: list[int], players: int, per_hand: int) -> list[int]:
    """The hands (as masks) of dealing ``order`` one tile at a time round-robin from seat 0,
    ``per_hand`` tiles each."""
    k = players * per_hand
    hands: list[int] = []
    if _INTERPRETED:  # fewer bytecodes a tile: a slice per hand and a table of bits
        for s in range(players):
            hand = 0
            for t in order[s:k:players]:
                hand |= BIT[t]
            hands.append(hand)
        return hands
    for s in range(players):
        hand = 0  # a machine integer while it grows: one boxed value a hand
        i = s
        while i < k:  # not a range with a variable step: that is a generic iterator
            hand |= 1 << order[i]
            i += players
        hands.append(hand)
    return hands


def with_hand(hands: tuple[int, ...], seat: int, hand: int) -> tuple[int, ...]:
    """``hands`` with ``seat``'s hand replaced by ``hand`` (two hands without a list)."""
    if len(hands) == 2:
        return (hand, hands[1]) if seat == 0 else (hands[0], hand)
    new = list(hands)
    new[seat] = hand
    return tuple(new)
