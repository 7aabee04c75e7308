"""Agents: players that see only their seat's :class:`~bonepile.view.View`.

An agent is any object with ``act(view) -> Action`` (see :class:`Agent`). The runner builds the
view with :func:`bonepile.view.view`, so an agent can never reach hidden tiles.
"""

from __future__ import annotations

from bonepile.agents.base import Agent, RandomAgent, play_hand, play_match

__all__ = ["Agent", "RandomAgent", "play_hand", "play_match"]
