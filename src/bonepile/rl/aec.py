"""The PettingZoo AEC environment: one bonepile game, every seat an agent, turn by turn."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from bonepile.errors import IllegalActionError
from bonepile.games import Game
from bonepile.match import Match, new_match
from bonepile.render import render_match, render_state
from bonepile.rl.encoding import ActionCodec, resolve
from bonepile.rl.observation import HISTORY, Observer
from bonepile.state import State
from bonepile.view import View

Reward = Literal["win", "points"]


def hand_rewards(final: State[Any], reward: Reward) -> list[float]:
    """Each seat's reward for the finished hand ``final``: ``win`` +1 for a winner, -1 for the
    others (0 for all when nobody wins); ``points`` the points the hand scored each seat
    (``State.hand_points``: in a board game, its score track)."""
    result = final.result
    assert result is not None, "the hand is not over"
    players = final.players
    if reward == "points":
        return [float(p) for p in final.hand_points]
    if not result.winners:
        return [0.0] * players
    won = set(result.winners)
    return [1.0 if s in won else -1.0 for s in range(players)]


class DominoesEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment of one game (``bonepile.rl.env(...)`` makes one).

    Agents ``player_0`` .. ``player_{n-1}`` are the seats; the agent to act is the seat to
    act (a seat may act several times in a row: a draw, an extra turn). Observations are
    :class:`~bonepile.rl.observation.Observer` dicts (with ``action_mask``), actions the
    indices of :class:`~bonepile.rl.encoding.ActionCodec`. An episode is a hand, or with
    ``match=True`` a match (hands dealt from the match seed until the target score). Rewards
    come at the end of each hand (``reward``: ``win`` or ``points``) and, in a match, a further
    ``match_reward`` (+ for the match winners, - for the others) at its end. ``render()`` draws
    the position with :mod:`bonepile.render` (every hand shown): ``render_mode`` ``ansi``
    returns the text, ``human`` prints it.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "bonepile_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game[Any],
        players: int = 2,
        options: Mapping[str, Any] | Any = None,
        *,
        match: bool = False,
        reward: Reward = "win",
        match_reward: float = 1.0,
        history: int = HISTORY,
        board: Any = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        g, self.options = resolve(game, options, players)
        self.game = g
        self.players = players
        if reward not in ("win", "points"):
            raise ValueError(f"reward must be 'win' or 'points', got {reward!r}")
        self.reward_kind: Reward = reward
        self.match_mode = match
        self.match_reward = float(match_reward)
        self.board = board
        self.render_mode = render_mode
        probe = self._new_hand(0)
        b = getattr(probe.layout, "board", None)
        self.observer = Observer(g, players, self.options, board=b, history=history)
        self.codec: ActionCodec = self.observer.codec
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {a: self.observer.space for a in self.possible_agents}
        action = spaces.Discrete(self.codec.size)
        self.action_spaces = {a: action for a in self.possible_agents}
        self.state_: State[Any] | None = None
        self.match_: Match | None = None
        self._rng = random.Random()
        self._views: dict[int, View] = {}

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space (the same object for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(codec.size)``."""
        return self.action_spaces[agent]

    # ----------------------------------------------------------------- episode
    def _new_hand(self, seed: int) -> State[Any]:
        return self.game.new(self.players, options=self.options, seed=seed, board=self.board)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (or start a new match) from ``seed`` (random when ``None``)."""
        if seed is not None:
            self._rng.seed(seed)
        deal_seed = self._rng.getrandbits(63)
        if self.match_mode:
            m = new_match(self.game, self.players, options=self.options, seed=deal_seed)
            self.match_ = m.next_hand() if m.needs_deal else m
            self.state_ = self.match_.current
        else:
            self.state_ = self._new_hand(deal_seed)
        self.observer.reset()
        self._views = {}
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        actor = self.state_.actor
        assert actor is not None
        self.agent_selection = self.possible_agents[actor]

    def view(self, seat: int) -> View:
        """The current view of ``seat`` (what it may know)."""
        assert self.state_ is not None, "call reset() first"
        v = self._views.get(seat)
        if v is None:
            v = self._views[seat] = View.of(self.state_, seat)
        return v

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation of ``agent``, built from its view alone."""
        return self.observer.observe(self.view(self.possible_agents.index(agent)))

    def step(self, action: int | None) -> None:
        """Play the action with index ``action`` for the agent to act (``None`` once the
        episode is over, as PettingZoo removes the agents)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        assert state is not None, "call reset() first"
        act = self.codec.decode(int(action))  # type: ignore[arg-type]
        legal = state.legal_actions()
        if act not in legal:
            raise IllegalActionError(f"{act} (action {action}) is not legal here")
        self._cumulative_rewards[agent] = 0.0
        state, _ = state.step(act)
        self._views = {}
        rewards = dict.fromkeys(self.agents, 0.0)
        if state.result is not None:
            for s, r in enumerate(hand_rewards(state, self.reward_kind)):
                rewards[self.possible_agents[s]] = r
            if self.match_ is not None:
                self.match_ = self.match_.with_current(state)
                if self.match_.is_over:
                    won = set(self.match_.winners)
                    for s, a in enumerate(self.possible_agents):
                        rewards[a] += self.match_reward if s in won else -self.match_reward
                    self.terminations = dict.fromkeys(self.agents, True)
                else:
                    self.match_ = self.match_.next_hand()
                    state = self.match_.current
                    self.observer.reset()
            else:
                self.terminations = dict.fromkeys(self.agents, True)
        self.state_ = state
        self.rewards = rewards
        self._accumulate_rewards()
        if state.actor is not None:
            self.agent_selection = self.possible_agents[state.actor]
        if self.render_mode == "human":
            self.render()

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The legal actions of ``agent`` (by default the agent to act) as a 0/1 vector."""
        seat = self.possible_agents.index(agent or self.agent_selection)
        mask = np.zeros(self.codec.size, dtype=np.int8)
        v = self.view(seat)
        for a in v.legal:
            mask[self.codec.index[a]] = 1
        return mask

    def render(self) -> str | None:
        """The position as text (every hand shown); printed in ``human`` mode."""
        if self.state_ is None:
            return None
        if self.match_ is not None:
            text = render_match(self.match_.with_current(self.state_))
        else:
            text = render_state(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> np.ndarray:
        """Not offered: a global state would show every hand."""
        raise NotImplementedError("bonepile environments give each seat its own view only")
