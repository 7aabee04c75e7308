"""A one-ply heuristic player for every game: a sensible move at once, no search.

It scores each legal action from its own view only:

* line games (``block``, ``draw``): shed heavy tiles, play doubles early (they are the hardest
  to place), keep the open ends in suits it still holds and in suits an opponent showed it
  lacks (by passing or drawing);
* Doubles: shed heavy tiles but hold the doubles back (each unlocks a number for everyone and
  opens three sides), and leave unlocked ends only where it can follow;
* Super Dominoes: the same, plus the effects used against the others: a 15 when an opponent
  is close to going out, a 14 for the extra turn, a 13 spell, a 3 to turn play away from a
  short hand, a double to skip the next player;
* Double Double Dominoes: the points the tile scores for itself (diamonds, doubled for a
  double, and its own track bonus) against the bonuses it hands the others, a chain when it
  pays, the least useful tile when it must discard.
"""

from __future__ import annotations

import random

from bonepile.actions import Action
from bonepile.games import get_game
from bonepile.view import View


class GreedyAgent:
    """One-ply heuristics per game (the game's ``hints.greedy`` scorer, see
    :mod:`bonepile.heuristics`); ties broken by its seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.name = "greedy"

    def act(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        score = get_game(view.game).hints.greedy(view)
        best = max(score(a) for a in legal)
        top = [a for a in legal if score(a) >= best - 1e-9]
        return top[int(self.rng.random() * len(top))]


def greedy_prior(view: View) -> dict[Action, float]:
    """The greedy player's choice as a search prior: its best-scored legal actions share
    probability 1 (a search's ``prior=greedy``)."""
    legal = view.legal
    score = get_game(view.game).hints.greedy(view)
    scores = [score(a) for a in legal]
    best = max(scores)
    top = [a for a, x in zip(legal, scores, strict=True) if x >= best - 1e-9]
    return {a: 1.0 / len(top) for a in top}
