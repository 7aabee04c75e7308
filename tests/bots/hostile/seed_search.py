"""A hostile bot that searches the small run seeds (0 to 10,000) for deals that give it its own
hand, deriving deal seeds every way bonepile has (the run seed itself for ``watch``, the seed
of an arena's first deal, old and new); see ``_learn.py`` for what it reports.

Its argument names the report file."""

import sys
from collections.abc import Callable
from typing import Any

from _learn import Deal, hand_of, play

from bonepile.games import get_game

LAST = 10_000


def derivations() -> list[Callable[[int], int]]:
    """Ways a run seed becomes a deal seed, as far as this bonepile has them."""
    ways: list[Callable[[int], int]] = [lambda s: s]
    try:
        from bonepile.match import derive_seed

        ways.append(lambda s: derive_seed(s, 0))
    except ImportError:
        pass
    try:
        from bonepile.arena.play import deal_seed_of

        ways.append(lambda s: deal_seed_of(s, 0))
    except ImportError:
        pass
    return ways


def guess(start: dict[str, Any], view: dict[str, Any]) -> tuple[int, list[Deal]]:
    game = get_game(start["game"])
    options = game.make_options(start["options"])
    players, seat = start["players"], start["seat"]
    mine = hand_of(view["hand"])
    ways = derivations()
    tried, deals = 0, []
    for run_seed in range(LAST + 1):
        for way in ways:
            tried += 1
            state = game.new(players, options=options, seed=way(run_seed))
            if hand_of(state.hand(seat)) == mine:
                deals.append([hand_of(state.hand(s)) for s in range(players)])
    return tried, deals


if __name__ == "__main__":
    play(sys.argv[1], guess)
