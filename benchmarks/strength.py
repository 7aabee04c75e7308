"""The strength table: every game's agents against each other in the arena, in one command.

    python benchmarks/strength.py [--deals 200] [--only block,draw] [--seed 0]
                                  [--workers 2] [--markdown]

For each game at its usual player count it runs, on duplicate deals (``bonepile arena``):
``greedy`` against ``random``; each search level against the level below it (the levels of
:data:`bonepile.agents.ismcts.LEVELS`, in order); and the default search level against
``greedy``. It prints one JSON object (every run's win share of the first agent, its 95%
interval over deals, the verdict against an even share and both agents' time a move), or with
``--markdown`` the table the README shows. ``--deals`` is per run; the slow games (Super
Dominoes with four players, Double Double Dominoes) play a third as many (at least 20).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any

import bonepile
from bonepile.agents.ismcts import DEFAULT_LEVEL, LEVELS
from bonepile.arena import run_arena
from bonepile.games import get_game

GAMES = ["block", "draw", "doubles", "super_dominoes", "double_double"]
SLOW = {"super_dominoes", "double_double"}


def pairs() -> list[tuple[str, str]]:
    """The runs of each game: first agent against second."""
    levels = [f"ismcts:{name}" for name in LEVELS]
    out = [("greedy", "random")]
    out += [(levels[k + 1], levels[k]) for k in range(len(levels) - 1)]
    out.append((f"ismcts:{DEFAULT_LEVEL}", "greedy"))
    return out


def run(game: str, deals: int, seed: int, workers: int) -> list[dict[str, Any]]:
    """Every run of ``game``; each a dict of the figures the table shows."""
    rows = []
    for first, second in pairs():
        start = time.perf_counter()
        result = run_arena(game, [first, second], deals, seed=seed, workers=workers)
        a, b = result.stats
        rows.append(
            {
                "game": game,
                "players": result.setup.players,
                "first": first,
                "second": second,
                "deals": result.deals,
                "win_share": round(a.share, 3),
                "ci95": [round(a.low, 3), round(a.high, 3)],
                "even_share": round(a.even, 3),
                "verdict": a.significant,
                "ms_per_move": {first: round(1000 * a.seconds_per_move, 1),
                                second: round(1000 * b.seconds_per_move, 1)},
                "seconds": round(time.perf_counter() - start, 1),
            }
        )  # fmt: skip
        print(f"{game}: {first} vs {second}: {rows[-1]['win_share']}", file=sys.stderr)
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    """The README's table."""
    out = [
        "| game (players) | first vs second | win share of the first (95% interval) | deals "
        "| first's time a move |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        title = get_game(r["game"]).title
        low, high = r["ci95"]
        mark = {"better": "", "even": " (not above even)", "worse": " (below even)"}[r["verdict"]]
        out.append(
            f"| {title} ({r['players']}) | `{r['first']}` vs `{r['second']}` | "
            f"{r['win_share']:.3f} ({low:.3f}–{high:.3f}){mark} | {r['deals']} | "
            f"{_ms(r['ms_per_move'][r['first']])} |"
        )
    return "\n".join(out)


def _ms(ms: float) -> str:
    return "under 1 ms" if ms < 1 else f"{ms:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals a run (fewer for slow games)")
    parser.add_argument("--only", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes (the arena's --workers)")
    parser.add_argument("--markdown", action="store_true", help="print the README's table")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    for game in args.only.split(","):
        deals = max(20, args.deals // 3) if game in SLOW else args.deals
        rows += run(get_game(game).name, deals, args.seed, args.workers)
    if args.markdown:
        print(markdown(rows))
        return 0
    report = {
        "benchmark": "arena strength table (duplicate deals)",
        "config": vars(args),
        "bonepile": f"{bonepile.__version__}, {bonepile.build()}",
        "python": platform.python_version(),
        "runs": rows,
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
