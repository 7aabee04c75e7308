"""Random-playout throughput of bonepile, with OpenSpiel and ``dominoes`` as anchors.

Every workload plays complete hands — a fresh deal to the end of the hand — with uniformly
random legal moves, in this one process, for a fixed wall time, and reports hands per second,
actions per second and the mean number of plays and passes per hand. The anchors run in the same
process and the same run, so their figures are directly comparable:

* ``openspiel_block_2p``: OpenSpiel's ``python_block_dominoes`` (2 players, 7 tiles, seat 0
  leads any tile); chance nodes (the deal) are resolved with a random ``chance_outcomes()``.
* ``dominoes_block_4p``: the ``dominoes`` package (4 players, 7 tiles, seat 0 leads any tile).
* ``bonepile_block_2p`` / ``bonepile_block_4p``: bonepile ``block`` with ``lead=seat0_any``;
  the 2-player workload also times ``State.step`` (which builds events) as a second figure.
* ``bonepile_sd_2p`` / ``_4p`` / ``_6p``: bonepile Super Dominoes with default options.

Both sides use Python's ``random.Random`` for the deal and the moves, and both sides deal inside
the timed loop. ``actions`` are turns taken, plays plus passes: OpenSpiel and ``dominoes`` skip
a blocked player inside the engine, and those skips are counted as passes.

The wall time of each workload is cut into ``--rounds`` slices played round-robin across the
workloads, so that a change in machine load affects bonepile and its anchors alike.

The output is one JSON object on stdout with a ``targets`` section (bonepile's random playouts,
2p block against OpenSpiel and 4p block against ``dominoes`` as games/s ratios, the step API's
ratios beside them; Super Dominoes 4p and Double Double Dominoes 2p in actions/s, with the
OpenSpiel anchor's rate of the same run) and a ``rules_check`` section
that compares bonepile's mean plays and passes with the anchors' (a difference beyond the noise
would mean the rules differ). A missing anchor is reported as an error entry, never a crash.

Run: ``.venv/bin/python benchmarks/playouts.py [--seconds 3] [--seed 1] [--only a,b]``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

NOT_INSTALLED = "not installed: pip install -e '.[bench]'"
WARMUP_GAMES = 50
"""Untimed hands played before timing each playout (fills the engines' lazy caches)."""

TARGETS = {
    "block_2p_vs_openspiel_playout": (
        "bonepile_block_2p",
        "games_per_s_playout",
        "openspiel_block_2p",
        (15, 25),
    ),
    "block_4p_vs_dominoes_playout": (
        "bonepile_block_4p",
        "games_per_s_playout",
        "dominoes_block_4p",
        (3, 5),
    ),
    "block_2p_vs_openspiel": ("bonepile_block_2p", "games_per_s", "openspiel_block_2p", None),
    "block_4p_vs_dominoes": ("bonepile_block_4p", "games_per_s", "dominoes_block_4p", None),
}
"""Target name -> (bonepile workload, its games/s figure, anchor workload, minimum ratio on the
pure build and on the compiled build, or ``None`` for a ratio reported without a target).

The targets are for random playouts, and ``games_per_s_playout`` is bonepile's random playout:
``State.playout``, the call simulations and search rollouts make (the same rules functions,
without building the states in between), a hand's actions counted by the final state's ``ply``.
``games_per_s`` plays through the public step API (``legal_actions`` + ``apply``, a new
immutable state a move) as the anchors are driven (each changes one state in place); it is
reported beside them for a program that steps through hands, with no target of its own."""

ABSOLUTE_TARGETS = {
    "super_dominoes_4p_actions": ("bonepile_sd_4p", "actions_per_s_playout", 500_000),
    "double_double_2p_actions": ("bonepile_ddd_2p", "actions_per_s_playout", 100_000),
}
"""Target name -> (bonepile workload, its actions/s figure through ``State.playout``, minimum on
the compiled build). No anchor plays these games, so these are rates of this machine, which is
shared and whose speed changes from day to day: each entry also gives the actions per hand of
OpenSpiel's block (``openspiel_block_2p``) in the same run, the figure to compare across days."""

RULES_CHECK = {
    "block_2p": ("bonepile_block_2p", "openspiel_block_2p"),
    "block_4p": ("bonepile_block_4p", "dominoes_block_4p"),
}
"""Check name -> (bonepile workload, anchor workload) that must agree on mean plays/passes."""

REFERENCE = {
    "openspiel_block_2p": {"mean_plays": (10.357, 0.007), "mean_passes": (1.117, 0.004)},
    "dominoes_block_4p": {"mean_plays": (22.406, 0.008), "mean_passes": (3.224, 0.006)},
}
"""Anchor means (and standard errors) over 100,000 random hands each; the rules check uses them
when the anchor itself was not measured in this run."""

Z_LIMIT = 3.0
"""Largest |difference / standard error| still counted as noise."""

BLOCK_OPTIONS = {"lead": "seat0_any"}


def picker(rng: random.Random) -> Callable[[Sequence[Any]], Any]:
    """The uniform random choice every workload uses: ``seq[int(rng.random() * len(seq))]``.

    One way of picking for bonepile and the anchors alike (it is also what
    ``State.playout`` does), so that no side pays more for its random numbers.
    """
    rand = rng.random

    def pick(seq: Sequence[Any]) -> Any:
        return seq[int(rand() * len(seq))]

    return pick


Playout = Callable[[], tuple[int, int]]
"""Plays one hand from a fresh deal; returns ``(plays, passes)``."""


class AnchorMissing(Exception):
    """An anchor package could not be imported."""


@dataclass
class Workload:
    """A prepared workload: its playouts (``main``, maybe ``with_events``) and fixed facts."""

    parts: dict[str, Playout]
    split: bool = True
    """Whether plays and passes are told apart (``False``: every action counts as a play)."""
    facts: dict[str, Any] = field(default_factory=dict)
    hands_alias: bool = False
    """Also report ``games_per_s`` as ``hands_per_s`` (Super Dominoes: a game is many hands)."""


@dataclass
class Tally:
    """What the timed slices of one playout measured, summed."""

    games: int = 0
    seconds: float = 0.0
    plays: int = 0
    passes: int = 0
    plays_sq: int = 0
    passes_sq: int = 0

    def _sem(self, total: int, total_sq: int) -> float | None:
        n = self.games
        if n < 2:
            return None
        var = max(0.0, (total_sq - total * total / n) / (n - 1))
        return round(math.sqrt(var / n), 4)

    def report(self, *, split: bool) -> dict[str, Any]:
        """The JSON figures; ``split=False`` reports actions only (no plays/passes split)."""
        n = self.games
        actions = self.plays + self.passes
        out: dict[str, Any] = {
            "games": n,
            "seconds": round(self.seconds, 3),
            "games_per_s": round(n / self.seconds, 1),
            "actions_per_s": round(actions / self.seconds, 1),
            "mean_actions": round(actions / n, 4),
        }
        if split:
            out["mean_plays"] = round(self.plays / n, 4)
            out["mean_passes"] = round(self.passes / n, 4)
            out["sem_plays"] = self._sem(self.plays, self.plays_sq)
            out["sem_passes"] = self._sem(self.passes, self.passes_sq)
        return out


def timed(playout: Playout, seconds: float, tally: Tally) -> None:
    """Play ``playout`` hands for ``seconds`` of wall time and add them to ``tally``."""
    clock = time.perf_counter
    games = plays = passes = plays_sq = passes_sq = 0
    start = clock()
    deadline = start + seconds
    while True:
        p, q = playout()
        games += 1
        plays += p
        passes += q
        plays_sq += p * p
        passes_sq += q * q
        now = clock()
        if now >= deadline:
            break
    tally.games += games
    tally.seconds += now - start
    tally.plays += plays
    tally.passes += passes
    tally.plays_sq += plays_sq
    tally.passes_sq += passes_sq


def _build() -> str:
    """Which bonepile is measured: the mypyc-compiled core or pure Python."""
    try:
        import bonepile
    except ImportError:
        return "not importable"
    return "compiled (mypyc)" if bonepile.COMPILED else "pure Python"


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


# --------------------------------------------------------------------------- anchors
def openspiel_block_2p(seed: int) -> Workload:
    """OpenSpiel ``python_block_dominoes``: 2 players, the deal through 14 chance nodes.

    The game's action encoding has no pass: every action is a placement written
    ``p{player} tile:(a, b) pip:{edge}`` (``pip:None`` for the lead), and when the opponent cannot
    play, ``_apply_action`` gives the turn back to the mover. So a pass is counted each time the
    same seat moves twice in a row (the game ends, without a pass, when neither seat can play).
    """
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)
    except ImportError as exc:
        raise AnchorMissing from exc

    game = pyspiel.load_game("python_block_dominoes")
    encoding = _openspiel_encoding(game)
    choice = picker(random.Random(seed))
    chance = int(pyspiel.PlayerId.CHANCE)
    terminal = int(pyspiel.PlayerId.TERMINAL)
    new_state = game.new_initial_state

    def playout() -> tuple[int, int]:
        state = new_state()
        plays = passes = 0
        last = -1
        while True:
            player = state.current_player()
            if player == chance:
                state.apply_action(choice(state.chance_outcomes())[0])
            elif player == terminal:
                return plays, passes
            else:
                if player == last:
                    passes += 1
                state.apply_action(choice(state.legal_actions()))
                plays += 1
                last = player

    facts = {"package": f"open-spiel {_version('open-spiel')}", "encoding": encoding}
    return Workload({"main": playout}, facts=facts)


def _openspiel_encoding(game: Any) -> str:
    """Check, from the action strings, that every player action is a placement."""
    import pyspiel

    state = game.new_initial_state()
    while state.current_player() == int(pyspiel.PlayerId.CHANCE):
        state.apply_action(state.chance_outcomes()[0][0])
    names = [state.action_to_string(0, a) for a in range(game.num_distinct_actions())]
    odd = [s for s in names if " tile:" not in s or " pip:" not in s]
    if odd:
        raise RuntimeError(f"unexpected OpenSpiel actions (a pass?): {odd[:5]}")
    return (
        f"{len(names)} actions, all placements ('{names[0]}' ... '{names[-1]}'); "
        "passes are implicit: the same seat moving twice in a row"
    )


def dominoes_block_4p(seed: int) -> Workload:
    """The ``dominoes`` package: 4 players, seat 0 leads any tile, block (no drawing).

    ``Game.make_move`` skips players with no valid move itself and records each skip as a
    ``None`` entry of ``game.moves``; those are counted as passes after the hand.
    ``Game.new`` deals with the module-level ``random.shuffle``, so the global generator is
    seeded; the moves are chosen with a ``random.Random``.
    """
    try:
        import dominoes
    except ImportError as exc:
        raise AnchorMissing from exc

    random.seed(seed)
    choice = picker(random.Random(seed))
    new_game = dominoes.Game.new

    def playout() -> tuple[int, int]:
        game = new_game()
        while game.result is None:
            game.make_move(*choice(game.valid_moves))
        moves = game.moves
        passes = moves.count(None)
        return len(moves) - passes, passes

    return Workload({"main": playout}, facts={"package": f"dominoes {_version('dominoes')}"})


# --------------------------------------------------------------------------- bonepile
def _block_playout(
    players: int, seed: int, *, events: bool = False, playout_api: bool = False
) -> Playout:
    """A bonepile ``block`` random playout through ``apply`` (``step`` if ``events``, or the
    engine's own ``State.playout`` if ``playout_api``)."""
    from bonepile.actions import Attach, Lead, Pass
    from bonepile.games import get_game

    game = get_game("block")
    opts = game.make_options(BLOCK_OPTIONS)  # built once, as OpenSpiel's load_game is
    rng = random.Random(seed)
    choice = picker(rng)
    new = game.new

    if playout_api:

        def playout() -> tuple[int, int]:
            # Only the rates are reported for this part, so the actions are counted by the
            # final state's ply (plays and passes together), not by listing its moves.
            return new(players, options=opts, rng=rng).playout(rng).ply, 0

    elif events:

        def playout() -> tuple[int, int]:
            s = new(players, options=opts, rng=rng)
            plays = passes = 0
            while not s.is_over:
                a = choice(s.legal_actions())
                t = type(a)
                if t is Pass:
                    passes += 1
                elif t is Attach or t is Lead:
                    plays += 1
                s, _ = s.step(a)
            return plays, passes

    else:

        def playout() -> tuple[int, int]:
            s = new(players, options=opts, rng=rng)
            plays = passes = 0
            while not s.is_over:
                a = choice(s.legal_actions())
                t = type(a)
                if t is Pass:
                    passes += 1
                elif t is Attach or t is Lead:
                    plays += 1
                s = s.apply(a)
            return plays, passes

    return playout


def bonepile_block_2p(seed: int) -> Workload:
    """bonepile ``block``, 2 players, seat 0 leads any tile; also timed through ``step``."""
    parts = {
        "main": _block_playout(2, seed),
        "playout": _block_playout(2, seed, playout_api=True),
        "with_events": _block_playout(2, seed, events=True),
    }
    return Workload(parts, facts={"options": BLOCK_OPTIONS})


def bonepile_block_4p(seed: int) -> Workload:
    """bonepile ``block``, 4 players (no teams), seat 0 leads any tile."""
    parts = {
        "main": _block_playout(4, seed),
        "playout": _block_playout(4, seed, playout_api=True),
    }
    return Workload(parts, facts={"options": BLOCK_OPTIONS})


def _hands_of(name: str, title: str, players: int) -> Callable[[int], Workload]:
    """Hands of ``name`` with default options, through ``apply`` and ``State.playout``."""

    def setup(seed: int) -> Workload:
        from bonepile.games import get_game

        game = get_game(name)
        opts = game.make_options(None)
        rng = random.Random(seed)
        choice = picker(rng)
        new = game.new

        def stepped() -> tuple[int, int]:
            s = new(players, options=opts, rng=rng)
            n = 0
            while not s.is_over:
                s = s.apply(choice(s.legal_actions()))
                n += 1
            return n, 0

        def played_out() -> tuple[int, int]:
            return len(new(players, options=opts, rng=rng).playout(rng).moves), 0

        return Workload(
            {"main": stepped, "playout": played_out},
            split=False,
            facts={"options": "defaults"},
            hands_alias=True,
        )

    setup.__doc__ = f"bonepile {title}, {players} players, default options."
    return setup


def bonepile_ddd_placements(seed: int) -> Workload:
    """Legal placement generation on crowded Double Double Dominoes boards (35+ tiles down).

    A "game" here is one generation of the legal actions of a stored position, and its
    "actions" are the placements generated: ``games_per_s`` is generations per second and
    ``actions_per_s`` placements per second (also reported under those names).
    """
    from bonepile.games import get_game

    game = get_game("double_double")
    rng = random.Random(seed)
    choice = picker(rng)
    crowded = []
    k = 0
    while len(crowded) < 200:
        s = game.new(2, seed=seed * 1000 + k)
        k += 1
        while not s.is_over:
            if len(s.layout.placements) >= 35 and s.chain is None and s.legal_actions():
                crowded.append(s)
            s = s.apply(choice(s.legal_actions()))
    i = [0]

    def generate() -> tuple[int, int]:
        s = crowded[i[0] % len(crowded)]
        i[0] += 1
        return len(s._compute_legal()), 0  # the generator itself, not the per-state cache

    mean = sum(len(s.legal_actions()) for s in crowded) / len(crowded)
    return Workload(
        {"main": generate},
        split=False,
        facts={"positions": len(crowded), "mean_placements": round(mean, 2)},
    )


WORKLOADS: dict[str, Callable[[int], Workload]] = {
    "openspiel_block_2p": openspiel_block_2p,
    "dominoes_block_4p": dominoes_block_4p,
    "bonepile_block_2p": bonepile_block_2p,
    "bonepile_block_4p": bonepile_block_4p,
    "bonepile_sd_2p": _hands_of("super_dominoes", "Super Dominoes", 2),
    "bonepile_sd_4p": _hands_of("super_dominoes", "Super Dominoes", 4),
    "bonepile_sd_6p": _hands_of("super_dominoes", "Super Dominoes", 6),
    "bonepile_doubles_2p": _hands_of("doubles", "Doubles", 2),
    "bonepile_doubles_4p": _hands_of("doubles", "Doubles", 4),
    "bonepile_ddd_2p": _hands_of("double_double", "Double Double Dominoes", 2),
    "bonepile_ddd_4p": _hands_of("double_double", "Double Double Dominoes", 4),
    "bonepile_ddd_placements": bonepile_ddd_placements,
}


# --------------------------------------------------------------------------- summary
def targets(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The games/s ratio of bonepile to each anchor, the absolute rates of the games no anchor
    plays, and whether each target is met (``reported`` where there is none)."""
    out: dict[str, Any] = {}
    import bonepile

    for name, (ours, key, theirs, minima) in TARGETS.items():
        minimum = None if minima is None else minima[1] if bonepile.COMPILED else minima[0]
        a, b = results.get(ours, {}), results.get(theirs, {})
        entry: dict[str, Any] = {
            "ratio": None,
            "target": "none (reported)" if minimum is None else f">= {minimum:g}",
            "bonepile": key,
        }
        if key in a and "games_per_s" in b and b["games_per_s"] > 0:
            ratio = a[key] / b["games_per_s"]
            entry["ratio"] = round(ratio, 2)
            if minimum is None:
                entry["status"] = "reported"
            else:
                entry["status"] = "met" if ratio >= minimum else "not met"
        else:
            entry["status"] = "not measured"
            entry["missing"] = [
                w for w, r, k in ((ours, a, key), (theirs, b, "games_per_s")) if k not in r
            ]
        out[name] = entry
    anchor = results.get("openspiel_block_2p", {}).get("games_per_s")
    for name, (ours, key, minimum) in ABSOLUTE_TARGETS.items():
        rate = results.get(ours, {}).get(key)
        if rate is None:
            continue
        entry = {"actions_per_s": rate, "bonepile": key}
        if bonepile.COMPILED:
            entry["target"] = f">= {minimum:,}"
            entry["status"] = "met" if rate >= minimum else "not met"
        else:
            entry["target"] = f">= {minimum:,} on the compiled build"
            entry["status"] = "reported"
        if anchor:
            entry["actions_per_openspiel_hand"] = round(rate / anchor, 1)
            entry["openspiel_block_2p_games_per_s"] = anchor
        out[name] = entry
    return out


def rules_check(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Compare bonepile's mean plays and passes per hand with the anchor's (z-scores)."""
    out: dict[str, Any] = {}
    for name, (ours, theirs) in RULES_CHECK.items():
        a = results.get(ours, {})
        if "mean_plays" not in a:
            continue
        b = results.get(theirs, {})
        entry: dict[str, Any] = {"against": theirs}
        if "mean_plays" not in b:
            entry["against"] = f"{theirs} reference values (anchor not measured)"
        agree = True
        for mean_field in ("mean_plays", "mean_passes"):
            sem_field = "sem_" + mean_field.removeprefix("mean_")
            if mean_field in b:
                anchor_mean, anchor_sem = b[mean_field], b[sem_field] or 0.0
            else:
                anchor_mean, anchor_sem = REFERENCE[theirs][mean_field]
            diff = a[mean_field] - anchor_mean
            sem = math.hypot(a[sem_field] or 0.0, anchor_sem)
            z = diff / sem if sem > 0 else None
            agree = agree and (abs(z) <= Z_LIMIT if z is not None else diff == 0)
            entry[mean_field] = {
                "bonepile": a[mean_field],
                "anchor": anchor_mean,
                "diff": round(diff, 4),
                "z": None if z is None else round(z, 2),
            }
        entry["agree"] = agree
        out[name] = entry
    return out


def run(names: list[str], seconds: float, seed: int, rounds: int) -> tuple[dict[str, Any], bool]:
    """Run the named workloads; return the JSON report and whether bonepile itself failed."""
    results: dict[str, dict[str, Any]] = {}
    ready: dict[str, Workload] = {}

    def fail(name: str, exc: Exception) -> None:
        if isinstance(exc, AnchorMissing):
            results[name] = {"error": NOT_INSTALLED}
        else:
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
        ready.pop(name, None)

    for name in names:
        results[name] = {}
        try:
            w = ready[name] = WORKLOADS[name](seed)
            for playout in w.parts.values():
                for _ in range(WARMUP_GAMES):
                    playout()
        except Exception as exc:  # report, never crash
            fail(name, exc)

    tallies = {(name, part): Tally() for name, w in ready.items() for part in w.parts}
    for _ in range(rounds):
        for name, w in list(ready.items()):
            try:
                for part, playout in w.parts.items():
                    timed(playout, seconds / rounds, tallies[name, part])
            except Exception as exc:  # report, never crash
                fail(name, exc)

    for name, w in ready.items():
        out = tallies[name, "main"].report(split=w.split)
        if "with_events" in w.parts:
            ev = tallies[name, "with_events"].report(split=w.split)
            out["games_per_s_with_events"] = ev["games_per_s"]
            out["actions_per_s_with_events"] = ev["actions_per_s"]
        if "playout" in w.parts:
            po = tallies[name, "playout"].report(split=w.split)
            out["games_per_s_playout"] = po["games_per_s"]
            out["actions_per_s_playout"] = po["actions_per_s"]
        if name == "bonepile_ddd_placements":
            out["generations_per_s"] = out["games_per_s"]
            out["placements_per_s"] = out["actions_per_s"]
        if w.hands_alias:
            out["hands_per_s"] = out["games_per_s"]
            if "playout" in w.parts:
                out["hands_per_s_playout"] = out["games_per_s_playout"]
        out.update(w.facts)
        results[name] = out

    report = {
        "benchmark": "random playouts, fresh deal to end of hand, one process",
        "config": {
            "seed": seed,
            "seconds_per_workload": seconds,
            "rounds": rounds,
            "warmup_games": WARMUP_GAMES,
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "versions": {d: _version(d) for d in ("bonepile", "open-spiel", "dominoes")},
            "bonepile_build": _build(),
        },
        "workloads": results,
        "targets": targets(results),
        "rules_check": rules_check(results),
    }
    failed = any(n.startswith("bonepile") and "error" in r for n, r in results.items())
    return report, failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time per workload")
    parser.add_argument("--seed", type=int, default=1, help="seed of every workload's RNG")
    parser.add_argument(
        "--rounds",
        type=int,
        default=6,
        help="slices each workload's time is cut into, played round-robin (1: one after another)",
    )
    parser.add_argument(
        "--only",
        default="",
        help=f"comma-separated workloads to run (default: all): {', '.join(WORKLOADS)}",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    names = list(dict.fromkeys(n.strip() for n in args.only.split(",") if n.strip()))
    names = names or list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        parser.error(
            f"unknown workload(s) {', '.join(unknown)}; choose from {', '.join(WORKLOADS)}"
        )
    report, failed = run(names, args.seconds, args.seed, args.rounds)
    print(json.dumps(report, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
