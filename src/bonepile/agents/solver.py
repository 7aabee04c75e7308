"""Exact values of small two-player endgames in one sampled world.

The search bot deals the hidden tiles into full positions (worlds); in a world nothing is
hidden or random any more (the boneyard's order is dealt too), so a two-player hand's end can
be solved exactly by minimax: the value of a position to seat 0 is the best the player to move
can force. :class:`EndgameSolver` does that for positions with few tiles left in the hands,
with a table of the positions already solved (shared by every world of a decision: a position
is the same whichever world reached it) and a node budget per solve, past which it gives up and
the search plays a rollout instead.

A finished hand is scored by the search's own function (a win, or the points margin), so the
solver's values and the rollouts' are in the same units.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bonepile.state import State

Score = Callable[[State[Any]], list[float]]


class _OverBudget(Exception):
    """A solve visited more positions than it may."""


class EndgameSolver:
    """Minimax values of two-player positions with at most ``tiles`` tiles left in the
    hands, by ``score``, whose two values add up to ``total`` in every finished hand (1 for
    wins, 0 for a points margin); a solve gives up past ``nodes`` new positions. ``bounds``,
    the least and the most a finished hand can be worth to seat 0 (wins: 0 and 1), let a
    player stop looking once a move reaches the best there is."""

    def __init__(
        self,
        score: Score,
        total: float,
        tiles: int,
        nodes: int = 4000,
        bounds: tuple[float, float] = (-1e18, 1e18),
    ) -> None:
        self.score = score
        self.total = total
        self.low, self.high = bounds
        self.tiles = tiles
        self.nodes = nodes
        self.table: dict[Any, float] = {}
        self.solved = 0
        """Solves that finished (for reports)."""
        self.abandoned = 0
        """Solves that went over the budget."""
        self._left = 0

    def small(self, state: State[Any]) -> bool:
        """Whether ``state`` is a two-player position small enough to solve."""
        return state.players == 2 and state.hand_size(0) + state.hand_size(1) <= self.tiles

    def rewards(self, state: State[Any]) -> list[float] | None:
        """Both seats' exact values of ``state`` (in the units of ``score``), or ``None`` if
        the solve went over its budget."""
        self._left = self.nodes
        try:
            v = self._value(state)
        except _OverBudget:
            self.abandoned += 1
            return None
        self.solved += 1
        return [v, self.total - v]

    def _value(self, state: State[Any]) -> float:
        """Seat 0's value of ``state`` with best play on both sides."""
        if state.result is not None:
            return self.score(state)[0]
        key = state.key()
        table = self.table
        v = table.get(key)
        if v is not None:
            return v
        self._left -= 1
        if self._left < 0:
            raise _OverBudget
        legal = state.legal_actions()
        value = self._value
        if state.actor == 0:
            best = -1e18
            top = self.high
            for a in legal:
                x = value(state.apply(a))
                if x > best:
                    best = x
                    if best >= top:
                        break
        else:
            best = 1e18
            bottom = self.low
            for a in legal:
                x = value(state.apply(a))
                if x < best:
                    best = x
                    if best <= bottom:
                        break
        table[key] = best
        return best
