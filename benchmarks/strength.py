"""Every strength table of docs/strength.md, in one command, at one seed.

    python benchmarks/strength.py [--deals 400] [--seed N] [--workers 2]
                                  [--parts ladder,ceiling,openspiel,dominoes,learned]
                                  [--only block,draw] [--rungs ismcts:expert] [--markdown]
                                  [--learned "prior, equal time"]
                                  [--save FILE | --no-save]
    python benchmarks/strength.py --table   # docs/strength.md's tables from the saved rows

* ``ladder``: for each game at its usual player count, on duplicate deals (``bonepile
  arena``): each rung of the game's ladder (``hints.ladder``: ``random``, ``casual``,
  ``greedy`` and the search levels that climb) against the one below, each row with the
  first agent's share of the hands won and its points margin a hand, both with 95% intervals
  over deals, and whether the share's interval lies above even (the ``casual`` rungs on
  2,000 deals at least, :data:`LADDER_DEALS`). Each row is saved as it is done into
  ``benchmarks/results/ladder.json`` (``--save``), with a check: the same run at a few deals,
  which ``tests/test_strength_figures.py`` re-runs, as it checks that docs/strength.md's table
  is the one ``--table`` draws from the saved rows;
* ``ceiling``: ``benchmarks/ceiling.py`` for each game: each level and ``greedy`` against a
  field of ``greedy``, beside the same search on the true deal (the share of the gap closed);
* ``openspiel``: ``benchmarks/vs_openspiel.py`` (two-player block): hard's budget (with and
  without exact endgames), ``greedy`` and ``random`` at OpenSpiel's 250 simulations, and
  expert at 1,000, equal simulations, both sides maximising points;
* ``dominoes``: ``benchmarks/vs_dominoes.py`` (four-player team block), hard and expert
  maximising points against the package's alpha-beta from move 6 with 32 sampled deals, hands
  and points;
* ``learned``: the shipped network (``examples/rl/block2.npz``) in two-player block, alone
  against ``greedy``, and guiding the search (its prior, then its value too) against the same
  search without it, at equal iterations and at equal time (:data:`LEARNED_ROWS`).

The reports of these parts are saved in ``benchmarks/results/tables.json``
(``--save-tables``), each with its command and a check (the ceiling's and the learned rows'
exact figures over their first deals, the peers' first hands as traces,
``benchmarks/traces.py``) that ``tests/test_strength_tables.py`` replays; docs/strength.md's tables
are drawn from it (``--table``).

Every row plays ``--deals`` deals (400 by default; the learned rows their own and the
``casual`` rungs at least 2,000, more where the difference is small), each part at its seed
(``PART_SEEDS``, or ``--seed`` for all); the parts run one after the other, each part's rows
printed as they finish (stderr) and in one JSON object, or with ``--markdown`` as
docs/strength.md's tables. The whole run takes hours on two cores.
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
from bonepile.arena import run_arena
from bonepile.games import get_game
from bonepile.heuristics import SEARCH_LADDER
from figures import points_cell, share_cell

GAMES = ["block", "draw", "doubles", "super_dominoes", "double_double"]
PARTS = ["ladder", "ceiling", "openspiel", "dominoes", "learned"]
HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "ladder.json"
"""The ladder's rows as last measured: docs/strength.md's ladder table is drawn from this file, and
the test suite re-runs each row's check (``tests/test_strength_figures.py``)."""

TABLES = HERE / "results" / "tables.json"
"""The ceiling's, OpenSpiel's and the dominoes package's reports as last measured, each with
its command and check: docs/strength.md's tables of those parts are drawn from this file, and the
test suite replays the checks (``tests/test_strength_tables.py``)."""
PART_SEEDS = {"ladder": 1, "ceiling": 1, "openspiel": 11, "dominoes": 21, "learned": 51}
"""Each part's seed (one seed a table)."""
OPENSPIEL_ROWS = (
    ("250", ["--sims", "250", "--agents", "ismcts,ismcts:250:solve=12,greedy,random"]),
    ("1000", ["--sims", "1000", "--agents", "ismcts:expert"]),
    ("250-equal-time", ["--sims", "250", "--agents", "ismcts:expert", "--equal-time"]),
)
"""The OpenSpiel runs: each one's key, OpenSpiel's simulations a decision and the bonepile
agents given as many (or, with ``--equal-time``, as much time)."""
DOMINOES_AGENTS = ("ismcts:hard:objective=points", "ismcts:expert:objective=points")
"""bonepile's agents against the package's alpha-beta from move 6 with 32 sampled deals."""
LEARNED = "examples/rl/block2.npz"
"""The shipped network (two-player block), as the repository's root names it."""
LEARNED_ROWS: tuple[tuple[str, str, str, int, int], ...] = (
    ("alone", f"policy:{LEARNED}", "greedy", 2000, 8),
    ("alone, against hard", f"policy:{LEARNED}", "ismcts:hard", 2000, 8),
    ("prior, equal iterations", f"ismcts:hard:prior={LEARNED}", "ismcts:hard", 4000, 8),
    ("prior, equal time", f"ismcts:hard:prior={LEARNED}", "ismcts:400", 4000, 8),
    ("prior, equal clock", f"ismcts:0.003s:prior={LEARNED}", "ismcts:0.0033s", 4000, 0),
    ("value, equal iterations", f"ismcts:hard:prior={LEARNED}:value={LEARNED}",
     f"ismcts:hard:objective=win:prior={LEARNED}", 1000, 2),
    ("value, equal time", f"ismcts:hard:prior={LEARNED}:value={LEARNED}",
     "ismcts:8000:objective=win", 4000, 1),
)  # fmt: skip
"""The learned part's runs (two-player block): each one's key, the two agents, its deals and
its check's deals (0: none, a time budget does not make the same moves twice). At equal time
the search without the network is given more iterations than the guided one (400 against 250,
8,000 against 250 with the value), or a longer budget (3.3 ms against 3), so that it spends
at least as long a move: the table shows both times, measured in the same run."""
CEILING_CHECK = {"block": 4, "draw": 4, "doubles": 4, "super_dominoes": 1, "double_double": 1}
"""Deals of each game's ceiling check (few where a deal is long to play)."""
TRACED_DEALS = 2
"""Deals of each peer run kept as traces."""

LADDER_DEALS = {"casual": 2000}
"""The least deals of a ladder row with one of these agents in it, whatever ``--deals`` says:
``casual``'s two rungs are each about half of the step from ``random`` to ``greedy``, too
small for 400 deals to decide (docs/strength-notes.md section 9)."""

CHECK_DEALS = {"block": 8, "draw": 6, "doubles": 6, "super_dominoes": 1, "double_double": 1}
"""Deals of each row's check: the same run at this size, whose exact figures a re-run must
give again (the same code, seed and agents give the same games on any build)."""


def pairs(game: str) -> list[tuple[str, str]]:
    """The ladder's runs of ``game``: each rung of its ladder (``hints.ladder``) against the
    one below, from the bottom up."""
    rungs = get_game(game).hints.ladder
    return [(rungs[k + 1], rungs[k]) for k in range(len(rungs) - 1)]


def row_deals(first: str, second: str, deals: int) -> int:
    """The deals of the ladder row of ``first`` against ``second``: ``deals``, or more where
    :data:`LADDER_DEALS` asks for more."""
    return max(deals, LADDER_DEALS.get(first, 0), LADDER_DEALS.get(second, 0))


def check(game: str, first: str, second: str, seed: int, deals: int) -> dict[str, Any]:
    """The run of ``first`` against ``second`` at ``deals`` deals, reduced to what must come out
    the same again: the hands each won (halves for shared ones) and its points margin total."""
    result = run_arena(game, [first, second], deals, seed=seed, workers=1)
    a = result.stats[0]
    return {
        "deals": deals,
        "hands": a.games,
        "won": round(a.share * a.games, 6),
        "points_margin": round(a.margin * a.games, 6),
    }


def ladder_row(
    game: str,
    first: str,
    second: str,
    deals: int,
    seed: int,
    workers: int,
    check_deals: int | None = None,
) -> dict[str, Any]:
    """One ladder run (or learned run): the figures the table shows, the command and the
    row's check (over ``check_deals``, by default the game's :data:`CHECK_DEALS`; 0: none)."""
    if check_deals is None:
        check_deals = CHECK_DEALS[game]
    start = time.perf_counter()
    result = run_arena(game, [first, second], deals, seed=seed, workers=workers)
    a, b = result.stats
    return {
        "game": game,
        "players": result.setup.players,
        "first": first,
        "second": second,
        "deals": result.deals,
        "seed": seed,
        "command": f"bonepile arena {game} --agents {first},{second} --games {deals} --seed {seed}",
        "win_share": round(a.share, 3),
        "ci95": [round(a.low, 3), round(a.high, 3)],
        "even_share": round(a.even, 3),
        "verdict": a.significant,
        "points_margin": round(a.margin, 2),
        "points_ci95": [round(a.margin_low, 2), round(a.margin_high, 2)],
        "ms_per_move": {first: round(1000 * a.seconds_per_move, 1),
                        second: round(1000 * b.seconds_per_move, 1)},
        "seconds": round(time.perf_counter() - start, 1),
        "build": bonepile.build(),
        "check": check(game, first, second, seed, check_deals) if check_deals else None,
    }  # fmt: skip


def ladder(
    game: str,
    deals: int,
    seed: int,
    workers: int,
    save: Path | None,
    rungs: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    """Every ladder run of ``game`` (or only those whose first agent is one of ``rungs``), each
    saved to ``save`` (if given) as soon as it is done."""
    rows = []
    for first, second in pairs(game):
        if rungs and first not in rungs:
            continue
        rows.append(ladder_row(game, first, second, row_deals(first, second, deals), seed,
                               workers))  # fmt: skip
        print(f"{game}: {first} vs {second}: {rows[-1]['win_share']}", file=sys.stderr)
        if save is not None:
            merge(save, [rows[-1]])
    return rows


def climb(
    game: str,
    deals: int,
    seed: int,
    workers: int,
    save: Path | None,
    levels: tuple[str, ...] = SEARCH_LADDER,
) -> list[dict[str, Any]]:
    """Build ``game``'s ladder from the measurements: ``casual`` against ``random`` and
    ``greedy`` against ``casual``, ``casual`` kept between them if both lie above even (else
    ``greedy`` against ``random``); then each search level of ``levels`` (weakest first)
    against the top rung so far, kept as the next rung if its share of the hands lies above
    even. Every run is a row (saved to ``save``); the ladder found is printed (stderr), for
    ``hints.ladder``."""
    rows: list[dict[str, Any]] = []

    def beats(first: str, second: str) -> bool:
        rows.append(ladder_row(game, first, second, row_deals(first, second, deals), seed,
                               workers))  # fmt: skip
        if save is not None:
            merge(save, rows[-1:])
        print(f"{game}: {first} vs {second}: {rows[-1]['win_share']} ({rows[-1]['verdict']})",
              file=sys.stderr)  # fmt: skip
        return bool(rows[-1]["verdict"] == "better")

    rungs = ["random"]
    if beats("casual", "random") and beats("greedy", "casual"):
        rungs.append("casual")
    else:
        beats("greedy", "random")
    rungs.append("greedy")  # the anchor of the ratings, on every ladder
    for first in levels:
        if beats(first, rungs[-1]):
            rungs.append(first)
    print(f"{game}: ladder {tuple(rungs)!r}", file=sys.stderr)
    return rows


def learned(
    deals: int | None, seed: int, workers: int, save: Path | None, keys: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """Every learned run (:data:`LEARNED_ROWS`, or only those named in ``keys``; ``deals`` for
    each, by default its own), each saved to ``save`` (if given) as soon as it is done."""
    rows = []
    for key, first, second, own, check_deals in LEARNED_ROWS:
        if keys and key not in keys:
            continue
        row = ladder_row("block", first, second, deals or own, seed, workers, check_deals)
        rows.append({"key": key, **row})
        print(f"learned, {key}: {row['win_share']}, {row['points_margin']}", file=sys.stderr)
        if save is not None:
            save_table(save, "learned", key, rows[-1])
    return rows


def learned_markdown(rows: list[dict[str, Any]]) -> str:
    """docs/strength.md's table of the learned runs."""
    out = [
        "| what | first vs second | deals | hands won by the first (95% interval) | "
        "its points margin a hand (95% interval) | ms a move, first / second |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['key']} | `{r['first']}` vs `{r['second']}` | {r['deals']:,} | {_cells(r)} |"
        )
    return "\n".join(out)


def _cells(r: dict[str, Any]) -> str:
    """A run's hands (marked unless above even), points and times a move, as table cells."""
    mark = {"better": "", "even": " (not above even)", "worse": " (below even)"}[r["verdict"]]
    return (
        f"{share_cell(r['win_share'], r['ci95'])}{mark} | "
        f"{points_cell(r['points_margin'], r['points_ci95'])} | "
        f"{_ms(r['ms_per_move'][r['first']])} / {_ms(r['ms_per_move'][r['second']])}"
    )


def load(path: Path = RESULTS) -> list[dict[str, Any]]:
    """The saved ladder rows, in the order of :data:`GAMES` and each game's ladder."""
    if not path.exists():
        return []
    rows: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["rows"]
    return rows


def merge(path: Path, new: list[dict[str, Any]]) -> None:
    """Save ``new`` rows into ``path``, replacing a row of the same game and agents: in each
    game, the rows of its ladder as it now is (in its order), then the others (levels measured
    and left out)."""
    key = lambda r: (r["game"], r["first"], r["second"])  # noqa: E731
    kept = {key(r): r for r in load(path)}
    kept.update({key(r): r for r in new})
    rows = []
    for g in GAMES:
        on = [(g, a, b) for a, b in pairs(g)]
        rows += [kept[k] for k in on if k in kept]
        rows += [r for k, r in kept.items() if k[0] == g and k not in on]
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"rows": rows}, indent=1) + "\n"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def ladder_markdown(rows: list[dict[str, Any]]) -> str:
    """docs/strength.md's ladder table."""
    out = [
        "| game (players) | first vs second | deals | hands won by the first (95% interval) | "
        "its points margin a hand (95% interval) | ms a move, first / second (one run) |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        title = get_game(r["game"]).title
        left = ""
        if (r["first"], r["second"]) not in pairs(r["game"]):
            on = {r["first"], r["second"]} <= set(get_game(r["game"]).hints.ladder)
            left = " (not neighbouring rungs)" if on else " (left out)"
        out.append(
            f"| {title} ({r['players']}) | `{r['first']}` vs `{r['second']}`{left} "
            f"| {r['deals']:,} | {_cells(r)} |"
        )
    return "\n".join(out)


def runs(part: str, games: list[str]) -> list[tuple[str, str, list[str]]]:
    """The runs of ``part`` (ceiling, openspiel or dominoes): each one's key in the saved
    tables, its script and its options (deals, seed and workers aside)."""
    if part == "ceiling":
        return [(g, "ceiling.py", ["--game", g]) for g in games]
    if part == "openspiel":
        return [(key, "vs_openspiel.py", options) for key, options in OPENSPIEL_ROWS]
    return [
        (agent, "vs_dominoes.py", ["--agent", agent, "--start-move", "6", "--sample-size", "32"])
        for agent in DOMINOES_AGENTS
    ]


def checks(part: str, key: str) -> list[str]:
    """The options that keep run ``key``'s check: the ceiling's exact figures over its first
    deals, or the peers' first hands as traces (``benchmarks/traces.py``)."""
    if part == "ceiling":
        return ["--check", str(CEILING_CHECK[key])]
    return ["--traces", str(TRACED_DEALS)]


def load_tables(path: Path = TABLES) -> dict[str, dict[str, Any]]:
    """The saved reports of the ceiling, OpenSpiel, dominoes and learned parts, by part and
    run."""
    if not path.exists():
        return {}
    saved: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return saved


def save_table(path: Path, part: str, key: str, report: dict[str, Any]) -> None:
    """Save ``report`` as run ``key`` of ``part``, replacing the one saved before."""
    saved = load_tables(path)
    saved.setdefault(part, {})[key] = report
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def tables_markdown(saved: dict[str, dict[str, Any]]) -> str:
    """docs/strength.md's ceiling, OpenSpiel, dominoes and learned tables, from the saved reports,
    each under the command that measured it (the learned table under the seed's)."""
    sys.path.insert(0, str(HERE))
    import ceiling
    import vs_dominoes
    import vs_openspiel

    text: list[str] = []
    for report in saved.get("ceiling", {}).values():
        text += [_command(report), "", ceiling.markdown(report), ""]
    for report in saved.get("openspiel", {}).values():
        text += [_command(report), "", vs_openspiel.markdown(report), ""]
    dominoes = list(saved.get("dominoes", {}).values())
    if dominoes:
        commands = "\n".join(f"- {_command(r)}" for r in dominoes)
        text += [commands, "", vs_dominoes.markdown(dominoes), ""]
    rows = list(saved.get("learned", {}).values())
    if rows:
        text += [_learned_command(rows), "", learned_markdown(rows), ""]
    return "\n".join(text).strip()


def _learned_command(rows: list[dict[str, Any]]) -> str:
    seeds = sorted({r["seed"] for r in rows})
    return (
        f"`python benchmarks/strength.py --parts learned` (seed {', '.join(map(str, seeds))}; "
        "each row is `bonepile arena block --agents FIRST,SECOND --games DEALS --seed "
        f"{seeds[0]}`)"
    )


def _command(report: dict[str, Any]) -> str:
    return f"`{report['command']}`"


def _ms(ms: float) -> str:
    return f"{ms:.1f}" if ms < 10 else f"{ms:.0f}"


def _script(name: str, *args: str) -> dict[str, Any]:
    """Run ``benchmarks/NAME`` with ``args`` on this Python; its JSON report."""
    done = subprocess.run(
        [sys.executable, str(HERE / name), *args], capture_output=True, text=True, check=True
    )
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--deals", type=int, help="deals a row (400; the learned part's rows their own)"
    )
    parser.add_argument("--only", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--parts", default=",".join(PARTS), help="parts, comma-separated")
    parser.add_argument("--seed", type=int, help="every part's seed (by default each part's: "
                        "ladder and ceiling 1, openspiel 11, dominoes 21)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--markdown", action="store_true", help="print docs/strength.md's tables")
    parser.add_argument(
        "--save", type=Path, default=RESULTS,
        help="where the ladder's rows are saved, each as it is done "
        "(default benchmarks/results/ladder.json)",
    )  # fmt: skip
    parser.add_argument(
        "--save-tables", type=Path, default=TABLES,
        help="where the other parts' reports are saved (default benchmarks/results/tables.json)",
    )  # fmt: skip
    parser.add_argument("--no-save", action="store_true", help="save no rows or reports")
    parser.add_argument(
        "--climb", action="store_true",
        help="ladder part: build each game's ladder from the runs (each level against the top "
        "rung so far) instead of measuring the ladder the game has",
    )  # fmt: skip
    parser.add_argument(
        "--rungs", default="",
        help="ladder part: only the rows of these rungs against the one below, comma-separated "
        "(re-measure one rung without the others)",
    )  # fmt: skip
    parser.add_argument(
        "--learned", action="append", default=[], metavar="KEY",
        help="learned part: only the row named KEY (its first column; may be given again)",
    )  # fmt: skip
    parser.add_argument(
        "--table", action="store_true",
        help="only print docs/strength.md's tables from the saved rows and reports (runs nothing)",
    )  # fmt: skip
    parser.add_argument(
        "--levels", default=",".join(SEARCH_LADDER),
        help="with --climb: the search levels to try, weakest first",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.table:
        print(ladder_markdown(load(args.save)))
        print()
        print(tables_markdown(load_tables(args.save_tables)))
        return 0
    parts = [p for p in args.parts.split(",") if p]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown parts {unknown} (parts: {', '.join(PARTS)})")
    games = [get_game(g).name for g in args.only.split(",") if g]
    rungs = tuple(x for x in args.rungs.split(",") if x)
    if rungs and args.climb:
        parser.error("--rungs measures rungs of the ladder the game has; --climb builds it anew")
    climbing = {first for g in games for first, _ in pairs(g)}
    stray = [r for r in rungs if r not in climbing]
    if stray:
        parser.error(f"--rungs {stray} are no rung above another in {', '.join(games)}")
    known = [key for key, *_ in LEARNED_ROWS]
    strange = [key for key in args.learned if key not in known]
    if strange:
        parser.error(f"--learned {strange} name no learned row (rows: {'; '.join(known)})")
    out: dict[str, Any] = {}
    deals = args.deals or 400
    if "ladder" in parts:
        save = None if args.no_save else args.save
        seed = PART_SEEDS["ladder"] if args.seed is None else args.seed
        levels = tuple(x if ":" in x else f"ismcts:{x}" for x in args.levels.split(",") if x)
        out["ladder"] = [
            r
            for g in games
            for r in (
                climb(g, deals, seed, args.workers, save, levels)
                if args.climb
                else ladder(g, deals, seed, args.workers, save, rungs)
            )
        ]
    tables = None if args.no_save else args.save_tables
    for part in ("ceiling", "openspiel", "dominoes"):
        if part not in parts:
            continue
        seed = str(PART_SEEDS[part] if args.seed is None else args.seed)
        out[part] = []
        for key, name, options in runs(part, games):
            command = [name, *options, "--deals", str(deals), "--seed", seed]
            report = _script(*command, "--workers", str(args.workers), *checks(part, key))
            report["command"] = " ".join(["python", f"benchmarks/{name}", *command[1:]])
            out[part].append(report)
            if tables is not None:
                save_table(tables, part, key, report)
    if "learned" in parts and "block" in games:
        seed_ = PART_SEEDS["learned"] if args.seed is None else args.seed
        out["learned"] = learned(args.deals, seed_, args.workers, tables, tuple(args.learned))
    if args.markdown:
        print(markdown(out))
        return 0
    report = {
        "benchmark": "docs/strength.md's strength tables",
        "config": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
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
    if out.get("dominoes"):
        import vs_dominoes

        text += ["### The dominoes package", "", vs_dominoes.markdown(out["dominoes"]), ""]
    if out.get("learned"):
        text += ["### The learned bot", "", learned_markdown(out["learned"])]
    return "\n".join(text)


if __name__ == "__main__":
    sys.exit(main())
