"""One arena game: a deal, a seating of the agents, the hand (or match) played out.

A :class:`Job` says which deal (a seed) and which agent sits in each seat; :func:`play_job`
plays it and returns a :class:`GameOutcome` in plain data, so that jobs can run in other
processes or on a cluster. Everything random is derived from the arena seed and the job, so a
job gives the same game wherever and whenever it runs (with iteration budgets; time budgets
depend on the machine).

Seeds are derived one way (:func:`~bonepile.seeds.secret_seed`): the seed an agent is given
tells nothing about any deal, and a deal's seed (in a record) tells nothing about other deals.
A game's record is returned as text rather than written, so that the runner can hold it back
until every seating of its deal has been played.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bonepile.agents.base import play_hand
from bonepile.agents.external import AgentForfeit
from bonepile.agents.registry import make_agent
from bonepile.games import get_game
from bonepile.match import Match, new_match
from bonepile.seeds import secret_seed
from bonepile.state import State


@dataclass(frozen=True)
class Job:
    """Game ``index``: deal ``deal`` (its number), played with ``seating[s]`` (an agent's
    number) in seat ``s``; ``rotation`` numbers the seatings of one deal."""

    index: int
    deal: int
    rotation: int
    seating: tuple[int, ...]


@dataclass
class GameOutcome:
    """What one arena game came to, by seat and by agent (agent numbers as in the arena)."""

    index: int
    deal: int
    rotation: int
    seating: tuple[int, ...]
    winners: tuple[int, ...]  # seats
    points: tuple[int, ...]  # per seat: the hand's points, or a match's final totals
    reason: str
    moves: int
    hands: int
    think: dict[int, tuple[float, int]] = field(default_factory=dict)  # agent -> (s, decisions)
    forfeit: tuple[int, str] | None = None  # (seat, why)
    record: tuple[str, str] | None = None  # (file name, text), when records are kept

    def share(self, agent: int) -> float:
        """The agent's share of the win: its winning seats over all winners (with no winner,
        its seats over all seats)."""
        seats = [s for s, a in enumerate(self.seating) if a == agent]
        if not self.winners:
            return len(seats) / len(self.seating)
        return sum(1 for s in self.winners if s in seats) / len(self.winners)

    def mean_points(self, agent: int) -> float:
        """The agent's points per seat in this game."""
        pts = [self.points[s] for s, a in enumerate(self.seating) if a == agent]
        return sum(pts) / len(pts)


@dataclass(frozen=True)
class Setup:
    """Everything every job of one arena run shares (plain data: it travels to workers)."""

    game: str
    players: int
    agents: tuple[str, ...]
    seed: int
    options: Mapping[str, Any]
    matches: bool = False
    records: str | None = None
    board: Mapping[str, Any] | None = None
    move_time: float | None = None  # external bots' time limit per decision, in seconds


class _Timed:
    """Wraps an agent to count its decisions and the time it takes over them."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.seconds = 0.0
        self.decisions = 0

    def act(self, v: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.agent.act(v)
        finally:
            self.seconds += time.perf_counter() - start
            self.decisions += 1

    def start(self, v: Any) -> None:
        begin = getattr(self.agent, "start", None)
        if begin is not None:
            begin(v)

    def finish(self, v: Any) -> None:
        end = getattr(self.agent, "finish", None)
        if end is not None:
            end(v)


def play_job(setup: Setup, job: Job) -> GameOutcome:
    """Play one arena game (a hand, or with ``setup.matches`` a whole match)."""
    game = get_game(setup.game)
    n = setup.players
    deal_seed = deal_seed_of(setup.seed, job.deal)
    timed = [
        _Timed(
            make_agent(
                setup.agents[a],
                seed=secret_seed(setup.seed, "agent", job.deal, job.rotation, s),
                move_time=setup.move_time,
            )
        )
        for s, a in enumerate(job.seating)
    ]
    record: tuple[str, str] | None = None
    forfeit: tuple[int, str] | None = None
    state: State[Any] | None = None
    hands = 1
    try:
        if setup.matches:
            match = new_match(game, n, options=setup.options, seed=deal_seed, board=setup.board)
            while True:
                if match.needs_deal:
                    match = match.next_hand()
                state = match.current
                match = match.with_current(play_hand(state, timed))
                state = match.current
                if match.is_over:
                    break
            hands = len(match.hands)
            winners, points = match.winners, match.totals
            reason = "match"
            moves = sum(len(h.moves) for h in match.hands)
            record = _record(setup, job, match=match)
        else:
            state = game.new(n, options=setup.options, seed=deal_seed, board=setup.board)
            state = play_hand(state, timed)
            assert state.result is not None
            winners, points = state.result.winners, state.hand_points
            reason = state.result.reason
            moves = len(state.moves)
            record = _record(setup, job, state=state)
    except AgentForfeit as e:
        seat = e.seat if e.seat is not None else 0
        forfeit = (seat, e.reason)
        loser_agent = job.seating[seat]
        winners = tuple(s for s in range(n) if job.seating[s] != loser_agent)
        points = (0,) * n
        reason = "forfeit"
        moves = 0 if state is None else len(state.moves)
    finally:
        for t in timed:
            close = getattr(t.agent, "close", None)
            if close is not None:
                close()
    think: dict[int, tuple[float, int]] = {}
    for s, t in enumerate(timed):
        a = job.seating[s]
        secs, count = think.get(a, (0.0, 0))
        think[a] = (secs + t.seconds, count + t.decisions)
    return GameOutcome(
        job.index,
        job.deal,
        job.rotation,
        job.seating,
        tuple(winners),
        tuple(points),
        reason,
        moves,
        hands,
        think,
        forfeit,
        record,
    )


def deal_seed_of(seed: int, deal: int) -> int:
    """The seed deal number ``deal`` of an arena run seeded with ``seed`` is dealt from."""
    return secret_seed(seed, "deal", deal)


def record_name(setup: Setup, job: Job) -> str:
    """The file name of a job's record in the ``--records`` folder."""
    return f"{setup.game}-{job.deal:05d}-{job.rotation}.json"


def _record(
    setup: Setup, job: Job, state: State[Any] | None = None, match: Match | None = None
) -> tuple[str, str] | None:
    """The job's record as ``(file name, text)``, or ``None`` when records are not kept."""
    if setup.records is None:
        return None
    names = ", ".join(f"P{s}: {setup.agents[a]}" for s, a in enumerate(job.seating))
    headers = {
        # never the run seed: records are written while later deals are still to be played,
        # and every deal and agent seed derives from it (the report names it at the end)
        "event": f"bonepile arena, deal {job.deal}, seating {job.rotation}",
        "players": names,
    }
    if match is not None:
        from bonepile.match_record import dump_match

        return record_name(setup, job), dump_match(match, headers=headers)
    assert state is not None
    from bonepile.record import dump_record

    return record_name(setup, job), dump_record(state, headers=headers)


def seatings(agents: int, players: int) -> list[tuple[int, ...]]:
    """The seatings a deal is played with: agent ``(s + r) % agents`` in seat ``s``, for every
    distinct rotation ``r`` (so each agent sits in every seat position of the pattern)."""
    out: list[tuple[int, ...]] = []
    for r in range(players):
        seating = tuple((s + r) % agents for s in range(players))
        if seating not in out:
            out.append(seating)
    return out


def schedule(agents: int, players: int, deals: int) -> Iterator[Job]:
    """Every game of an arena run, one after another: each deal once per seating (duplicate
    deals). A generator, so a run of millions of games never holds them all."""
    rotations = seatings(agents, players)
    index = 0
    for d in range(deals):
        for r, seating in enumerate(rotations):
            yield Job(index, d, r, seating)
            index += 1


__all__ = [
    "GameOutcome",
    "Job",
    "Setup",
    "deal_seed_of",
    "play_job",
    "record_name",
    "schedule",
    "seatings",
]
