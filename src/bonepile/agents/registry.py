"""Agents by name, as the command line and the arena write them.

* ``random`` and ``greedy``;
* ``ismcts`` (the default level, ``hard``), ``ismcts:easy`` / ``medium`` / ``hard``,
  ``ismcts:500`` (iterations per move) or ``ismcts:2s`` (seconds per move);
* ``external:COMMAND`` runs COMMAND and speaks the bot protocol with it (docs/bots.md).
"""

from __future__ import annotations

import re
import shlex

from bonepile.agents.base import Agent, RandomAgent
from bonepile.agents.greedy import GreedyAgent
from bonepile.agents.ismcts import LEVELS, ISMCTSAgent
from bonepile.errors import OptionError

NAMES = ("random", "greedy", "ismcts", "external")
"""The kinds of agent :func:`make_agent` builds."""

_SECONDS = re.compile(r"^(\d+(?:\.\d+)?)s$")


def make_agent(spec: str, seed: int = 0) -> Agent:
    """The agent named by ``spec`` (see the module docstring), seeded with ``seed``."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"an agent is a name like random, greedy or ismcts:hard, got {spec!r}")
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "random" and not arg:
        return RandomAgent(seed)
    if kind == "greedy" and not arg:
        return GreedyAgent(seed)
    if kind == "ismcts":
        if not arg:
            return ISMCTSAgent(seed)
        if arg in LEVELS:
            return ISMCTSAgent(seed, level=arg)
        if arg.isdigit() and int(arg) > 0:
            return ISMCTSAgent(seed, iterations=int(arg))
        m = _SECONDS.match(arg)
        if m and float(m.group(1)) > 0:
            return ISMCTSAgent(seed, seconds=float(m.group(1)))
        raise OptionError(
            f"ismcts takes a level ({', '.join(LEVELS)}), iterations (ismcts:500) or seconds "
            f"(ismcts:2s), got {arg!r}"
        )
    if kind == "external":
        from bonepile.agents.external import ExternalAgent

        try:
            command = shlex.split(arg)
        except ValueError as e:
            raise OptionError(f"external: cannot read the command {arg!r}: {e}") from None
        if not command:
            raise OptionError("external needs a command: external:python3 my_bot.py")
        return ExternalAgent(command, seed=seed)
    raise OptionError(
        f"unknown agent {spec!r} (agents: random, greedy, ismcts[:level|:N|:Ns], external:COMMAND)"
    )


def agent_name(spec: str) -> str:
    """A short display name for ``spec``."""
    kind, _, arg = spec.strip().partition(":")
    if kind.lower() == "external":
        parts = shlex.split(arg) if arg else []
        return "external:" + (parts[-1].rsplit("/", 1)[-1] if parts else "?")
    return spec.strip()
