"""Super Dominoes' own random playout (``SuperState.playout``) against step-by-step play.

The playout keeps the hands per suit on local variables and plays the effects itself, so every
option that changes a play (wild doubles on 13, branching doubles, triggers, spells, skips,
extra turns, draws) is drawn here, over 2 to 8 players, from a fresh deal or partway through."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bonepile.actions import Lead
from bonepile.games import get_game
from bonepile.state import State
from bonepile.tiles import Tile
from bonepile.view import view
from playout_checks import check_same_end, step_by_step

pytestmark = pytest.mark.engine

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
    check_same_end(s, fast, slow)
    assert fast.facts == slow.facts
    assert fast.boneyard_size == slow.boneyard_size
    for seat in range(players):  # the hand sizes a view shows are counted again
        assert fast.hand(seat) == slow.hand(seat)
        assert view(fast, seat).to_json() == view(slow, seat).to_json()


def set_starter(pip: int, seed: int, opts: dict[str, Any]) -> State | None:
    """A hand of ``seed`` just after its first player set ``pip``-``pip`` as the starter (the
    opening played at random until someone may set it), or ``None`` if nobody could."""
    rng = random.Random(seed)
    s = GAME.new(rng.randint(2, 8), options={**opts, "starter_choice": "any_double"}, seed=seed)
    starter = Tile(pip, pip)
    while not s.is_over and s.facts.starter is None:
        legal = s.legal_actions()
        lead = [a for a in legal if isinstance(a, Lead) and a.tile == starter]
        s = s.apply(lead[0] if lead else rng.choice(legal))
    return s if s.facts.starter == starter and not s.is_over else None


@pytest.mark.parametrize(
    ("pip", "spell"),
    [(13, "all_arms"), (13, "single_play"), (15, "all_arms"), (14, "all_arms"), (3, "all_arms")],
)
def test_playout_after_a_special_starter(pip: int, spell: str) -> None:
    """The starters with effects (a 13-13's spell over the arms or for one play, a 15-15's
    draws, a 14-14's extra turn, a 3-3's reversal), each followed by a playout from the starter
    or a few moves later, under random options."""
    done = 0
    for seed in range(1500):
        rng = random.Random(seed)
        opts = {**random_options(rng), "starter13_spell": spell}
        s = set_starter(pip, seed, opts)
        if s is None:
            continue
        for _ in range(rng.choice((0, 0, 1, 3))):
            if not s.is_over:
                s = s.apply(rng.choice(s.legal_actions()))
        fast = s.playout(random.Random(seed))
        slow = step_by_step(s, random.Random(seed))
        check_same_end(s, fast, slow)
        assert fast.facts == slow.facts
        done += 1
        if done == 30:
            break
    assert done == 30


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
