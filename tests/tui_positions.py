"""Fixed positions of every game for the terminal app's exact-text tests."""

from __future__ import annotations

import random
from typing import Any

import bonepile
from bonepile.tui.screen import Frame, choices_for, log_lines
from bonepile.view import view

POSITIONS = {
    "block": ("block", 2, {}, 5, 8),
    "draw": ("draw", 2, {}, 3, 14),
    "super_dominoes": ("super_dominoes", 4, {}, 3, 25),
    "doubles": ("doubles", 3, {}, 3, 20),
    "double_double": ("double_double", 2, {}, 3, 20),
    "block_spinner": ("block", 3, {"spinner": True}, 11, 10),
}
"""name -> (game, players, options, seed, random moves before seat 0's turn)."""

KEYS = "1-9 tile  a,b… place  Enter play  d draw  p pass  h hint  : type  q quit"


def position(name: str) -> Any:
    """The state: seeded random moves, then on to seat 0's turn."""
    game, players, options, seed, moves = POSITIONS[name]
    state = bonepile.new_game(game, players, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    while state.actor not in (0, None):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def frame(name: str) -> Frame:
    """Seat 0's screen with its first playable tile chosen."""
    state = position(name)
    v = view(state, 0)
    names = ("you", *("greedy" for _ in range(state.players - 1)))
    selected, choices = None, ()
    for i, t in enumerate(v.hand):
        found = choices_for(v, t)
        if found:
            selected, choices = i, found
            break
    return Frame(
        v,
        names,
        title=state.game.title,
        selected=selected,
        choices=choices,
        log=tuple(log_lines(v, names)),
        keys=KEYS,
    )
