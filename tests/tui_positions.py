"""Fixed positions of every game for the terminal app's exact-text tests."""

from __future__ import annotations

import random
from typing import Any

import bonepile
from bonepile.grid import load_board
from bonepile.match import new_match
from bonepile.tui.explain import Ending
from bonepile.tui.screen import Frame, choices_for, log_lines, play_keys
from bonepile.tui.session import Replay
from bonepile.view import view

POSITIONS = {
    "block": ("block", 2, {}, 5, 8),
    "draw": ("draw", 2, {}, 3, 14),
    "super_dominoes": ("super_dominoes", 4, {}, 3, 25),
    "doubles": ("doubles", 3, {}, 3, 20),
    "double_double": ("double_double", 2, {}, 3, 20),
    "block_spinner": ("block", 3, {"spinner": True}, 11, 10),
    # a finished Draw hand whose 15 tiles once did not all show at 80x24
    "draw_over": ("draw", 2, {}, 7, 999),
    # a finished Double Double Dominoes hand on the small board (the log beside it)
    "double_double_small_over": ("double_double", 2, {}, 3, 999),
    # a replay of a 4-player Super Dominoes hand early on (four full hands to show)
    "super_dominoes_replay": ("super_dominoes", 4, {}, 2, 3),
    # the last position of a replayed Block match (the totals, the winner)
    "block_match_replay_end": ("block", 2, {"target_score": 40}, 4, 999),
}
"""name -> (game, players, options, seed, random moves before seat 0's turn)."""
BOARDS = {"double_double_small_over": "small"}
"""The board of a position that is not played on the game's default one."""
REPLAYS = {"super_dominoes_replay", "block_match_replay_end"}
"""The positions drawn as ``bonepile replay --step`` shows them (the position after the
random moves; a match's last position when the options name a target)."""


def position(name: str) -> Any:
    """The state: seeded random moves, then on to seat 0's turn."""
    game, players, options, seed, moves = POSITIONS[name]
    board = load_board(BOARDS[name]) if name in BOARDS else None
    state = bonepile.new_game(game, players, options=options, seed=seed, board=board)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    while state.actor not in (0, None):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def replay(name: str) -> tuple[Replay, int]:
    """The replay of a position of :data:`REPLAYS` and the step it shows."""
    game, players, options, seed, _ = POSITIONS[name]
    if "target_score" in options:
        match = new_match(game, players, options=options, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            if match.needs_deal:
                match = match.next_hand()
            match = match.apply(rng.choice(match.legal_actions()))
        r = Replay(match)
        return r, len(r.steps) - 1
    state = position(name)
    step = len(state.moves)
    rng = random.Random(0)
    while not state.is_over:  # the whole hand, played on at random
        state = state.apply(rng.choice(state.legal_actions()))
    return Replay(state), step


def frame(name: str) -> Frame:
    """Seat 0's screen with its first playable tile chosen, or, once the hand is over, with
    what a game played here says then (a replay's screen for :data:`REPLAYS`)."""
    if name in REPLAYS:
        r, step = replay(name)
        return r.frame(step)
    state = position(name)
    v = view(state, 0)
    names = ("you", *("greedy" for _ in range(state.players - 1)))
    selected, choices = None, ()
    for i, t in enumerate(v.hand):
        found = choices_for(v, t)
        if found:
            selected, choices = i, found
            break
    ending = Ending(again="play again") if v.result is not None else None
    return Frame(
        v,
        names,
        title=state.game.title,
        selected=selected,
        choices=choices,
        log=tuple(log_lines(v, names)),
        keys=play_keys(v, ending.again if ending else "", len(choices)),
        ending=ending,
    )
