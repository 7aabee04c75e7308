"""Every strength table of the README, in one command, at one seed.

    python benchmarks/strength.py [--deals 400] [--seed 1] [--workers 2]
                                  [--parts ladder,ceiling,openspiel,dominoes]
                                  [--only block,draw] [--markdown]

* ``ladder``: for each game at its usual player count, on duplicate deals (``bonepile
  arena``): ``greedy`` against ``random``, the lowest search level against ``greedy``, and each
  level against the one below (:data:`bonepile.agents.ismcts.LEVELS`), each row with the first
  agent's share of the hands won and its points margin a hand, both with 95% intervals over
  deals, and whether the share's interval lies above even;
* ``ceiling``: ``benchmarks/ceiling.py`` for each game: each level and ``greedy`` against a
  field of ``greedy``, beside the same search on the true deal (the share of the gap closed);
* ``openspiel``: ``benchmarks/vs_openspiel.py`` (two-player block): ``ismcts:hard`` and
  ``ismcts:expert``'s settings at OpenSpiel's simulations, 250 and 1,000, equal simulations,
  both sides maximising points, with ``greedy`` and ``random`` beside them;
* ``dominoes``: ``benchmarks/vs_dominoes.py`` (four-player team block), hands and points.

Every row plays ``--deals`` deals (400 by default) at ``--seed``; the parts run one after the
other, each part's rows printed as they finish (stderr) and in one JSON object, or with
``--markdown`` as the README's tables. The whole run takes hours on two cores.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import bonepile
from bonepile.agents.ismcts import LEVELS
from bonepile.arena import run_arena
from bonepile.games import get_game

GAMES = ["block", "draw", "doubles", "super_dominoes", "double_double"]
PARTS = ["ladder", "ceiling", "openspiel", "dominoes"]
HERE = Path(__file__).resolve().parent


def pairs() -> list[tuple[str, str]]:
    """The ladder's runs of each game: first agent against second, from the bottom up."""
    levels = [f"ismcts:{name}" for name in LEVELS]
    out = [("greedy", "random"), (levels[0], "greedy")]
    out += [(levels[k + 1], levels[k]) for k in range(len(levels) - 1)]
    return out


def ladder(game: str, deals: int, seed: int, workers: int) -> list[dict[str, Any]]:
    """Every ladder run of ``game``; each a dict of the figures the table shows."""
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
                "points_margin": round(a.margin, 2),
                "points_ci95": [round(a.margin_low, 2), round(a.margin_high, 2)],
                "ms_per_move": {first: round(1000 * a.seconds_per_move, 1),
                                second: round(1000 * b.seconds_per_move, 1)},
                "seconds": round(time.perf_counter() - start, 1),
            }
        )  # fmt: skip
        print(f"{game}: {first} vs {second}: {rows[-1]['win_share']}", file=sys.stderr)
    return rows


def ladder_markdown(rows: list[dict[str, Any]]) -> str:
    """The README's ladder table."""
    out = [
        "| game (players) | first vs second | hands won by the first (95% interval) | "
        "its points margin a hand (95% interval) | first's time a move |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        title = get_game(r["game"]).title
        low, high = r["ci95"]
        plo, phi = r["points_ci95"]
        mark = {"better": "", "even": " (not above even)", "worse": " (below even)"}[r["verdict"]]
        out.append(
            f"| {title} ({r['players']}) | `{r['first']}` vs `{r['second']}` | "
            f"{r['win_share']:.3f} ({low:.3f}–{high:.3f}){mark} | "
            f"{r['points_margin']:+.2f} ({plo:+.2f} to {phi:+.2f}) | "
            f"{_ms(r['ms_per_move'][r['first']])} |"
        )
    return "\n".join(out)


def _ms(ms: float) -> str:
    return "under 1 ms" if ms < 1 else f"{ms:.0f} ms"


def _script(name: str, *args: str) -> dict[str, Any]:
    """Run ``benchmarks/NAME`` with ``args`` on this Python; its JSON report."""
    done = subprocess.run(
        [sys.executable, str(HERE / name), *args], capture_output=True, text=True, check=True
    )
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="deals a row")
    parser.add_argument("--only", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--parts", default=",".join(PARTS), help="parts, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--markdown", action="store_true", help="print the README's tables")
    args = parser.parse_args(argv)
    parts = [p for p in args.parts.split(",") if p]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown parts {unknown} (parts: {', '.join(PARTS)})")
    games = [get_game(g).name for g in args.only.split(",") if g]
    common = ["--deals", str(args.deals), "--seed", str(args.seed)]
    workers = ["--workers", str(args.workers)]
    out: dict[str, Any] = {}
    if "ladder" in parts:
        out["ladder"] = [r for g in games for r in ladder(g, args.deals, args.seed, args.workers)]
    if "ceiling" in parts:
        out["ceiling"] = [_script("ceiling.py", "--game", g, *common, *workers) for g in games]
    if "openspiel" in parts:
        out["openspiel"] = [
            _script("vs_openspiel.py", "--sims", str(sims), "--agents", agents, *common, *workers)
            for sims, agents in (
                (250, "ismcts,ismcts:250:belief=4,greedy,random"),
                (1000, "ismcts,ismcts:1000:belief=4"),
            )
        ]
    if "dominoes" in parts:
        out["dominoes"] = [
            _script("vs_dominoes.py", "--level", level, "--start-move", "6",
                    "--sample-size", "32", *common)
            for level in ("hard", "expert")
        ]  # fmt: skip
    if args.markdown:
        print(markdown(out))
        return 0
    report = {
        "benchmark": "the README's strength tables",
        "config": vars(args),
        "bonepile": f"{bonepile.__version__}, {bonepile.build()}",
        "python": platform.python_version(),
        **out,
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def markdown(out: dict[str, Any]) -> str:
    """Every part's table, one after the other."""
    sys.path.insert(0, str(HERE))
    import ceiling
    import vs_openspiel

    text = []
    if "ladder" in out:
        text += ["### The ladder", "", ladder_markdown(out["ladder"]), ""]
    for report in out.get("ceiling", []):
        text += ["### The ceiling", "", ceiling.markdown(report), ""]
    for report in out.get("openspiel", []):
        text += ["### OpenSpiel's ISMCTS", "", vs_openspiel.markdown(report), ""]
    for report in out.get("dominoes", []):
        text += ["### The dominoes package", "", "```json", json.dumps(report, indent=2), "```"]
    return "\n".join(text)


if __name__ == "__main__":
    sys.exit(main())
