"""How far each bot is from one that sees every hand: the share of that gap it closes.

    python benchmarks/ceiling.py [--game block] [--deals 400] [--seed 1]
                                 [--agents random,ismcts:easy,...] [--field greedy]
                                 [--oracle 1000] [--workers 2] [--markdown]

Each agent of ``--agents`` and the **oracle** sit in turn in every seat of every deal (the
game's usual player count), the other seats held by ``--field`` (by default ``greedy``). The
oracle is bonepile's own search run on the true deal: :meth:`ISMCTSAgent.search` given one
world, the real one, with ``--oracle`` iterations a move (by default expert's budget), so it
knows every hand and the boneyard's order; nothing else changes. The agents see only their
views.

Every seating of a deal plays the same deal (duplicate deals), so the field's own share, 1/n
of the wins, is what a seat of the field gets. For each agent the report gives its share of the
hands won and its points a hand (each with a 95% interval over deals), and the **share of the
gap closed**: (agent - field) / (oracle - field), in wins and in points. 0 plays like the
field, 1 like a player who sees everything: a figure that does not depend on any peer.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from typing import Any

from figures import emit, interval, points_cell, share_cell

ORACLE = "oracle"


def _oracle_move(state: Any, seat: int, iterations: int, seed: int) -> Any:
    from bonepile.agents.ismcts import ISMCTSAgent, most_visited

    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    agent = ISMCTSAgent(seed, iterations=iterations)
    rng = random.Random(seed * 7_919 + state.ply)
    return most_visited(agent.search([state], seat, rng), legal)


def play(job: tuple[str, int, int, argparse.Namespace]) -> dict[str, Any]:
    """Deal ``deal`` with ``spec`` in seat ``seat`` and the field elsewhere: its share, its
    points and its time."""
    from bonepile.agents import make_agent
    from bonepile.games import get_game
    from bonepile.seeds import secret_seed
    from bonepile.view import view

    spec, deal, seat, args = job
    game = get_game(args.game)
    n = args.players or game.default_players
    state = game.new(n, seed=secret_seed(args.seed, "deal", deal))
    agents = [
        None if (s == seat and spec == ORACLE) else make_agent(
            spec if s == seat else args.field, secret_seed(args.seed, "agent", deal, seat, s)
        )
        for s in range(n)
    ]  # fmt: skip
    think, decisions = 0.0, 0
    while state.actor is not None:
        s = state.actor
        start = time.perf_counter()
        agent = agents[s]
        if agent is None:
            action = _oracle_move(state, s, args.oracle, secret_seed(args.seed, "o", deal, s))
        else:
            action = agent.act(view(state, s))
        if s == seat:
            think += time.perf_counter() - start
            decisions += 1
        state = state.apply(action)
    result = state.result
    assert result is not None
    points = state.scores if game.board_game else result.points
    if not result.winners:
        share = 1 / n
    else:
        share = (1 / len(result.winners)) if seat in result.winners else 0.0
    others = [p for s, p in enumerate(points) if s != seat]
    margin = points[seat] - sum(others) / len(others)
    return {"spec": spec, "deal": deal, "share": share, "points": margin, "think": think,
            "decisions": decisions}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="block")
    parser.add_argument("--players", type=int, default=0, help="by default the game's usual")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument(
        "--agents", default="random,ismcts:easy,ismcts:medium,ismcts:hard,ismcts:expert"
    )
    parser.add_argument("--field", default="greedy", help="the agent in the other seats")
    parser.add_argument("--oracle", type=int, default=0, help="its iterations (expert's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--markdown", action="store_true", help="print docs/strength.md's table")
    parser.add_argument("--check", type=int, default=0, help="also give the exact figures of "
                        "the first N deals (what check() must give again)")  # fmt: skip
    args = parser.parse_args(argv)
    from bonepile.agents.ismcts import LEVELS
    from bonepile.games import get_game

    game = get_game(args.game)
    args.game = game.name
    n = args.players or game.default_players
    args.oracle = args.oracle or LEVELS["expert"]
    specs, jobs = _jobs(args, n, args.deals)
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 else None
    try:
        done = list(pool.imap(play, jobs, chunksize=4) if pool is not None else map(play, jobs))
    finally:
        if pool is not None:
            pool.close()
    per: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for g in done:
        per.setdefault(g["spec"], {}).setdefault(g["deal"], []).append(g)
    rows = []
    summary = {}
    for spec in specs:
        deals = per[spec]
        share = interval([sum(g["share"] for g in gs) / len(gs) for gs in deals.values()])
        points = interval([sum(g["points"] for g in gs) / len(gs) for gs in deals.values()])
        games = [g for gs in deals.values() for g in gs]
        ms = 1000 * sum(g["think"] for g in games) / max(1, sum(g["decisions"] for g in games))
        summary[spec] = (share[0], points[0])
        rows.append({"agent": spec, "games": len(games), "share": round(share[0], 3),
                     "share_ci95": [round(max(0.0, share[1]), 3), round(min(1.0, share[2]), 3)],
                     "points": round(points[0], 2),
                     "points_ci95": [round(points[1], 2), round(points[2], 2)],
                     "ms_per_move": round(ms, 2)})  # fmt: skip
    top_share, top_points = summary[ORACLE]
    for r in rows:
        gap_w = top_share - 1 / n
        r["gap_closed_wins"] = round((r["share"] - 1 / n) / gap_w, 3) if gap_w > 0 else None
        r["gap_closed_points"] = round(r["points"] / top_points, 3) if top_points > 0 else None
    report = {
        "benchmark": "each bot against a field, beside a search that sees every hand",
        "config": vars(args),
        "players": n,
        "rows": rows,
    }
    if args.check:
        first = min(args.check, args.deals)
        report["check"] = _tally([g for g in done if g["deal"] < first], first)
    return emit(report, markdown if args.markdown else None)


def _tally(games: list[dict[str, Any]], deals: int) -> dict[str, Any]:
    """What the games of the first ``deals`` deals must give again: each agent's hands won
    (shares summed) and points margins summed, exact (no times)."""
    out: dict[str, list[float]] = {}
    for g in games:
        won, points = out.setdefault(g["spec"], [0.0, 0.0])
        out[g["spec"]] = [won + g["share"], points + g["points"]]
    return {"deals": deals, "agents": {k: [round(w, 6), round(p, 6)] for k, (w, p) in out.items()}}


def check(config: dict[str, Any], deals: int) -> dict[str, Any]:
    """The check of a saved report's run (its ``config``) at ``deals`` deals, in this process:
    the same games, so the same figures, as long as the code plays them the same."""
    from bonepile.games import get_game

    args = argparse.Namespace(**config)
    _, jobs = _jobs(args, args.players or get_game(args.game).default_players, deals)
    return _tally([play(j) for j in jobs], deals)


def _jobs(args: argparse.Namespace, n: int, deals: int) -> tuple[list[str], list[Any]]:
    """The agents of the run (the oracle last) and its games: each agent in each of the ``n``
    seats of the first ``deals`` deals."""
    specs = [s.strip() for s in args.agents.split(",") if s.strip()] + [ORACLE]
    jobs = [(spec, d, seat, args) for spec in specs for d in range(deals) for seat in range(n)]
    return specs, jobs


def markdown(report: dict[str, Any]) -> str:
    """docs/strength.md's table for one game."""
    from bonepile.games import get_game

    c = report["config"]
    out = [
        f"{get_game(c['game']).title}, {report['players']} players, each agent in every seat "
        f"against `{c['field']}`, {c['deals']} deals, seed {c['seed']}; the oracle is the "
        f"search with {c['oracle']} iterations on the true deal.",
        "",
        "| agent | hands won (95% interval) | points margin a hand (95% interval) | "
        "gap closed, wins / points |",
        "|---|---|---|---|",
    ]
    for r in report["rows"]:
        gw, gp = r["gap_closed_wins"], r["gap_closed_points"]
        gap = "—" if gw is None or gp is None else f"{gw:.2f} / {gp:.2f}"
        out.append(
            f"| `{r['agent']}` | {share_cell(r['share'], r['share_ci95'])} | "
            f"{points_cell(r['points'], r['points_ci95'])} | {gap} |"
        )
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
