"""What the tests of the fast playouts hold them to: step-by-step play, and the same end."""

from __future__ import annotations

import random

from bonepile.record import record_of
from bonepile.state import State


def step_by_step(s: State, rng: random.Random) -> State:
    """The definition of a random playout: ``legal[int(rng.random() * len(legal))]`` applied
    until the hand is over."""
    while not s.is_over:
        legal = s.legal_actions()
        s = s.apply(legal[int(rng.random() * len(legal))])
    return s


def check_same_end(start: State, fast: State, slow: State) -> None:
    """``fast``, played out from ``start`` in place, is the end ``slow`` reached step by step."""
    assert fast == slow
    assert fast.moves == slow.moves
    assert fast.result == slow.result
    assert fast.summary() == slow.summary()
    assert fast.layout == slow.layout
    assert fast.legal_actions() == ()
    assert fast.initial is start.initial
    assert record_of(fast) == record_of(slow)
