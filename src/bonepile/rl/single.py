"""A Gymnasium environment where one seat learns and bonepile agents play the others."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from bonepile.agents.protocol import Agent
from bonepile.agents.registry import make_agent
from bonepile.errors import IllegalActionError
from bonepile.games import Game
from bonepile.render import render_state
from bonepile.rl.aec import Reward, hand_rewards
from bonepile.rl.encoding import resolve
from bonepile.rl.observation import HISTORY, Observer
from bonepile.state import State
from bonepile.view import View


class SingleAgentEnv(gym.Env[Any, np.int64]):
    """One hand of ``game`` a episode, seen by the learning seat; the other seats are played by
    bonepile agents (specs such as ``random``, ``greedy``, ``ismcts:easy``, ``policy:FILE``,
    or agent objects), one for every other seat or one spec for all.

    ``seat`` is the learner's seat, or ``None`` for a random seat each hand. Observations are
    the flat vectors of :class:`~bonepile.rl.observation.Observer` (``flat=False``: its dicts,
    ``action_mask`` included); :meth:`action_masks` gives the legal actions, as
    ``sb3_contrib.MaskablePPO`` expects. The reward (``win`` or ``points``) comes when the hand
    ends (a hand that ends before the learner's first decision is dealt again). ``info``
    holds ``action_mask`` and, at the end, ``result``. An illegal action ends the episode
    with reward ``illegal_reward`` and ``info["illegal"]`` (``illegal="raise"``: raises
    :class:`~bonepile.errors.IllegalActionError` instead).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any],
        players: int = 2,
        options: Mapping[str, Any] | Any = None,
        *,
        opponents: str | Agent | Sequence[str | Agent] = "random",
        seat: int | None = 0,
        reward: Reward = "win",
        flat: bool = True,
        illegal: str = "end",
        illegal_reward: float = -1.0,
        history: int = HISTORY,
        board: Any = None,
        render_mode: str | None = None,
    ) -> None:
        g, self.options = resolve(game, options, players)
        self.game = g
        self.players = players
        self.board = board
        self.reward_kind: Reward = reward
        self.fixed_seat = seat
        if illegal not in ("end", "raise"):
            raise ValueError(f"illegal must be 'end' or 'raise', got {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.flat = flat
        self.render_mode = render_mode
        probe = g.new(players, options=self.options, seed=0, board=board)
        self.observer = Observer(
            g, players, self.options, board=getattr(probe.layout, "board", None), history=history
        )
        self.codec = self.observer.codec
        specs = [opponents] * (players - 1) if isinstance(opponents, str | Agent) else opponents
        if len(specs) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, got {len(specs)}")
        self._specs = list(specs)
        self.opponents: list[Agent] = [
            make_agent(s, seed=i) if isinstance(s, str) else s for i, s in enumerate(specs)
        ]
        self.action_space = spaces.Discrete(self.codec.size)
        self.observation_space: Any = self.observer.flat_space() if flat else self.observer.space
        self.state_: State[Any] | None = None
        self.seat = 0 if seat is None else seat
        self._agents: list[Agent | None] = []
        self._view: View | None = None
        self._rng = random.Random()

    # ----------------------------------------------------------------- episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a hand (from ``seed``), let the others play up to the learner's turn."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
            for i, spec in enumerate(self._specs):
                if isinstance(spec, str):  # reseed the agents made from specs
                    self.opponents[i] = make_agent(spec, seed=seed * 31 + i)
        rng = self._rng
        self.seat = rng.randrange(self.players) if self.fixed_seat is None else self.fixed_seat
        others = iter(self.opponents)
        self._agents = [None if s == self.seat else next(others) for s in range(self.players)]
        while True:  # a hand that ends before the learner has a decision is dealt again
            self.state_ = self.game.new(
                self.players, options=self.options, seed=rng.getrandbits(63), board=self.board
            )
            self.observer.reset()
            for s, agent in enumerate(self._agents):
                begin = getattr(agent, "start", None)
                if begin is not None:
                    begin(View.of(self.state_, s))
            self._advance()
            if self.state_.actor is not None:
                break
        obs, info = self._observe()
        return obs, info

    def _advance(self) -> None:
        """Let the other seats act until the learner's turn or the end of the hand."""
        state = self.state_
        assert state is not None
        while state.actor is not None and state.actor != self.seat:
            agent = self._agents[state.actor]
            assert agent is not None
            state, _ = state.step(agent.act(View.of(state, state.actor)))
        self.state_ = state
        self._view = View.of(state, self.seat)

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        assert self._view is not None
        obs = self.observer.observe(self._view)
        info: dict[str, Any] = {"action_mask": obs["action_mask"]}
        if self._view.result is not None:
            info["result"] = self._view.result
        return (self.observer.flat(obs) if self.flat else obs), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's action (an index), then the others' until its next turn."""
        state = self.state_
        assert state is not None and state.actor == self.seat, "call reset() first"
        act = self.codec.decode(int(action))
        if act not in state.legal_actions():
            if self.illegal == "raise":
                raise IllegalActionError(f"{act} (action {int(action)}) is not legal here")
            obs, info = self._observe()
            info["illegal"] = True
            return obs, self.illegal_reward, True, False, info
        self.state_, _ = state.step(act)
        self._advance()
        obs, info = self._observe()
        result = self.state_.result
        reward = 0.0
        if result is not None:
            reward = hand_rewards(self.state_, self.reward_kind)[self.seat]
            for s, agent in enumerate(self._agents):
                end = getattr(agent, "finish", None)
                if end is not None:
                    end(View.of(self.state_, s))
        if self.render_mode == "human":
            self.render()
        return obs, reward, result is not None, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a boolean vector (for MaskablePPO)."""
        mask = np.zeros(self.codec.size, dtype=bool)
        if self._view is not None:
            index = self.codec.index
            for a in self._view.legal:
                mask[index[a]] = True
        return mask

    def render(self) -> str | None:
        """The position as text (every hand shown); printed in ``human`` mode."""
        if self.state_ is None:
            return None
        text = render_state(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text
