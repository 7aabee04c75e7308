"""RL environment steps a second: bonepile's AEC environments against PettingZoo's and OpenSpiel's.

Every workload runs the same loop for ``--seconds`` (round-robin in ``--rounds`` slices, so a
change in machine load hits all alike): read the observation of the agent to act (PettingZoo:
``env.last()``; OpenSpiel: the time step), pick a uniformly random legal action from its
mask or list, step; a finished episode is reset. A step is one ``step`` with an action.

* ``bonepile_<game>``: ``bonepile.rl.env(game, players)``, its dict observation with the
  action mask built for every step (block 2p, draw 2p, Doubles 3p, Super Dominoes 4p, Double
  Double Dominoes 2p);
* ``bonepile_batch_block``: :class:`bonepile.rl.BatchEnv`, 64 games of 2p block at once;
* ``pettingzoo_leduc_holdem``, ``pettingzoo_connect_four``, ``pettingzoo_tictactoe``:
  PettingZoo's classic environments (``pip install 'pettingzoo[classic]'``; an anchor that
  cannot be imported is reported as skipped);
* ``openspiel_block_dominoes``: OpenSpiel's ``rl_environment.Environment`` on
  ``python_block_dominoes`` (``pip install open-spiel``; skipped if absent), which builds every
  player's information-state tensor at each step;
* ``openspiel_block_state_loop``: the same game through its plain state, building only the
  acting player's information-state tensor before each move (what bonepile's environments
  build: the observation of the agent to act), the deal's chance moves not counted as steps.

A step is not a hand: OpenSpiel's block has no pass action (a blocked player is skipped),
bonepile's has, so its hands take more steps. So each workload reports ``hands_per_s`` (finished
episodes) beside ``steps_per_s``, and the ratios to the anchors are given in both.

It prints one JSON object: each workload's ``steps_per_s`` and ``hands_per_s``, the ratio of
each bonepile workload to each anchor in the same run (``ratios`` in steps,
``hand_ratios`` in hands), and the targets (pure-Python build: block and
Doubles 20,000 steps/s, Super Dominoes 8,000, Double Double Dominoes 3,000, block ahead of
OpenSpiel's dominoes).

Run: ``.venv/bin/python benchmarks/rl.py [--seconds 3] [--rounds 3] [--only block,connect]``
(``.venv-compiled/bin/python`` for the compiled build).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import bonepile
import bonepile.rl

TARGETS = {
    "bonepile_block": 20_000,
    "bonepile_doubles": 20_000,
    "bonepile_super_dominoes": 8_000,
    "bonepile_double_double": 3_000,
}
GAMES = {
    "block": 2,
    "draw": 2,
    "doubles": 3,
    "super_dominoes": 4,
    "double_double": 2,
}

Runner = Callable[[float], tuple[int, int]]
"""Runs the workload for about the given seconds; returns the steps taken and the hands
(episodes) finished."""


def _pick(mask: np.ndarray, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[int(rng.random() * len(legal))])


def aec_runner(env: Any, seed: int = 0) -> Runner:
    """The loop over a PettingZoo AEC environment with masks in its observations."""
    rng = random.Random(seed)
    env.reset(seed=seed)

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        end = time.perf_counter() + seconds
        while True:
            for _ in range(100):
                obs, _, term, trunc, info = env.last()
                if term or trunc:
                    env.reset(seed=rng.getrandbits(31))
                    hands += 1
                    continue
                mask = obs["action_mask"] if "action_mask" in obs else info["action_mask"]
                env.step(_pick(mask, rng))
                steps += 1
            if time.perf_counter() > end:
                return steps, hands

    return run


def batch_runner(n: int = 64) -> Runner:
    env = bonepile.rl.BatchEnv("block", 2, n=n)
    obs, _ = env.reset(seed=0)
    rng = random.Random(0)
    state = {"obs": obs}

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            masks = state["obs"]["action_mask"]
            actions = [_pick(m, rng) for m in masks]
            state["obs"], _, _, done = env.step(actions)
            steps += n
            hands += int(np.count_nonzero(done))
        return steps, hands

    return run


def openspiel_runner() -> Runner:
    from open_spiel.python import rl_environment
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    env = rl_environment.Environment("python_block_dominoes")
    rng = random.Random(0)
    ts = [env.reset()]

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        end = time.perf_counter() + seconds
        while True:
            for _ in range(100):
                t = ts[0]
                if t.last():
                    t = env.reset()
                    hands += 1
                player = t.observations["current_player"]
                legal = t.observations["legal_actions"][player]
                ts[0] = env.step([legal[int(rng.random() * len(legal))]])
                steps += 1
            if time.perf_counter() > end:
                return steps, hands

    return run


def openspiel_state_runner() -> Runner:
    """OpenSpiel's block through its plain state: the acting player's information-state
    tensor, then a random legal move; the deal's chance moves are played, not counted."""
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                if not state.is_chance_node():
                    state.information_state_tensor(state.current_player())
                    steps += 1
                state.apply_action(legal[int(rng.random() * len(legal))])
            hands += 1
        return steps, hands

    return run


def pettingzoo_anchor(name: str) -> Runner:
    if name == "leduc_holdem":
        from pettingzoo.classic import leduc_holdem_v4 as mod
    elif name == "connect_four":
        from pettingzoo.classic import connect_four_v3 as mod
    else:
        from pettingzoo.classic import tictactoe_v3 as mod
    return aec_runner(mod.env())


def workloads(only: list[str] | None) -> tuple[dict[str, Runner], dict[str, str]]:
    makers: dict[str, Callable[[], Runner]] = {}
    for game, players in GAMES.items():
        makers[f"bonepile_{game}"] = lambda g=game, n=players: aec_runner(bonepile.rl.env(g, n))
    makers["bonepile_batch_block"] = batch_runner
    for anchor in ("leduc_holdem", "connect_four", "tictactoe"):
        makers[f"pettingzoo_{anchor}"] = lambda a=anchor: pettingzoo_anchor(a)
    makers["openspiel_block_dominoes"] = openspiel_runner
    makers["openspiel_block_state_loop"] = openspiel_state_runner
    runners: dict[str, Runner] = {}
    skipped: dict[str, str] = {}
    for name, make in makers.items():
        if only and not any(o in name for o in only):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                runners[name] = make()
        except Exception as e:  # an anchor that is not installed is skipped, not fatal
            skipped[name] = f"{type(e).__name__}: {e}"[:200]
    return runners, skipped


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per workload")
    ap.add_argument("--rounds", type=int, default=3, help="slices per workload")
    ap.add_argument("--only", default="", help="comma-separated substrings of workload names")
    args = ap.parse_args()
    runners, skipped = workloads([s for s in args.only.split(",") if s] or None)
    steps = dict.fromkeys(runners, 0)
    hands = dict.fromkeys(runners, 0)
    spent = dict.fromkeys(runners, 0.0)
    for _ in range(args.rounds):
        for name, run in runners.items():
            t = time.perf_counter()
            took, done = run(args.seconds / args.rounds)
            steps[name] += took
            hands[name] += done
            spent[name] += time.perf_counter() - t
    rate = {name: round(steps[name] / spent[name]) for name in runners}
    hand_rate = {name: round(hands[name] / spent[name], 1) for name in runners}
    anchors = [n for n in rate if not n.startswith("bonepile")]
    ratios = {
        name: {a: round(rate[name] / rate[a], 2) for a in anchors}
        for name in rate
        if name.startswith("bonepile")
    }
    hand_ratios = {
        name: {
            a: round(hand_rate[name] / hand_rate[a], 2)
            for a in anchors
            if a.startswith("openspiel")
        }
        for name in ("bonepile_block", "bonepile_batch_block")
        if name in rate and hand_rate[name] > 0
    }
    targets: dict[str, Any] = {}
    for name, want in TARGETS.items():
        got = rate.get(name)
        targets[name] = {
            "target": want,
            "steps_per_s": got,
            "status": "not measured" if got is None else ("met" if got >= want else "not met"),
        }
    for anchor in ("openspiel_block_dominoes", "openspiel_block_state_loop"):
        if "bonepile_block" in rate and anchor in rate and hand_rate[anchor] > 0:
            r = rate["bonepile_block"] / rate[anchor]
            h = hand_rate["bonepile_block"] / hand_rate[anchor]
            targets[f"block_vs_{anchor.removeprefix('openspiel_block_')}"] = {
                "steps_ratio": round(r, 2),
                "hands_ratio": round(h, 2),
                "status": "met" if min(r, h) > 1 else "not met",
            }
    print(
        json.dumps(
            {
                "python": platform.python_version(),
                "compiled": bonepile.COMPILED,
                "seconds": args.seconds,
                "steps_per_s": rate,
                "hands_per_s": hand_rate,
                "ratios": ratios,
                "hand_ratios": hand_ratios,
                "targets": targets,
                "skipped": skipped,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
