"""Agents by name, as the command line and the arena write them.

* ``random``, ``casual`` (the game's greedy scores softened: a person learning the game,
  :mod:`bonepile.agents.casual`) and ``greedy``;
* ``ismcts`` (the default level, ``hard``), ``ismcts:easy`` / ``medium`` / ``hard`` /
  ``expert``, ``ismcts:500`` (iterations per move) or ``ismcts:2s`` (seconds per move), each
  optionally followed by search options: ``:belief=N`` (weigh the sampled worlds by the
  others' moves, N candidates a world; 0 is the uniform sampler), ``:rollout=game|random``,
  ``:objective=win|points`` (maximise the chance to win or the points margin; by default the
  game's: the points margin in block and Doubles, the chance to win in draw, Super Dominoes
  and Double Double Dominoes),
  ``:solve=N`` (two players: value positions with N tiles or fewer in the hands exactly),
  ``:pool=N`` (sampled worlds a decision), ``:c=X`` (the UCB constant), ``:prior=FILE|greedy``
  and ``:pw=X`` (a policy's probabilities at the root, and their weight), ``:value=FILE`` and
  ``:vw=X`` (a policy file's value head at the leaves, and its share beside the rollout, 0 to
  1; a search with ``value=`` plays for the win, what the value estimates), ``:model=FILE``
  (a policy file as the model of the players ``belief`` weighs the worlds by); e.g.
  ``ismcts:expert:belief=0`` is expert's budget without the weighting;
* ``policy:FILE`` plays a trained policy file (``bonepile.rl.policy``; needs the ``rl``
  extra: numpy, no torch);
* ``external:COMMAND`` runs COMMAND and speaks the bot protocol with it (docs/bots.md); its
  program must exist and be executable (checked when the agent is made, not started).
"""

from __future__ import annotations

import importlib
import math
import re
import shlex
from typing import Any

from bonepile.agents.base import Agent, RandomAgent
from bonepile.agents.casual import CasualAgent
from bonepile.agents.greedy import GreedyAgent, greedy_prior
from bonepile.agents.ismcts import LEVELS, MAX_BELIEF, OBJECTIVES, ROLLOUTS, ISMCTSAgent
from bonepile.errors import OptionError, quoted, shown

NAMES = ("random", "casual", "greedy", "ismcts", "policy", "external")
"""The kinds of agent :func:`make_agent` builds."""

_NUMBER = re.compile(r"^\d{1,9}(?:\.\d{1,9})?$", re.ASCII)
_KNOBS = (
    "belief",
    "rollout",
    "pool",
    "c",
    "objective",
    "solve",
    "prior",
    "pw",
    "value",
    "vw",
    "model",
)

_SECONDS = re.compile(r"^(\d{1,9}(?:\.\d{1,9})?)s$", re.ASCII)

MAX_SOLVE = 30
"""The most tiles left in the hands for ``solve=N``."""

MAX_ITERATIONS = 10**9
"""The most iterations a move an ``ismcts:N`` agent may be given."""

MAX_SECONDS = 3600.0
"""The most seconds a move an ``ismcts:Ns`` agent may be given."""


def make_agent(spec: str, seed: int = 0, *, move_time: float | None = None) -> Agent:
    """The agent named by ``spec`` (see the module docstring), seeded with ``seed``.

    ``move_time`` is an external bot's time limit per decision in seconds (positive and
    finite; by default 10 s); the built-in agents ignore it. ``OptionError`` (one line) for a
    bad spec, a bad ``move_time`` or an external command whose program cannot start.
    """
    if move_time is not None and (
        isinstance(move_time, bool)
        or not isinstance(move_time, int | float)
        or not math.isfinite(move_time)
        or move_time <= 0
    ):
        raise OptionError(
            f"the time per move must be a positive number of seconds, got {shown(move_time)}"
        )
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(
            f"an agent is a name like random, casual, greedy or ismcts:hard, got {quoted(spec)}"
        )
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "random" and not arg:
        return RandomAgent(seed)
    if kind == "casual" and not arg:
        return CasualAgent(seed)
    if kind == "greedy" and not arg:
        return GreedyAgent(seed)
    if kind == "ismcts":
        arg, *extra = arg.split(":") if arg else [""]
        knobs = _knobs(extra)
        if not arg:
            return ISMCTSAgent(seed, **knobs)
        if arg in LEVELS:
            return ISMCTSAgent(seed, level=arg, **knobs)
        # (the length first: no int() of a huge number)
        if arg.isascii() and arg.isdigit() and len(arg) <= 10 and 0 < int(arg) <= MAX_ITERATIONS:
            return ISMCTSAgent(seed, iterations=int(arg), **knobs)
        m = _SECONDS.match(arg)
        if m and 0 < float(m.group(1)) <= MAX_SECONDS:
            return ISMCTSAgent(seed, seconds=float(m.group(1)), **knobs)
        raise OptionError(
            f"ismcts takes a level ({', '.join(LEVELS)}), iterations (ismcts:500, at most "
            f"{MAX_ITERATIONS:,}) or seconds (ismcts:2s, at most {MAX_SECONDS:g}), "
            f"got {quoted(arg)}"
        )
    if kind == "policy":
        if not arg:
            raise OptionError("policy needs a file: policy:examples/rl/block2.npz")
        try:
            # imported by name: the compiled build's type check, which has no numpy or
            # gymnasium, must not follow this import into bonepile.rl
            policy = importlib.import_module("bonepile.rl.policy")
        except ImportError as e:
            raise OptionError(
                f"policy agents need the rl extra (pip install 'bonepile[rl]'): {e}"
            ) from None
        agent: Agent = policy.PolicyAgent(arg, seed)
        return agent
    if kind == "external":
        from bonepile.agents.external import (
            MOVE_TIMEOUT,
            START_TIMEOUT,
            ExternalAgent,
            check_command,
        )

        try:
            command = shlex.split(arg)
        except ValueError as e:
            raise OptionError(f"external: cannot read the command {quoted(arg)}: {e}") from None
        if not command:
            raise OptionError("external needs a command: external:python3 my_bot.py")
        check_command(command)
        timeout = MOVE_TIMEOUT if move_time is None else float(move_time)
        return ExternalAgent(
            command,
            seed=seed,
            move_timeout=timeout,
            start_timeout=max(START_TIMEOUT, timeout),
        )
    raise OptionError(
        f"unknown agent {quoted(spec)} "
        "(agents: random, casual, greedy, ismcts[:level|:N|:Ns], policy:FILE, "
        "external:COMMAND)"
    )


def _knobs(extra: list[str]) -> dict[str, Any]:
    """The search options after the budget (``ismcts:hard:belief=0:rollout=random``)."""
    out: dict[str, Any] = {}
    for item in extra:
        key, eq, value = item.partition("=")
        if not eq or key in out or key not in _KNOBS:
            raise OptionError(
                f"ismcts options are belief=N (0 to {MAX_BELIEF}), rollout=NAME "
                f"({', '.join(ROLLOUTS)}), objective=NAME ({', '.join(OBJECTIVES)}), pool=N, "
                f"solve=N (0 to {MAX_SOLVE}), c=X, prior=FILE|greedy, pw=X, value=FILE, "
                f"vw=X and model=FILE, each once, got {quoted(item)}"
            )
        if key == "rollout":
            if value not in ROLLOUTS:
                raise OptionError(
                    f"ismcts rollout is one of {', '.join(ROLLOUTS)}, got {quoted(value)}"
                )
            out[key] = value
        elif key == "objective":
            if value not in OBJECTIVES:
                raise OptionError(
                    f"ismcts objective is one of {', '.join(OBJECTIVES)}, got {quoted(value)}"
                )
            out[key] = value
        elif key == "prior" and value == "greedy":
            out["prior"] = greedy_prior
        elif key == "prior":
            out["prior"] = _policy_agent(key, value).probabilities
        elif key == "model":
            out["model"] = _policy_agent(key, value).loglik
        elif key == "value":
            agent = _policy_agent(key, value)
            if agent.policy.value_head is None:
                raise OptionError(f"ismcts value=: {value} has no value head")
            out["value"] = agent.value
        elif key == "vw":
            x = float(value) if _NUMBER.match(value) else -1.0
            if not 0 <= x <= 1:
                raise OptionError(f"ismcts vw is a number from 0 to 1, got {quoted(value)}")
            out["value_weight"] = x
        elif key == "pw":
            x = float(value) if _NUMBER.match(value) else -1.0
            if not 0 <= x <= 100:
                raise OptionError(f"ismcts pw is a number from 0 to 100, got {quoted(value)}")
            out["prior_weight"] = x
        elif key == "c":
            x = float(value) if _NUMBER.match(value) else -1.0
            if not 0 <= x <= 100:
                raise OptionError(f"ismcts c is a number from 0 to 100, got {quoted(value)}")
            out["exploration"] = x
        else:
            top = {"belief": MAX_BELIEF, "solve": MAX_SOLVE}.get(key, 100_000)
            low = 0 if key in ("belief", "solve") else 1
            if not (value.isascii() and value.isdigit() and len(value) <= 6) or not (
                low <= int(value) <= top
            ):
                raise OptionError(
                    f"ismcts {key} is a whole number from {low} to {top}, got {quoted(value)}"
                )
            out[key] = int(value)
    if "value" in out and out.get("objective", "win") != "win":
        raise OptionError("ismcts value= estimates the chance to win: it needs objective=win")
    if "model" in out and out.get("belief") == 0:
        raise OptionError("ismcts model= is what belief weighs the deals by: belief=0 ignores it")
    if "value_weight" in out and "value" not in out:
        raise OptionError("ismcts vw= is the share of value=FILE: give value= too")
    return out


def _policy_agent(key: str, path: str) -> Any:
    """The policy file ``path`` as an agent, for the search option ``key``."""
    try:  # by name, as for policy: (the compiled build's type check has no numpy)
        policy = importlib.import_module("bonepile.rl.policy")
    except ImportError as e:
        raise OptionError(
            f"ismcts {key}= needs the rl extra ({e.name} is missing): pip install 'bonepile[rl]'"
        ) from None
    return policy.PolicyAgent(path)


def agent_name(spec: str) -> str:
    """A short display name for ``spec``."""
    kind, _, arg = spec.strip().partition(":")
    if kind.lower() == "external":
        parts = shlex.split(arg) if arg else []
        return "external:" + (parts[-1].rsplit("/", 1)[-1] if parts else "?")
    if kind.lower() == "policy":
        return "policy:" + arg.rsplit("/", 1)[-1]
    return spec.strip()
