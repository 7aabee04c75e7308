"""bonepile's bots against OpenSpiel's own ISMCTS on its block dominoes, like with like.

    python benchmarks/vs_openspiel.py [--deals 400] [--seed 1] [--sims 250]
                                      [--objective points|wins] [--equal-time]
                                      [--agents ismcts:hard,greedy,random] [--workers 2]
                                      [--markdown]

The game is OpenSpiel's ``python_block_dominoes`` (2 players, 7 tiles each, 14 asleep, seat 0
leads any tile, a blocked player is skipped, the lower hand wins, the winner scores the loser's
pips less its own), whose state decides every move's legality and the result. One seat is a
bonepile agent (each of ``--agents``, any spec of ``bonepile arena``), which sees only the view
of a bonepile ``block`` hand (``lead=seat0_any``) that mirrors OpenSpiel's move by move; the
other is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (random rollouts, ``uct_c``
``--openspiel-c``, the final move by most visits) with the resampler of ``openspiel_block.py``.

Like with like:

* **the same objective**: ``--objective points`` (OpenSpiel's own returns, the points margin)
  or ``wins`` (OpenSpiel's returns replaced by their sign while it searches); every bonepile
  search agent is given the same objective (``:objective=points`` added to its spec), and both
  quantities are scored whatever the objective: the share of hands won (a tie a half) and the
  points margin a hand, each with a 95% interval over deals;
* **equal simulations** (the default): OpenSpiel runs ``--sims`` simulations a decision, and
  a bonepile search agent written without a budget (``ismcts``) runs as many iterations;
* **equal time** (``--equal-time``): OpenSpiel runs ``--sims`` simulations a decision, and
  every bonepile search agent has, for each decision, OpenSpiel's mean time over its last 40
  decisions in the same process (20 timed before the first hand), so both sides' budgets
  follow the machine's load alike; the report gives both sides' mean time a decision;
* ``random`` and ``greedy`` rows calibrate: they show what a share means against this bot.

Every deal is played twice, the seats swapped (duplicate deals). A move with one legal action
costs nothing on either side and is not counted in the times. ``--markdown`` prints
docs/strength.md's table.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import random
import sys
import time
from typing import Any

import openspiel_block
from figures import emit, interval, points_cell, share_cell
from traces import skip_passes, trace_of

CALIBRATION = 20
RECENT = 40
"""OpenSpiel's decisions whose mean time is bonepile's budget at equal time."""
"""OpenSpiel decisions timed in each process before the first hand (for ``--equal-time``)."""


class Clock:
    """Each side's seconds and decisions (those with a choice) in this process."""

    def __init__(self) -> None:
        self.time = {"bonepile": 0.0, "openspiel": 0.0}
        self.moves = {"bonepile": 0, "openspiel": 0}
        self.recent: collections.deque[float] = collections.deque(maxlen=RECENT)

    def add(self, side: str, seconds: float) -> None:
        """Count one decision of ``side`` that took ``seconds``."""
        self.time[side] += seconds
        self.moves[side] += 1
        if side == "openspiel":
            self.recent.append(seconds)

    def openspiel_mean(self) -> float:
        """OpenSpiel's mean seconds a decision over its last :data:`RECENT` decisions (a
        window, so that bonepile's budget follows the machine's load as OpenSpiel's time
        does)."""
        return sum(self.recent) / max(1, len(self.recent))


_CLOCK = Clock()


def agent_spec(spec: str, args: argparse.Namespace) -> str:
    """``spec`` as it plays here: a search agent without a budget gets ``--sims`` iterations,
    and every search agent the run's objective (unless its spec names one)."""
    parts = spec.split(":")
    if parts[0] != "ismcts":
        return spec
    if len(parts) == 1 or "=" in parts[1]:
        parts.insert(1, str(args.sims))
    if args.objective == "points" and not any(p.startswith("objective=") for p in parts):
        parts.append("objective=points")
    return ":".join(parts)


class _Signed:
    """While OpenSpiel's bot searches for wins, its game's returns are their signs."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __enter__(self) -> None:
        if self.on:
            from open_spiel.python.games import block_dominoes

            cls = block_dominoes.BlockDominoesState
            self.saved = cls.returns
            saved = self.saved

            def signed(state: Any) -> list[float]:
                return [float((r > 0) - (r < 0)) for r in saved(state)]

            cls.returns = signed  # type: ignore[method-assign]

    def __exit__(self, *exc: object) -> None:
        if self.on:
            from open_spiel.python.games import block_dominoes

            block_dominoes.BlockDominoesState.returns = self.saved  # type: ignore[method-assign]


def _bot(game: Any, seed: int, args: argparse.Namespace) -> Any:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
        uct_c=args.openspiel_c,
        max_simulations=args.sims,
        random_state=np.random.RandomState(seed),
    )
    bot._resampler_cb = openspiel_block.resampler(game, random.Random(seed))
    return bot


def _calibrate(args: argparse.Namespace) -> None:
    """Time OpenSpiel's bot on the first decisions of a few hands (equal time needs a rate
    before the first hand)."""
    game = openspiel_block.load_game()
    rng = random.Random(args.seed)
    while _CLOCK.moves["openspiel"] < CALIBRATION:
        state = game.new_initial_state()
        order = list(range(28))
        rng.shuffle(order)
        for k in order[:14]:
            state.apply_action(k)
        bot = _bot(game, rng.randrange(10**6), args)
        while not state.is_terminal() and _CLOCK.moves["openspiel"] < CALIBRATION:
            legal = state.legal_actions()
            if len(legal) > 1:
                start = time.perf_counter()
                with _Signed(args.objective == "wins"):
                    action = bot.step(state)
                _CLOCK.add("openspiel", time.perf_counter() - start)
            else:
                action = legal[0]
            state.apply_action(action)


def play(
    spec: str, deal: int, ours: int, args: argparse.Namespace
) -> tuple[float, float, dict[str, Any]]:
    """One hand of deal ``deal`` with agent ``spec`` in seat ``ours``: its share (1, 0.5, 0),
    its points margin (OpenSpiel's return) and its trace (:mod:`traces`)."""
    from open_spiel.python.games import block_dominoes

    from bonepile.agents import make_agent
    from bonepile.games import get_game
    from bonepile.tiles import Tile
    from bonepile.view import view

    game = openspiel_block.load_game()
    deal_rng = random.Random(args.seed * 100_003 + deal)
    order = list(range(len(block_dominoes._DECK)))
    deal_rng.shuffle(order)
    ospiel = game.new_initial_state()
    for k in order[:14]:  # OpenSpiel deals seven to seat 0, then seven to seat 1
        ospiel.apply_action(k)
    tiles = [Tile(int(a), int(b)) for a, b in block_dominoes._DECK]
    hands = [[tiles[k] for k in order[:7]], [tiles[k] for k in order[7:14]]]
    rest = [tiles[k] for k in order[14:]]
    options = {"lead": "seat0_any"}
    state = get_game("block").new(2, options=options, deal=(hands, rest))

    seed = args.seed * 1_000_003 + deal * 2 + ours
    agent = make_agent(spec, seed)
    trace = trace_of(state, options, [ours], spec, seed)
    timed = args.equal_time and hasattr(agent, "seconds")
    bot = _bot(game, seed, args)
    while not ospiel.is_terminal():
        seat = ospiel.current_player()
        state = skip_passes(state, trace)  # OpenSpiel skips a blocked player by itself
        assert state.actor == seat, (state.actor, seat)
        legal = ospiel.legal_actions()
        start = time.perf_counter()
        if seat == ours:
            if timed:
                agent.seconds = _CLOCK.openspiel_mean()  # type: ignore[attr-defined]
            action = agent.act(view(state, seat))
            chosen = openspiel_block.to_openspiel(action, state, seat)
            side = "bonepile"
        else:
            if len(legal) > 1:
                with _Signed(args.objective == "wins"):
                    chosen = bot.step(ospiel)
            else:
                chosen = legal[0]
            action = openspiel_block.to_bonepile(chosen, state)
            side = "openspiel"
        if len(legal) > 1:
            _CLOCK.add(side, time.perf_counter() - start)
        ospiel.apply_action(chosen)
        state = state.apply(action)
        trace["actions"].append(str(action))
    state = skip_passes(state, trace)  # a blocked hand ends with passes in bonepile
    margin = float(ospiel.returns()[ours])
    return (0.5 if margin == 0 else (1.0 if margin > 0 else 0.0)), margin, trace


def _deal(job: tuple[str, int, argparse.Namespace]) -> dict[str, Any]:
    spec, deal, args = job
    if args.equal_time and _CLOCK.moves["openspiel"] < CALIBRATION:
        _calibrate(args)
    before = (dict(_CLOCK.time), dict(_CLOCK.moves))
    a = play(spec, deal, 0, args)
    b = play(spec, deal, 1, args)
    return {
        "share": (a[0] + b[0]) / 2,
        "points": (a[1] + b[1]) / 2,
        "time": {k: _CLOCK.time[k] - before[0][k] for k in _CLOCK.time},
        "moves": {k: _CLOCK.moves[k] - before[1][k] for k in _CLOCK.moves},
        "traces": [a[2], b[2]] if deal < args.traces and not args.equal_time else [],
    }


def row(spec: str, args: argparse.Namespace, pool: Any) -> dict[str, Any]:
    """Every deal with agent ``spec``: its figures."""
    jobs = [(spec, deal, args) for deal in range(args.deals)]
    done = list(pool.imap(_deal, jobs)) if pool is not None else [_deal(j) for j in jobs]
    share = interval([d["share"] for d in done])
    points = interval([d["points"] for d in done])
    secs = {k: sum(d["time"][k] for d in done) for k in ("bonepile", "openspiel")}
    moves = {k: sum(d["moves"][k] for d in done) for k in ("bonepile", "openspiel")}
    report = {
        "agent": spec,
        "hands": 2 * len(done),
        "share": round(share[0], 3),
        "share_ci95": [round(max(0.0, share[1]), 3), round(min(1.0, share[2]), 3)],
        "points_per_hand": round(points[0], 2),
        "points_ci95": [round(points[1], 2), round(points[2], 2)],
        "share_above_even": share[1] > 0.5,
        "points_above_zero": points[1] > 0,
        "ms_per_decision": {k: round(1000 * secs[k] / max(moves[k], 1), 2) for k in secs},
        "traces": [t for d in done for t in d["traces"]],
    }
    print(f"{spec}: {report['share']} {report['points_per_hand']}", file=sys.stderr)
    return report


def markdown(report: dict[str, Any]) -> str:
    """docs/strength.md's table."""
    c = report["config"]
    budget = "equal time" if c["equal_time"] else "equal simulations"
    out = [
        "| bonepile agent | hands won (95% interval) | points a hand (95% interval) | "
        "ms a decision, bonepile / OpenSpiel |",
        "|---|---|---|---|",
    ]
    for r in report["rows"]:
        ms = r["ms_per_decision"]
        out.append(
            f"| `{r['agent']}` | {share_cell(r['share'], r['share_ci95'])} | "
            f"{points_cell(r['points_per_hand'], r['points_ci95'])} | "
            f"{ms['bonepile']:.1f} / {ms['openspiel']:.1f} |"
        )
    out.append("")
    out.append(
        f"OpenSpiel ISMCTS with {c['sims']} simulations a decision, uct_c {c['openspiel_c']:g}, "
        f"{budget}, both sides maximising {c['objective']}; {report['rows'][0]['hands']} hands "
        f"a row ({c['deals']} deals, seats swapped), seed {c['seed']}."
    )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="deals a row, each played twice")
    parser.add_argument("--agents", default="ismcts,greedy,random", help="bonepile agents")
    parser.add_argument("--sims", type=int, default=250, help="OpenSpiel's simulations")
    parser.add_argument("--objective", choices=("points", "wins"), default="points")
    parser.add_argument("--equal-time", action="store_true", help="bonepile gets OpenSpiel's time")
    parser.add_argument("--openspiel-c", type=float, default=2.0, help="OpenSpiel's uct_c")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--markdown", action="store_true", help="print docs/strength.md's table")
    parser.add_argument(
        "--traces", type=int, default=0,
        help="the first N deals of each row keep their hands' traces (not with --equal-time)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    try:
        import open_spiel  # noqa: F401
    except ImportError:
        print(json.dumps({"error": "not installed: pip install -e '.[bench]'"}))
        return 0
    specs = [agent_spec(s.strip(), args) for s in args.agents.split(",") if s.strip()]
    # spawned, not forked: a forked copy of a process that loaded OpenSpiel can hang
    pool = multiprocessing.get_context("spawn").Pool(args.workers) if args.workers > 1 else None
    try:
        rows = [row(spec, args, pool) for spec in specs]
    finally:
        if pool is not None:
            pool.close()
    report = {
        "benchmark": "bonepile vs OpenSpiel ISMCTS on python_block_dominoes",
        "config": vars(args),
        "rows": rows,
    }
    return emit(report, markdown if args.markdown else None)


if __name__ == "__main__":
    sys.exit(main())
