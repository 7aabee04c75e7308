"""The strength ladder: each game's ladder is what was measured, docs/strength.md shows the measured
rows, and the code still plays the games those rows were measured on.

The rows are ``benchmarks/results/ladder.json``, written by ``benchmarks/strength.py`` (``make
strength``). Each row keeps a check: the same run (game, agents, seed) at a few deals, with the
hands won and the points. The games of a seeded run are the same on every build, so a change to
a bot or to the rules that changes its play changes the check, and this test asks for the row to
be measured again before docs/strength.md may quote it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from bonepile.games import all_games, get_game
from bonepile.server.tables.catalogue import catalogue, default_bot

pytestmark = [pytest.mark.engine, pytest.mark.strength]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
strength: Any = pytest.importorskip("strength")

PAGE = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
ROWS: list[dict[str, Any]] = strength.load()


def test_the_readme_shows_the_saved_ladder() -> None:
    table = strength.ladder_markdown(ROWS)
    assert table in PAGE, "run `python benchmarks/strength.py --table` and paste it in"


@pytest.mark.parametrize("game", strength.GAMES)
def test_each_rung_of_a_ladder_was_measured_to_beat_the_one_below(game: str) -> None:
    """Every pair of neighbouring rungs has its row, of 400 deals or more at the seed of the
    others, with the higher rung's share of the hands above even (its whole 95% interval)."""
    rungs = get_game(game).hints.ladder
    assert rungs[:3] == ("random", "casual", "greedy"), rungs
    rows = {(r["first"], r["second"]): r for r in ROWS if r["game"] == game}
    seeds = {r["seed"] for r in ROWS}
    assert len(seeds) == 1, seeds
    for first, second in strength.pairs(game):
        row = rows.get((first, second))
        assert row is not None, f"{game}: {first} vs {second} was not measured"
        assert row["deals"] >= 400 and row["players"] == get_game(game).default_players, row
        assert row["verdict"] == "better" and row["ci95"][0] > 0.5, row


@pytest.mark.parametrize(
    "row", ROWS, ids=[f"{r['game']}-{r['first']}-vs-{r['second']}" for r in ROWS]
)
def test_a_saved_row_still_comes_out_of_the_code(row: dict[str, Any]) -> None:
    want = row["check"]
    got = strength.check(row["game"], row["first"], row["second"], row["seed"], want["deals"])
    on = (row["first"], row["second"]) in strength.pairs(row["game"])
    again = f"--rungs {row['first']}" if on else "--climb"
    assert got == want, (
        f"{row['command']} no longer plays the games it was measured on: measure it again "
        f"(python benchmarks/strength.py --parts ladder --only {row['game']} {again})"
    )


def test_one_rung_can_be_measured_again_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rungs`` runs only the rows of the rungs named, and a name that is no rung above
    another is one clear error."""
    ran: list[tuple[str, str, str]] = []

    def row(game: str, first: str, second: str, *_: Any) -> dict[str, Any]:
        ran.append((game, first, second))
        return {"game": game, "first": first, "second": second, "win_share": 0.5}

    monkeypatch.setattr(strength, "ladder_row", row)
    top = get_game("block").hints.ladder[-1]
    strength.main(["--parts", "ladder", "--only", "block", "--rungs", top, "--no-save"])
    assert ran == [("block", top, get_game("block").hints.ladder[-2])]
    with pytest.raises(SystemExit):
        strength.main(["--parts", "ladder", "--only", "block", "--rungs", "random", "--no-save"])
    with pytest.raises(SystemExit):
        strength.main(["--only", "block", "--rungs", top, "--climb", "--no-save"])
    assert len(ran) == 1


def test_the_browser_offers_each_game_s_ladder_strongest_first() -> None:
    for entry in catalogue():
        if entry["name"] not in strength.GAMES:
            continue  # a game another test registered for a while
        game = get_game(entry["name"])
        ladder = game.hints.ladder
        bots = entry["bots"]
        assert [b["spec"] for b in bots] == list(reversed(ladder))
        assert [b["level"] for b in bots] == list(range(len(ladder), 0, -1))
        assert all(f"level {b['level']} of {len(ladder)}" in b["label"] for b in bots)
        assert entry["default_bot"] == default_bot(game) and entry["default_bot"] in ladder


def test_the_ladder_covers_every_shipped_game() -> None:
    shipped = {g.name for g in all_games() if type(g).__module__.startswith("bonepile.games.")}
    assert shipped == set(strength.GAMES)
