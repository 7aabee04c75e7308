"""Arena statistics: win shares with confidence intervals, points, time, Elo ratings.

Duplicate deals make games correlated (the same deal is played once per seating), so the
confidence interval of an agent's win share is computed over **deals**: each deal's games give
one number (the agent's mean share over that deal's seatings), and the interval is the t
interval of the mean of those numbers. An agent's *even share* is what it would win with no
skill at all: its seats over all seats.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bonepile.arena.play import GameOutcome
from bonepile.arena.tally import Tally

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
    rating: float | None = None  # Elo scale (see rate)
    rating_error: float | None = None
    margin: float = 0.0  # points a game over the other agents' seats (tally.margin)
    margin_low: float = 0.0
    margin_high: float = 0.0

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
            "points_margin": round(self.margin, 3),
            "points_margin_ci95": [round(self.margin_low, 3), round(self.margin_high, 3)],
            "ms_per_move": round(1000 * self.seconds_per_move, 3),
            "moves": self.moves,
            "forfeits": self.forfeits,
            "rating": None
            if self.rating is None
            else {"elo": round(self.rating, 1), "error": round(self.rating_error or 0.0, 1)},
        }


def summarize(names: list[str], outcomes: list[GameOutcome]) -> list[AgentStats]:
    """Per-agent statistics of ``outcomes`` (any order)."""
    return agent_stats(names, tally_of(len(names), outcomes))


def tally_of(agents: int, outcomes: list[GameOutcome]) -> Tally:
    """The :class:`~bonepile.arena.tally.Tally` of a list of games (a deal's games are
    grouped whether or not every seating of it is there)."""
    players = max((len(o.seating) for o in outcomes), default=1)
    return Tally.of(agents, players, len(outcomes) + 1, outcomes)


def agent_stats(names: list[str], tally: Tally) -> list[AgentStats]:
    """Per-agent statistics of the games counted in ``tally``."""
    out = []
    ratings = rate_tally(tally)
    for a, name in enumerate(names):
        mean, var, m = tally.share_moments(a)
        half = t95(m - 1) * math.sqrt(var / m) if m > 1 else math.inf
        moves = tally.moves[a]
        elo, error = ratings[a] if ratings else (None, None)
        pm, pvar, pm_n = tally.margin_moments(a)
        phalf = t95(pm_n - 1) * math.sqrt(pvar / pm_n) if pm_n > 1 else math.inf
        out.append(
            AgentStats(
                a,
                name,
                tally.played[a],
                mean,
                max(0.0, mean - half),
                min(1.0, mean + half),
                tally.even(a),
                tally.points_per_game(a),
                tally.seconds[a] / moves if moves else 0.0,
                moves,
                tally.forfeits[a],
                elo,
                error,
                pm,
                pm - phalf,
                pm + phalf,
            )
        )
    return out


ELO_BASE = 1500.0
"""The mean of the agents' ratings: ratings are Elo-scale, and only their differences count."""


def rate(agents: int, outcomes: list[GameOutcome]) -> list[tuple[float, float]] | None:
    """Each agent's Elo-scale rating and its standard error ``(elo, error)``, or ``None`` when
    no game had two different agents at the table.

    The rating is the Bradley-Terry strength fitted by maximum likelihood to every pair of
    agents at every table (in a game, agent A beats agent B with weight
    ``share(A) / (share(A) + share(B))``), so it depends on the games, not their order, and
    agrees with the win shares: two agents with win shares ``p`` and ``1 - p`` are
    ``400 log10(p / (1 - p))`` points apart. One drawn game between every pair (a weak prior)
    keeps ratings finite when an agent wins or loses everything.
    """
    return rate_tally(tally_of(agents, outcomes))


def rate_tally(
    tally: Tally, pairs: Counter[tuple[int, int, int, int]] | None = None
) -> list[tuple[float, float]] | None:
    """:func:`rate` over the games counted in ``tally`` (or over only the pairwise results
    ``pairs``, one step of :meth:`~bonepile.arena.tally.Tally.history_pairs`)."""
    agents = tally.agents
    wins, meetings = tally.pair_matrices(pairs)
    if not any(meetings[a][b] for a in range(agents) for b in range(agents)):
        return None
    strength = _bradley_terry(agents, wins, meetings)
    logs = [math.log10(p) for p in strength]
    mean = sum(logs) / agents
    errors = _errors(agents, strength, meetings)
    return [(ELO_BASE + 400.0 * (x - mean), err) for x, err in zip(logs, errors, strict=True)]


def rating_history(
    agents: int, outcomes: list[GameOutcome]
) -> tuple[list[int], list[list[float]]] | None:
    """The ratings as the games came in, over a list of games (:func:`history_of`)."""
    return history_of(tally_of(agents, outcomes))


def history_of(tally: Tally) -> tuple[list[int], list[list[float]]] | None:
    """The ratings as the games came in: ``(games, ratings)`` where ``ratings[a][k]`` is agent
    ``a``'s rating over the first ``games[k]`` games in game order (at most
    :data:`~bonepile.arena.tally.HISTORY_POINTS` steps); ``None`` as for :func:`rate`."""
    if rate_tally(tally) is None:
        return None
    steps: list[int] = []
    history: list[list[float]] = [[] for _ in range(tally.agents)]
    for count, pairs in tally.history_pairs():
        found = rate_tally(tally, pairs)
        steps.append(count)
        for a in range(tally.agents):
            history[a].append(ELO_BASE if found is None else found[a][0])
    return steps, history


def _bradley_terry(
    agents: int, wins: list[list[float]], meetings: list[list[float]]
) -> list[float]:
    """Maximum-likelihood Bradley-Terry strengths (Hunter's MM iterations), with one drawn
    game added between every pair that met."""
    strength = [1.0] * agents
    for _ in range(2000):
        new = []
        for a in range(agents):
            won = sum(wins[a][b] + 0.5 for b in range(agents) if b != a and meetings[a][b])
            rate_sum = sum(
                (meetings[a][b] + 1) / (strength[a] + strength[b])
                for b in range(agents)
                if b != a and meetings[a][b]
            )
            new.append(won / rate_sum if rate_sum else strength[a])
        scale = math.exp(sum(math.log(p) for p in new) / agents)
        new = [p / scale for p in new]
        change = max(abs(math.log(p / q)) for p, q in zip(new, strength, strict=True))
        strength = new
        if change < 1e-10:
            break
    return strength


def _errors(agents: int, strength: list[float], meetings: list[list[float]]) -> list[float]:
    """Approximate standard errors of the Elo ratings (from each agent's Fisher information
    with the others held fixed)."""
    out = []
    for a in range(agents):
        info = sum(
            (meetings[a][b] + 1) * strength[a] * strength[b] / (strength[a] + strength[b]) ** 2
            for b in range(agents)
            if b != a and meetings[a][b]
        )
        out.append(400.0 / math.log(10) / math.sqrt(info) if info > 0 else math.inf)
    return out
