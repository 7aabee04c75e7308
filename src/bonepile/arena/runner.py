"""Running arena games: in this process, on this machine's cores, or on a Ray cluster.

:func:`run_arena` schedules the games (every deal once per seating), plays them with
:func:`~bonepile.arena.play.play_job` and returns an :class:`ArenaResult`. Games are
independent and fully seeded, so the result is the same whichever way they run.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bonepile.agents.registry import agent_name, make_agent
from bonepile.arena.play import GameOutcome, Job, Setup, play_job, schedule, seatings
from bonepile.arena.stats import AgentStats, summarize
from bonepile.errors import OptionError
from bonepile.games import get_game


@dataclass
class ArenaResult:
    """The games of an arena run and the statistics over them."""

    setup: Setup
    names: list[str]
    outcomes: list[GameOutcome]
    stats: list[AgentStats] = field(default_factory=list)

    @property
    def deals(self) -> int:
        """How many distinct deals were played."""
        return len({o.deal for o in self.outcomes})

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-ready data."""
        forfeits = [
            {"game": o.index, "seat": o.forfeit[0], "agent": self.names[o.seating[o.forfeit[0]]],
             "reason": o.forfeit[1]}
            for o in self.outcomes
            if o.forfeit
        ]  # fmt: skip
        return {
            "game": self.setup.game,
            "players": self.setup.players,
            "agents": self.names,
            "seed": self.setup.seed,
            "options": dict(self.setup.options),
            "matches": self.setup.matches,
            "deals": self.deals,
            "games": len(self.outcomes),
            "seatings": [list(s) for s in seatings(len(self.names), self.setup.players)],
            "results": [s.to_json() for s in self.stats],
            "forfeits": forfeits,
        }


def check_setup(
    game: str,
    agents: Sequence[str],
    players: int | None,
    options: Mapping[str, Any] | None,
    board: Any = None,
) -> tuple[str, int, dict[str, Any]]:
    """Validate an arena's game, agents, player count and options (``OptionError`` if bad)."""
    g = get_game(game)
    opts = dict(options or {})
    n = players if players is not None else g.default_players
    g.check_players(n, g.make_options(opts))
    if len(agents) < 2:
        raise OptionError("an arena needs at least two agents (--agents A,B)")
    if len(agents) > n:
        raise OptionError(f"{len(agents)} agents do not fit {n} seats; use --players")
    for spec in agents:
        make_agent(spec)  # a bad name fails here, once, with one line
    return g.name, n, opts


def run_arena(
    game: str,
    agents: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    matches: bool = False,
    workers: int = 1,
    ray_address: str | None = None,
    records: str | Path | None = None,
    board: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` deals, each once per seating of ``agents``, and total them up."""
    name, n, opts = check_setup(game, agents, players, options, board)
    if games < 1:
        raise OptionError(f"--games must be at least 1, got {games}")
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, got {workers}")
    rec = None
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
        rec = str(records)
    setup = Setup(name, n, tuple(agents), seed, opts, matches, rec, board)
    jobs = schedule(len(agents), n, games)
    outcomes: list[GameOutcome] = []
    source = (
        _on_ray(setup, jobs, ray_address)
        if ray_address is not None
        else _on_cores(setup, jobs, workers)
    )
    for outcome in source:
        outcomes.append(outcome)
        if progress is not None:
            progress(1)
    outcomes.sort(key=lambda o: o.index)
    names = [agent_name(a) for a in agents]
    result = ArenaResult(setup, names, outcomes)
    result.stats = summarize(names, outcomes)
    return result


def _chunk(setup: Setup, jobs: list[Job]) -> list[GameOutcome]:
    return [play_job(setup, j) for j in jobs]


def _chunks(jobs: list[Job], size: int) -> list[list[Job]]:
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def _on_cores(setup: Setup, jobs: list[Job], workers: int) -> Iterator[GameOutcome]:
    if workers <= 1 or len(jobs) < 2:
        for job in jobs:
            yield play_job(setup, job)
        return
    size = max(1, min(8, len(jobs) // (workers * 4)))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        for batch in pool.imap_unordered(_chunk_star, [(setup, c) for c in _chunks(jobs, size)]):
            yield from batch


def _chunk_star(args: tuple[Setup, list[Job]]) -> list[GameOutcome]:
    return _chunk(*args)


def _on_ray(setup: Setup, jobs: list[Job], address: str) -> Iterator[GameOutcome]:
    """Run the games as Ray tasks: ``address`` is a cluster's address, ``auto`` for the one
    this machine belongs to, or ``local`` to start a Ray instance on this machine."""
    try:
        import ray
    except ImportError:
        raise OptionError("--ray needs the ray package: pip install 'bonepile[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address == "local":
            ray.init(**kwargs)
        else:
            ray.init(address=address, **kwargs)
        started = True
    try:
        task = ray.remote(_chunk)
        size = max(1, min(8, len(jobs) // 16))
        pending = [task.remote(setup, c) for c in _chunks(jobs, size)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        if started:
            ray.shutdown()
