"""The self-play trainer's play (examples/rl/selfplay.py): what it keeps of the learner's
decisions is true of the hands played, and its opponents play as the arena seats them."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from bonepile.rl import Policy

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "rl" / "selfplay.py"
SHIPPED = SCRIPT.parent / "block2.npz"


@pytest.fixture(scope="module")
def selfplay() -> ModuleType:
    spec = importlib.util.spec_from_file_location("selfplay_example", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def job(opponent: str, hands: int, reward: str = "win", seed: int = 3) -> dict[str, object]:
    start = Policy.load(SHIPPED)
    return {"game": "block", "players": 2, "weights": start.layers, "meta": start.meta,
            "hands": hands, "reward": reward, "points_scale": 20.0, "seed": seed,
            "opponent": opponent}  # fmt: skip


def log_softmax(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, z.astype(np.float64), -np.inf)
    return z - z.max() - math.log(np.exp(z - z.max()).sum())


def test_the_learner_s_decisions_are_legal_and_their_probabilities_the_network_s(
    selfplay: ModuleType,
) -> None:
    out = selfplay.play(job("greedy", 12))
    policy = Policy.load(SHIPPED)
    n = len(out["move"])
    assert n > 12  # block's learner chooses several times a hand
    assert out["x"].shape == (n, policy.inputs) and out["mask"].shape == (n, policy.outputs)
    for x, mask, move, logp in zip(out["x"], out["mask"], out["move"], out["logp"], strict=True):
        assert mask.sum() >= 2  # only decisions with a choice are kept
        assert mask[move] == 1
        assert logp == pytest.approx(log_softmax(policy.logits(x), mask)[move], abs=1e-4)


def test_every_decision_carries_its_hand_s_outcome(selfplay: ModuleType) -> None:
    out = selfplay.play(job("greedy", 20))
    assert set(np.unique(out["worth"])) <= {-1.0, 0.0, 1.0}
    assert 0 <= out["won"] <= out["hands"] == 20
    points = selfplay.play(job("greedy", 20, reward="points"))
    # the same seed plays the same hands: the points reward is the margin over the scale,
    # the winner's (0 when the loser is left holding only the 0-0)
    assert len(points["worth"]) == len(out["worth"])
    margin = points["worth"]
    assert np.all((margin == 0) | (np.sign(margin) == out["worth"]))
    assert np.abs(points["worth"]).max() > 0.05  # not the win's +-1


def test_a_snapshot_opponent_plays_as_the_arena_seats_it(selfplay: ModuleType) -> None:
    # the learner against the network it samples from: it draws, the snapshot plays its best
    out = selfplay.play(job(f"policy:{SHIPPED}", 10))
    assert out["opponent"] == f"policy:{SHIPPED}" and out["hands"] == 10
    again = selfplay.play(job(f"policy:{SHIPPED}", 10))
    assert np.array_equal(out["move"], again["move"])  # the seed decides the hands and draws
    other = selfplay.play(job(f"policy:{SHIPPED}", 10, seed=4))
    assert not np.array_equal(out["x"][:5], other["x"][:5])


def test_a_cooler_learner_draws_from_its_logits_over_the_temperature(
    selfplay: ModuleType,
) -> None:
    out = selfplay.play({**job("greedy", 6), "temperature": 0.5})
    policy = Policy.load(SHIPPED)
    for x, mask, move, logp in zip(out["x"], out["mask"], out["move"], out["logp"], strict=True):
        assert logp == pytest.approx(log_softmax(policy.logits(x) / 0.5, mask)[move], abs=1e-4)
