"""Many games at once: a batch API in one process, and Gymnasium vector environments.

:class:`BatchEnv` holds ``n`` hands of one game and steps them together: every call takes one
action index per game (for whichever seat is to act there) and returns the stacked
observations of the seats to act next, their masks, the rewards of every seat and which
hands ended (those are dealt again at once, from the batch's seed). It is the self-play
loop's shape: one network can choose for every game in one forward pass.

:func:`vector_env` runs ``n`` copies of :class:`~bonepile.rl.single.SingleAgentEnv` as a
Gymnasium vector environment, in worker processes (``processes=True``) or in this one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

from bonepile.games import Game
from bonepile.rl.aec import Reward, hand_rewards
from bonepile.rl.encoding import resolve
from bonepile.rl.observation import HISTORY, Observer
from bonepile.state import State
from bonepile.view import View


class BatchEnv:
    """``n`` hands of ``game`` stepped together (see the module docstring).

    ``reset(seed)`` deals them and returns ``(obs, actors)``: ``obs`` a dict of arrays with a
    leading axis of ``n`` (the observation of the seat to act in each game, ``action_mask``
    included), ``actors`` the seat to act in each. ``step(actions)`` returns ``(obs, actors,
    rewards, done)``: ``rewards`` of shape ``(n, players)`` (non-zero when a hand ended),
    ``done`` which hands ended (and were dealt again).
    """

    def __init__(
        self,
        game: str | Game[Any],
        players: int = 2,
        options: Mapping[str, Any] | Any = None,
        *,
        n: int = 16,
        reward: Reward = "win",
        history: int = HISTORY,
        board: Any = None,
    ) -> None:
        g, self.options = resolve(game, options, players)
        self.game = g
        self.players = players
        self.n = n
        self.board = board
        self.reward_kind: Reward = reward
        probe = g.new(players, options=self.options, seed=0, board=board)
        b = getattr(probe.layout, "board", None)
        self.observers = [
            Observer(g, players, self.options, board=b, history=history) for _ in range(n)
        ]
        self.codec = self.observers[0].codec
        self.space = self.observers[0].space
        self.states: list[State[Any]] = []
        self._rng = random.Random()

    def _deal(self, i: int) -> State[Any]:
        self.observers[i].reset()
        return self.game.new(
            self.players, options=self.options, seed=self._rng.getrandbits(63), board=self.board
        )

    def _collect(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        obs = []
        actors = np.empty(self.n, dtype=np.int64)
        for i, s in enumerate(self.states):
            assert s.actor is not None
            actors[i] = s.actor
            obs.append(self.observers[i].observe(View.of(s, s.actor)))
        return {k: np.stack([o[k] for o in obs]) for k in obs[0]}, actors

    def reset(self, seed: int | None = None) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Deal ``n`` hands (from ``seed``)."""
        if seed is not None:
            self._rng.seed(seed)
        self.states = [self._deal(i) for i in range(self.n)]
        return self._collect()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions[i]`` (an index) in game ``i``; deal again the hands that end."""
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        decode = self.codec.decode
        for i, a in enumerate(np.asarray(actions).tolist()):
            s = self.states[i]
            act = decode(a)
            if act not in s.legal_actions():
                raise ValueError(f"game {i}: {act} (action {a}) is not legal here")
            s, _ = s.step(act)
            if s.result is not None:
                rewards[i] = hand_rewards(s, self.reward_kind)
                done[i] = True
                s = self._deal(i)
            self.states[i] = s
        obs, actors = self._collect()
        return obs, actors, rewards, done


def vector_env(
    n: int,
    game: str,
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    *,
    processes: bool = True,
    **kwargs: Any,
) -> AsyncVectorEnv | SyncVectorEnv:
    """``n`` copies of :class:`~bonepile.rl.single.SingleAgentEnv` (``kwargs`` go to it) as a
    Gymnasium vector environment: ``AsyncVectorEnv`` (one process each) when ``processes``,
    else ``SyncVectorEnv``. Masks come in ``info["action_mask"]``."""
    from bonepile.rl.single import SingleAgentEnv

    def make() -> SingleAgentEnv:
        return SingleAgentEnv(game, players, options, **kwargs)

    fns = [make] * n
    if processes:
        return AsyncVectorEnv(fns, context="spawn")
    return SyncVectorEnv(fns)
