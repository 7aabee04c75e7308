"""Perft: count the action sequences of a given length (FORMATS.md section 5).

``perft(p, 0) = 1``; ``perft(p, d) = 1`` when the hand is over at ``p``; otherwise the sum over
the legal actions ``a`` of ``perft(apply(p, a), d - 1)``. Draws are deterministic because the
deal fixes the boneyard order, so the counts pin the move generator exactly.
"""

from __future__ import annotations

from typing import Any

from bonepile.actions import Action
from bonepile.state import State


def perft(state: State[Any], depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``state``."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    return _perft(state, depth)


def _perft(state: State[Any], depth: int) -> int:
    if depth == 0 or state.result is not None:
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    return sum(_perft(state.apply(a), depth - 1) for a in legal)


def divide(state: State[Any], depth: int) -> list[tuple[Action, int]]:
    """Perft split by the first action: ``(action, count)`` pairs (empty when over or depth 0)."""
    if depth < 1 or state.result is not None:
        return []
    return [(a, perft(state.apply(a), depth - 1)) for a in state.legal_actions()]
