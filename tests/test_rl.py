"""bonepile.rl: the action encoding and the observations, for every game."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import bonepile
from bonepile.agents.sampler import determinize
from bonepile.rl import ActionCodec, Observer, codec_for, public_fields
from bonepile.rl.encoding import EncodingError
from bonepile.view import View

pytestmark = pytest.mark.engine

# every game, with option sets and player counts that change the encoding or the rules
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {}),
    ("block", 4, {"teams": True}),
    ("block", 3, {"max_pip": 9}),
    ("block", 2, {"spinner": True}),
    ("draw", 2, {}),
    ("draw", 3, {"max_pip": 12, "draw_mode": "one"}),
    ("draw", 2, {"spinner": True, "reserve": 2}),
    ("doubles", 2, {}),
    ("doubles", 3, {"spinner_sides": 3, "round_leader": "previous_winner"}),
    ("doubles", 4, {"draw_when_unable": "until_playable"}),
    ("super_dominoes", 2, {}),
    ("super_dominoes", 4, {"doubles_branch": True, "skip_trigger": "blank"}),
    ("super_dominoes", 6, {"starter13_spell": "single_play", "double_wild_on_13": False}),
    ("double_double", 2, {}),
    ("double_double", 5, {}),
]
IDS = [f"{g}-{n}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for g, n, o in CASES]

SIZES = {"block": 324, "draw": 324, "doubles": 324, "super_dominoes": 4203}


def positions(game: str, players: int, options: dict[str, Any], hands: int, seed: int = 0):
    """States along random hands (every one, the final one included)."""
    rng = random.Random(seed)
    for k in range(hands):
        s = bonepile.new_game(game, players, options=options, seed=seed * 1000 + k)
        while True:
            yield s
            if s.is_over:
                break
            s, _ = s.step(rng.choice(s.legal_actions()))


def test_sizes_are_the_documented_ones() -> None:
    for game, size in SIZES.items():
        assert codec_for(game).size == size
    assert ActionCodec("block", {"max_pip": 9}).size == 957
    assert ActionCodec("block", {"max_pip": 12}).size == 2121
    assert ActionCodec("draw", {"max_pip": 15}).size == 3978
    assert ActionCodec("double_double").size == 420 * 49 + 29


def test_encoding_is_fixed() -> None:
    c = codec_for("block")
    assert c.encode(bonepile.parse_action("0-0")) == 0
    assert c.decode(0) == bonepile.parse_action("0-0")
    assert str(c.decode(c.size - 2)) == "draw" and str(c.decode(c.size - 1)) == "pass"
    a = bonepile.parse_action("6-4@6-6")
    assert c.decode(c.encode(a)) is a
    with pytest.raises(EncodingError):
        c.decode(c.size)
    with pytest.raises(EncodingError):
        c.encode(bonepile.parse_action("stop"))


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_every_legal_action_round_trips_and_the_mask_is_the_legal_set(
    game: str, players: int, options: dict[str, Any]
) -> None:
    hands = 2 if game in ("super_dominoes", "double_double") else 6
    first = bonepile.new_game(game, players, options=options, seed=0)
    board = getattr(first.layout, "board", None)
    codec = codec_for(game, options, board)
    obs = Observer(game, players, options, board=board)
    for s in positions(game, players, options, hands):
        legal = s.legal_actions()
        for a in legal:
            i = codec.encode(a)
            assert codec.decode(i) is a
        if s.actor is None:
            continue
        mask = obs.observe(View.of(s, s.actor))["action_mask"]
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(codec.encode(a) for a in legal)
        other = (s.actor + 1) % players
        assert not obs.observe(View.of(s, other))["action_mask"].any()


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_observations_fit_their_space_and_need_no_memory(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """The observer's incremental result equals a fresh observer's, for every seat."""
    hands = 1 if game in ("super_dominoes", "double_double") else 3
    first = bonepile.new_game(game, players, options=options, seed=0)
    board = getattr(first.layout, "board", None)
    kept = Observer(game, players, options, board=board)
    for i, s in enumerate(positions(game, players, options, hands, seed=1)):
        if not s.moves:
            kept.reset()
        for seat in range(players):
            v = View.of(s, seat)
            o = kept.observe(v)
            assert kept.space.contains(o), (seat, {k: x.dtype for k, x in o.items()})
            if i % 3 == 0 or s.is_over:
                fresh = Observer(game, players, options, board=board).observe(v)
                for k in o:
                    assert np.array_equal(o[k], fresh[k]), (k, i, seat)
        assert kept.flat(o).shape == (kept.flat_size,)
        assert kept.flat_space().contains(kept.flat(o))


def test_open_ends_match_the_layout() -> None:
    for game, players, options in CASES:
        if game == "double_double":
            continue
        obs = Observer(game, players, options)
        hands = 3 if game == "super_dominoes" else 8
        for s in positions(game, players, options, hands, seed=2):
            if not s.moves:
                obs.reset()
            seat = s.actor if s.actor is not None else 0
            o = obs.observe(View.of(s, seat))
            want = np.zeros_like(o["open_ends"])
            for e in s.layout.ends:
                want[e.at.index, e.value] += 1
            assert np.array_equal(o["open_ends"], want), (game, options, s.moves)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_observations_leak_nothing(game: str, players: int, options: dict[str, Any]) -> None:
    """Re-deal every tile the seat cannot see, consistently: the observation is the same."""
    rng = random.Random(5)
    first = bonepile.new_game(game, players, options=options, seed=0)
    board = getattr(first.layout, "board", None)
    states = [s for s in positions(game, players, options, 3, seed=3) if not s.is_over]
    for s in rng.sample(states, min(6, len(states))):
        seat = rng.randrange(players)
        v = View.of(s, seat)
        want = Observer(game, players, options, board=board).observe(v)
        for k in range(2):
            other = determinize(v, random.Random(k))
            assert other.hand(seat) == s.hand(seat)
            got = Observer(game, players, options, board=board).observe(View.of(other, seat))
            for key in want:
                assert np.array_equal(want[key], got[key]), key


def test_public_fields_name_the_vector() -> None:
    for game, players, options in CASES:
        obs = Observer(game, players, options)
        v = View.of(bonepile.new_game(game, players, options=options, seed=1), 0)
        assert obs.observe(v)["public"].shape == (len(public_fields(game)),)


def test_history_rows_are_the_last_turns() -> None:
    obs = Observer("draw", 3, history=4)
    codec = obs.codec
    for s in positions("draw", 3, {}, 1, seed=4):
        if s.is_over:
            break
        v = View.of(s, 1)
        got = obs.observe(v)["history"]
        turns = v.history[-4:]
        pad = 4 - len(turns)
        assert (got[:pad] == -1).all()
        for row, turn in zip(got[pad:], turns, strict=True):
            drawn = sum(getattr(e, "count", 0) for e in turn.events)
            assert row.tolist() == [(turn.seat - 1) % 3, codec.encode(turn.action), drawn]
