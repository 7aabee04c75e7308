"""What a view costs: ``bonepile simulate``'s random players against the engine's raw playouts.

Three ways to play the same seeded hands with the same uniformly random moves (random agents
choose by the playout's rule from one generator), side by side in one process, round-robin in
``--rounds`` slices so that a change in machine load hits all alike:

* ``playout``: ``State.playout(rng)``, the engine alone (the fast path of rollouts);
* ``apply``: ``legal_actions`` + ``apply``, a new state per move, no view built;
* ``simulate``: what ``bonepile simulate`` does, ``play_hand`` with one ``RandomAgent`` per seat
  (sharing the hand's generator), each handed ``view(state, seat)`` before it acts.

For each game at its usual player count it prints actions per second for each way and the
ratios ``simulate / playout`` (the target is 0.7: views should cost little next to the rules)
and ``simulate / apply`` (what the view, the agent and the history cost on top of ``apply``),
as one JSON
object on stdout.

Run: ``.venv/bin/python benchmarks/views.py [--seconds 2] [--rounds 6] [--only block,sd]
[--cpu]`` (``--cpu`` times on the process's CPU time, steadier on a shared machine).

Last measured (``.venv-compiled/bin/python benchmarks/views.py --cpu --seconds 8 --rounds 16``,
two runs on the 2-core machine), simulate / playout: block 0.800 and 0.856, draw 0.754 and
0.729, Super Dominoes 0.757 and 0.751, Doubles 0.833 and 0.823, Double Double Dominoes 0.829
and 0.839; simulate / apply 0.93 to 1.33. Runs of one build differ by a few hundredths here;
counted in instructions (callgrind, 20,000 warm hands) draw is at 0.73. The README accounts for
what ``simulate`` adds a move.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import bonepile
from bonepile.agents.base import RandomAgent, play_hand
from bonepile.games import get_game

GAMES = {
    "block": ("block", 2),
    "draw": ("draw", 2),
    "super_dominoes": ("super_dominoes", 4),
    "doubles": ("doubles", 3),
    "double_double": ("double_double", 2),
}
TARGET = 0.7


def _ways(game: str, players: int) -> dict[str, Callable[[int], int]]:
    g = get_game(game)

    def playout(seed: int) -> int:
        return g.new(players, seed=seed).playout(random.Random(seed)).ply

    def apply(seed: int) -> int:
        s = g.new(players, seed=seed)
        rand = random.Random(seed).random
        while s.actor is not None:
            legal = s.legal_actions()
            s = s.apply(legal[int(rand() * len(legal))])
        return s.ply

    def simulate(seed: int) -> int:
        s = g.new(players, seed=seed)
        rng = random.Random(seed)  # as bonepile simulate: one generator for the hand
        agents = [RandomAgent(rng=rng) for _ in range(players)]
        return play_hand(s, agents).ply

    return {"playout": playout, "apply": apply, "simulate": simulate}


def run(
    names: list[str], seconds: float, rounds: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, Any]:
    """Measure every game in ``names`` for ``seconds`` per way, in ``rounds`` slices, on
    ``clock`` (wall time, or with ``--cpu`` the process's CPU time)."""
    out: dict[str, Any] = {}
    for name in names:
        game, players = GAMES[name]
        ways = _ways(game, players)
        for seed in range(20):  # warm the lazy caches, and check the ways play the same hands
            plies = {way: f(seed) for way, f in ways.items()}
            if len(set(plies.values())) != 1:
                raise SystemExit(f"{name}: the ways played different hands (seed {seed}): {plies}")
        rates: dict[str, list[float]] = {w: [] for w in ways}
        seed = 1000
        for _ in range(rounds):
            for way, f in ways.items():
                actions = 0
                start = clock()
                deadline = start + seconds / rounds
                while clock() < deadline:
                    actions += f(seed)
                    seed += 1
                rates[way].append(actions / (clock() - start))
        ratio = [s / p for s, p in zip(rates["simulate"], rates["playout"], strict=True)]
        over_apply = [s / p for s, p in zip(rates["simulate"], rates["apply"], strict=True)]
        median = statistics.median(ratio)
        out[name] = {
            "players": players,
            "actions_per_s": {w: round(statistics.median(r)) for w, r in rates.items()},
            "simulate_over_playout": round(median, 3),
            "simulate_over_playout_rounds": [round(x, 3) for x in ratio],
            "simulate_over_apply": round(statistics.median(over_apply), 3),
            "target": TARGET,
            "met": median >= TARGET,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per way and game")
    parser.add_argument("--rounds", type=int, default=6, help="round-robin slices")
    parser.add_argument("--only", default="", help=f"games to run: {', '.join(GAMES)}")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time on the process's CPU time (steadier when other processes share the machine)",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(GAMES)
    unknown = [n for n in names if n not in GAMES]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; choose from {', '.join(GAMES)}")
    report = {
        "python": platform.python_version(),
        "compiled": bonepile.COMPILED,
        "seconds": args.seconds,
        "rounds": args.rounds,
        "clock": "cpu" if args.cpu else "wall",
        "games": run(
            names, args.seconds, args.rounds, time.process_time if args.cpu else time.perf_counter
        ),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
