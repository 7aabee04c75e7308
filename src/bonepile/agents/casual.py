"""A casual player for every game: a person learning it, the level below the greedy bot.

It scores each legal action with the game's own one-ply scorer (``hints.greedy``, the greedy
bot's), then chooses among them at random, each action weighted by ``exp(score / T)`` with the
game's temperature ``T`` (``hints.casual_temperature``): usually the greedy bot's move or one
nearly as good, now and then a plausible but worse one, and a much worse one seldom. It never
plays an action the scorer puts :data:`SILLY` or more below the best (the line games score a
draw or a pass -100: where the rules offer one beside a tile, it plays a tile, as the greedy
bot does). It reads its seat's view only, and the same view and seed give the same move.
"""

from __future__ import annotations

import math
import random

from bonepile.actions import Action
from bonepile.games import get_game
from bonepile.view import View

SILLY = 50.0
"""How far below the best-scored action an action is never played."""


class CasualAgent:
    """The game's greedy scores, softened by its temperature (``hints.casual_temperature``);
    the choice drawn from its seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.name = "casual"

    def act(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        hints = get_game(view.game).hints
        score = hints.greedy(view)
        scores = [score(a) for a in legal]
        return legal[choose(scores, hints.casual_temperature, self.rng.random())]


def choose(scores: list[float], temperature: float, u: float) -> int:
    """The index drawn by ``u`` (uniform in [0, 1)) from the softmax of ``scores`` at
    ``temperature``, leaving out every score :data:`SILLY` or more below the best (a
    temperature of 0: the first best)."""
    best = max(scores)
    if temperature <= 0:
        return scores.index(best)
    weights = [math.exp((s - best) / temperature) if s > best - SILLY else 0.0 for s in scores]
    x = u * sum(weights)
    for k, w in enumerate(weights):
        x -= w
        if x < 0 and w > 0:
            return k
    return max(k for k, w in enumerate(weights) if w > 0)  # rounding at the top end
