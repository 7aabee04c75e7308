"""Arena totals kept as the games come in, in memory that does not grow with the games.

A :class:`Tally` folds each :class:`~bonepile.arena.play.GameOutcome` into running totals and
lets it go: counts and sums per agent, the pairwise results the ratings are fitted to, how
many deals gave each value of an agent's mean win share (the confidence interval is over
deals), and the pairwise results again for each of about 60 stretches of the games (the
rating history). Only a deal still being played is held game by game, until its last seating
comes in. Everything but the thinking times is kept exactly (integers and counts, the win
shares scaled by a common denominator), so the figures depend on the games only, never on
the order they finish in (one process, workers, Ray).
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from bonepile.arena.play import GameOutcome

MAX_LISTED_FORFEITS = 100
"""The most forfeits a tally lists one by one (the first ones, by game index); every forfeit
is counted."""

HISTORY_POINTS = 60
"""The most steps of the rating history (:meth:`Tally.history`)."""


@dataclass(frozen=True)
class Forfeit:
    """One forfeit: game ``index``, the agent in ``seat`` lost it, and why."""

    index: int
    seat: int
    agent: int
    reason: str


@dataclass
class _Deal:
    """A deal still being played: its games so far, and each agent's scaled win shares and
    points margins."""

    games: int
    shares: list[int]
    counts: list[int]
    margins: list[Fraction]


def margin(o: GameOutcome, agent: int) -> Fraction:
    """The agent's points margin in game ``o``: over its seats, the mean of a seat's points
    less the mean points of the seats of other agents (0 when every seat is its own)."""
    mine = [s for s, a in enumerate(o.seating) if a == agent]
    others = [o.points[s] for s, a in enumerate(o.seating) if a != agent]
    if not mine or not others:
        return Fraction(0)
    return Fraction(sum(o.points[s] for s in mine), len(mine)) - Fraction(sum(others), len(others))


@dataclass
class Tally:
    """Running totals of an arena run of ``agents`` agents at ``players`` seats, whose deals
    are each played ``per_deal`` times (once per seating), ``total`` games in all (it places
    the steps of the rating history)."""

    agents: int
    players: int
    per_deal: int
    total: int
    games: int = 0
    deals_done: int = 0
    forfeit_count: int = 0
    scale: int = 0
    played: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    points: list[dict[int, int]] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    forfeits: list[int] = field(default_factory=list)
    deal_means: list[Counter[tuple[int, int]]] = field(default_factory=list)
    margin_sums: list[tuple[Fraction, Fraction, int]] = field(default_factory=list)
    pairs: Counter[tuple[int, int, int, int]] = field(default_factory=Counter)
    steps: list[int] = field(default_factory=list)
    stretches: list[Counter[tuple[int, int, int, int]]] = field(default_factory=list)
    open_deals: dict[int, _Deal] = field(default_factory=dict)
    listed: list[tuple[int, int, int, str]] = field(default_factory=list)  # a heap, negated

    def __post_init__(self) -> None:
        a = self.agents
        self.scale = math.lcm(*range(1, self.players + 1))
        self.played, self.seats, self.moves, self.forfeits = [0] * a, [0] * a, [0] * a, [0] * a
        self.points = [{} for _ in range(a)]
        self.seconds = [0.0] * a
        self.deal_means = [Counter() for _ in range(a)]
        self.margin_sums = [(Fraction(0), Fraction(0), 0)] * a
        total = max(self.total, 1)
        ks = range(1, HISTORY_POINTS + 1)
        self.steps = sorted({max(1, round(total * k / HISTORY_POINTS)) for k in ks})
        self.stretches = [Counter() for _ in self.steps]

    @classmethod
    def of(cls, agents: int, players: int, per_deal: int, outcomes: list[GameOutcome]) -> Tally:
        """The tally of ``outcomes`` (any order: each counts at its rank by game index)."""
        tally = cls(agents, players, per_deal, len(outcomes))
        for rank, o in enumerate(sorted(outcomes, key=lambda o: o.index)):
            tally.add(o, rank)
        return tally

    # ------------------------------------------------------------------ folding games in
    def shares(self, o: GameOutcome) -> list[int]:
        """Each agent's win share of game ``o`` (:meth:`GameOutcome.share`) times
        :attr:`scale`: an integer."""
        if o.winners:
            unit = self.scale // len(o.winners)
            won = [0] * self.agents
            for s in o.winners:
                won[o.seating[s]] += unit
            return won
        unit = self.scale // len(o.seating)
        seated = [0] * self.agents
        for a in o.seating:
            seated[a] += unit
        return seated

    def add(self, o: GameOutcome, order: int | None = None) -> None:
        """Count game ``o``; ``order`` is its place in the run (its index by default)."""
        self.games += 1
        shares = self.shares(o)
        present = sorted(set(o.seating))
        deal = self.open_deals.get(o.deal)
        if deal is None:
            a = self.agents
            deal = self.open_deals[o.deal] = _Deal(0, [0] * a, [0] * a, [Fraction(0)] * a)
        deal.games += 1
        for a in present:
            mine = [s for s, x in enumerate(o.seating) if x == a]
            self.played[a] += 1
            self.seats[a] += len(mine)
            by_seats = self.points[a]
            by_seats[len(mine)] = by_seats.get(len(mine), 0) + sum(o.points[s] for s in mine)
            secs, decisions = o.think.get(a, (0.0, 0))
            self.seconds[a] += secs
            self.moves[a] += decisions
            deal.shares[a] += shares[a]
            deal.counts[a] += 1
            deal.margins[a] += margin(o, a)
        if deal.games >= self.per_deal:
            self._close(deal)
            del self.open_deals[o.deal]
        index = o.index if order is None else order
        stretch = self.stretches[min(bisect.bisect_right(self.steps, index), len(self.steps) - 1)]
        for x, a in enumerate(present):
            for b in present[x + 1 :]:
                if shares[a] + shares[b] > 0:  # neither won: nothing about the pair
                    key = (a, b, shares[a], shares[b])
                    self.pairs[key] += 1
                    stretch[key] += 1
        if o.forfeit is not None:
            seat, reason = o.forfeit
            agent = o.seating[seat]
            self.forfeits[agent] += 1
            self.forfeit_count += 1
            entry = (-o.index, -seat, agent, reason)  # keep the lowest indexes
            if len(self.listed) < MAX_LISTED_FORFEITS:
                heapq.heappush(self.listed, entry)
            elif entry > self.listed[0]:
                heapq.heapreplace(self.listed, entry)

    def _close(self, deal: _Deal) -> None:
        """Count a deal's mean win share for every agent that played it."""
        self.deals_done += 1
        for a in range(self.agents):
            if deal.counts[a]:
                self.deal_means[a][(deal.shares[a], deal.counts[a])] += 1
                x = deal.margins[a] / deal.counts[a]
                total, squares, m = self.margin_sums[a]
                self.margin_sums[a] = (total + x, squares + x * x, m + 1)

    # ------------------------------------------------------------------ figures
    @property
    def deals(self) -> int:
        """How many distinct deals were played (finished or not)."""
        return self.deals_done + len(self.open_deals)

    def listed_forfeits(self) -> list[Forfeit]:
        """The first :data:`MAX_LISTED_FORFEITS` forfeits, by game index."""
        return [Forfeit(-i, -s, a, r) for i, s, a, r in sorted(self.listed, reverse=True)]

    def share_moments(self, agent: int) -> tuple[float, float, int]:
        """The agent's mean win share over deals, the sample variance of its per-deal means
        (``nan`` below two deals) and the number of deals (a deal cut short counts as it
        stands)."""
        means = Counter(self.deal_means[agent])
        for deal in self.open_deals.values():
            if deal.counts[agent]:
                means[(deal.shares[agent], deal.counts[agent])] += 1
        m = sum(means.values())
        if not m:
            return 0.0, math.nan, 0
        values = {k: Fraction(k[0], self.scale * k[1]) for k in means}
        mean = sum((values[k] * n for k, n in means.items()), Fraction(0)) / m
        if m < 2:
            return float(mean), math.nan, m
        var = sum(((values[k] - mean) ** 2 * n for k, n in means.items()), Fraction(0)) / (m - 1)
        return float(mean), float(var), m

    def margin_moments(self, agent: int) -> tuple[float, float, int]:
        """As :meth:`share_moments`, for the agent's points margin a game (:func:`margin`)."""
        total, squares, m = self.margin_sums[agent]
        for deal in self.open_deals.values():
            if deal.counts[agent]:
                x = deal.margins[agent] / deal.counts[agent]
                total, squares, m = total + x, squares + x * x, m + 1
        if not m:
            return 0.0, math.nan, 0
        mean = total / m
        if m < 2:
            return float(mean), math.nan, m
        return float(mean), float((squares - m * mean * mean) / (m - 1)), m

    def even(self, agent: int) -> float:
        """The agent's share of the seats: what it would win by luck alone."""
        played = self.played[agent]
        return self.seats[agent] / (played * self.players) if played else 0.0

    def points_per_game(self, agent: int) -> float:
        """The agent's points per seat, averaged over its games."""
        played = self.played[agent]
        if not played:
            return 0.0
        total = sum((Fraction(p, k) for k, p in sorted(self.points[agent].items())), Fraction(0))
        return float(total / played)

    def pair_matrices(
        self, pairs: Counter[tuple[int, int, int, int]] | None = None
    ) -> tuple[list[list[float]], list[list[float]]]:
        """``wins[a][b]`` (a's weighted wins over b) and ``meetings[a][b]`` (their games at one
        table where either won) from ``pairs`` (all the games by default)."""
        counts = self.pairs if pairs is None else pairs
        n = self.agents
        won = [[Fraction(0)] * n for _ in range(n)]
        meetings = [[0.0] * n for _ in range(n)]
        for (a, b, wa, wb), times in counts.items():
            won[a][b] += Fraction(wa * times, wa + wb)
            won[b][a] += Fraction(wb * times, wa + wb)
            meetings[a][b] += times
            meetings[b][a] += times
        return [[float(x) for x in row] for row in won], meetings

    def history_pairs(self) -> list[tuple[int, Counter[tuple[int, int, int, int]]]]:
        """The pairwise results of the first ``k`` games for each step ``k`` of the history
        (only steps that games reached)."""
        out = []
        running: Counter[tuple[int, int, int, int]] = Counter()
        for step, stretch in zip(self.steps, self.stretches, strict=True):
            if step > self.games:
                break
            running.update(stretch)
            out.append((step, Counter(running)))
        return out


__all__ = ["HISTORY_POINTS", "MAX_LISTED_FORFEITS", "Forfeit", "Tally"]
