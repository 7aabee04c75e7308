"""bonepile.rl environments: PettingZoo's API and seed tests, Gymnasium's checker, stepping."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import bonepile.rl as rl
from bonepile.rl.features import features_for
from bonepile.rl.observation import Observer

pytestmark = pytest.mark.engine

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


def test_points_rewards_are_the_points_each_game_counts() -> None:
    """``reward="points"`` pays the hand's points: block's result, and Double Double
    Dominoes' score track (its result holds no points)."""
    for name in ("block", "double_double"):
        env = rl.env(name, 2, reward="points")
        totals = _play(env, 1)
        final = env.state_
        assert final is not None and final.result is not None
        want = final.scores if name == "double_double" else final.result.points
        assert [totals[a] for a in env.possible_agents] == [float(p) for p in want]
        assert any(want)
        assert rl.hand_rewards(final, "points") == [float(p) for p in want]


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


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_gymnasium_check_env(game: str, players: int, options: dict[str, Any]) -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(rl.SingleAgentEnv(game, players, options, opponents="random"))
        check_env(rl.SingleAgentEnv(game, players, options, flat=False, seat=None))


def test_single_agent_env_plays_hands_against_any_agent() -> None:
    env = rl.SingleAgentEnv("block", 3, opponents=["greedy", "random"], seat=None)
    wins = 0
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            action = int(np.flatnonzero(env.action_masks())[0])
            obs, reward, done, _, info = env.step(action)
            assert env.observation_space.contains(obs)
        assert "result" in info and reward in (-1.0, 0.0, 1.0)
        wins += reward > 0
    assert 0 <= wins <= 6


def test_batch_env_steps_many_games() -> None:
    batch = rl.BatchEnv("doubles", 3, n=5)
    obs, actors = batch.reset(seed=1)
    assert obs["action_mask"].shape == (5, batch.codec.size) and actors.shape == (5,)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(120):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, actors, rewards, done = batch.step(actions)
        ended += int(done.sum())
        assert actors.shape == (5,) and not rewards[~done].any()
    assert ended > 0


def test_vector_env_in_process() -> None:
    venv = rl.vector_env(3, "block", 2, processes=False)
    obs, info = venv.reset(seed=2)
    assert obs.shape[0] == 3
    masks = info["action_mask"]
    actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    obs, rewards, _, _, info = venv.step(actions)
    assert rewards.shape == (3,)
    venv.close()


def _tiny_policy(
    path: Any, game: str = "block", players: int = 2, features: str | None = None
) -> None:
    """A random two-layer policy file on the flat observation (or on ``features``)."""
    obs = Observer(game, players)
    inputs = obs.flat_size if features is None else features_for(obs, features).size
    rng = np.random.default_rng(0)
    layers = [
        (rng.normal(size=(inputs, 8)).astype(np.float32), np.zeros(8, np.float32)),
        (rng.normal(size=(8, obs.codec.size)).astype(np.float32), np.zeros(obs.codec.size)),
    ]
    meta: dict[str, Any] = {"game": game, "players": players, "options": {}, "history": 32}
    if features is not None:
        meta["features"] = features
    rl.Policy(layers, meta).save(path)


def test_policy_agent_plays_as_an_ordinary_agent(tmp_path: Any) -> None:
    import bonepile
    from bonepile.agents import play_hand
    from bonepile.agents.registry import agent_name, make_agent
    from bonepile.errors import OptionError

    path = tmp_path / "p.npz"
    _tiny_policy(path)
    agent = make_agent(f"policy:{path}", seed=1)
    final = play_hand(bonepile.new_game("block", 2, seed=3), [agent, make_agent("random")])
    assert final.result is not None
    assert agent_name(f"policy:{path}") == "policy:p.npz"
    with pytest.raises(OptionError):
        make_agent(f"policy:{tmp_path / 'missing.npz'}")
    with pytest.raises(OptionError):  # trained for two players
        play_hand(bonepile.new_game("block", 3, seed=3), [agent, agent, agent])


def test_the_rl_extra_needs_no_torch_and_the_cli_needs_no_rl() -> None:
    import json
    import subprocess
    import sys

    code = (
        "import sys, json, bonepile.rl, bonepile.agents.registry; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not [m for m in json.loads(out.stdout) if m.startswith(("torch", "stable_baselines3"))]
    code = "import sys, json, bonepile.agents.registry; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not [m for m in json.loads(out.stdout) if m.startswith(("bonepile.rl", "numpy"))]
