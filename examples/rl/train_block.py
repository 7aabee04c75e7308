"""Train a masked policy for two-player block and save it as a bonepile policy file.

MaskablePPO (sb3-contrib, PyTorch on the CPU) learns in
:class:`bonepile.rl.SingleAgentEnv`: one seat (a random seat each hand) against ``random`` in
half the environments and ``greedy`` in the other half, +1 for a won hand, -1 for a lost one.
The network (an MLP) is then exported to a numpy ``.npz`` file that
``bonepile arena block --agents policy:FILE,...`` seats with no torch at all; the export is
checked against torch's own logits.

    pip install -e '.[train]'          # torch==2.13.0 (CPU), stable-baselines3, sb3-contrib
    python examples/rl/train_block.py --steps 800000 --out runs/block2-ppo.npz

Training is budgeted in environment steps (``--minutes`` caps the wall time too), with a line
of progress every ``--print-every`` steps. The shipped ``examples/rl/block2.npz`` (the
distilled bot, ``examples/rl/distill.py``) is never written unless ``--force`` is given.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from bonepile.rl import Policy, SingleAgentEnv

GAME, PLAYERS = "block", 2
SHIPPED = (Path(__file__).resolve().parent / "block2.npz").resolve()


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


class Progress(BaseCallback):
    """Prints the steps done, the hands finished and their mean reward every ``every`` steps,
    and stops after ``seconds`` (if given)."""

    def __init__(self, every: int, seconds: float | None) -> None:
        super().__init__()
        self.every = every
        self.start = time.monotonic()
        self.end = None if seconds is None else self.start + seconds
        self.next = every
        self.rewards: list[float] = []

    def _on_step(self) -> bool:
        # the reward comes at the end of a hand (+1 won, -1 lost): the hands just ended
        for reward, done in zip(self.locals["rewards"], self.locals["dones"], strict=True):
            if done:
                self.rewards.append(float(reward))
        if self.num_timesteps >= self.next:
            self.next += self.every
            recent = self.rewards[-2000:]
            mean = sum(recent) / len(recent) if recent else float("nan")
            print(f"{self.num_timesteps:,} steps, {len(self.rewards):,} hands, mean reward of "
                  f"the last {len(recent):,} {mean:+.3f}, {time.monotonic() - self.start:.0f} s",
                  flush=True)  # fmt: skip
        return self.end is None or time.monotonic() < self.end


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
    ap.add_argument("--steps", type=int, default=800_000, help="environment steps")
    ap.add_argument("--minutes", type=float, default=None, help="a cap on the wall time")
    ap.add_argument("--print-every", type=int, default=50_000)
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/block2-ppo.npz")
    ap.add_argument("--force", action="store_true", help="allow writing the shipped bot")
    args = ap.parse_args()
    if Path(args.out).resolve() == SHIPPED and not args.force:
        ap.error(f"--out {args.out} is the shipped bot: pass --force to replace it")
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
    seconds_cap = None if args.minutes is None else args.minutes * 60
    model.learn(total_timesteps=args.steps, callback=Progress(args.print_every, seconds_cap))
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
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    policy.save(args.out)
    print(json.dumps({"out": args.out, **meta}))


if __name__ == "__main__":
    main()
