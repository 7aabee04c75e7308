"""The people's rating scale, in numbers only (no rating library): where a newcomer starts, how
unsure that is, and how far apart two ratings are for one player to win a given share.

:mod:`~bonepile.server.players.ratings` builds its OpenSkill model from these, and
:mod:`~bonepile.server.players.bot_ratings` puts the bots on the same scale.
"""

from __future__ import annotations

import math

START = 1500.0
"""A new player's rating."""
START_SIGMA = 350.0
"""A new player's deviation (how unsure the rating is)."""
BETA = START_SIGMA / 2
"""The spread of one table's result about a player's rating (OpenSkill's ``beta``,
``sigma / 2`` by default)."""
TAU = START_SIGMA / 100
"""How much a rating's deviation grows before each table (OpenSkill's ``tau``)."""


def gap(share: float, players: int) -> float:
    """How much higher one player's rating is than another's when, at tables of ``players``,
    the first finishes ahead of the second in ``share`` of the tables they both play (both
    ratings well known).

    In the Plackett-Luce model a player of rating ``mu`` finishes first among the others in
    proportion to ``exp(mu / c)``, with ``c = BETA * sqrt(players)`` when the deviations are
    small; one player finishes ahead of another with the odds ``exp((mu1 - mu2) / c)``.

    >>> round(gap(0.5, 2), 6)
    0.0
    >>> round(gap(0.6, 2))
    100
    """
    if not 0.0 < share < 1.0:
        raise ValueError(f"a share strictly between 0 and 1, got {share}")
    return BETA * math.sqrt(players) * math.log(share / (1.0 - share))


__all__ = ["BETA", "START", "START_SIGMA", "TAU", "gap"]
