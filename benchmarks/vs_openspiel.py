"""bonepile's search bot against OpenSpiel's own ISMCTS, at equal time a move.

    python benchmarks/vs_openspiel.py [--deals 50] [--agent ismcts:hard] [--seconds 0.1]
                                      [--seed 1]

The game is OpenSpiel's ``python_block_dominoes`` (2 players, 7 tiles each, 14 asleep, seat 0
leads any tile, a blocked player is skipped, the lower hand wins, an equal count is a tie),
whose state decides every move's legality and the result. One seat is bonepile's agent
(``--agent``, any spec of ``bonepile arena``), which sees only the view of a bonepile
``block`` hand (``lead=seat0_any``) that mirrors OpenSpiel's move by move; the other is
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (random rollouts, ``uct_c=2``, the final move
by most visits) with the resampler of ``openspiel_block.py``.

Equal time a move: OpenSpiel's bot gets as many simulations as it can run in the time bonepile's
agent has taken per decision so far in this run (``--seconds`` before the first one), from its
own measured rate; the report gives both sides' milliseconds per decision (a move with one legal
action costs nothing on either side and is not counted). Every deal is played twice, the seats
swapped (duplicate deals); the JSON report gives bonepile's win share (a tie counts a half) with
a 95% interval over deals.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time

import openspiel_block


class Clock:
    """Seconds and decisions per side, and OpenSpiel's simulations per second."""

    def __init__(self, seconds: float) -> None:
        self.first = seconds
        self.time = {"bonepile": 0.0, "openspiel": 0.0}
        self.moves = {"bonepile": 0, "openspiel": 0}
        self.sims = 0

    def budget(self) -> float:
        """bonepile's mean seconds per decision so far (``--seconds`` before any)."""
        n = self.moves["bonepile"]
        return self.time["bonepile"] / n if n else self.first

    def simulations(self) -> int:
        """How many simulations OpenSpiel's bot can run in :meth:`budget`."""
        t = self.time["openspiel"]
        rate = self.sims / t if t > 0 else 1000.0
        return max(5, round(rate * self.budget()))  # with one, its root may stay unvisited


def play(deal: int, ours: int, args: argparse.Namespace, clock: Clock) -> float:
    """One hand of deal ``deal`` with bonepile in seat ``ours``; bonepile's share (1, 0.5, 0)."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.games import block_dominoes

    from bonepile.actions import PASS
    from bonepile.agents import make_agent
    from bonepile.games import get_game
    from bonepile.tiles import Tile
    from bonepile.view import view

    game = openspiel_block.load_game()
    deal_rng = random.Random(args.seed * 100_003 + deal)
    order = list(range(len(block_dominoes._DECK)))
    deal_rng.shuffle(order)
    ospiel = game.new_initial_state()
    for k in order[:14]:  # OpenSpiel deals seven to seat 0, then seven to seat 1
        ospiel.apply_action(k)
    tiles = [Tile(int(a), int(b)) for a, b in block_dominoes._DECK]
    hands = [[tiles[k] for k in order[:7]], [tiles[k] for k in order[7:14]]]
    rest = [tiles[k] for k in order[14:]]
    state = get_game("block").new(2, options={"lead": "seat0_any"}, deal=(hands, rest))

    seed = args.seed * 1_000 + deal * 2 + ours
    agent = make_agent(args.agent, seed)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=5,
        random_state=np.random.RandomState(seed),
    )
    bot._resampler_cb = openspiel_block.resampler(game, random.Random(seed))
    while not ospiel.is_terminal():
        seat = ospiel.current_player()
        while state.legal_actions() == (PASS,):
            state = state.apply(PASS)  # OpenSpiel skips a blocked player by itself
        assert state.actor == seat, (state.actor, seat)
        legal = ospiel.legal_actions()
        start = time.perf_counter()
        if seat == ours:
            action = agent.act(view(state, seat))
            chosen = openspiel_block.to_openspiel(action, state, seat)
            side = "bonepile"
        else:
            sims = clock.simulations()
            bot._max_simulations = sims
            chosen = bot.step(ospiel) if len(legal) > 1 else legal[0]
            action = openspiel_block.to_bonepile(chosen, state)
            side = "openspiel"
            if len(legal) > 1:
                clock.sims += sims
        if len(legal) > 1:
            clock.time[side] += time.perf_counter() - start
            clock.moves[side] += 1
        ospiel.apply_action(chosen)
        state = state.apply(action)
    mine = ospiel.returns()[ours]
    return 0.5 if mine == 0 else (1.0 if mine > 0 else 0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="deals, each played twice")
    parser.add_argument("--agent", default="ismcts:hard", help="bonepile's agent (arena spec)")
    parser.add_argument("--seconds", type=float, default=0.1, help="OpenSpiel's first budget")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import open_spiel  # noqa: F401
    except ImportError:
        print(json.dumps({"error": "not installed: pip install -e '.[bench]'"}))
        return 0
    import bonepile

    clock = Clock(args.seconds)
    per_deal = []
    for deal in range(args.deals):
        per_deal.append((play(deal, 0, args, clock) + play(deal, 1, args, clock)) / 2)
    m = len(per_deal)
    mean = sum(per_deal) / m
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (m - 1)) if m > 1 else 0.0
    half = 1.96 * sd / math.sqrt(m) if m > 1 else math.inf
    ms = {k: round(1000 * clock.time[k] / max(clock.moves[k], 1), 1) for k in clock.time}
    report = {
        "benchmark": "bonepile vs OpenSpiel ISMCTS on python_block_dominoes, equal time a move",
        "config": vars(args),
        "bonepile": f"{bonepile.__version__}, {bonepile.build()}",
        "python": platform.python_version(),
        "hands": 2 * m,
        "bonepile_share": round(mean, 4),
        "ci95": [round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4)],
        "above_even": mean - half > 0.5,
        "ms_per_decision": ms,
        "openspiel_sims_per_decision": round(clock.sims / max(clock.moves["openspiel"], 1)),
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
