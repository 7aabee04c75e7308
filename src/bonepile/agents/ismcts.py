"""Information-set Monte Carlo tree search that never looks at hidden tiles.

The agent sees only its seat's :class:`~bonepile.view.View`. For each decision it samples full
positions consistent with that view (:class:`~bonepile.agents.sampler.Sampler`: the unknown
tiles dealt so that the whole public history replays, the suits players showed they lack
included), then runs single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): every
iteration takes one sampled world, walks one shared tree of action sequences, choosing among
the actions legal in that world by UCB with availability counts, expands one node, finishes the
hand with random play and backs the result up, each node counting the reward of the seat that
moved into it. Other seats' hidden discards share a tree edge, so the tree does not branch on
what the searcher cannot see.

Budgets are iterations (reproducible: the same view and seed give the same move) or seconds per
move. Levels are iteration budgets, each measurably stronger than the one below.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from bonepile.actions import Action
from bonepile.agents.greedy import GreedyAgent, greedy_prior
from bonepile.agents.sampler import Sampler, SamplingError
from bonepile.agents.solver import EndgameSolver
from bonepile.games import get_game
from bonepile.heuristics import PlayHints
from bonepile.state import State
from bonepile.view import View, view

LEVELS: dict[str, int] = {"easy": 15, "medium": 60, "hard": 250, "expert": 1000}
"""Iterations per move for each named level. Which of them measurably beat the rung below in a
game is that game's ladder (``PlayHints.ladder``; docs/strength-notes.md)."""

LEVEL_BELIEF: dict[str, int] = {"expert": 4}
"""Levels that weigh their sampled worlds by the others' past moves: candidate worlds sampled
per world kept (see :meth:`ISMCTSAgent._worlds`). Iterations alone stop gaining beyond hard in
the two-player games; this is what makes expert stronger. A game may set its own expert
settings (``PlayHints.expert_pool`` and ``expert_belief``: draw and Super Dominoes sample
more worlds instead)."""

MAX_BELIEF = 64
"""The most candidate worlds per kept world (``belief``)."""

OBJECTIVES = ("win", "points")
"""What the search maximises: ``win`` the chance to win the hand (1 a win, 0 a loss, a hand
nobody wins a half), ``points`` the expected points margin (the seat's points less the mean of
the others', in units of the game's ``PlayHints.points_scale``)."""

ROLLOUTS = ("game", "random")
"""Rollout policies: the game's own (``hints.rollout``: mostly the heaviest tile in the line
games), or uniform random play."""

DEFAULT_LEVEL = "hard"


class _Node:
    __slots__ = ("avail", "children", "reward", "seen", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.seen: dict[int, tuple[State[Any], tuple[Action, ...], tuple[Action, ...]]] = {}


def resample(
    worlds: list[State[Any]], logliks: list[float], size: int, rng: random.Random
) -> list[State[Any]]:
    """``size`` of ``worlds`` drawn by systematic resampling with weights ``exp(loglik)``: each
    world about ``size * weight / total`` times, in their order (one random offset)."""
    top = max(logliks)
    weights = [math.exp(x - top) for x in logliks]
    step = math.fsum(weights) / size
    u = rng.random() * step
    out: list[State[Any]] = []
    acc = 0.0
    for w, weight in zip(worlds, weights, strict=True):
        acc += weight
        while u < acc and len(out) < size:
            out.append(w)
            u += step
    while len(out) < size:  # rounding: the last world fills up
        out.append(worlds[-1])
    return out


def _any(state: State[Any], rng: random.Random) -> Action:
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


def evaluate(
    state: State[Any],
    score: Callable[[State[Any]], list[float]] | None = None,
    scale: float | None = None,
) -> list[float]:
    """A finished hand's value to each seat (``score``, by default :func:`rewards`); for a
    running board game, who is ahead on the track: with a points ``scale`` (the points
    objective, :func:`margins`' units) each seat's lead over the mean of the others, else a
    logistic of its lead over the best of the others, 4 points a unit (a chance to win)."""
    if state.result is not None:
        return (score or rewards)(state)
    scores = state.hand_points
    if scale is not None:
        return spread(scores, scale)
    out = []
    for s, mine in enumerate(scores):
        best_other = max(v for o, v in enumerate(scores) if o != s)
        out.append(1.0 / (1.0 + math.exp(-(mine - best_other) / 4.0)))
    return out


def rewards(final: State[Any]) -> list[float]:
    """What a finished hand is worth to each seat: 1 to each winner, 0 to the others; a hand
    with no winner is worth the same to everyone."""
    result = final.result
    assert result is not None
    n = final.players
    if not result.winners:
        return [0.5] * n
    return [1.0 if s in result.winners else 0.0 for s in range(n)]


def margins(final: State[Any], scale: float) -> list[float]:
    """What a finished hand is worth to each seat in points (``State.hand_points``: in a
    board game, its track): its points less the mean of the others', divided by ``scale``
    (zero-sum: in two-player block, the points won or lost)."""
    assert final.result is not None
    return spread(final.hand_points, scale)


def spread(points: Sequence[int], scale: float) -> list[float]:
    """Each seat's ``points`` less the mean of the others', divided by ``scale``."""
    n = len(points)
    total = sum(points)
    return [(p - (total - p) / (n - 1)) / scale for p in points]


def most_visited(root: _Node, legal: tuple[Action, ...]) -> Action:
    """The search's move at ``root``: the legal action visited most (the first in ``legal``
    among equals)."""
    children = root.children
    return max(legal, key=lambda a: (children[a].visits if a in children else -1, -legal.index(a)))


class ISMCTSAgent:
    """Information-set MCTS. ``iterations`` per move (or ``seconds`` per move, if given).

    ``level`` names a budget (:data:`LEVELS`, and :data:`LEVEL_BELIEF`); ``exploration`` is the
    UCB constant; ``pool`` the sampled worlds a decision (by default the game's); ``belief``
    weighs the worlds by how likely the others' moves were in each (see :meth:`_worlds`; 0:
    every consistent deal the same, by default the level's); ``rollout`` is ``"game"`` (the
    game's rollout policy) or ``"random"`` (uniform random play); ``objective`` what the search
    maximises (:data:`OBJECTIVES`; ``None``: the game's, ``PlayHints.objective``, or the chance to
    win where a learned ``value`` is given, since that is what it estimates); ``solve``
    N > 0 values a two-player position with at most N tiles left in the hands exactly, by
    minimax in its world (:class:`~bonepile.agents.solver.EndgameSolver`), instead of by a
    rollout; ``prior`` and ``value`` are a learned policy's and value's estimates (see
    :attr:`prior` and :attr:`value`).
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        level: str | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        pool: int | None = None,
        belief: int | None = None,
        rollout: str = "game",
        objective: str | None = None,
        solve: int = 0,
        prior: Callable[[View], dict[Action, float]] | None = None,
        prior_weight: float = 4.0,
        value: Callable[[View], float] | None = None,
        value_weight: float = 0.5,
        model: Callable[[State[Any], Action], float] | None = None,
    ) -> None:
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {rollout!r} (rollouts: {', '.join(ROLLOUTS)})")
        if objective is not None and objective not in OBJECTIVES:
            raise ValueError(
                f"unknown objective {objective!r} (objectives: {', '.join(OBJECTIVES)})"
            )
        if value is not None and objective == "points":
            raise ValueError("a learned value estimates the chance to win: objective=win only")
        if not 0.0 <= value_weight <= 1.0:
            raise ValueError(f"value_weight is 0 to 1, got {value_weight!r}")
        if belief is not None and not 0 <= belief <= MAX_BELIEF:
            raise ValueError(f"belief is 0 to {MAX_BELIEF}, got {belief!r}")
        self.seed = seed
        name = level or DEFAULT_LEVEL
        self.iterations = iterations or LEVELS[name]
        self.seconds = seconds
        self.exploration = exploration
        self.pool = pool
        self.level = name if iterations is None and seconds is None else None
        """The level whose budget this is (``None``: iterations or seconds were given)."""
        self.belief = belief
        """The belief asked for (``None``: the level's, or the game's for expert; see
        :meth:`settings`)."""
        self.rollout = rollout
        self.objective = objective
        """The objective asked for (``None``: the game's, see :meth:`aim`)."""
        self.solve = solve
        self.prior = prior
        """A learned policy's probability of each legal move of a view (``None``: none). At
        the root, a move's value gains ``prior_weight * p / sqrt(1 + visits)``: the moves the
        policy likes are tried more while few playouts tell them apart."""
        self.prior_weight = prior_weight
        self.value = value
        """A learned estimate of the chance to win of the seat to move, 0 to 1, from its view
        (``None``: none). A leaf of the tree, a position of a sampled world, is then valued by
        ``value_weight`` times that estimate (made from the view the world gives the seat to
        move there: never more than the searcher's own view and the world it sampled) plus
        the rest times the rollout's result; the other seats share what the mover does not
        win."""
        self.value_weight = value_weight
        self.model = model
        """The model of the players ``belief`` weighs the sampled worlds by (``None``: the
        game's, ``PlayHints.model``): the log-probability that the mover of a full position
        of a sampled world plays an action."""
        self.last_iterations = 0
        """Iterations run for the last decision (a report for benchmarks and the arena)."""
        self.fallbacks = 0
        """Decisions for which no consistent world was found (then it plays the greedy move)."""
        self.name = f"ismcts:{level}" if level else f"ismcts:{self.iterations}"

    def _rng(self, view: View) -> random.Random:
        digest = hashlib.sha256(
            json.dumps(view.to_json(), sort_keys=True).encode() + str(self.seed).encode()
        ).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def act(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        started = time.perf_counter()  # a time budget counts the sampling and the prior too
        rng = self._rng(view)
        worlds = self._worlds(view, rng)
        if not worlds:  # no consistent deal found: play the greedy move rather than guess
            self.fallbacks += 1
            self.last_iterations = 0
            return GreedyAgent(self.seed).act(view)
        bias = self.root_prior(view)
        return most_visited(self.search(worlds, view.seat, rng, bias, started), legal)

    def estimates(self, view: View) -> list[tuple[Action, int, float]]:
        """Every legal action with the search's visits and mean reward for it (for the seat of
        ``view``: 0 to 1 when it plays to win, a points margin in ``points_scale`` units when
        it plays for points, see :meth:`aim`), best first: what the search bot thinks of each
        move from this view alone. Empty when no deal consistent with the view was found."""
        legal = view.legal
        rng = self._rng(view)
        worlds = self._worlds(view, rng)
        if not worlds:
            return []
        root = self.search(worlds, view.seat, rng, self.root_prior(view))
        out = []
        for a in legal:
            child = root.children.get(a)
            visits = 0 if child is None else child.visits
            mean = 0.0 if child is None or not visits else child.reward / visits
            out.append((a, visits, mean))
        out.sort(key=lambda e: (-e[1], -e[2]))
        return out

    def _worlds(self, view: View, rng: random.Random) -> list[State[Any]]:
        """Up to the pool size of sampled worlds. The sampler keeps what it learns, so the
        first world may take many tries and the others few; if a later one cannot be found,
        the search goes on with those it has.

        With ``belief`` k (and a game whose hints have a ``model`` of its players), k times the
        pool is sampled, each world weighed by the likelihood of the others' past moves under
        the model with the hands that world gives them, and the pool drawn from those by
        systematic resampling: a world in which the others' moves were likely counts more (a
        world may count twice), one in which they were unlikely may drop out. The model sees
        only the world, never the real deal.
        """
        hints = get_game(view.game).hints
        size, belief = self.settings(hints)
        model = (self.model or hints.model) if belief else None
        factor = belief if model is not None else 1
        sampler = Sampler(view, max_tries=4000, model=model)
        worlds: list[State[Any]] = []
        logliks: list[float] = []
        for _ in range(size * factor):
            try:
                worlds.append(sampler.sample(rng))
            except SamplingError:
                break
            logliks.append(sampler.loglik)
            sampler.max_tries = 400
        if model is None or not worlds:
            return worlds
        return resample(worlds, logliks, min(size, len(worlds)), rng)

    def settings(self, hints: PlayHints) -> tuple[int, int]:
        """The sampled worlds a decision and the belief for a game with ``hints``: those asked
        for, else the level's, where a game may set its own for expert (``expert_pool``,
        ``expert_belief``), else the game's pool and no weighing."""
        expert = self.level == "expert"
        pool = self.pool or (hints.expert_pool if expert and hints.expert_pool else hints.pool)
        belief = self.belief
        if belief is None and expert and hints.expert_belief is not None:
            belief = hints.expert_belief
        elif belief is None:
            belief = LEVEL_BELIEF.get(self.level or "", 0)
        return min(pool, self.iterations), belief

    def root_prior(self, view: View) -> dict[Action, float] | None:
        """The move probabilities that guide the search at the root of ``view``: the given
        :attr:`prior`'s, else the greedy player's choice at a level the game guides so
        (``PlayHints.guided_levels``), else none."""
        if self.prior is not None:
            return self.prior(view)
        if self.level is not None and self.level in get_game(view.game).hints.guided_levels:
            return greedy_prior(view)
        return None

    def aim(self, hints: PlayHints) -> str:
        """What the search maximises in a game with ``hints``: the objective asked for, else
        the chance to win if a learned value is given (what it estimates), else the game's."""
        if self.objective is None and self.value is not None:
            return "win"
        return self.objective or hints.objective

    def search(
        self,
        worlds: list[State[Any]],
        me: int | None,
        rng: random.Random,
        prior: dict[Action, float] | None = None,
        started: float | None = None,
    ) -> _Node:
        """Run the search over the sampled ``worlds`` (with ``prior``, the root's move
        probabilities, see :attr:`prior`; a time budget counted from ``started``, by default
        now, and spent only once every world was searched once, so that a budget the
        sampling used up still chooses by the search, not the first legal move); return the
        root of the tree.

        A node remembers, for each world that reached it, the position and its candidate
        actions, so later iterations in the same world walk the known part of the tree without
        replaying it.
        """
        root = _Node()
        game = worlds[0].game
        hints = game.hints
        depth = hints.rollout_depth
        policy = hints.rollout if self.rollout == "game" else None
        prune = hints.candidates
        redact = game.hidden_actions
        c = self.exploration
        weight = self.prior_weight
        objective = self.aim(hints)  # "win" whenever a learned value is given
        units: float | None = None  # the points objective's scale (None: the win's units)
        if objective == "points":
            scale = units = hints.points_scale

            def score(final: State[Any]) -> list[float]:
                return margins(final, scale)
        else:
            score = rewards
        solver = None
        if self.solve and worlds[0].players == 2:
            if objective == "points":
                solver = EndgameSolver(score, 0.0, self.solve)
            else:
                solver = EndgameSolver(score, 1.0, self.solve, bounds=(0.0, 1.0))
        learned = self.value if self.value_weight > 0 else None
        log = math.log
        sqrt = math.sqrt
        rand = rng.random
        if self.seconds is None:
            deadline = None
        else:
            deadline = (time.perf_counter() if started is None else started) + self.seconds
        budget = self.iterations if deadline is None else 10**9
        count = len(worlds)
        done = 0
        while done < budget:
            if (
                deadline is not None
                and done >= count
                and done % 16 == 0
                and time.perf_counter() >= deadline
            ):
                break
            w = done % count
            state = worlds[w]
            done += 1
            node = root
            path: list[tuple[_Node, int]] = []
            while state.actor is not None:
                actor = state.actor
                known = node.seen.get(w)
                if known is None:
                    legal = tuple(prune(state)) if prune is not None else state.legal_actions()
                    keys = tuple(a.redacted() for a in legal) if redact and actor != me else legal
                    node.seen[w] = (state, legal, keys)
                else:
                    state, legal, keys = known
                children = node.children
                untried = None
                for i, key in enumerate(keys):
                    child = children.get(key)
                    if child is None:
                        if untried is None:
                            untried = [i]
                        else:
                            untried.append(i)
                    else:
                        child.avail += 1
                if untried is not None:
                    i = untried[int(rand() * len(untried))]
                    child = _Node()
                    child.avail = 1
                    children[keys[i]] = child
                    state = state.apply(legal[i])
                    path.append((child, actor))
                    node = child
                    break
                best_value = -math.inf  # (a points margin can be below -1)
                best = 0
                best_child = node
                bias = prior if node is root else None
                for i, key in enumerate(keys):
                    child = children[key]
                    value = child.reward / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if bias is not None:
                        value += weight * bias.get(key, 0.0) / (1 + child.visits) ** 0.5
                    if value > best_value:
                        best_value, best, best_child = value, i, child
                nxt = best_child.seen.get(w)
                state = nxt[0] if nxt is not None else state.apply(legal[best])
                path.append((best_child, actor))
                node = best_child
            r = None
            if solver is not None and state.actor is not None and solver.small(state):
                r = solver.rewards(state)  # None: too big after all, play a rollout
            if r is None:
                r = self._rollout(state, score, units, policy, depth, rng)
                if learned is not None and state.actor is not None:
                    r = self._blend(r, state, learned)
            root.visits += 1
            for child, actor in path:
                child.visits += 1
                child.reward += r[actor]
        self.last_iterations = done
        return root

    def _blend(
        self, r: list[float], state: State[Any], learned: Callable[[View], float]
    ) -> list[float]:
        """The rollout's result ``r`` mixed with the learned value of ``state``, a leaf."""
        actor = state.actor
        assert actor is not None
        v = learned(view(state, actor))
        lam = self.value_weight
        others = (1.0 - v) / (len(r) - 1)
        return [(1.0 - lam) * x + lam * (v if s == actor else others) for s, x in enumerate(r)]

    @staticmethod
    def _rollout(
        state: State[Any],
        score: Callable[[State[Any]], list[float]],
        units: float | None,
        policy: Any,
        depth: int | None,
        rng: random.Random,
    ) -> list[float]:
        """The value to each seat of finishing ``state`` by the rollout policy (or, with a
        ``depth``, of the position that many moves on, in ``score``'s units: ``units`` is the
        points objective's scale, ``None`` for the chance to win)."""
        if depth is not None:
            for _ in range(depth):
                if state.actor is None:
                    break
                state = state.apply(policy(state, rng) if policy is not None else _any(state, rng))
            return evaluate(state, score, units)
        if policy is not None:
            return score(state.playout_with(policy, rng))
        final = state.playout(rng) if state.actor is not None else state
        return score(final)

    def __repr__(self) -> str:
        return f"ISMCTSAgent({self.name}, seed={self.seed})"


def describe() -> dict[str, Any]:
    """The levels and their budgets (for ``bonepile`` help texts and the docs)."""
    return {"levels": dict(LEVELS), "default": DEFAULT_LEVEL}
