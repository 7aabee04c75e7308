"""Reinforcement-learning environments for every bonepile game (the ``rl`` extra).

* :func:`env` makes a PettingZoo AEC environment (:class:`~bonepile.rl.aec.DominoesEnv`);
* :class:`~bonepile.rl.single.SingleAgentEnv` is a Gymnasium environment where one seat
  learns and bonepile agents hold the others (``action_masks()`` for MaskablePPO);
* :class:`~bonepile.rl.vector.BatchEnv` steps many games at once, :func:`~bonepile.rl.vector.
  vector_env` runs copies of the single-agent environment in processes;
* :class:`~bonepile.rl.encoding.ActionCodec` is the fixed action encoding,
  :class:`~bonepile.rl.observation.Observer` the observation built from ``view()`` only;
* :class:`~bonepile.rl.policy.PolicyAgent` plays a trained network (numpy, no torch) as an
  ordinary agent, ``policy:FILE`` on the command line.

docs/rl.md describes them all.
"""

from __future__ import annotations

from typing import Any

from bonepile.rl.aec import DominoesEnv, hand_rewards
from bonepile.rl.encoding import ActionCodec, EncodingError, codec_for
from bonepile.rl.observation import HISTORY, Observer, public_fields
from bonepile.rl.policy import Policy, PolicyAgent
from bonepile.rl.single import SingleAgentEnv
from bonepile.rl.vector import BatchEnv, vector_env


def env(game: str, players: int = 2, options: Any = None, **kwargs: Any) -> DominoesEnv:
    """A PettingZoo AEC environment of ``game`` for ``players`` seats with ``options`` (a
    mapping or the game's options object); ``kwargs`` go to :class:`DominoesEnv` (``match``,
    ``reward``, ``match_reward``, ``history``, ``board``, ``render_mode``)."""
    return DominoesEnv(game, players, options, **kwargs)


__all__ = [
    "HISTORY",
    "ActionCodec",
    "BatchEnv",
    "DominoesEnv",
    "EncodingError",
    "Observer",
    "Policy",
    "PolicyAgent",
    "SingleAgentEnv",
    "codec_for",
    "env",
    "hand_rewards",
    "public_fields",
    "vector_env",
]
