"""Search speed: ISMCTS simulations per second, bonepile against OpenSpiel's Python ISMCTS.

    python benchmarks/search.py [--positions 20] [--iterations 400] [--seed 1]

Both searches run on the same kind of positions in one process, one after the other, and the
script prints one JSON object with simulations per second for each and their ratio.

* bonepile: :class:`bonepile.agents.ismcts.ISMCTSAgent` with an iteration budget, on decision
  points (more than one legal action) taken from seeded random hands of 2-player ``block``
  (7 tiles, ``lead=seat0_any``) and 4-player Super Dominoes. The time counted is the whole
  ``act``: sampling the worlds consistent with the view (replayed through the rules) and the
  search. ``sims_per_s`` = iterations / seconds.
* anchor: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on ``python_block_dominoes``
  (2 players, 7 tiles, seat 0 leads any tile) with one random rollout per simulation and
  ``uct_c=2``. OpenSpiel's Python block dominoes cannot resample an information state
  (``ResampleFromInfostate`` is not implemented), so the bot is given a resampler here: the
  opponent's hidden tiles drawn uniformly from the unseen ones, the history replayed, retried
  until it replays, the numbers a skipped player lacks excluded. Without a
  resampler OpenSpiel's ISMCTS cannot play this game at all.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

import openspiel_block


def bonepile_sims(
    game: str, players: int, count: int, iterations: int, seed: int
) -> dict[str, Any]:
    """bonepile's ISMCTS simulations per second over ``count`` positions."""
    from bonepile.agents.ismcts import ISMCTSAgent
    from bonepile.games import get_game
    from bonepile.view import view

    options = {"lead": "seat0_any"} if game == "block" else None
    g = get_game(game)
    rng = random.Random(seed)
    views = []
    k = 0
    while len(views) < count:
        s = g.new(players, options=options, seed=seed * 1000 + k)
        k += 1
        states = []
        while not s.is_over:
            if len(s.legal_actions()) > 1:
                states.append(s)
            s = s.apply(rng.choice(s.legal_actions()))
        if states:
            pick = rng.choice(states)
            views.append(view(pick, pick.actor))
    agent = ISMCTSAgent(seed, iterations=iterations)
    agent.act(views[0])  # warm the caches
    sims = 0
    start = time.perf_counter()
    for v in views:
        agent.act(v)
        sims += agent.last_iterations
    seconds = time.perf_counter() - start
    return {
        "positions": count,
        "iterations_per_move": iterations,
        "seconds": round(seconds, 3),
        "ms_per_move": round(1000 * seconds / count, 1),
        "sims_per_s": round(sims / seconds, 1),
    }


def openspiel_sims(count: int, iterations: int, seed: int) -> dict[str, Any]:
    """OpenSpiel's Python ISMCTS simulations per second on ``python_block_dominoes``."""
    try:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return {"error": "not installed: pip install -e '.[bench]'"}
    game = openspiel_block.load_game()
    rng = random.Random(seed)
    resample = openspiel_block.resampler(game, rng)

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=iterations,
        random_state=np.random.RandomState(seed),
    )  # fmt: skip
    bot._resampler_cb = resample
    positions = []
    while len(positions) < count:
        s = game.new_initial_state()
        states = []
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = s.legal_actions()
            if len(legal) > 1:
                states.append(s.clone())
            s.apply_action(rng.choice(legal))
        if states:
            positions.append(rng.choice(states))
    bot.step(positions[0])
    start = time.perf_counter()
    for p in positions:
        bot.step(p)
    seconds = time.perf_counter() - start
    return {
        "positions": count,
        "iterations_per_move": iterations,
        "seconds": round(seconds, 3),
        "ms_per_move": round(1000 * seconds / count, 1),
        "sims_per_s": round(count * iterations / seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import bonepile

        build = "compiled" if bonepile.COMPILED else "pure"
    except ImportError:
        build = "missing"
    block = bonepile_sims("block", 2, args.positions, args.iterations, args.seed)
    sd = bonepile_sims("super_dominoes", 4, args.positions, args.iterations, args.seed)
    anchor = openspiel_sims(args.positions, args.iterations, args.seed)
    ratio = None
    if "sims_per_s" in anchor and anchor["sims_per_s"] > 0:
        ratio = round(block["sims_per_s"] / anchor["sims_per_s"], 2)
    report = {
        "benchmark": "ISMCTS simulations per second (sampling included)",
        "config": {
            "positions": args.positions,
            "iterations": args.iterations,
            "seed": args.seed,
            "python": platform.python_version(),
            "bonepile_build": build,
        },
        "bonepile_block_2p": block,
        "bonepile_sd_4p": sd,
        "openspiel_block_2p": anchor,
        "ratio_block_2p_vs_openspiel": ratio,
        "target": ">= 10",
        "status": None if ratio is None else ("met" if ratio >= 10 else "not met"),
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
