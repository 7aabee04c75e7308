"""Seeded simulations between random players, in one process or several.

Game ``i`` of a run with seed ``S`` (a hand, or with ``matches=True`` a whole match) is dealt
from ``derive_seed(S, i)`` and its players are seeded from that (a hand's random players share
one generator: seeding one costs as much as a short hand's moves), so a game is the same
whichever worker plays it and in whatever order.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bonepile.agents.base import RandomAgent, play_hand, play_match
from bonepile.games import get_game
from bonepile.match import agent_seed, derive_seed, new_match
from bonepile.match_record import save_match
from bonepile.record import save_record
from bonepile.state import State
from bonepile.workers import run_streamed, worker_count

__all__ = [
    "HandOutcome",
    "MatchOutcome",
    "MatchSummary",
    "Summary",
    "derive_seed",
    "simulate",
    "simulate_matches",
]


@dataclass(frozen=True)
class HandOutcome:
    """What one simulated hand came to."""

    index: int
    seed: int
    reason: str
    winners: tuple[int, ...]
    points: tuple[int, ...]
    moves: int
    board_scores: tuple[int, ...] = ()
    """A board game's final track positions (its ``points`` are all zero)."""


@dataclass
class Summary:
    """Totals over a simulation run."""

    game: str
    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    no_winner: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    points: list[int] = field(default_factory=list)
    board_scores: list[int] = field(default_factory=list)

    def add(self, o: HandOutcome) -> None:
        """Count one hand."""
        if not self.wins:
            self.wins = [0] * self.players
            self.points = [0] * self.players
        self.games += 1
        for w in o.winners:
            self.wins[w] += 1
        if not o.winners:
            self.no_winner += 1
        self.reasons[o.reason] += 1
        self.moves += o.moves
        for s, p in enumerate(o.points):
            self.points[s] += p
        if o.board_scores:
            if not self.board_scores:
                self.board_scores = [0] * self.players
            for s, p in enumerate(o.board_scores):
                self.board_scores[s] += p

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        g = max(self.games, 1)
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "wins_by_seat": self.wins or [0] * self.players,
            "no_winner": self.no_winner,
            "endings": dict(sorted(self.reasons.items())),
            "moves_per_hand": round(self.moves / g, 2),
            "points_per_hand": round(sum(self.points) / g, 2),
            "points_per_hand_by_seat": [round(p / g, 2) for p in (self.points or [])],
            **(
                {"final_score_by_seat": [round(p / g, 2) for p in self.board_scores]}
                if self.board_scores
                else {}
            ),
        }


@dataclass(frozen=True)
class MatchOutcome:
    """What one simulated match came to."""

    index: int
    seed: int
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    hands: tuple[HandOutcome, ...]


@dataclass
class MatchSummary:
    """Totals over a run of matches; ``hands`` totals every hand of every match. Only totals
    are kept, so a run of any length takes the same memory."""

    game: str
    players: int
    target: int | None
    matches: int = 0
    wins: list[int] = field(default_factory=list)
    hands_total: int = 0
    hands_min: int = 0
    hands_max: int = 0
    hands: Summary | None = None

    def add(self, o: MatchOutcome) -> None:
        """Count one match."""
        if not self.wins:
            self.wins = [0] * self.players
        if self.hands is None:
            self.hands = Summary(self.game, self.players)
        count = len(o.hands)
        self.hands_min = count if not self.matches else min(self.hands_min, count)
        self.hands_max = max(self.hands_max, count)
        self.hands_total += count
        self.matches += 1
        for w in o.winners:
            self.wins[w] += 1
        for h in o.hands:
            self.hands.add(h)

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        hands = (self.hands or Summary(self.game, self.players)).to_json()
        return {
            "game": self.game,
            "players": self.players,
            "target_score": self.target,
            "matches": self.matches,
            "match_wins_by_seat": self.wins or [0] * self.players,
            "hands_per_match": round(self.hands_total / max(self.matches, 1), 2),
            "hands_per_match_min": self.hands_min,
            "hands_per_match_max": self.hands_max,
            "hands": hands,
        }


def _outcome(index: int, seed: int, final: State[Any]) -> HandOutcome:
    result = final.result
    assert result is not None
    scores = final.scores if final.game.board_game else ()
    return HandOutcome(
        index, seed, result.reason, result.winners, result.points, len(final.moves), scores
    )


def _headers(seed: int, index: int, players: int, what: str) -> dict[str, str]:
    return {
        "event": f"bonepile simulate, seed {seed}, {what} {index}",
        "players": ", ".join("random" for _ in range(players)),
    }


def _play_one(
    game: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    index: int,
    records: str | None,
    board: dict[str, Any] | None = None,
) -> HandOutcome:
    g = get_game(game)
    hand_seed = derive_seed(seed, index)
    state = g.new(players, options=options, seed=hand_seed, board=board)
    rng = random.Random(derive_seed(hand_seed, 0))  # one generator for every random seat
    agents = [RandomAgent(rng=rng) for _ in range(players)]
    final = play_hand(state, agents)
    if records is not None:
        save_record(
            final,
            Path(records) / f"{g.name}-{seed}-{index:06d}.json",
            headers=_headers(seed, index, players, "game"),
        )
    return _outcome(index, hand_seed, final)


def _play_one_match(
    game: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    index: int,
    records: str | None,
    board: dict[str, Any] | None = None,
) -> MatchOutcome:
    match_seed = derive_seed(seed, index)
    match = new_match(game, players, options=options, seed=match_seed, board=board)
    agents = [RandomAgent(agent_seed(match_seed, s)) for s in range(players)]
    final = play_match(match, agents)
    if records is not None:
        save_match(
            final,
            Path(records) / f"{final.game.name}-match-{seed}-{index:06d}.json",
            headers=_headers(seed, index, players, "match"),
        )
    hands = tuple(_outcome(i, h.seed or 0, h) for i, h in enumerate(final.hands))
    return MatchOutcome(index, match_seed, final.winners, final.totals, hands)


Job = tuple[bool, str, int, dict[str, Any], int, list[int], str | None, dict[str, Any] | None]


def _play_chunk(job: Job) -> list[HandOutcome | MatchOutcome]:
    matches, game, players, options, seed, indices, records, board = job
    if matches:
        return [_play_one_match(game, players, options, seed, i, records, board) for i in indices]
    return [_play_one(game, players, options, seed, i, records, board) for i in indices]


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    records: str | Path | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    board: dict[str, Any] | None = None,
) -> Summary:
    """Play ``games`` seeded hands between random players and total them up.

    ``progress(k)`` is called as hands finish (``k`` of them at a time); ``records`` is a
    directory to write every hand's record into; ``board`` a board object (board games).
    """
    summary = Summary(get_game(game).name, players)
    outcomes = _outcomes(False, game, players, games, seed, options, records, workers, board)
    with contextlib.closing(outcomes):  # stopping early ends the workers at once
        for outcome in outcomes:
            assert isinstance(outcome, HandOutcome)
            summary.add(outcome)
            if progress is not None:
                progress(1)
    return summary


def simulate_matches(
    game: str,
    players: int,
    matches: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    records: str | Path | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    board: dict[str, Any] | None = None,
) -> MatchSummary:
    """Play ``matches`` seeded matches (hands to the target score) between random players.

    As :func:`simulate`, counting matches; ``records`` receives one match record per match.
    """
    g = get_game(game)
    summary = MatchSummary(g.name, players, g.target_score(g.make_options(options)))
    outcomes = _outcomes(True, game, players, matches, seed, options, records, workers, board)
    with contextlib.closing(outcomes):
        for outcome in outcomes:
            assert isinstance(outcome, MatchOutcome)
            summary.add(outcome)
            if progress is not None:
                progress(1)
    return summary


def _outcomes(
    matches: bool,
    game: str,
    players: int,
    count: int,
    seed: int,
    options: Mapping[str, Any] | None,
    records: str | Path | None,
    workers: int,
    board: dict[str, Any] | None = None,
) -> Generator[HandOutcome | MatchOutcome, None, None]:
    g = get_game(game)
    opts = dict(options or {})
    g.check_players(players, g.make_options(opts))
    rec_dir = None
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
        rec_dir = str(records)
    workers = worker_count(workers, count)  # no more processes than games, or than the machine
    chunk = 1 if workers <= 1 else max(1, min(200 if not matches else 20, count // (workers * 8)))
    jobs = (
        (matches, g.name, players, opts, seed, list(range(start, min(count, start + chunk))),
         rec_dir, board)
        for start in range(0, count, chunk)
    )  # fmt: skip
    if workers <= 1 or count < 2:
        for job in jobs:
            yield from _play_chunk(job)
        return
    yield from run_streamed(_play_chunk, jobs, workers)
