"""Running arena games: in this process, on this machine's cores, or on a Ray cluster.

:func:`run_arena` schedules the games (every deal once per seating), plays them with
:func:`~bonepile.arena.play.play_job`, counts each one into a
:class:`~bonepile.arena.tally.Tally` as it comes in (so memory does not grow with the games)
and returns an :class:`ArenaResult`. Games are independent and fully seeded, and the tally
does not depend on the order they finish in, so the result is the same whichever way they
run.
"""

from __future__ import annotations

import contextlib
import itertools
import socket
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from bonepile.agents.external import BotStartError, ExternalAgent
from bonepile.agents.registry import agent_name, make_agent
from bonepile.arena.play import GameOutcome, Job, Setup, play_job, schedule, seatings
from bonepile.arena.stats import AgentStats, agent_stats
from bonepile.arena.tally import Tally
from bonepile.errors import OptionError, needs_extra, quoted
from bonepile.files import write_text_atomic
from bonepile.games import get_game
from bonepile.view import view
from bonepile.workers import chunked, run_streamed, worker_count


class ArenaResult:
    """An arena run: its setup, the agents' names, the running totals over its games
    (:class:`~bonepile.arena.tally.Tally`) and the statistics over them.

    ``outcomes`` holds every game only when :func:`run_arena` was asked to keep them
    (``keep_outcomes``); a result made from a list of games tallies them.
    """

    def __init__(
        self,
        setup: Setup,
        names: list[str],
        outcomes: Sequence[GameOutcome] = (),
        stats: list[AgentStats] | None = None,
        tally: Tally | None = None,
    ) -> None:
        self.setup = setup
        self.names = names
        self.outcomes = list(outcomes)
        if tally is None:
            per_deal = len(seatings(len(names), setup.players))
            tally = Tally.of(len(names), setup.players, per_deal, self.outcomes)
        self.tally = tally
        self.stats = agent_stats(names, tally) if stats is None else stats

    @property
    def deals(self) -> int:
        """How many distinct deals were played."""
        return self.tally.deals

    @property
    def games(self) -> int:
        """How many games were played (every deal once per seating)."""
        return self.tally.games

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-ready data. ``forfeits`` lists the first
        :data:`~bonepile.arena.tally.MAX_LISTED_FORFEITS` forfeits (by game) and
        ``forfeits_total`` counts them all."""
        forfeits = [
            {"game": f.index, "seat": f.seat, "agent": self.names[f.agent], "reason": f.reason}
            for f in self.tally.listed_forfeits()
        ]
        return {
            "game": self.setup.game,
            "players": self.setup.players,
            "agents": self.names,
            "seed": self.setup.seed,
            "options": dict(self.setup.options),
            "matches": self.setup.matches,
            "deals": self.deals,
            "games": self.games,
            "seatings": [list(s) for s in seatings(len(self.names), self.setup.players)],
            "results": [s.to_json() for s in self.stats],
            "forfeits": forfeits,
            "forfeits_total": self.tally.forfeit_count,
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


def check_bots_start(
    game: str,
    agents: Sequence[str],
    players: int,
    options: Mapping[str, Any] | None = None,
    *,
    board: Any = None,
    move_time: float | None = None,
) -> None:
    """Start every external bot among ``agents`` once, as for a hand of ``game``, and stop it
    again (``start``, then ``quit``; other agents are left alone). ``OptionError`` (one line)
    for the first that cannot: why (``it exited with status 1``) and the last lines it wrote
    on its standard error. Run before a run, so that a bot that cannot start is an error
    rather than a forfeit in every game."""
    g = get_game(game)
    state = None
    for spec in dict.fromkeys(agents):
        if spec.strip().partition(":")[0].lower() != "external":
            continue
        agent = make_agent(spec, move_time=move_time)
        assert isinstance(agent, ExternalAgent)
        if state is None:  # any deal: the start message holds none of it
            state = g.new(players, options=dict(options or {}), seed=0, board=board)
        try:
            agent.check_start(view(state, 0))
        except BotStartError as e:
            raise OptionError(e.message(quoted(spec.strip(), 80))) from None


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
    keep_outcomes: bool = False,
) -> ArenaResult:
    """Play ``games`` deals, each once per seating of ``agents``, and total them up.

    Each game is counted as it comes in and then let go, so a run takes the same memory
    however many games it plays; with ``keep_outcomes`` the result also holds every game
    (``ArenaResult.outcomes``, in game order). With ``records``, every game's record is
    written there (atomically) once every seating of its deal has been played, never while a
    bot could still play that deal. No more than ``workers`` worker processes are started,
    nor more than there are games or than the machine can use.
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
    per_deal = len(seatings(len(agents), n))
    tally = Tally(len(agents), n, per_deal, games * per_deal)
    kept: list[GameOutcome] = []
    keeper = _RecordKeeper(rec, per_deal)
    jobs = schedule(len(agents), n, games)
    source = (
        _on_ray(setup, jobs, ray_address)
        if ray_address is not None
        else _on_cores(setup, jobs, worker_count(workers, games * per_deal))
    )
    with contextlib.closing(source):  # stopping early ends the workers at once
        for outcome in source:
            keeper.add(outcome)
            outcome.record = None
            tally.add(outcome)
            if keep_outcomes:
                kept.append(outcome)
            if progress is not None:
                progress(1)
    kept.sort(key=lambda o: o.index)
    return ArenaResult(setup, [agent_name(a) for a in agents], kept, tally=tally)


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
    except ImportError as e:
        raise OptionError(needs_extra("--ray", "ray", e)) from None
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
