"""How well a model of the players predicts a bot's moves: what weighing the sampled deals by
the others' moves (the search's ``belief``) has to go on.

    python benchmarks/predict.py [--game block] [--players 2] [--bot ismcts:expert]
                                 [--policy examples/rl/block2.npz] [--hands 100] [--seed 1]

The bot (``--bot``) plays ``--hands`` hands against itself. At every decision with a choice,
each model gives the log-probability of the move the bot made, from the position the mover was
in (its own hand and what it could see; the model used by the search sees the same in each
sampled deal): uniform over the legal moves, the game's model (``PlayHints.model``: a softmax
of the greedy player's values, mixed with a tenth of uniform), and a policy file's network
(``--policy``; mixed with a tenth of uniform as a model would be). The report gives each
model's mean log-likelihood a decision (nats, with its 95% interval over decisions; nearer 0
predicts better) and how often its likeliest move is the bot's. Prints JSON.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from figures import emit, interval

MIX = 0.1
"""The share of uniform mixed into the network's probabilities (as in the game's model)."""


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Play the hands and score each model on every decision with a choice."""
    import random

    from bonepile.agents.registry import make_agent
    from bonepile.games import get_game
    from bonepile.rl.policy import PolicyAgent
    from bonepile.view import view

    game = get_game(args.game)
    model = game.hints.model
    net = PolicyAgent(args.policy) if args.policy else None
    scores: dict[str, list[float]] = {"uniform": []}
    tops: dict[str, int] = {}
    if model is not None:
        scores["game"] = []
    if net is not None:
        scores["policy"], tops["policy"] = [], 0
    rng = random.Random(args.seed)
    for h in range(args.hands):
        agents = [make_agent(args.bot, args.seed * 100_003 + h * args.players + s)
                  for s in range(args.players)]  # fmt: skip
        state = game.new(args.players, seed=rng.getrandbits(63))
        if net is not None:
            net.start(view(state, 0))
        while state.actor is not None:
            seat = state.actor
            v = view(state, seat)
            action = agents[seat].act(v)
            k = len(v.legal)
            if k > 1:
                scores["uniform"].append(-math.log(k))
                if model is not None:
                    scores["game"].append(model(state, action))
                if net is not None:  # the model the search's model=FILE uses
                    scores["policy"].append(net.loglik(state, action, MIX))
                    p = net.probabilities(v)
                    tops["policy"] += max(p, key=lambda a: p[a]) == action
            state = state.apply(action)
    decisions = len(scores["uniform"])
    out: dict[str, Any] = {}
    for name, xs in scores.items():
        mean, low, high = interval(xs)
        out[name] = {"loglik": round(mean, 3), "ci95": [round(low, 3), round(high, 3)]}
        if name in tops:
            out[name]["top_choice"] = round(tops[name] / max(decisions, 1), 3)
    return {"game": args.game, "players": args.players, "bot": args.bot,
            "policy": args.policy, "hands": args.hands, "seed": args.seed,
            "decisions": decisions, "models": out}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="block")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="ismcts:expert", help="the agent whose moves to predict")
    parser.add_argument("--policy", default=None, help="a policy file to score as a model")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return emit(measure(args), None)


if __name__ == "__main__":
    sys.exit(main())
