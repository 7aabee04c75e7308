"""Perft: count the action sequences of a given length (docs/records.md, "Perft").

``perft(p, 0) = 1``; ``perft(p, d) = 1`` when the hand is over at ``p``; otherwise the sum over
the legal actions ``a`` of ``perft(apply(p, a), d - 1)``. Draws are deterministic because the
deal fixes the boneyard order, so the counts pin the move generator exactly.

A count can take far too long at a large depth: ``max_nodes`` bounds the positions it may visit
(every position reached below the start counts, the leaves included), and past it the count
stops with a :class:`~bonepile.errors.PerftLimitError`.
"""

from __future__ import annotations

from typing import Any

from bonepile.actions import Action
from bonepile.errors import BonepileError, PerftLimitError
from bonepile.state import State

_UNLIMITED = 1 << 62


def perft(state: State[Any], depth: int, max_nodes: int | None = None) -> int:
    """The number of action sequences of length ``depth`` from ``state``.

    With ``max_nodes``, raise :class:`PerftLimitError` rather than visit more positions.
    """
    _check(depth, max_nodes)
    return _counted(state, depth, [_budget(max_nodes)], max_nodes)


def divide(state: State[Any], depth: int, max_nodes: int | None = None) -> list[tuple[Action, int]]:
    """Perft split by the first action: ``(action, count)`` pairs (empty when over or depth 0).

    ``max_nodes`` bounds the whole count (all first actions together), as for :func:`perft`.
    """
    _check(depth, max_nodes)
    if depth < 1 or state.result is not None:
        return []
    legal = state.legal_actions()
    budget = [_budget(max_nodes) - len(legal)]
    if budget[0] < 0:
        raise _limit(max_nodes)
    return [(a, _counted(state.apply(a), depth - 1, budget, max_nodes)) for a in legal]


def _check(depth: int, max_nodes: int | None) -> None:
    if depth < 0:
        raise BonepileError(f"perft depth must be >= 0, got {depth}")
    if max_nodes is not None and max_nodes < 1:
        raise BonepileError(f"perft max_nodes must be >= 1, got {max_nodes}")


def _budget(max_nodes: int | None) -> int:
    return _UNLIMITED if max_nodes is None else max_nodes


def _limit(max_nodes: int | None) -> PerftLimitError:
    return PerftLimitError(
        f"perft stopped after {max_nodes or _UNLIMITED:,} positions (the node limit): "
        "the count is too large; ask for a smaller depth or a larger limit"
    )


def _counted(state: State[Any], depth: int, budget: list[int], max_nodes: int | None) -> int:
    try:
        return _perft(state, depth, budget)
    except _OverBudget:
        raise _limit(max_nodes) from None


class _OverBudget(Exception):
    pass


def _perft(state: State[Any], depth: int, budget: list[int]) -> int:
    if depth == 0 or state.result is not None:
        return 1
    legal = state.legal_actions()
    budget[0] -= len(legal)  # every position one step on counts as visited
    if budget[0] < 0:
        raise _OverBudget
    if depth == 1:
        return len(legal)
    return sum(_perft(state.apply(a), depth - 1, budget) for a in legal)
