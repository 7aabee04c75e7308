"""A hostile bot that inverts SplitMix64 on the ``seed`` it is given, hoping that its seed was
mixed from the deal's seed (as bonepile once did: ``derive_seed(deal_seed ^ salt, index)``),
then deals every candidate and keeps those that give it its own hand (see ``_learn.py``).

Its argument names the report file."""

import sys
from typing import Any

from _learn import Deal, hand_of, play

from bonepile.games import get_game

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
STEP = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
SALTS = (0, 0xA6E47, 0x5EA70FA6E475EED)  # salts bonepile's agent seeds were once mixed with


def unxorshift(y: int, shift: int) -> int:
    """The ``z`` with ``z ^ (z >> shift) == y`` (64-bit)."""
    z = y
    for _ in range(64 // shift + 1):
        z = y ^ (z >> shift)
    return z & MASK


def unmix(out: int, index: int) -> list[int]:
    """Every seed ``s`` with ``derive_seed(s, index) == out`` (bonepile's old SplitMix64 mix)."""
    found = []
    for low in (0, 1):  # the mix drops its lowest bit
        z = (out << 1) | low
        z = unxorshift(z, 31)
        z = (z * pow(MIX2, -1, 1 << 64)) & MASK
        z = unxorshift(z, 27)
        z = (z * pow(STEP, -1, 1 << 64)) & MASK
        z = unxorshift(z, 30)
        found.append(((z - (index + 1) * STEP) * pow(GOLDEN, -1, 1 << 64)) & MASK)
    return found


def guess(start: dict[str, Any], view: dict[str, Any]) -> tuple[int, list[Deal]]:
    game = get_game(start["game"])
    options = game.make_options(start["options"])
    players, seat, seed = start["players"], start["seat"], start["seed"]
    candidates = {seed}
    for index in {seat, *(64 * seat + a for a in range(8))}:
        for base in unmix(seed, index):
            candidates.update(base ^ salt for salt in SALTS)
    mine = hand_of(view["hand"])
    tried, deals = 0, []
    for deal_seed in sorted(c for c in candidates if c < 1 << 63):
        tried += 1
        state = game.new(players, options=options, seed=deal_seed)
        if hand_of(state.hand(seat)) == mine:
            deals.append([hand_of(state.hand(s)) for s in range(players)])
    return tried, deals


if __name__ == "__main__":
    play(sys.argv[1], guess)
