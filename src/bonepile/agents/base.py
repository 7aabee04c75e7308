"""The :class:`Agent` protocol, the random agent and runners that play a hand or a match."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from bonepile.actions import Action
from bonepile.events import Event
from bonepile.match import Match
from bonepile.state import State
from bonepile.view import View, view


@runtime_checkable
class Agent(Protocol):
    """A player. It is handed its seat's view (with the legal actions) and returns one of them.

    Views are cheap whatever the agent reads (the history is shared, never replayed). An
    agent may also define ``start(view)`` and ``finish(view)``: the runners call them when
    each hand begins and ends (the final view shows every hand), so an agent can keep memory
    across the hands of a match.
    """

    def act(self, view: View) -> Action:
        """Choose one of ``view.legal``."""
        ...


class RandomAgent:
    """Chooses uniformly among the legal actions, reproducibly from its seed."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        return self.rng.choice(view.legal)


def play_hand(
    state: State[Any],
    agents: Sequence[Agent],
    on_step: Callable[[int, Action, tuple[Event, ...], State[Any]], None] | None = None,
) -> State[Any]:
    """Play ``state`` to the end of the hand with one agent per seat; return the final state.

    ``on_step(seat, action, events, new_state)`` is called after every action. Agents with
    ``start``/``finish`` methods are told when the hand begins and ends.
    """
    for seat, agent in enumerate(agents):
        begin = getattr(agent, "start", None)
        if begin is not None:
            begin(view(state, seat))
    while state.actor is not None:
        seat = state.actor
        agent = agents[seat]
        v = view(state, seat)
        action = agent.act(v)
        state, events = state.step(action)  # keeps every seat's history: no view replays
        if on_step is not None:
            on_step(seat, action, events, state)
    for seat, agent in enumerate(agents):
        end = getattr(agent, "finish", None)
        if end is not None:
            end(view(state, seat))
    return state


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
