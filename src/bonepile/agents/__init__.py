"""Agents: players that see only their seat's :class:`~bonepile.view.View`.

An agent is any object with ``act(view) -> Action`` (see :class:`Agent`). The runners build the
views with :func:`bonepile.view.view`, so an agent can never reach hidden tiles. The agents that
ship: :class:`RandomAgent`, :class:`CasualAgent` (a person learning the game),
:class:`GreedyAgent`, :class:`ISMCTSAgent` (search over worlds
sampled by :class:`Sampler`) and :class:`ExternalAgent` (a program speaking the bot protocol);
:func:`make_agent` builds them from names such as ``ismcts:hard``.
"""

from __future__ import annotations

from bonepile.agents.base import Agent, RandomAgent, play_hand, play_match
from bonepile.agents.casual import CasualAgent
from bonepile.agents.external import AgentForfeit, ExternalAgent
from bonepile.agents.greedy import GreedyAgent
from bonepile.agents.ismcts import LEVELS, ISMCTSAgent
from bonepile.agents.registry import make_agent
from bonepile.agents.sampler import Sampler, SamplingError, determinize

__all__ = [
    "LEVELS",
    "Agent",
    "AgentForfeit",
    "CasualAgent",
    "ExternalAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "RandomAgent",
    "Sampler",
    "SamplingError",
    "determinize",
    "make_agent",
    "play_hand",
    "play_match",
]
