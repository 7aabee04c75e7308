"""bonepile.rl environments: PettingZoo's API and seed tests, Gymnasium's checker, stepping."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import bonepile.rl as rl
from bonepile.rl.observation import Observer

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {}),
    ("block", 4, {"teams": True}),
    ("draw", 3, {"max_pip": 9}),
    ("doubles", 3, {}),
    ("super_dominoes", 4, {}),
    ("double_double", 2, {}),
]
IDS = [f"{g}-{n}" for g, n, _ in GAMES]


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(game: str, players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rl.env(game, players, options), num_cycles=300)
        seed_test(lambda: rl.env(game, players, options), num_cycles=300)


def _play(env: rl.DominoesEnv, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_hand_rewards_and_the_observation_of_the_env_is_the_views() -> None:
    env = rl.env("block", 2)
    totals = _play(env, 3)
    assert env.state_ is not None and env.state_.result is not None
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    env.reset(seed=4)
    for _ in range(5):
        seat = env.possible_agents.index(env.agent_selection)
        want = Observer("block", 2).observe(env.view(seat))
        got = env.observe(env.agent_selection)
        assert all(np.array_equal(want[k], got[k]) for k in want)
        env.step(int(np.flatnonzero(got["action_mask"])[0]))


def test_matches_pay_the_match_reward() -> None:
    env = rl.env("block", 2, match=True, options={"target_score": 20}, reward="points")
    totals = _play(env, 1)
    assert env.match_ is not None and env.match_.is_over
    assert len(env.match_.hands) >= 1
    winner = env.possible_agents[env.match_.winners[0]]
    assert totals[winner] >= 20 + 1


def test_seeded_resets_deal_the_same_hand_and_render_draws_it() -> None:
    a, b = rl.env("super_dominoes", 3, render_mode="ansi"), rl.env("super_dominoes", 3)
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.state_ == b.state_
    text = a.render()
    assert isinstance(text, str) and "Super Dominoes" in text


def test_illegal_actions_are_refused() -> None:
    env = rl.env("block", 2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
