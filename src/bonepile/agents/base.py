"""The random agent and the runners that play a hand or a match with agents (and, from
:mod:`bonepile.agents.protocol`, the :class:`Agent` protocol)."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from bonepile.actions import Action
from bonepile.agents.protocol import Agent
from bonepile.events import Event
from bonepile.match import Match
from bonepile.state import State
from bonepile.view import View, view

__all__ = ["Agent", "RandomAgent", "play_hand", "play_match"]

_REFCOUNT: Final[Callable[[object], int] | None] = getattr(sys, "getrefcount", None)
"""CPython's reference count (``None`` on a Python without one: views are then never refilled)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent:
    """Chooses uniformly among the legal actions, reproducibly from its seed, by the rule of
    :meth:`State.playout <bonepile.state.State.playout>`: ``legal[int(rng.random() *
    len(legal))]``. Random agents sharing one generator ``Random(s)`` play a hand exactly as
    ``state.playout(Random(s))`` does."""

    rng: random.Random
    _random: Callable[[], float]

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        """Seeded from ``seed``, or drawing from ``rng`` (a generator several agents may share:
        seeding one costs more than most hands' moves, so ``bonepile simulate`` seeds one a
        hand for all its random players)."""
        self.rng = random.Random(seed) if rng is None else rng
        self._random = self.rng.random

    def act(self, view: View) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat}: it is not its turn")
        return legal[int(self._random() * float(len(legal)))]  # a native float product


def play_hand(
    state: State[Any],
    agents: Sequence[Agent],
    on_step: Callable[[int, Action, tuple[Event, ...], State[Any]], None] | None = None,
) -> State[Any]:
    """Play ``state`` to the end of the hand with one agent per seat; return the final state.

    ``on_step(seat, action, events, new_state)`` is called after every action. Agents with
    ``start``/``finish`` methods are told when the hand begins and ends. Without ``on_step``
    nobody sees the positions in between, so the hand is played on one private state changed
    in place (as :meth:`State.playout` does): the same moves, history and views as step by step;
    and a view the agent kept no reference to is refilled for the next turn instead of a new
    one made (a view an agent keeps never changes).
    """
    for seat, agent in enumerate(agents):
        begin = _hook(agent, "start")
        if begin is not None:
            begin(view(state, seat))
    if on_step is None and state.actor is not None:
        # Nobody sees the positions in between: play on one private state, changed in place.
        state = state._private()
        acts = [agent.act for agent in agents]  # looked up once a hand, not once a move
        buf: list[Event] = []  # the events of each move, one list lent for the hand
        first = state._actor
        assert first is not None
        mover: int = first
        v = View.of(state, mover)
        refcount = _REFCOUNT
        alone = -1 if refcount is None else refcount(v)  # the count of a view nobody holds
        while True:
            state._act_in_place(acts[mover](v), buf)
            turn = state._actor
            if turn is None:
                break
            mover = turn
            if refcount is not None and refcount(v) == alone:
                v._turn(state, mover)  # nobody kept it: refilled, the cost of a new view saved
            else:
                v = View.of(state, mover)
    while state.actor is not None:
        seat = state.actor
        v = View.of(state, seat)  # view(state, seat), its seat known good
        action = agents[seat].act(v)
        state, events = state.step(action)  # keeps every seat's history: no view replays
        if on_step is not None:
            on_step(seat, action, events, state)
    for seat, agent in enumerate(agents):
        end = _hook(agent, "finish")
        if end is not None:
            end(view(state, seat))
    return state


def _hook(agent: Agent, name: str) -> Callable[[View], object] | None:
    """The agent's ``start`` or ``finish`` method, or ``None`` (``hasattr`` first: an agent
    without one is the rule, and a compiled ``getattr`` that misses builds an exception)."""
    return getattr(agent, name) if hasattr(agent, name) else None


def play_match(
    match: Match,
    agents: Sequence[Agent],
    on_step: Callable[[int, Action, tuple[Event, ...], State[Any]], None] | None = None,
    on_hand: Callable[[Match], None] | None = None,
) -> Match:
    """Play ``match`` to its end with one agent per seat (the same agents for every hand).

    New hands are dealt from the match seed. ``on_step`` is called after every action (as in
    :func:`play_hand`), ``on_hand(match)`` when a hand starts and when it ends.
    """
    while True:
        if match.needs_deal:
            match = match.next_hand()
        if on_hand is not None and match.current.initial is match.current:
            on_hand(match)
        match = match.with_current(play_hand(match.current, agents, on_step))
        if on_hand is not None:
            on_hand(match)
        if match.is_over:
            return match
