"""Replays and analysis of kept games: every position with all hands shown, and an estimate
of each legal move from one seat's view (never from hidden tiles).

The analysis is flat Monte Carlo over determinizations, as the search bot sees a position: each
round samples one deal of the unknown tiles consistent with the seat's view
(:class:`~bonepile.agents.sampler.Sampler`), plays every move under study in it and finishes
the hand with the game's rollout policy (the same random numbers for every move of a round).
So each move's playouts are independent draws, and its chance to win comes with an honest 95%
interval (Wilson's: the outcomes lie in 0 to 1, so their variance is at most the binomial one).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from bonepile.actions import Action, parse_action
from bonepile.agents.ismcts import LEVELS, rewards
from bonepile.agents.sampler import Sampler
from bonepile.errors import BonepileError, SamplingError
from bonepile.games import get_game
from bonepile.geometry import scene
from bonepile.grid import BoardLayout
from bonepile.record import parse_json, start_of
from bonepile.state import State
from bonepile.view import View, view

MAX_PLIES = 5000
CONFIDENCE = 0.95
Z = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Budget:
    """How much an analysis simulates: ``simulations`` playouts a move at most, stopping sooner
    (after a whole round, so every move has as many) once ``seconds`` have passed (the wait:
    a busy worker simulates less), but never before ``minimum`` playouts a move."""

    simulations: int
    seconds: float | None = None
    minimum: int = 1


BUDGETS: dict[str, Budget] = {
    "easy": Budget(300, 0.5, 50),
    "medium": Budget(1000, 1.5, 100),
    "hard": Budget(3000, 2.0, 200),
}
"""The budget of each level a visitor may ask for (``expert`` is a bot's level only)."""

ANALYSIS_LEVELS = tuple(level for level in LEVELS if level in BUDGETS)
"""The levels of the analysis: the search bot's that the server's bots play."""

FORCED = Budget(50, 0.1, 1)
"""The budget of a position with one legal move, whatever the level: there is nothing to
weigh, so the answer ("only one legal move") comes at once, with a rough estimate of the
chance to win after it (at most 50 playouts, a tenth of a second)."""


class AnalysisError(BonepileError):
    """A request for a position the game does not have."""

    code = "analysis"


@dataclass(frozen=True)
class Estimate:
    """One move's playouts: ``n`` of them, ``wins`` their summed reward (a win 1, a hand with
    no winner 1/2); :attr:`interval` is the 95% Wilson interval of the chance to win."""

    action: Action
    n: int
    wins: float

    @property
    def mean(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.mean, self.n)


def wilson(p: float, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed over ``n`` draws."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def positions(record: str) -> list[tuple[State[Any], dict[str, Any] | None]]:
    """Every position of the recorded hand with the turn that led to it (``None`` first)."""
    state, moves = start_of(parse_json(record))
    out: list[tuple[State[Any], dict[str, Any] | None]] = [(state, None)]
    for text in moves[:MAX_PLIES]:
        seat = state.actor
        action = parse_action(text)
        state, events = state.step(action)
        turn = {"seat": seat, "action": str(action), "events": [e.to_json() for e in events]}
        out.append((state, turn))
    return out


def replay_frames(record: str, width: int, height: int | None = None) -> dict[str, Any]:
    """The replay of a kept hand: per position the table's scene, every hand, the seat to
    act, the turn that led there and the scores; plus the game's facts."""
    frames = []
    first = None
    for state, turn in positions(record):
        spectator = view(state, None)
        if first is None:
            first = spectator
        frames.append(
            {
                "scene": scene(spectator.layout, width=width, height=height).to_json(),
                "hands": [[str(t) for t in view(state, k).hand] for k in range(state.players)],
                "hand_sizes": list(spectator.hand_sizes),
                "boneyard": spectator.boneyard_size,
                "actor": state.actor,
                "turn": turn,
                "public": spectator.public.to_json(),
                "result": None if state.result is None else state.result.to_json(),
                "scores": list(state.scores),
            }
        )
        if isinstance(spectator.layout, BoardLayout):
            frames[-1]["positions"] = list(spectator.layout.positions)
    assert first is not None
    out: dict[str, Any] = {"game": first.game, "players": first.players, "frames": frames}
    out["record"] = record
    if isinstance(first.layout, BoardLayout):
        out["board"] = first.layout.to_json()["board"]
    return out


def analyse(
    record: str, ply: int, seat: int | None, level: str, budget: Budget | None = None
) -> dict[str, Any]:
    """Each legal move's chance to win at position ``ply`` of a kept hand, from the view of
    ``seat`` (by default the seat to act there; another seat has no move to weigh), with its
    95% interval, the moves whose intervals overlap the best one's (``best``; more than one:
    too close to call, ``verdict`` ``"close"``) and the playouts a move. ``budget`` replaces
    the level's (tests)."""
    if level not in ANALYSIS_LEVELS:
        raise AnalysisError(f"level is one of {', '.join(ANALYSIS_LEVELS)}, not {level!r}")
    state, played = _position(record, ply)
    actor = state.actor
    if actor is None:
        raise AnalysisError(f"nobody is to move at position {ply}: the hand is over")
    if seat is not None and not 0 <= seat < state.players:
        raise AnalysisError(f"seat is 0 to {state.players - 1} (counting from 0), not {seat}")
    if seat is not None and seat != actor:
        raise AnalysisError(f"seat {seat} is not to move at position {ply}; seat {actor} is")
    v = view(state, actor)
    legal = list(v.legal)
    kept = played if played in legal else None
    if budget is None:
        budget = FORCED if len(legal) == 1 else BUDGETS[level]
    found, unexplored = estimate(v, budget, _seed(v), kept)
    found.sort(key=lambda e: -e.mean)  # stable: equal estimates keep the rules' order
    top = found[0].interval[0] if found else 1.0
    best = [e for e in found if e.n and e.interval[1] >= top]
    if len(legal) == 1:
        verdict = "forced"
    elif not found or not found[0].n:
        verdict = "unknown"
    else:
        verdict = "close" if len(best) > 1 else "clear"
    return {
        "ply": ply,
        "seat": actor,
        "level": level,
        "forced": len(legal) == 1,
        "verdict": verdict,
        "best": [str(e.action) for e in best],
        "simulations": found[0].n if found else 0,
        "confidence": CONFIDENCE,
        "moves": [_move_json(e) for e in found],
        "unexplored": [str(a) for a in unexplored],
    }


def estimate(
    v: View, budget: Budget, seed: int, keep: Action | None = None
) -> tuple[list[Estimate], list[Action]]:
    """Playouts of the legal moves of view ``v`` (its seat to act) within ``budget``: the
    estimates, in the rules' order, and the legal moves left out. A game whose bot looks at a
    few candidates only (``hints.candidates``) has those studied, and ``keep`` too if given;
    every other game has every legal move studied. Only the view is read: the deals played are
    sampled from it."""
    me = v.seat
    assert me is not None
    game = get_game(v.game)
    policy = game.hints.rollout
    rng = random.Random(seed)
    sampler = Sampler(v, max_tries=4000)
    legal = list(v.legal)
    moves = legal
    wins = [0.0] * len(moves)
    n = 0
    started = time.perf_counter()
    while n < budget.simulations:
        if (
            budget.seconds is not None
            and n >= budget.minimum
            and time.perf_counter() - started >= budget.seconds
        ):
            break
        try:
            world = sampler.sample(rng)
        except SamplingError:
            break  # none at all (then no estimate), or no more: go on with those played
        sampler.max_tries = 400  # the facts learned make the next ones quick
        if n == 0 and game.hints.candidates is not None:
            # the candidates depend on the mover's tiles and the table only: the same in
            # every world
            moves = list(game.hints.candidates(world))
            if keep is not None and keep not in moves:
                moves.append(keep)
            wins = [0.0] * len(moves)
        roll = rng.getrandbits(64)
        for i, action in enumerate(moves):
            after = world.apply(action)
            dice = random.Random(roll)
            final = after.playout_with(policy, dice) if policy is not None else after.playout(dice)
            wins[i] += rewards(final)[me]
        n += 1
    order = {a: i for i, a in enumerate(legal)}
    moves_in_order = sorted(range(len(moves)), key=lambda i: order[moves[i]])
    found = [Estimate(moves[i], n, wins[i]) for i in moves_in_order]
    studied = set(moves)
    return found, [a for a in legal if a not in studied]


def _position(record: str, ply: int) -> tuple[State[Any], Action | None]:
    """The position ``ply`` of a kept hand and the move played there (``None`` at the end)."""
    state, moves = start_of(parse_json(record))
    last = min(len(moves), MAX_PLIES)
    if not 0 <= ply <= last:
        raise AnalysisError(f"this hand has positions 0 to {last}, not {ply}")
    for text in moves[:ply]:
        state = state.apply(parse_action(text))
    return state, parse_action(moves[ply]) if ply < last else None


def _seed(v: View) -> int:
    """A seed of the view alone: the same position seen the same way, the same analysis."""
    digest = hashlib.sha256(json.dumps(v.to_json(), sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _move_json(e: Estimate) -> dict[str, Any]:
    low, high = e.interval
    return {
        "action": str(e.action),
        "win": round(e.mean, 3),
        "low": round(low, 3),
        "high": round(high, 3),
        "simulations": e.n,
        "visits": e.n,  # the name older clients read
    }
