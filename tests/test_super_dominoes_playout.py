"""Super Dominoes' own random playout (``SuperState.playout``) against step-by-step play.

The playout keeps the hands per suit on local variables and plays the effects itself, so every
option that changes a play (wild doubles on 13, branching doubles, triggers, spells, skips,
extra turns, draws) is drawn here, over 2 to 8 players, from a fresh deal or partway through."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bonepile.games import get_game
from bonepile.record import record_of
from bonepile.state import State
from bonepile.view import view

GAME = get_game("super_dominoes")


def random_options(rng: random.Random) -> dict[str, Any]:
    """Each option of the game, set to a random value or left at its default."""
    opts: dict[str, Any] = {}
    for spec in GAME.option_specs():
        if rng.random() < 0.5:
            continue
        if spec.kind == "choice":
            opts[spec.name] = rng.choice(spec.choices)
        elif spec.kind == "bool":
            opts[spec.name] = rng.random() < 0.5
        elif spec.name == "draw_when_unable":
            opts[spec.name] = rng.choice((0, 1, 2, 3))
    return opts


def step_by_step(s: State, rng: random.Random) -> State:
    """The definition of a random playout: ``legal[int(rng.random() * len(legal))]`` applied
    until the hand is over."""
    while not s.is_over:
        legal = s.legal_actions()
        s = s.apply(legal[int(rng.random() * len(legal))])
    return s


@pytest.mark.parametrize("seed", range(160))
def test_playout_equals_step_by_step_play(seed: int) -> None:
    rng = random.Random(seed)
    opts = random_options(rng) if seed % 4 else {}
    players = rng.randint(2, 8)
    s = GAME.new(players, options=opts, seed=seed)
    for _ in range(rng.choice((0, 0, 3, 12, 30))):  # from the deal, the opening or mid-hand
        if s.is_over:
            break
        s = s.apply(rng.choice(s.legal_actions()))
    before = (s.summary(), s.key(), s.moves)
    fast = s.playout(random.Random(seed + 1))
    slow = step_by_step(s, random.Random(seed + 1))
    assert (s.summary(), s.key(), s.moves) == before  # the start is not changed
    assert fast == slow
    assert fast.moves == slow.moves
    assert fast.result == slow.result
    assert fast.summary() == slow.summary()
    assert fast.layout == slow.layout
    assert fast.facts == slow.facts
    assert fast.legal_actions() == ()
    assert record_of(fast) == record_of(slow)
    assert fast.boneyard_size == slow.boneyard_size
    for seat in range(players):  # the hand sizes a view shows are counted again
        assert fast.hand(seat) == slow.hand(seat)
        assert view(fast, seat).to_json() == view(slow, seat).to_json()


def test_playouts_reach_the_effects() -> None:
    """The comparison above means something only if the playouts play the effects: over these
    hands every effect happens, and both ends of a hand (going out, a block)."""
    seen: set[str] = set()
    for seed in range(60):
        rng = random.Random(seed)
        s = GAME.new(4, options=random_options(rng), seed=seed).playout(random.Random(seed))
        assert s.result is not None
        seen.add(s.result.reason)
        for _, _, events in s.replay():
            seen.update(type(e).__name__ for e in events)
    assert {"domino", "blocked"} <= seen
    assert {"SpellCast", "SpellEnded", "Reversed", "Skipped", "ExtraTurn", "Drew"} <= seen
