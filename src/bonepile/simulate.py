"""Seeded simulations between random players, in one process or several.

Game ``i`` of a run with seed ``S`` is dealt from ``derive_seed(S, i)`` and its players are
seeded from that, so a game is the same whichever worker plays it and in whatever order.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bonepile.agents.base import RandomAgent, play_hand
from bonepile.games import get_game
from bonepile.record import save_record

_MASK64 = (1 << 64) - 1


def derive_seed(seed: int, index: int) -> int:
    """A well-mixed 63-bit seed for item ``index`` of a run seeded with ``seed`` (SplitMix64)."""
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) >> 1


@dataclass(frozen=True)
class HandOutcome:
    """What one simulated hand came to."""

    index: int
    seed: int
    reason: str
    winners: tuple[int, ...]
    points: tuple[int, ...]
    moves: int


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
        }


def _play_one(
    game: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    index: int,
    records: str | None,
) -> HandOutcome:
    g = get_game(game)
    hand_seed = derive_seed(seed, index)
    state = g.new(players, options=options, seed=hand_seed)
    agents = [RandomAgent(derive_seed(hand_seed, s)) for s in range(players)]
    final = play_hand(state, agents)
    assert final.result is not None
    if records is not None:
        save_record(
            final,
            Path(records) / f"{g.name}-{seed}-{index:06d}.json",
            headers={
                "event": f"bonepile simulate, seed {seed}, game {index}",
                "players": ", ".join("random" for _ in range(players)),
            },
        )
    return HandOutcome(
        index,
        hand_seed,
        final.result.reason,
        final.result.winners,
        final.result.points,
        len(final.moves),
    )


def _play_chunk(
    args: tuple[str, int, dict[str, Any], int, list[int], str | None],
) -> list[HandOutcome]:
    game, players, options, seed, indices, records = args
    return [_play_one(game, players, options, seed, i, records) for i in indices]


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    records: str | Path | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` seeded hands between random players and total them up.

    ``progress(k)`` is called as hands finish (``k`` of them at a time); ``records`` is a
    directory to write every hand's record into.
    """
    g = get_game(game)
    opts = dict(options or {})
    g.check_players(players, g.make_options(opts))
    rec_dir = None
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
        rec_dir = str(records)
    summary = Summary(g.name, players)
    for outcome in _outcomes(g.name, players, games, seed, opts, rec_dir, workers):
        summary.add(outcome)
        if progress is not None:
            progress(1)
    return summary


def _outcomes(
    game: str,
    players: int,
    games: int,
    seed: int,
    opts: dict[str, Any],
    records: str | None,
    workers: int,
) -> Iterator[HandOutcome]:
    if workers <= 1 or games < 2:
        for i in range(games):
            yield _play_one(game, players, opts, seed, i, records)
        return
    chunk = max(1, min(200, games // (workers * 8) or 1))
    jobs = [
        (game, players, opts, seed, list(range(start, min(games, start + chunk))), records)
        for start in range(0, games, chunk)
    ]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        for batch in pool.imap_unordered(_play_chunk, jobs):
            yield from batch
