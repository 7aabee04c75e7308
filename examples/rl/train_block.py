"""Train a masked policy for two-player block and save it as a bonepile policy file.

MaskablePPO (sb3-contrib, PyTorch on the CPU) learns in
:class:`bonepile.rl.SingleAgentEnv`: one seat (a random seat each hand) against ``random`` in
half the environments and ``greedy`` in the other half, +1 for a won hand, -1 for a lost one.
The network (an MLP) is then exported to a numpy ``.npz`` file that
``bonepile arena block --agents policy:FILE,...`` seats with no torch at all; the export is
checked against torch's own logits.

    pip install -e '.[train]'          # torch==2.13.0 (CPU), stable-baselines3, sb3-contrib
    python examples/rl/train_block.py --minutes 6 --out examples/rl/block2.npz
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from bonepile.rl import Policy, SingleAgentEnv

GAME, PLAYERS = "block", 2


class Scaled(gym.ObservationWrapper):  # type: ignore[type-arg]
    """Divides the flat observation by the observer's ``flat_scale()`` (as the policy file
    does), keeping ``action_masks()``."""

    def __init__(self, env: SingleAgentEnv) -> None:
        super().__init__(env)
        self.scale = env.observer.flat_scale()
        low = env.observation_space.low / self.scale
        high = env.observation_space.high / self.scale
        self.observation_space = gym.spaces.Box(low, high, dtype=np.float32)

    def observation(self, observation: Any) -> Any:
        return (observation / self.scale).astype(np.float32)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


class Deadline(BaseCallback):
    """Stops training after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.end = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.end


def make(opponent: str, seed: int) -> Any:
    def thunk() -> Scaled:
        env = SingleAgentEnv(GAME, PLAYERS, opponents=opponent, seat=None)
        env.reset(seed=seed)
        return Scaled(env)

    return thunk


def export(model: MaskablePPO, scale: np.ndarray, meta: dict[str, Any]) -> Policy:
    """The policy network as numpy layers (torch's Linear weights transposed)."""
    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    layers = [
        (m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
        for m in linears
    ]
    return Policy(layers, meta, scale)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=6.0, help="training time (wall clock)")
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="examples/rl/block2.npz")
    args = ap.parse_args()
    torch.set_num_threads(1)
    opponents = ["random", "greedy"] * (args.envs // 2)
    venv = DummyVecEnv([make(o, args.seed * 100 + i) for i, o in enumerate(opponents)])
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=256,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        verbose=0,
    )
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=Deadline(args.minutes * 60))
    seconds = time.monotonic() - start
    probe: SingleAgentEnv = venv.envs[0].unwrapped  # type: ignore[assignment]
    scale = probe.observer.flat_scale()
    meta = {
        "game": GAME,
        "players": PLAYERS,
        "options": {},
        "history": probe.observer.history,
        "activation": "tanh",
        "trainer": "sb3-contrib MaskablePPO, MlpPolicy [128, 128]",
        "opponents": sorted(set(opponents)),
        "timesteps": int(model.num_timesteps),
        "seconds": round(seconds),
    }
    policy = export(model, scale, meta)
    # the numpy forward pass is torch's
    x = np.stack([probe.observer.flat(probe.observer.observe(probe._view))])  # type: ignore[arg-type]
    with torch.no_grad():
        t = model.policy.get_distribution(torch.as_tensor(x / scale)).distribution.logits
    want = t.numpy() - t.numpy().max()
    got = policy.logits(x) - policy.logits(x).max()
    same = np.exp(got) / np.exp(got).sum(), np.exp(want) / np.exp(want).sum()
    assert np.allclose(*same, atol=1e-4)
    policy.save(args.out)
    print(json.dumps({"out": args.out, **meta}))


if __name__ == "__main__":
    main()
