"""The :class:`Agent` protocol, the random agent and a runner that plays one hand."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from bonepile.actions import Action
from bonepile.events import Event
from bonepile.state import State
from bonepile.view import View, view


@runtime_checkable
class Agent(Protocol):
    """A player. It is handed its seat's view (with the legal actions) and returns one of them.

    ``needs_history`` tells the runner whether the agent reads ``view.history``; an agent that
    does not (like :class:`RandomAgent`) is given views with an empty history, which is faster.
    """

    needs_history: bool

    def act(self, view: View) -> Action:
        """Choose one of ``view.legal``."""
        ...


class RandomAgent:
    """Chooses uniformly among the legal actions, reproducibly from its seed."""

    needs_history = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        return self.rng.choice(view.legal)


def play_hand(
    state: State,
    agents: Sequence[Agent],
    on_step: Callable[[int, Action, tuple[Event, ...], State], None] | None = None,
) -> State:
    """Play ``state`` to the end of the hand with one agent per seat; return the final state.

    ``on_step(seat, action, events, new_state)`` is called after every action.
    """
    while state.actor is not None:
        seat = state.actor
        agent = agents[seat]
        v = view(state, seat, history=getattr(agent, "needs_history", True))
        action = agent.act(v)
        if on_step is None:
            state = state.apply(action)
        else:
            state, events = state.step(action)
            on_step(seat, action, events, state)
    return state
