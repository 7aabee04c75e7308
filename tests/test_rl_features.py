"""The learned bot's features: worked out from the seat's view alone, and true of the real deal
(a tile a seat holds is never counted impossible for it)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bonepile.actions import Pass
from bonepile.games import get_game
from bonepile.rl import Policy
from bonepile.rl.features import LineFeatures
from bonepile.rl.observation import Observer
from bonepile.tiles import tile_set
from bonepile.view import view
from test_rl_envs import _tiny_policy

pytestmark = pytest.mark.engine


def parts(f: LineFeatures, x: np.ndarray) -> dict[str, np.ndarray]:
    """The leading parts of a feature vector, by name."""
    n, t = f.observer.players, f.observer.tiles
    out = {}
    at = 0
    for name, size in (("hand", t), ("played", n * t), ("on_table", t), ("unseen", t),
                       ("unseen_pips", t), ("possible", (n - 1) * t)):  # fmt: skip
        out[name] = x[at : at + size]
        at += size
    out["possible"] = out["possible"].reshape(n - 1, t)
    return out


@pytest.mark.parametrize(
    ("game", "players"),
    [("block", 2), ("block", 4), ("draw", 2), ("draw", 3), ("doubles", 2), ("super_dominoes", 4)],
)
def test_features_hold_only_what_the_seat_may_know_and_nothing_false(
    game: str, players: int
) -> None:
    g = get_game(game)
    observer = Observer(game, players)
    f = LineFeatures(observer)
    rng = random.Random(7)
    checked = 0
    for deal in range(12):
        state = g.new(players, seed=deal)
        observer.reset()
        while state.actor is not None:
            seat = state.actor
            x = f(observer.observe(view(state, seat)))
            assert x.shape == (f.size,) and x.dtype == np.float32
            assert np.isfinite(x).all() and x.min() >= -1.0 and x.max() <= 4.0
            got = parts(f, x)
            hand = {t.index for t in state.hand(seat)}
            on_table = {i for i in range(observer.tiles) if got["on_table"][i]}
            assert {i for i in range(observer.tiles) if got["hand"][i]} == hand
            unseen = {i for i in range(observer.tiles) if got["unseen"][i]}
            assert unseen == set(range(observer.tiles)) - hand - on_table
            for k in range(1, players):
                other = (seat + k) % players
                held = {t.index for t in state.hand(other)}
                possible = {i for i in range(observer.tiles) if got["possible"][k - 1][i]}
                assert held <= possible, (game, other, held - possible)
                if not g.passes_show_lacks:
                    assert possible == unseen
            checked += 1
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
    assert checked > 50


def test_a_pass_rules_out_the_suits_it_could_not_follow() -> None:
    """In block, once a seat has passed, the unseen tiles of the suits showing are impossible
    for it in the other seat's features; and they could be before."""
    g = get_game("block")
    observer = Observer("block", 2)
    f = LineFeatures(observer)
    rng = random.Random(3)
    for deal in range(40):
        state = g.new(2, seed=deal)
        observer.reset()
        while state.actor is not None:
            legal = state.legal_actions()
            if legal == (Pass(),) or list(legal) == [Pass()]:
                other = 1 - state.actor
                before = parts(f, f(observer.observe(view(state, other))))
                state = state.apply(legal[0])
                if state.actor != other:
                    break  # the hand ended with the pass
                obs = observer.observe(view(state, other))
                got = parts(f, f(obs))
                ends = {v for v in range(observer.pips) if obs["end_pips"][v] > 0}
                suited = [t.index for t in tile_set(6) if {t.hi, t.lo} & ends
                          and got["unseen"][t.index]]  # fmt: skip
                assert suited
                assert all(got["possible"][0][i] == 0 for i in suited)
                assert any(before["possible"][0][i] == 1 for i in suited)
                return
            state = state.apply(legal[int(rng.random() * len(legal))])
    pytest.fail("no pass in 40 random block hands")


def test_a_policy_file_on_the_features_plays_and_a_strange_one_is_refused(tmp_path: Any) -> None:
    import bonepile
    from bonepile.agents import play_hand
    from bonepile.agents.registry import make_agent
    from bonepile.errors import OptionError

    good = tmp_path / "good.npz"
    _tiny_policy(good, features="line/1")
    agent = make_agent(f"policy:{good}", seed=1)
    final = play_hand(bonepile.new_game("block", 2, seed=3), [agent, make_agent("random")])
    assert final.result is not None
    strange = tmp_path / "strange.npz"
    made = Policy.load(good)  # the same network, said to be on features nobody knows
    Policy(made.layers, {**made.meta, "features": "line/99"}).save(strange)
    with pytest.raises(OptionError, match="unknown features"):
        play_hand(bonepile.new_game("block", 2, seed=3),
                  [make_agent(f"policy:{strange}"), make_agent("random")])  # fmt: skip


def test_the_shipped_learned_bot_plays_on_the_features() -> None:
    import bonepile
    from bonepile.agents import play_hand
    from bonepile.agents.registry import make_agent

    shipped = Path(__file__).resolve().parents[1] / "examples" / "rl" / "block2.npz"
    assert Policy.load(shipped).meta["features"] == "line/1"
    agent = make_agent(f"policy:{shipped}")
    for seed in range(3):
        final = play_hand(bonepile.new_game("block", 2, seed=seed), [agent, make_agent("greedy")])
        assert final.result is not None


def test_the_shipped_learned_bot_has_a_value_head_that_reads_the_view() -> None:
    """The shipped file's value head gives each seat's chance to win from its view alone: a
    number from 0 to 1 that changes with the position, and the same for the same view."""
    import bonepile
    from bonepile.rl.policy import PolicyAgent
    from bonepile.view import view

    shipped = Path(__file__).resolve().parents[1] / "examples" / "rl" / "block2.npz"
    policy = Policy.load(shipped)
    assert policy.value_head is not None and policy.meta["value"] == "win"
    agent = PolicyAgent(shipped)
    values = []
    for seed in range(6):
        state = bonepile.new_game("block", 2, seed=seed)
        v = view(state, state.actor)
        worth = agent.value(v)
        assert 0.0 < worth < 1.0 and agent.value(v) == worth
        values.append(worth)
    assert len(set(values)) > 1


def test_one_observation_gives_the_logits_a_batch_gives() -> None:
    """The network of one observation, which reads only its non-zero inputs and the legal
    actions' columns, computes what the whole batch computes for it."""
    import bonepile
    from bonepile.rl.policy import PolicyAgent

    shipped = Path(__file__).resolve().parents[1] / "examples" / "rl" / "block2.npz"
    agent = PolicyAgent(shipped)
    policy = agent.policy
    state = bonepile.new_game("block", 2, seed=4)
    rng = random.Random(4)
    rows, singles = [], []
    while state.result is None:
        v = view(state, state.actor)
        observer = agent._observer(v)
        x = agent._inputs[id(observer)](observer.observe(v))
        assert 0 < np.count_nonzero(x) < x.size  # the sparse path has something to skip
        rows.append(x)
        legal = np.array([observer.codec.index[a] for a in v.legal], dtype=np.intp)
        singles.append((legal, policy.some_logits(x, legal)))
        state = state.apply(rng.choice(v.legal))
    batch = policy.logits(np.stack(rows))
    for row, (legal, got) in zip(batch, singles, strict=True):
        np.testing.assert_allclose(got, row[legal], rtol=1e-5, atol=1e-5)
    first = bonepile.new_game("block", 2, seed=4)
    probabilities = agent.probabilities(view(first, first.actor))
    assert abs(sum(probabilities.values()) - 1.0) < 1e-9
