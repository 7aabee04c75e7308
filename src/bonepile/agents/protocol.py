"""The :class:`Agent` protocol (its own module: :mod:`bonepile.agents.base`, which plays with
agents, is compiled in the fast build, and a compiled class cannot be a runtime protocol)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from bonepile.actions import Action
    from bonepile.view import View


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
