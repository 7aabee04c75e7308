"""Running arena games: in this process, on this machine's cores, or on a Ray cluster.

:func:`run_arena` schedules the games (every deal once per seating), plays them with
:func:`~bonepile.arena.play.play_job` and returns an :class:`ArenaResult`. Games are
independent and fully seeded, so the result is the same whichever way they run.
"""

from __future__ import annotations

import contextlib
import itertools
import socket
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bonepile.agents.registry import agent_name, make_agent
from bonepile.arena.play import GameOutcome, Job, Setup, play_job, schedule, seatings
from bonepile.arena.stats import AgentStats, summarize
from bonepile.errors import OptionError, quoted
from bonepile.files import write_text_atomic
from bonepile.games import get_game
from bonepile.workers import chunked, run_streamed


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
    move_time: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` deals, each once per seating of ``agents``, and total them up.

    With ``records``, every game's record is written there (atomically) once every seating of
    its deal has been played, never while a bot could still play that deal.
    """
    name, n, opts = check_setup(game, agents, players, options, board)
    if games < 1:
        raise OptionError(f"--games must be at least 1, got {games}")
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, got {workers}")
    rec = None
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
        rec = str(records)
    setup = Setup(name, n, tuple(agents), seed, opts, matches, rec, board, move_time)
    jobs = schedule(len(agents), n, games)
    outcomes: list[GameOutcome] = []
    keeper = _RecordKeeper(rec, len(seatings(len(agents), n)))
    source = (
        _on_ray(setup, jobs, ray_address)
        if ray_address is not None
        else _on_cores(setup, jobs, workers)
    )
    with contextlib.closing(source):  # stopping early ends the workers at once
        for outcome in source:
            keeper.add(outcome)
            outcome.record = None
            outcomes.append(outcome)
            if progress is not None:
                progress(1)
    outcomes.sort(key=lambda o: o.index)
    names = [agent_name(a) for a in agents]
    result = ArenaResult(setup, names, outcomes)
    result.stats = summarize(names, outcomes)
    return result


class _RecordKeeper:
    """Holds back each game's record until every seating of its deal is played, then writes
    the deal's records (each atomically)."""

    def __init__(self, folder: str | None, per_deal: int) -> None:
        self.folder = folder
        self.per_deal = per_deal
        self.waiting: dict[int, list[tuple[str, str]]] = {}
        self.played: dict[int, int] = {}

    def add(self, outcome: GameOutcome) -> None:
        if self.folder is None:
            return
        deal = outcome.deal
        if outcome.record is not None:
            self.waiting.setdefault(deal, []).append(outcome.record)
        self.played[deal] = self.played.get(deal, 0) + 1
        if self.played[deal] < self.per_deal:
            return
        del self.played[deal]
        for file_name, text in self.waiting.pop(deal, []):
            write_text_atomic(Path(self.folder) / file_name, text)


def _chunk(args: tuple[Setup, list[Job]]) -> list[GameOutcome]:
    setup, jobs = args
    return [play_job(setup, j) for j in jobs]


def _on_cores(
    setup: Setup, jobs: Iterator[Job], workers: int
) -> Generator[GameOutcome, None, None]:
    first = list(itertools.islice(jobs, 2 * workers * 8))
    if workers <= 1 or len(first) < 2:
        for job in itertools.chain(first, jobs):
            yield play_job(setup, job)
        return
    size = max(1, min(8, len(first) // (workers * 4)))
    chunks = ((setup, c) for c in chunked(itertools.chain(first, jobs), size))
    yield from run_streamed(_chunk, chunks, workers)


def _reachable(address: str, timeout: float = 3.0) -> None:
    """Raise ``OptionError`` unless ``host:port`` accepts a connection within ``timeout``."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise OptionError(f"--ray: {quoted(address)} is not local, auto or HOST:PORT")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except (OSError, ValueError) as e:
        why = getattr(e, "strerror", None) or str(e) or type(e).__name__
        raise OptionError(f"--ray: no Ray cluster answers at {quoted(address)} ({why})") from None


def _on_ray(setup: Setup, jobs: Iterator[Job], address: str) -> Generator[GameOutcome, None, None]:
    """Run the games as Ray tasks: ``address`` is a cluster's address (``HOST:PORT``), ``auto``
    for the one this machine belongs to, or ``local`` to start a Ray instance on this machine.
    A cluster address that does not answer fails at once, before Ray is started."""
    try:
        import ray
    except ImportError:
        raise OptionError("--ray needs the ray package: pip install 'bonepile[ray]'") from None
    if address not in ("local", "auto"):
        _reachable(address.removeprefix("ray://"))
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        try:
            if address == "local":
                ray.init(**kwargs)
            else:
                ray.init(address=address, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as e:
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise OptionError(f"--ray {quoted(address)}: {quoted(first, 200)}") from None
        started = True
    try:
        task = ray.remote(_chunk)
        chunks = ((setup, c) for c in chunked(jobs, 8))
        pending = [task.remote(c) for c in itertools.islice(chunks, 64)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
            pending.extend(task.remote(c) for c in itertools.islice(chunks, 1))
    finally:
        if started:
            ray.shutdown()
