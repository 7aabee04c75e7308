"""Arena statistics: win shares with confidence intervals, points, time, ratings.

Duplicate deals make games correlated (the same deal is played once per seating), so the
confidence interval of an agent's win share is computed over **deals**: each deal's games give
one number (the agent's mean share over that deal's seatings), and the interval is the t
interval of the mean of those numbers. An agent's *even share* is what it would win with no
skill at all: its seats over all seats.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from bonepile.arena.play import GameOutcome

# two-sided 95% quantiles of Student's t for small degrees of freedom (then the normal's 1.96)
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042,
        40: 2.021, 60: 2.000, 120: 1.980}  # fmt: skip


def t95(df: int) -> float:
    """The two-sided 95% Student t quantile for ``df`` degrees of freedom."""
    if df <= 0:
        return math.inf
    best = 1.96
    for k in sorted(_T95, reverse=True):
        if df <= k:
            best = _T95[k]
    return best


@dataclass
class AgentStats:
    """One agent's figures over an arena run."""

    agent: int
    name: str
    games: int
    share: float
    low: float
    high: float
    even: float
    points: float
    seconds_per_move: float
    moves: int
    forfeits: int
    rating_mu: float | None = None
    rating_sigma: float | None = None

    @property
    def significant(self) -> str:
        """``better``, ``worse`` or ``even``: where the 95% interval lies against the even share."""
        if self.low > self.even:
            return "better"
        if self.high < self.even:
            return "worse"
        return "even"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "agent": self.name,
            "games": self.games,
            "win_share": round(self.share, 4),
            "ci95": [round(self.low, 4), round(self.high, 4)],
            "even_share": round(self.even, 4),
            "verdict": self.significant,
            "points_per_game": round(self.points, 3),
            "ms_per_move": round(1000 * self.seconds_per_move, 3),
            "moves": self.moves,
            "forfeits": self.forfeits,
            "rating": None
            if self.rating_mu is None
            else {"mu": round(self.rating_mu, 3), "sigma": round(self.rating_sigma or 0.0, 3)},
        }


def summarize(names: list[str], outcomes: list[GameOutcome]) -> list[AgentStats]:
    """Per-agent statistics of ``outcomes`` (any order; they are sorted by game index)."""
    outcomes = sorted(outcomes, key=lambda o: o.index)
    out = []
    ratings = rate(len(names), outcomes)
    for a, name in enumerate(names):
        mine = [o for o in outcomes if a in o.seating]
        by_deal: dict[int, list[float]] = defaultdict(list)
        for o in mine:
            by_deal[o.deal].append(o.share(a))
        per_deal = [sum(v) / len(v) for v in by_deal.values()]
        m = len(per_deal)
        mean = sum(per_deal) / m if m else 0.0
        if m > 1:
            var = sum((x - mean) ** 2 for x in per_deal) / (m - 1)
            half = t95(m - 1) * math.sqrt(var / m)
        else:
            half = math.inf
        seats = [sum(1 for x in o.seating if x == a) / len(o.seating) for o in mine]
        even = sum(seats) / len(seats) if seats else 0.0
        secs = sum(o.think.get(a, (0.0, 0))[0] for o in mine)
        moves = sum(o.think.get(a, (0.0, 0))[1] for o in mine)
        forfeits = sum(1 for o in mine if o.forfeit and o.seating[o.forfeit[0]] == a)
        mu, sigma = ratings[a] if ratings else (None, None)
        out.append(
            AgentStats(
                a,
                name,
                len(mine),
                mean,
                max(0.0, mean - half),
                min(1.0, mean + half),
                even,
                sum(o.mean_points(a) for o in mine) / len(mine) if mine else 0.0,
                secs / moves if moves else 0.0,
                moves,
                forfeits,
                mu,
                sigma,
            )
        )
    return out


def rate(agents: int, outcomes: list[GameOutcome]) -> list[tuple[float, float]] | None:
    """OpenSkill (Plackett-Luce) ratings ``(mu, sigma)`` after every game in index order;
    ``None`` without the openskill package. In each game an agent ranks by its win share."""
    found = _ratings(agents, outcomes)
    return None if found is None else found[0]


def rating_history(agents: int, outcomes: list[GameOutcome]) -> list[list[float]] | None:
    """Each agent's rating (mu) before the first game and after each game, in index order."""
    found = _ratings(agents, outcomes)
    return None if found is None else found[1]


def _ratings(
    agents: int, outcomes: list[GameOutcome]
) -> tuple[list[tuple[float, float]], list[list[float]]] | None:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    players = [model.rating(name=str(a)) for a in range(agents)]
    history: list[list[float]] = [[p.mu] for p in players]
    for o in sorted(outcomes, key=lambda o: o.index):
        present = sorted(set(o.seating))
        if len(present) >= 2:
            shares = [o.share(a) for a in present]
            order = sorted(set(shares), reverse=True)
            ranks = [float(order.index(x)) for x in shares]
            rated = model.rate([[players[a]] for a in present], ranks=ranks)
            for a, team in zip(present, rated, strict=True):
                players[a] = team[0]
        for a in range(agents):
            history[a].append(players[a].mu)
    return [(p.mu, p.sigma) for p in players], history
