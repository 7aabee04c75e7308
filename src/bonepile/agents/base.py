"""The random agent and the runners that play a hand or a match with agents (and, from
:mod:`bonepile.agents.protocol`, the :class:`Agent` protocol)."""

from __future__ import annotations

import random
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

_RANDOM: Final = random.Random
_GETRANDBITS: Final = random.Random.getrandbits
"""Called unbound on a plain ``Random`` (a method lookup by name costs more than the draw)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent:
    """Chooses uniformly among the legal actions, reproducibly from its seed: the choices of
    ``rng.choice(view.legal)``, made without its Python call when ``rng`` is a plain
    :class:`random.Random` (the same draws from it, the same action)."""

    rng: random.Random

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        legal = view.legal
        rng = self.rng
        n = len(legal)
        if n == 0 or type(rng) is not _RANDOM:
            return rng.choice(legal)
        k = n.bit_length()  # random.Random._randbelow_with_getrandbits, as choice uses it
        r = _GETRANDBITS(rng, k)
        while r >= n:
            r = _GETRANDBITS(rng, k)
        return legal[r]


def play_hand(
    state: State[Any],
    agents: Sequence[Agent],
    on_step: Callable[[int, Action, tuple[Event, ...], State[Any]], None] | None = None,
) -> State[Any]:
    """Play ``state`` to the end of the hand with one agent per seat; return the final state.

    ``on_step(seat, action, events, new_state)`` is called after every action. Agents with
    ``start``/``finish`` methods are told when the hand begins and ends. Without ``on_step``
    nobody sees the positions in between, so the hand is played on one private state changed
    in place (as :meth:`State.playout` does): the same moves, history and views as step by step.
    """
    for seat, agent in enumerate(agents):
        begin = _hook(agent, "start")
        if begin is not None:
            begin(view(state, seat))
    if on_step is None and state.actor is not None:
        # Nobody sees the positions in between: play on one private state, changed in place.
        state = state._private()
        turn = state._actor
        while turn is not None:
            state._act_in_place(agents[turn].act(View.of(state, turn)))
            turn = state._actor
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
