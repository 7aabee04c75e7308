"""bonepile's search bot against the ``dominoes`` package's probabilistic alpha-beta player.

    python benchmarks/vs_dominoes.py [--deals 20] [--level hard | --agent SPEC] [--start-move 12]
                                     [--sample-size 8] [--seed 1] [--workers 1]

Four players in two teams (seats 0+2 against 1+3), 7 tiles each, seat 0 leads any tile: the
``dominoes`` package's own game (``dominoes.Game.new()``), which decides every move's legality
and the result. One team is bonepile's ISMCTS agent, the other the package's
``probabilistic_alphabeta`` player, its strongest player that does not look at hidden hands: it
samples the hands the others could hold (from the tiles played and the passes), runs
alpha-beta on each and plays the move most often best. Before ``--start-move`` (alpha-beta from
the first move is far too slow) it plays the package's ``bota_gorda`` (heaviest tile) order.

The adapter mirrors the package's game move by move in a bonepile ``block`` hand
(``teams=true, lead=seat0_any``), whose views are what the bonepile agent sees. Every deal is
played twice with the teams swapped (duplicate deals). The JSON report gives the bonepile
team's share of the hands won and its points margin a hand, each with a 95% interval over
deals.

Rules differ in one corner: a blocked hand goes to the team with the lower *total* in the
package, to the team holding the lowest *single* hand in bonepile's ``block``
(docs/games/block.md, "Scoring"). The package's rule decides here; the bonepile agent still
searches with its own rule.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from figures import interval, points_cell, share_cell
from traces import skip_passes, trace_of


def _bonepile_action(d: Any, left: bool, board: Any, state: Any) -> Any:
    """The bonepile action for the package's move ``(d, left)`` on ``board``."""
    from bonepile.actions import Attach, Lead
    from bonepile.tiles import Tile

    tile = Tile(d.first, d.second)
    if not board.board:
        return Lead(tile)
    end = board.board[0] if left else board.board[-1]
    value = end.first if left else end.second
    at = Tile(end.first, end.second)
    for a in state.legal_actions():
        if isinstance(a, Attach) and a.tile is tile and a.at is at:
            return a
    raise RuntimeError(f"no bonepile action for {d} on the {'left' if left else 'right'} {value}")


def _package_move(action: Any, game: Any) -> tuple[Any, bool]:
    """The package's ``(domino, left)`` for a bonepile action."""
    from bonepile.actions import Lead

    t = action.tile
    same_tile = [(d, left) for d, left in game.valid_moves if {d.first, d.second} == {t.hi, t.lo}]
    for d, left in same_tile:
        if isinstance(action, Lead) or len(game.board.board) == 0:
            return d, left
        end = game.board.board[0] if left else game.board.board[-1]
        if {end.first, end.second} == {action.at.hi, action.at.lo}:
            return d, left
    if same_tile:
        # both ends show the same number: the package offers one of the two (equivalent) ends
        return same_tile[0]
    raise RuntimeError(f"{action} is not among the package's moves {game.valid_moves}")


def play(deal: int, ours_even: bool, args: argparse.Namespace) -> dict[str, Any]:
    """One hand; ``ours_even``: bonepile plays seats 0 and 2 (else 1 and 3)."""
    import dominoes

    from bonepile.agents import make_agent
    from bonepile.games import get_game
    from bonepile.tiles import Tile
    from bonepile.view import view

    random.seed(args.seed * 7919 + deal)  # the package deals with the global generator
    game = dominoes.Game.new()
    hands = [[Tile(d.first, d.second) for d in h] for h in game.hands]
    rest = [t for t in get_game("block").deck(4, get_game("block").make_options()) if all(
        t not in h for h in hands)]  # fmt: skip
    options = {"teams": True, "lead": "seat0_any"}
    state = get_game("block").new(4, options=options, deal=(hands, rest))
    ours = {0, 2} if ours_even else {1, 3}
    spec = args.agent or f"ismcts:{args.level}"
    agent = make_agent(spec, args.seed + deal)
    trace = trace_of(state, options, sorted(ours), spec, args.seed + deal)
    alphabeta = dominoes.players.probabilistic_alphabeta(
        start_move=args.start_move, sample_size=args.sample_size
    )
    think = {"bonepile": [0.0, 0], "alphabeta": [0.0, 0]}
    while game.result is None:
        seat = game.turn
        state = skip_passes(state, trace)  # the package skips a blocked seat by itself
        assert state.actor == seat, (state.actor, seat)
        start = time.perf_counter()
        if seat in ours:
            chosen = agent.act(view(state, seat))
            d, left = _package_move(chosen, game)
            action = _bonepile_action(d, left, game.board, state)  # the end the package used
            if action != chosen:
                trace["chosen"][str(len(trace["actions"]))] = str(chosen)
            who = "bonepile"
        else:
            dominoes.players.bota_gorda(game)
            alphabeta(game)
            d, left = game.valid_moves[0]
            action = _bonepile_action(d, left, game.board, state)
            who = "alphabeta"
        think[who][0] += time.perf_counter() - start
        think[who][1] += 1
        game.make_move(d, left)
        state = state.apply(action)
        trace["actions"].append(str(action))
    state = skip_passes(state, trace)  # a blocked hand ends with passes in bonepile
    points = game.result.points  # > 0: seats 0+2 won; < 0: seats 1+3 won; 0: a tie
    share = 0.5 if points == 0 else (1.0 if (points > 0) == ours_even else 0.0)
    signed = abs(points) if share == 1.0 else (-abs(points) if share == 0.0 else 0)
    return {"deal": deal, "ours_even": ours_even, "share": share, "points": signed,
            "won_by_domino": game.result.won, "think": think,
            "trace": trace if deal < args.traces else None}  # fmt: skip


def markdown(reports: list[dict[str, Any]]) -> str:
    """docs/strength.md's table: one row a report."""
    out = [
        "| the package's player | bonepile's agent | time a move (package / bonepile) | "
        "bonepile's share of the hands | bonepile's points a hand |",
        "|---|---|---|---|---|",
    ]
    for r in reports:
        c = r["config"]
        ms = r["ms_per_move"]
        out.append(
            f"| alpha-beta from move {c['start_move']}, {c['sample_size']} sampled deals | "
            f"`{c['agent'] or 'ismcts:' + c['level']}` | "
            f"{ms['alphabeta']:.0f} ms / {ms['bonepile']:.0f} ms | "
            f"{share_cell(r['bonepile_share'], r['ci95'])}, {r['hands']} hands | "
            f"{points_cell(r['bonepile_points_per_hand'], r['points_ci95'])} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--level", default="hard", help="the search level (ismcts:LEVEL)")
    parser.add_argument("--agent", help="the bonepile agent's spec instead of --level, e.g. "
                        "ismcts:expert:objective=points")  # fmt: skip
    parser.add_argument("--start-move", type=int, default=12)
    parser.add_argument("--sample-size", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes (the deals are split)")
    parser.add_argument("--traces", type=int, default=0, help="the first N deals keep their "
                        "hands' traces (see traces.py)")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        import dominoes  # noqa: F401
    except ImportError:
        print(json.dumps({"error": "not installed: pip install -e '.[bench]'"}))
        return 0
    games = []
    per_deal = []
    points_per_deal = []
    jobs = [(deal, ours_even) for deal in range(args.deals) for ours_even in (True, False)]
    if args.workers > 1:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(args.workers, mp_context=ctx) as pool:
            deals, sides = [d for d, _ in jobs], [o for _, o in jobs]
            played = list(pool.map(play, deals, sides, [args] * len(jobs), chunksize=2))
    else:
        played = [play(deal, ours_even, args) for deal, ours_even in jobs]
    for i in range(args.deals):
        pair = played[2 * i : 2 * i + 2]
        games.extend(pair)
        per_deal.append(sum(g["share"] for g in pair) / 2)
        points_per_deal.append(sum(g["points"] for g in pair) / 2)
    mean, low, high = interval(per_deal)
    pmean, plow, phigh = interval(points_per_deal)
    secs = {k: sum(g["think"][k][0] for g in games) for k in ("bonepile", "alphabeta")}
    moves = {k: sum(g["think"][k][1] for g in games) for k in ("bonepile", "alphabeta")}
    report = {
        "benchmark": "bonepile ISMCTS vs dominoes.players.probabilistic_alphabeta, 4p teams",
        "config": vars(args),
        "hands": len(games),
        "bonepile_share": round(mean, 4),
        "ci95": [round(max(0.0, low), 4), round(min(1.0, high), 4)],
        "bonepile_points_per_hand": round(pmean, 2),
        "points_ci95": [round(plow, 2), round(phigh, 2)],
        "points_above_zero": plow > 0,
        "ms_per_move": {k: round(1000 * secs[k] / max(moves[k], 1), 1) for k in secs},
        "traces": [g["trace"] for g in games if g["trace"] is not None],
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
